# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""How the nodes' inputs are delivered and their timers run: QoS profiles, the steady clock."""

from rclpy.clock import Clock, ClockType
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

# robot_state_publisher publishes the URDF once, reliable and transient-local ("latched").
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
# A plain reliable subscription: matches volatile and transient-local publishers alike.
VOLATILE = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)


# Wall time for timers that must run whatever the node's clock does: with use_sim_time a timer on
# the node's clock stops when /clock stops, and a diagnostics timer on it would fall silent just
# when the graph needs to hear that the inputs stopped.
STEADY = Clock(clock_type=ClockType.STEADY_TIME)
