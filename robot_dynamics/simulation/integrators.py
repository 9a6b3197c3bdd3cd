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
"""Time integration of the forward dynamics (Craig §6.12, seed 002 §7).

The state is ``(q, qd)``; the commanded torque is held constant over a step (zero-order hold,
as a digital controller applies it). Integrators:

- ``'euler'``: explicit Euler as in Craig 6.117 (``q += qd dt + ½ qdd dt²``, ``qd += qdd dt``);
- ``'semi_implicit_euler'``: symplectic Euler (``qd += qdd dt`` then ``q += qd dt``);
- ``'rk4'``: classical four-point Runge-Kutta of seed 002 §7.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.api import forward_dynamics, forward_dynamics_batch, total_energy
from robot_dynamics.model.arguments import batch_arguments
from robot_dynamics.simulation.schemes import INTEGRATORS, SimulationError  # noqa: F401


def step(model, q, qd, tau, dt, integrator='rk4', f_tip=None, solver=None):
    """Advance ``(q, qd)`` by ``dt`` seconds under constant ``tau``; returns ``q, qd, qdd``.

    ``qdd`` is the acceleration at the start of the step. Raises :class:`SimulationError`
    when the new state is not finite.
    """
    if integrator not in INTEGRATORS:
        raise ValueError(f'integrator: unknown {integrator!r}; use one of {sorted(INTEGRATORS)}')
    if not (np.isfinite(dt) and dt > 0):
        raise ValueError(f'dt: must be a positive number of seconds, got {dt}')
    a, _ = batch_arguments(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    tau_, f_tip_ = a['tau'], a['f_tip']

    def accel(q_, qd_):
        if not (np.all(np.isfinite(q_)) and np.all(np.isfinite(qd_))):
            raise SimulationError('state became NaN/inf within the step: dt is too large for '
                                  'these torques, or the torques are unbounded')
        return forward_dynamics_batch(model, q_, qd_, tau_, f_tip_, solver)

    with np.errstate(over='ignore', invalid='ignore'):
        q_next, qd_next, qdd = INTEGRATORS[integrator](accel, a['q'], a['qd'], dt)
    if not (np.all(np.isfinite(q_next)) and np.all(np.isfinite(qd_next))):
        raise SimulationError('state became NaN/inf: dt is too large for these torques, or '
                              'the torques are unbounded')
    shape = np.shape(q)
    return q_next.reshape(shape), qd_next.reshape(shape), qdd.reshape(shape)


def apply_position_limits(model, q, qd):
    """Hard stops: clamp ``q`` (n,) to the joint limits and stop motion into a limit."""
    q_clamped = np.clip(q, model.lower_limit, model.upper_limit)
    into_stop = ((q <= model.lower_limit) & (qd < 0)) | ((q >= model.upper_limit) & (qd > 0))
    return q_clamped, np.where(into_stop, 0.0, qd)


@dataclass(frozen=True)
class Trajectory:
    """A simulated trajectory.

    ``t`` (T,) times; ``q``, ``qd``, ``qdd``, ``tau`` (T, n) positions, velocities,
    accelerations and applied torques; ``energy`` (T,) the total mechanical energy.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    energy: np.ndarray


def simulate(model, q0, qd0, torque, duration, dt=1e-3, integrator='rk4', solver=None,
             energy_limit=None):
    """Integrate the forward dynamics from ``(q0, qd0)`` for ``duration`` seconds.

    ``torque`` is an array (n,) held constant, or a function ``torque(t, q, qd) -> (n,)``
    evaluated at the start of each step. ``energy_limit`` (J), if given, stops the run with
    :class:`SimulationError` when the total energy exceeds it (runaway detection).
    """
    steps = int(round(duration / dt))
    q, qd = np.array(q0, dtype=float), np.array(qd0, dtype=float)
    batch_arguments(model, q0=q, qd0=qd)
    constant = None if callable(torque) else np.asarray(torque, dtype=float)
    torque_fn = torque if callable(torque) else (lambda t, q, qd: constant)
    n = model.dof
    out = {name: np.zeros((steps + 1, n)) for name in ('q', 'qd', 'qdd', 'tau')}
    for k in range(steps + 1):
        t = k * dt
        tau = np.asarray(torque_fn(t, q, qd), dtype=float)
        out['q'][k], out['qd'][k], out['tau'][k] = q, qd, tau
        if k == steps:
            out['qdd'][k] = forward_dynamics(model, q, qd, tau, solver=solver)
            break
        q, qd, out['qdd'][k] = step(model, q, qd, tau, dt, integrator, solver=solver)
        if energy_limit is not None and total_energy(model, q, qd) > energy_limit:
            raise SimulationError(f'total energy exceeded {energy_limit} J at t = {t + dt:.4f} s:'
                                  ' the simulation is running away')
    energy = total_energy(model, out['q'], out['qd'])
    return Trajectory(t=np.arange(steps + 1) * dt, energy=energy, **out)
