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
"""Bounds on what a controller sends to the actuators (issue 22.5; docs/robustness.md).

A command is refused (nothing published) when it is not finite or beyond
:data:`~robot_dynamics.model.bounds.MAX_OUTPUT`, or when the mass matrix it was built from is
not symmetric positive definite (a negative-definite M turns PD feedback into positive
feedback). A finite, plausible command above a joint's URDF effort limit is saturated there,
and the controller says so on /diagnostics. No rclpy here.
"""

import time
from collections import Counter, deque

import numpy as np

from robot_dynamics.model import bounds
from robot_dynamics.errors import BadInput

SYMMETRY_TOLERANCE = 1e-9      # relative to the largest entry


def check_vector(name, values):
    """Return ``values`` if finite with every entry within MAX_OUTPUT; raise BadInput."""
    values = np.asarray(values, dtype=float)
    bad = np.flatnonzero(~(np.abs(values) <= bounds.MAX_OUTPUT))
    if bad.size:
        raise BadInput(f'{name}[{bad[0]}] = {values.flat[bad[0]]:.3g} is not finite or beyond '
                       f'{bounds.MAX_OUTPUT:.0e}; refused')
    return values


def check_mass_matrix(M):
    """Return ``M`` if symmetric positive definite (a Cholesky factor exists); raise BadInput."""
    M = check_vector('mass_matrix', M)
    scale = max(float(np.abs(M).max()), 1e-300)
    if np.abs(M - M.T).max() > SYMMETRY_TOLERANCE * scale:
        raise BadInput('mass_matrix is not symmetric; refused (check the row-major layout)')
    try:
        np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise BadInput('mass_matrix is not positive definite (eigenvalues '
                       f'{np.round(np.linalg.eigvalsh(0.5 * (M + M.T)), 6).tolist()}); '
                       'refused: it would turn the feedback positive') from None
    return M


class Saturation:
    """Clip commands at the effort limits and count, per joint, how often that happened.

    ``count`` is the total of the node's life; :meth:`recent` the count of the last seconds,
    for a WARN that clears when the saturation stops (it was sticky for the node's life).
    """

    def __init__(self, joint_names, effort_limit, memory=10000):
        self.joint_names = list(joint_names)
        self.limit = np.where(np.isfinite(effort_limit), effort_limit, np.inf)
        self.count = Counter()
        self.last = ''
        self._times = deque(maxlen=memory)      # (monotonic time, joint) of recent clips

    def apply(self, tau, now=None):
        """Return ``tau`` checked (:func:`check_vector`) and clipped to ``±limit``."""
        tau = check_vector('effort command', tau)
        over = np.abs(tau) > self.limit
        if not np.any(over):
            return tau
        j = int(np.flatnonzero(over)[0])
        names = [self.joint_names[i] for i in np.flatnonzero(over)]
        self.count.update(names)
        now = time.monotonic() if now is None else now
        self._times.extend((now, name) for name in names)
        self.last = (f'effort command of joint {self.joint_names[j]} saturated: '
                     f'{tau[j]:.4g} clipped to the URDF limit {self.limit[j]:.4g}')
        return np.clip(tau, -self.limit, self.limit)

    def summary(self):
        """Return ``{joint: count}`` of the saturated commands so far (for /diagnostics)."""
        return dict(self.count)

    def recent(self, window, now=None):
        """Return ``{joint: count}`` of the commands saturated in the last ``window`` s."""
        now = time.monotonic() if now is None else now
        while self._times and now - self._times[0][0] > window:
            self._times.popleft()
        return dict(Counter(name for _, name in self._times))
