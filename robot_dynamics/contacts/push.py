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
"""A push on a simulated arm: an external wrench at a link, acting while it is fresh.

:class:`WrenchPush` is what the simulation node's ``~/external_wrench`` holds (docs/contacts.md):
a wrench by the environment **on** a link of the model (or its tool link), in that link's axes
about its origin (:mod:`robot_dynamics.contacts.wrench`). It acts from its start while it is
fresh: until ``timeout`` after it, or until a zero wrench; a newer one replaces it. A wrench
naming no link of the model, or holding NaN or inf, is refused with the reason. Arrays and
seconds: no ROS here.
"""

import numpy as np

from robot_dynamics.contacts.wrench import link_wrench_torques


class WrenchPush:
    """The external wrench acting on a simulated arm, if any (module docstring)."""

    def __init__(self):
        self.link, self.wrench, self.start = None, None, None
        self.received = 0

    def take(self, model, link, wrench, start):
        """Act with ``wrench`` (6,) on ``link`` from time ``start``, s; return why not, or ''.

        A zero wrench ends the push.
        """
        wrench = np.asarray(wrench, dtype=float)
        if link not in model.link_names and link != model.tip_link:
            return (f'external_wrench dropped: frame_id {link[:80]!r} is not a link of '
                    f'{model.name!r}; use one of {list(model.link_names)} or the tool '
                    f'{model.tip_link!r}')
        if not np.all(np.isfinite(wrench)):
            return 'external_wrench dropped: force or torque holds NaN or inf'
        self.received += 1
        self.link, self.wrench, self.start = (link, wrench, start) if np.any(wrench) else \
            (None, None, None)
        return ''

    def torques(self, model, q, t, timeout):
        """Return the push at time ``t`` s as joint torques, shape (n,), or None (stale)."""
        if self.wrench is None or t < self.start:
            return None
        if t > self.start + timeout:
            self.link = self.wrench = None
            return None
        return link_wrench_torques(model, q, self.link, self.wrench, frame='link')

    def values(self):
        """Return the /diagnostics key-values."""
        acting = 'none' if self.wrench is None else \
            f'{self.link}: ' + ', '.join(f'{x:.3g}' for x in self.wrench)
        return {'external_wrench': acting, 'external_wrenches_received': str(self.received)}
