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
"""Model changes from the ``robot_description`` topic, polled on the node's executor.

The policy (parsed in a worker thread, rate-limited, the latest text wins) is
:class:`robot_dynamics.control.description_updates.RateLimitedLoader`; a steady timer hands
its results to the node (a timer on the node's clock would stop with ``/clock``).
"""

from robot_dynamics.control.description_updates import DESCRIPTION_INTERVAL, RateLimitedLoader
from robot_dynamics.nodes.qos import STEADY


class DescriptionUpdates(RateLimitedLoader):
    """A :class:`RateLimitedLoader` polled by a steady timer of ``node``."""

    def __init__(self, node, load, apply, current, interval=DESCRIPTION_INTERVAL):
        super().__init__(load, apply, current, interval)
        node.create_timer(self.poll_period, self.poll, clock=STEADY)
