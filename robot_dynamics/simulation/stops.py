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
"""Joint position limits as hard stops: perfectly inelastic impacts by joint impulses.

:func:`stop_step` applies the stops to a step ``(q, qd) -> (q_next, qd_next)`` of any scheme
(used by ``rd.step``/``rd.simulate`` with ``position_limits=True`` and the simulation node);
:func:`apply_position_limits` to a single state (clamp and impact). This module is the
reference the engine's ``engine/src/stops.c`` follows line by line; :func:`stop_step` runs the
engine's (``rd_stop_step``, the one the engine's step and run apply) unless a ``solver`` is
named or the engine is unavailable, as every public function does.
"""

import numpy as np

from robot_dynamics import engine
from robot_dynamics.api import mass_matrix
from robot_dynamics.engine import ENGINE as _engine


def stop_step(model, q, q_next, qd_next, dt, solver=None):
    """Apply the hard stops to the step from ``q`` (n,) to ``(q_next, qd_next)``.

    ``q`` lies within the limits (the state at the start of the step); the arrays are checked
    finite (n,) states. ``solver=None``: the engine's ``rd_stop_step``; a solver name: this
    numpy reference with that solver's ``M`` (equal to ~1e-12, ``test_stops_engine.py``).

    Returns ``(q⁺, qd⁺)``, within the limits: no penetration is left at the end of a step.
    Where ``q_next`` leaves the limits, the step's velocity is corrected by the impulses of the
    stops (:func:`_impact_set` at ``M(q)``) so that every joint that would pass a stop lands on
    it, ``q_j + dt v_j = limit_j``, and every other joint moves consistently with that
    velocity: ``q⁺ = q + dt v`` (the semi-implicit position update, whatever the scheme, in a
    step where a stop acts). A joint resting on its stop keeps ``v_j = 0`` and stays exactly
    on it. The joints that landed then stop dead (:func:`apply_position_limits`: the
    M-orthogonal projection, which never adds kinetic energy).

    Clamping ``q_next`` instead (and keeping the other joints' free displacement) raises the
    potential energy of an arm resting on a stop under gravity at every step (measured: up to
    0.01 J per step on a 7-joint arm at dt = 10 ms): the stop then does work.
    """
    lower, upper = model.lower_limit, model.upper_limit
    if solver is None and _engine is not None:
        q_stop, qd_stop, status = _engine.stop_step(model, q, q_next, qd_next, float(dt),
                                                    lower, upper)
        if status != engine.OK:
            raise np.linalg.LinAlgError('mass matrix is not positive definite at the stops: a '
                                        'link with zero mass and inertia on a moving joint?')
        return q_stop, qd_stop
    locked = lower == upper                    # at both stops: held still
    at_lower = (q_next < lower) | locked
    at_upper = (q_next > upper) | locked
    if not np.any(at_lower | at_upper):
        return q_next, qd_next
    target = np.where(at_lower, (lower - q) / dt, np.where(at_upper, (upper - q) / dt, 0.0))
    v = _impact_set(mass_matrix(model, q, solver=solver), np.asarray(qd_next, dtype=float),
                    at_lower, at_upper, target)[0]
    q_stop = np.clip(q + dt * v, lower, upper)          # landed joints: exactly on the stop
    return apply_position_limits(model, q_stop, v, solver)


def apply_position_limits(model, q, qd, solver=None):
    """Hard stops: clamp ``q`` (n,) to the joint limits; a perfectly inelastic impact at a stop.

    Returns ``(q, qd)``: ``q`` clipped to ``[lower_limit, upper_limit]`` and the velocity after
    the impact. The stops act by impulses ``p`` along the joints at a stop alone (``M Δqd = p``,
    ``M`` at the clamped ``q``), and the velocity after them solves the impact's linear
    complementarity problem: a joint at its lower stop ends with ``qd⁺ >= 0`` under a push
    ``p >= 0`` and ``p qd⁺ = 0`` (at the upper stop the signs turn), every other joint gets no
    impulse. A stop pushes and never pulls: a joint that the others' impact carries away from
    its stop leaves it; a joint whose limits coincide (``lower == upper``) is at both stops and
    stays at rest (velocity 0). Solved by active sets (``_impact_set``): the set ``S`` of
    halted joints starts with those moving into a stop; a joint leaves ``S`` when its stop
    would have to pull, a joint at a stop joins when the impact drives it in, until neither
    happens.

    The impact never adds kinetic energy. For the final ``S`` the impulse is ``p = -S_ᵀ λ`` with
    ``(qd⁺)_S = 0``, so ``Δqdᵀ M qd⁺ = pᵀ qd⁺ = -λᵀ qd⁺_S = 0``: ``qd⁺`` and ``Δqd`` are
    M-orthogonal and ``qdᵀ M qd = qd⁺ᵀ M qd⁺ + Δqdᵀ M Δqd >= qd⁺ᵀ M qd⁺`` (``qd⁺`` is the
    M-orthogonal projection of ``qd`` onto the velocities that keep ``S`` still). Zeroing the
    stopped joints' velocities alone (the coupling ignored) can add kinetic energy. The clamp of
    ``q`` by the step's overshoot changes the potential energy slightly; a caller that balances
    energy (the simulation node's monitor) counts the whole change across this call as work of
    the stops.
    """
    lower, upper = model.lower_limit, model.upper_limit
    q_stop = np.clip(q, lower, upper)
    qd = np.asarray(qd, dtype=float)
    locked = lower == upper
    at_lower, at_upper = (q <= lower) | locked, (q >= upper) | locked
    if not np.any((at_lower & (qd < 0)) | (at_upper & (qd > 0))):
        return q_stop, qd
    M = mass_matrix(model, q_stop, solver=solver)
    return q_stop, _impact_set(M, qd, at_lower, at_upper)[0]


def _impact_set(M, qd, at_lower, at_upper, target=None):
    """Velocity after the impact and its impulse (``apply_position_limits``): active sets.

    ``target`` (n,): the velocity a stopped joint ends with (default 0; :func:`stop_step`
    gives the velocity that lands it on its stop within the step). A joint at both stops
    (``lower == upper``: locked) is always stopped: its two stops push either way.
    """
    target = np.zeros_like(qd) if target is None else target
    locked = at_lower & at_upper
    stopped = (at_lower & (qd < target)) | (at_upper & (qd > target)) | locked
    seen = set()
    while True:
        qd_after, impulse = _inelastic_impact(M, qd, stopped, target)
        pulls = stopped & ~locked & ((at_lower & (impulse < 0)) | (at_upper & (impulse > 0)))
        into = ~stopped & ((at_lower & (qd_after < target)) | (at_upper & (qd_after > target)))
        key = stopped.tobytes()
        if not (np.any(pulls) or np.any(into)) or key in seen:   # solved (or a cycle: keep
            return qd_after, impulse                               # this energy-safe set)
        seen.add(key)
        stopped = (stopped & ~pulls) | into


def _inelastic_impact(M, qd, stopped, target):
    """Velocity after the impulse along the ``stopped`` joints that sets them to ``target``."""
    if not np.any(stopped):
        return qd, np.zeros_like(qd)
    M_inv_S = np.linalg.solve(M, np.eye(qd.size)[:, stopped])                      # M⁻¹ S_ᵀ
    impulse = np.zeros_like(qd)
    impulse[stopped] = np.linalg.solve(M_inv_S[stopped], target[stopped] - qd[stopped])
    qd_after = qd + M_inv_S @ impulse[stopped]
    qd_after[stopped] = target[stopped]     # exactly: the solve leaves rounding residue
    return qd_after, impulse
