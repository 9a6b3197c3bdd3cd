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
"""The input rate the nodes report on /diagnostics."""

import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)

from robot_dynamics.nodes.statistics import Statistics


def test_the_rate_is_that_of_the_last_two_seconds_a_pause_forgotten():
    statistics = Statistics()
    statistics.arrivals.extend(0.005 * k for k in range(1000))           # 200 Hz for 5 s
    assert abs(statistics.rate() - 200.0) < 1e-6
    statistics.arrivals.extend(25.0 + 0.005 * k for k in range(401))     # 20 s pause, 2 s on
    assert abs(statistics.rate() - 200.0) < 1e-6                        # not 53 Hz
    statistics.arrivals.append(40.0)                                     # alone after a pause
    assert statistics.rate() == 0.0
    assert Statistics().rate() == 0.0
