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
"""A velocity-limited drive: the joint's motor gives no torque that would pass its speed limit.

A servo drive cannot turn its joint faster than its rated speed (the URDF ``<limit
velocity>``): its speed loop takes over from the torque command there. Gazebo
does the same to a joint's commanded force (``Joint::CheckAndTruncateForce``: the force in the
direction of motion is zeroed while the speed is beyond ``<limit velocity>``); this module's
drive instead cuts the torque just enough, for a step of ``dt`` held constant (zero-order hold),
so that the joint ends the step at its limit rather than overshooting by ``τ/M dt`` (on a light
wrist, 28 N m on ~1e-3 kg m² is ~30 rad/s per millisecond). docs/simulation.md compares the
choices.

The model: with the commanded torque ``τ`` (already saturated at the effort limits) the speed
at the end of the step is predicted by the explicit step ``v = q̇ + dt q̈(q, q̇, τ)``. The
joints ``S`` that would pass their limit (``|v_j| > v_max_j``: the drive's speed loop takes
over from the command, whichever way it pushes) get the torque change ``Δτ_S`` that lands
them on it, ``dt (M⁻¹)_SS Δτ_S = ±v_max_S - v_S`` (the coupling through ``M`` included), the
drive's speed loop using at most its effort limit (``τ_S + Δτ_S`` clipped to
``±effort_limit``: it brakes a joint that gravity or the others' coupling carry past).
A joint whose loop saturates keeps its effort limit and leaves ``S`` (gravity or coupling may
then carry it past), and ``S`` is solved again with the torques found, until no joint is added.
Exact for the explicit Euler schemes and for ``'implicit'`` without damping (their end speed is
the prediction, measured 1e-15 on the UR5); rk4 ends within ``O(dt²)`` of the limit, and the
implicit schemes end below it under joint damping.
"""

import numpy as np

from robot_dynamics.api import forward_dynamics, mass_matrix


def velocity_limits(model):
    """Return the joints' speed limits (n,) rad/s or m/s: ``inf`` where none is given (or 0)."""
    limit = np.asarray(model.velocity_limit, dtype=float)
    return np.where(np.isfinite(limit) & (limit > 0), limit, np.inf)


def drive_torque(model, q, qd, tau, dt, solver=None):
    """Return the torque (n,) the velocity-limited drives deliver for the command ``tau`` (n,).

    ``(q, qd)`` (n,) is the state at the start of a step of ``dt`` seconds over which the
    torque is held; ``tau`` the commanded torque (saturate it at the effort limits first).
    The joints that the explicit step would carry past their speed limit get the torque, within
    their effort limits, that ends the step on it (module docstring); the others keep ``tau``.
    """
    v = qd + dt * forward_dynamics(model, q, qd, tau, solver=solver)
    v_max = velocity_limits(model)
    if not np.any(np.abs(v) > v_max * (1 + 1e-12)):      # the common case
        return np.asarray(tau, dtype=float)
    return _speed_loop(model, q, qd, np.array(tau, dtype=float), dt, v, v_max, solver)


def _speed_loop(model, q, qd, tau, dt, v, v_max, solver):
    """:func:`drive_torque` once a joint would pass its limit: solve for the held set S."""
    effort = np.asarray(model.effort_limit, dtype=float)
    held = np.zeros(model.dof, dtype=bool)       # S: on their limit at the end of the step
    spent = np.zeros(model.dof, dtype=bool)      # at their effort limit: the loop saturated
    target = np.zeros(model.dof)
    M_inv, changed = np.linalg.inv(mass_matrix(model, q, solver=solver)), False
    for _ in range(2 * model.dof + 1):   # each pass adds a joint to S or moves one out of it
        over = ~held & ~spent & (np.abs(v) > v_max * (1 + 1e-12))
        target[over] = np.sign(v[over]) * v_max[over]
        held |= over
        if not (np.any(over) or changed and np.any(held)):
            break
        wanted = tau[held] + np.linalg.solve(dt * M_inv[np.ix_(held, held)],
                                             target[held] - v[held])
        tau[held] = np.clip(wanted, -effort[held], effort[held])
        out = np.flatnonzero(held)[np.abs(wanted) > effort[held]]
        held[out], spent[out] = False, True
        changed = out.size > 0              # S lost a joint: solve the rest again
        v = qd + dt * forward_dynamics(model, q, qd, tau, solver=solver)
    return tau


def saturated_joints(model, tau):
    """Return the indices of the joints whose torque ``tau`` (n,) is at its effort limit.

    At it to 1e-12 (a command saturated there), not beyond it: ``rd.step`` applies a torque
    beyond the limit as given, and such a torque is the caller's, not a drive's.
    """
    limit = np.asarray(model.effort_limit, dtype=float)
    at_limit = np.abs(np.abs(tau) - limit) <= 1e-12 * limit
    return np.flatnonzero(np.isfinite(limit) & (limit > 0) & at_limit)
