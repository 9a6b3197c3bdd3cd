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

A part the simulation node holds (``self.push = WrenchInput(self)``). A
``geometry_msgs/WrenchStamped`` names a link of the model in ``header.frame_id`` (a link of
``model.link_names`` or the tool link; the wrench in that link's axes, about its origin, by
the environment **on** the link: :mod:`robot_dynamics.contacts.wrench`). It acts from its
stamp (a zero stamp: from receipt) while it is fresh: until ``external_wrench_timeout`` (0.2 s)
after its stamp, or until a zero wrench; a newer message replaces it. Its joint torques
``Jᵀ w`` enter the integration and the energy balance; ``joint_states.effort`` keeps
reporting the motor torques only, as a real driver does. A message naming no link of the
model, or holding NaN or inf, is dropped with a throttled reason.
"""

import numpy as np
from geometry_msgs.msg import WrenchStamped

from robot_dynamics.contacts import link_wrench_torques
from robot_dynamics.nodes.conversions import stamp_to_seconds
from robot_dynamics.nodes.parameters import descriptor

FRESH = 0.2                  # s after its stamp a wrench acts (default)


class WrenchInput:
    """The external wrench on the simulated arm (module docstring)."""

    def __init__(self, node, guard):
        """Subscribe ``node``'s ``~/external_wrench`` (callbacks wrapped by ``guard``)."""
        self.node = node
        node.declare_parameter('external_wrench_timeout', FRESH, descriptor(
            'an ~/external_wrench acts until this long after its stamp, s (or until a zero '
            'wrench)', low=1e-3, high=3600.0))
        self.link, self.wrench, self.start = None, None, None
        self.received = 0
        node.create_subscription(WrenchStamped, '~/external_wrench', guard(self._on_wrench), 10)

    def _on_wrench(self, msg):
        node = self.node
        model = node.model
        link = msg.header.frame_id
        f, m = msg.wrench.force, msg.wrench.torque
        wrench = np.array([f.x, f.y, f.z, m.x, m.y, m.z], dtype=float)
        if link not in model.link_names and link != model.tip_link:
            return node._drop(f'external_wrench dropped: frame_id {link[:80]!r} is not a link '
                              f'of {model.name!r}; use one of {list(model.link_names)} or the '
                              f'tool {model.tip_link!r}')
        if not np.all(np.isfinite(wrench)):
            return node._drop('external_wrench dropped: force or torque holds NaN or inf')
        self.received += 1
        if not np.any(wrench):
            self.link = self.wrench = None               # a zero wrench ends the push
            return None
        stamp = stamp_to_seconds(msg.header.stamp)     # on the clock the states are stamped
        now = node.sim_time if node.pub_clock is not None else node.get_clock().now().nanoseconds \
            * 1e-9
        self.link, self.wrench = link, wrench
        self.start = node.sim_time + (stamp - now if stamp > 0 else 0.0)
        return None

    def torques(self, q, t):
        """Return the push as joint torques, shape (n,), at simulated time ``t`` (or None)."""
        if self.wrench is None or t < self.start:
            return None
        if t > self.start + self.node.get_parameter('external_wrench_timeout').value:
            self.link = self.wrench = None
            return None
        return link_wrench_torques(self.node.model, q, self.link, self.wrench, frame='link')

    def values(self):
        """Return the /diagnostics key-values."""
        acting = 'none' if self.wrench is None else \
            f'{self.link}: ' + ', '.join(f'{x:.3g}' for x in self.wrench)
        return {'external_wrench': acting, 'external_wrenches_received': str(self.received)}
