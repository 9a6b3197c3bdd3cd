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
"""The simulation node's ``~/external_wrench``: a user pushes the simulated arm.

A part the simulation node holds (``self.push = WrenchInput(self, guard)``); the message's meaning
(link, axes, stamp, freshness; docs/contacts.md, "Pushing the simulated arm") and the rules are
:class:`~robot_dynamics.contacts.push.WrenchPush`'s.
"""

from geometry_msgs.msg import WrenchStamped

from robot_dynamics.contacts.push import WrenchPush
from robot_dynamics.nodes.conversions import stamp_to_seconds
from robot_dynamics.nodes.parameters import descriptor

FRESH = 0.2                  # s after its stamp a wrench acts (default)


class WrenchInput:
    """The simulation node's ``~/external_wrench``: messages to a :class:`WrenchPush`."""

    def __init__(self, node, guard):
        """Subscribe ``node``'s ``~/external_wrench`` (callbacks wrapped by ``guard``)."""
        self.node = node
        node.declare_parameter('external_wrench_timeout', FRESH, descriptor(
            'an ~/external_wrench acts until this long after its stamp, s (or until a zero '
            'wrench)', low=1e-3, high=3600.0))
        self.acting = WrenchPush()
        node.create_subscription(WrenchStamped, '~/external_wrench', guard(self._on_wrench), 10)

    def _on_wrench(self, msg):
        node = self.node
        f, m = msg.wrench.force, msg.wrench.torque
        stamp = stamp_to_seconds(msg.header.stamp)     # on the clock the states are stamped
        now = node.sim_time if node.pub_clock is not None else node.get_clock().now().nanoseconds \
            * 1e-9
        reason = self.acting.take(node.model, msg.header.frame_id,
                                  [f.x, f.y, f.z, m.x, m.y, m.z],
                                  node.sim_time + (stamp - now if stamp > 0 else 0.0))
        if reason:
            node._drop(reason)

    def torques(self, q, t):
        """Return the push as joint torques, shape (n,), at simulated time ``t`` (or None)."""
        return self.acting.torques(self.node.model, q, t,
                                   self.node.get_parameter('external_wrench_timeout').value)

    def values(self):
        """Return the /diagnostics key-values."""
        return self.acting.values()
