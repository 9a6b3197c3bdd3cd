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

Without a ``solver`` argument a step, and a whole :func:`simulate` run whose torque is an array
or ``'gravity'``, runs inside the compiled engine (``engine/src/integrate.c``: the same
schemes, term by term, with no Python call per step); a torque callback keeps one Python call
per step, and ``solver='name'`` integrates with that formulation's numpy implementation.

The state is ``(q, qd)``; the commanded torque is held constant over a step (zero-order hold,
as a digital controller applies it). Integrators:

- ``'euler'``: explicit Euler as in Craig 6.117 (``q += qd dt + ½ qdd dt²``, ``qd += qdd dt``);
- ``'semi_implicit_euler'``: symplectic Euler (``qd += qdd dt`` then ``q += qd dt``);
- ``'rk4'``: classical four-point Runge-Kutta of seed 002 §7;
- ``'implicit'``: Euler implicit in the joint damping and friction (MuJoCo's ``implicitfast``,
  :func:`robot_dynamics.simulation.schemes._implicit`), stable for stiff damping at any ``dt``;
- ``'implicit_coriolis'``: the same, implicit in the Coriolis term too (MuJoCo's ``implicit``).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.api import (coriolis_matrix, forward_dynamics, forward_dynamics_batch,
                                gravity_torques, mass_matrix, total_energy)
from robot_dynamics import engine
from robot_dynamics.engine import ENGINE as _engine
from robot_dynamics.engine import INTEGRATOR_CODES
from robot_dynamics.model import bounds
from robot_dynamics.model.arguments import MAX_RESULT_BYTES, batch_arguments
from robot_dynamics.model.friction import friction_slopes
from robot_dynamics.simulation.schemes import (INTEGRATORS, NEEDS_DAMPED_MASS,  # noqa: F401
                                               SimulationError)
from robot_dynamics.simulation.stability import (check_start_speed, check_step_speeds,
                                                 divergence_advice, plausible_run)
from robot_dynamics.simulation.stops import apply_position_limits, stop_step  # noqa: F401


def step(model, q, qd, tau, dt, integrator='rk4', f_tip=None, solver=None,
         position_limits=False):
    """Advance ``(q, qd)`` by ``dt`` seconds under constant ``tau``; returns ``q, qd, qdd``.

    ``qdd`` is the acceleration at the start of the step. Raises :class:`SimulationError`
    when the new state is not finite or a joint speed passes ``bounds.MAX_VELOCITY`` (the
    step diverged: the check and message of :func:`simulate`), naming the cause and the fix;
    a start ``qd`` beyond it is a ``ValueError``. ``position_limits=True`` (a single state
    (n,) within the limits): the limits act as hard stops (the model of
    :func:`~robot_dynamics.simulation.stops.stop_step`, inside the engine's step there).
    """
    q_next, qd_next, qdd = _advance(model, q, qd, tau, dt, integrator, f_tip, solver,
                                    position_limits)
    check_step_speeds(model, q, qd, qd_next, dt, integrator, tau)
    return q_next, qd_next, qdd


def _advance(model, q, qd, tau, dt, integrator='rk4', f_tip=None, solver=None,
             position_limits=False):
    """:func:`step` without the speed check (:func:`simulate` checks its whole run)."""
    _check_flag('position_limits', position_limits)
    if position_limits and np.ndim(q) != 1:
        raise ValueError(f'q: position_limits=True takes a single state of shape '
                         f'({model.dof},), got shape {np.shape(q)}; step the rows one by one')
    _check_settings(integrator, dt)
    if position_limits:                     # as simulate: a start outside is refused, not moved
        batch_arguments(model, q=q, qd=qd)
        _check_within_limits(model, q, 'q')
    if solver is None and _engine is not None:
        limits = (model.lower_limit, model.upper_limit) if position_limits else ()
        q_next, qd_next, qdd, status = _engine.step(model, q, qd, tau, f_tip, float(dt),
                                                    INTEGRATOR_CODES[integrator], *limits)
        _raise_for(status, (model, q, qd, dt, integrator))
        return q_next, qd_next, qdd
    if position_limits:
        q_next, qd_next, qdd = _advance(model, q, qd, tau, dt, integrator, f_tip, solver)
        return (*stop_step(model, np.asarray(q, dtype=float), q_next, qd_next, dt, solver), qdd)
    a, _ = batch_arguments(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    tau_, f_tip_ = a['tau'], a['f_tip']

    def accel(q_, qd_):
        if not (np.all(np.isfinite(q_)) and np.all(np.isfinite(qd_))):
            _raise_for(engine.NONFINITE_WITHIN, (model, q, qd, dt, integrator))
        return forward_dynamics_batch(model, q_, qd_, tau_, f_tip_, solver)

    extra = ((_damped_mass(model, solver, integrator == 'implicit_coriolis'),)
             if integrator in NEEDS_DAMPED_MASS else ())
    with np.errstate(over='ignore', invalid='ignore'):
        q_next, qd_next, qdd = INTEGRATORS[integrator](accel, a['q'], a['qd'], dt, *extra)
    if not (np.all(np.isfinite(q_next)) and np.all(np.isfinite(qd_next))):
        _raise_for(engine.NONFINITE, (model, q, qd, dt, integrator))
    shape = np.shape(q)
    return q_next.reshape(shape), qd_next.reshape(shape), qdd.reshape(shape)


def _damped_mass(model, solver, coriolis=False, check=True):
    """Return ``damped_mass(q, qd, dt) -> (M, W)`` (N, n, n) of the implicit schemes.

    ``W = M + dt D``, and ``+ 2 dt C(q, q̇)`` (``∂(C q̇)/∂q̇``, Christoffel symbols) with
    ``coriolis``, then refused by :func:`check_step_matrix` unless ``check`` is False.
    """
    def damped_mass(q, qd, dt):
        shape = (-1, model.dof, model.dof)
        M = np.reshape(mass_matrix(model, q, solver=solver), shape)
        slopes = np.maximum(friction_slopes(model, qd), 0.0).reshape(-1, model.dof)
        W = M + dt * slopes[:, :, None] * np.eye(model.dof)
        if coriolis:
            W = W + 2.0 * dt * np.reshape(coriolis_matrix(model, q, qd), shape)
            if check:
                check_step_matrix(W, dt, np.reshape(qd, (-1, model.dof)))
        return M, W
    return damped_mass


#: The Coriolis-implicit step matrix ``W = M + dt (D + 2C)`` is refused when its 1-norm
#: condition number ``‖W‖₁ ‖W⁻¹‖₁`` exceeds this (the engine's ``RD_MAX_STEP_CONDITION``,
#: integrate.h): its solve loses all but ~6 of 16 digits beyond it and returns round-off, up
#: to 1e16 rad/s, for a singular ``W`` (bundled arms: cond(M) <= 4.5e4).
MAX_STEP_CONDITION = 1e10


def check_step_matrix(W, dt, qd, first_row=None):
    """Raise :class:`SimulationError` if a row of ``W`` (N, n, n) is singular to precision.

    The criterion of the engine (``solve_step_matrix`` in integrate.c): the 1-norm condition
    number above :data:`MAX_STEP_CONDITION`; ``qd`` (N, n) is the start of the step. The
    message names the batch row (``first_row`` + the row here) unless a single state is given.
    """
    with np.errstate(all='ignore'):
        condition = np.linalg.cond(W, 1)
    bad = np.flatnonzero(~(condition <= MAX_STEP_CONDITION))
    if bad.size:
        k = bad[0]
        single = first_row is None and len(W) == 1
        row = '' if single else f' (batch row {(first_row or 0) + k})'
        raise SimulationError(_singular_step_matrix(W[k], dt, qd[k]) + row)


def _singular_step_matrix(W, dt, qd):
    """Return the message for a Coriolis-implicit step matrix ``W`` (n, n) that is singular."""
    with np.errstate(all='ignore'):
        condition = np.linalg.cond(W, 1)
    return (f'the implicit_coriolis step matrix W = M + dt (D + 2C) is singular at dt = {dt:g} s '
            f'(condition number {condition:.3g} > {MAX_STEP_CONDITION:g}; C: the Coriolis '
            f'matrix at joint speeds up to {np.abs(qd).max():.3g} rad/s): its solve would be '
            "round-off. Use a smaller dt, or integrator='implicit' (its matrix M + dt D is "
            'always invertible)')


#: The longest step taken (s): beyond it a ``dt`` is a unit mistake (milliseconds passed as
#: seconds), not a robot simulation.
MAX_DT = 1.0


def _seconds(name, value):
    """Return ``value`` as a float of seconds; raise naming ``name`` for anything else.

    A real number only: a string, an array or a bool (True would be a 1 s step) is a
    mistake, not a duration.
    """
    number = isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, (bool, np.bool_)) or not number:
        raise ValueError(f'{name}: expected a number of seconds, got {value!r}')
    return float(value)


def _check_settings(integrator, dt):
    if integrator not in INTEGRATORS:
        raise ValueError(f'integrator: unknown {integrator!r}; use one of {sorted(INTEGRATORS)}')
    dt = _seconds('dt', dt)
    if not (np.isfinite(dt) and dt > 0):
        raise ValueError(f'dt: must be a positive number of seconds, got {dt}')
    if dt > MAX_DT:
        raise ValueError(f'dt: {dt:g} s is longer than the {MAX_DT:g} s a step may take; dt is in '
                         'seconds (1 ms is 1e-3)')


def _check_flag(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f'{name}: expected True or False, got {value!r}')


def _check_run(model, q0, qd0, energy_limit, position_limits):
    """Check a run's start and options before anything else uses them (F2, F3, F12, F17)."""
    _check_flag('position_limits', position_limits)
    if energy_limit is not None and not (isinstance(energy_limit, (int, float, np.number))
                                         and np.isfinite(energy_limit) and energy_limit > 0):
        raise ValueError(f'energy_limit: expected a finite number of joules > 0 (or None: no '
                         f'check), got {energy_limit!r}')
    start, single = batch_arguments(model, q0=q0, qd0=qd0)
    if not single:
        raise ValueError(f'q0, qd0: expected shape ({model.dof},), one start, got shapes '
                         f'{np.shape(q0)}, {np.shape(qd0)}; simulate the starts one by one')
    check_start_speed(model, start['qd0'], 'qd0')


_FAILURES = {engine.NONFINITE_WITHIN: 'state became NaN/inf within the step',
             engine.NONFINITE: 'state became NaN/inf'}


def _raise_for(status, run, energy_limit=None, t=None):
    """Raise the error an engine status stands for (``engine.OK``: none).

    ``run`` is ``(model, q, qd, dt, integrator)`` of the step that failed (``q``, ``qd`` (n,)
    or a batch, whose first row is diagnosed): the message says why the state diverged and
    what to change (:func:`~robot_dynamics.simulation.stability.divergence_advice`).
    """
    if status == engine.OK:
        return
    model, q, qd, dt, integrator = run
    q_, qd_ = np.atleast_2d(q)[0], np.atleast_2d(qd)[0]
    if status in _FAILURES:
        raise SimulationError(f'{_FAILURES[status]}: '
                              f'{divergence_advice(model, q_, qd_, dt, integrator)}')
    if status == engine.RUNAWAY:
        raise SimulationError(f'total energy exceeded {energy_limit} J at t = {t:.4f} s: the '
                              f'simulation is running away; '
                              f'{divergence_advice(model, q_, qd_, dt, integrator)}')
    if integrator == 'implicit_coriolis' and _positive_definite(mass_matrix(model, q_)):
        W = _damped_mass(model, None, True, check=False)(q_[None], qd_[None], dt)[1][0]
        raise SimulationError(_singular_step_matrix(W, dt, qd_))
    if not np.all(np.abs(qd_) <= bounds.MAX_VELOCITY):      # diverged before M failed
        advice = divergence_advice(model, q_, qd_, dt, integrator)
        raise SimulationError(f'state diverged (|qd| > {bounds.MAX_VELOCITY:g}) and the mass '
                              f'matrix failed: {advice}')
    raise np.linalg.LinAlgError('mass matrix is not positive definite: a link with zero mass '
                                'and inertia on a moving joint?')


def _positive_definite(M):
    try:
        np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        return False
    return True


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
             energy_limit=None, position_limits=False):
    """Integrate the forward dynamics from ``(q0, qd0)`` for ``duration`` seconds.

    ``torque`` is an array (n,) held constant, an array (steps + 1, n) with one row per step
    (``steps = round(duration / dt)``), ``'gravity'`` for the gravity compensation ``G(q)``
    at the start of each step, or a function ``torque(t, q, qd) -> (n,)`` evaluated at the
    start of each step (one Python call per step; the other forms run wholly in the engine).
    ``energy_limit`` (J), if given, stops the run with :class:`SimulationError` when the total
    energy exceeds it (runaway detection). ``position_limits=True`` makes the joint limits
    hard stops (:func:`~robot_dynamics.simulation.stops.stop_step`: perfectly inelastic
    impacts, no penetration at the end of a step; ``q0`` must lie within the limits), inside
    the engine's run as well.

    ``integrator='implicit'`` is stable under any joint damping and friction (real robot
    descriptions such as the xArm7's wrist need it at 1 ms); the explicit schemes diverge when
    the damping is stiff for ``dt``, and the error then names the joint and the fix.
    ``'implicit_coriolis'`` is implicit in the Coriolis term too (fast spinning arms at a
    large ``dt``; docs/simulation.md).
    """
    _check_settings(integrator, dt)
    duration = _seconds('duration', duration)
    if not (np.isfinite(duration) and duration >= 0):
        raise ValueError(f'duration: must be a number of seconds >= 0, got {duration}')
    _check_run(model, q0, qd0, energy_limit, position_limits)
    steps = int(round(duration / dt))
    check_recording_size(model, duration, dt, steps)
    mode, rows = _torque_form(model, torque, steps)
    stops = position_limits and _check_within_limits(model, q0)
    if solver is None and _engine is not None and mode is not None:
        run = _simulate_in_engine(model, q0, qd0, mode, rows, steps, dt, integrator,
                                  energy_limit, stops)
    else:
        torque_fn = torque if mode is None else _torque_function(model, mode, rows, dt, solver)
        run = _simulate_per_step(model, q0, qd0, torque_fn, steps, dt, integrator, solver,
                                 energy_limit, stops)
    return plausible_run(model, run, dt, integrator)


def _check_within_limits(model, q0, name='q0'):
    """Return whether any joint has a finite limit; raise if ``q0`` (checked) lies outside one."""
    q0 = np.asarray(q0, dtype=float)
    lower, upper = model.lower_limit, model.upper_limit
    outside = np.flatnonzero(~((q0 >= lower) & (q0 <= upper)))
    if outside.size and np.shape(q0) == (model.dof,):
        j = outside[0]
        raise ValueError(f'{name}: joint {model.joint_names[j]!r} starts at {q0[j]:.6g}, outside '
                         f'its limits [{lower[j]:.6g}, {upper[j]:.6g}]; start within them or '
                         'pass position_limits=False')
    return bool(np.any(np.isfinite(lower) | np.isfinite(upper)))


#: The most a :class:`Trajectory` may hold: 1 GiB of float64 (q, qd, qdd, tau and energy), the
#: package's one cap on a call's results (``model/arguments.py``).
MAX_RECORDED_BYTES = MAX_RESULT_BYTES


_SEGMENTS = ('simulate in segments, each starting from the last state of the previous one, or '
             'use a larger dt')


def check_recording_size(model, duration, dt, steps, fix=_SEGMENTS):
    """Refuse a run whose recorded trajectory would not fit in :data:`MAX_RECORDED_BYTES`.

    ``steps + 1`` rows of ``t`` and ``q, qd, qdd, tau`` (n each) are recorded; ``fix`` ends the
    message of the ``ValueError``.
    """
    size = 8.0 * (steps + 1) * (4 * model.dof + 1)
    if size > MAX_RECORDED_BYTES:
        longest = (MAX_RECORDED_BYTES // (8 * (4 * model.dof + 1)) - 1) * dt
        raise ValueError(f'duration: {duration:g} s at dt = {dt:g} s is {steps + 1:.3g} steps, '
                         f'{size / 2 ** 30:.3g} GiB of recorded states; at most '
                         f'{MAX_RECORDED_BYTES / 2 ** 30:g} GiB are recorded per call '
                         f'({longest:g} s here): {fix}')


def _torque_form(model, torque, steps):
    """Return the engine's torque mode and array for ``torque`` (mode None: a callback)."""
    if callable(torque):
        return None, None
    if isinstance(torque, str):
        if torque != 'gravity':
            raise ValueError(f"torque: unknown law {torque!r}; give 'gravity', an array or a "
                             'function torque(t, q, qd)')
        return engine.TORQUE_GRAVITY, None
    shape = np.shape(torque)
    if shape not in ((model.dof,), (steps + 1, model.dof)):
        raise ValueError(f'torque: expected shape ({model.dof},) held constant or '
                         f'({steps + 1}, {model.dof}) one row per step, got shape {shape}')
    checked, _ = batch_arguments(model, tau=torque)              # dtype and finite values
    rows = checked['tau']
    if len(shape) == 1:
        return engine.TORQUE_CONSTANT, rows[0]
    return engine.TORQUE_PER_STEP, np.ascontiguousarray(rows)


def _torque_function(model, mode, rows, dt, solver):
    """Return the per-step torque law ``f(t, q, qd)`` of an engine torque mode (numpy path)."""
    if mode == engine.TORQUE_GRAVITY:
        return lambda t, q, qd: gravity_torques(model, q, solver=solver)
    if mode == engine.TORQUE_CONSTANT:
        return lambda t, q, qd: rows
    return lambda t, q, qd: rows[int(round(t / dt))]


def _simulate_in_engine(model, q0, qd0, mode, rows, steps, dt, integrator, energy_limit,
                        stops=False):
    """One engine call integrates the whole run (``stops``: the limits act as hard stops)."""
    limit = None if energy_limit is None else float(energy_limit)
    limits = (model.lower_limit, model.upper_limit) if stops else (None, None)
    q, qd, qdd, tau, energy, status, at = _engine.simulate(
        model, q0, qd0, rows, mode, steps, float(dt), INTEGRATOR_CODES[integrator], limit,
        *limits)
    _raise_for(status, (model, q[at], qd[at], dt, integrator), energy_limit, (at + 1) * dt)
    return Trajectory(t=np.arange(steps + 1) * dt, q=q, qd=qd, qdd=qdd, tau=tau, energy=energy)


def _returned_torque(model, value, t):
    """Check what a torque function returned at time ``t``: (n,) finite numbers."""
    try:
        checked, single = batch_arguments(model, tau=value)
    except ValueError as exc:
        raise ValueError(f'torque(t, q, qd) at t = {t:.6g} s returned a bad value: {exc}') \
            from None
    if not single:
        raise ValueError(f'torque(t, q, qd) at t = {t:.6g} s returned shape {np.shape(value)}; '
                         f'return {model.dof} values, one per joint of '
                         f'{list(model.joint_names)}')
    return checked['tau'][0]


def _simulate_per_step(model, q0, qd0, torque_fn, steps, dt, integrator, solver, energy_limit,
                       stops=False):
    """Integrate with one Python call of ``torque_fn`` (and of :func:`step`) per step.

    ``stops``: the joint limits act as hard stops in each step (:func:`stop_step`).
    """
    q, qd = np.array(q0, dtype=float), np.array(qd0, dtype=float)
    batch_arguments(model, q0=q, qd0=qd)
    n = model.dof
    out = {name: np.zeros((steps + 1, n)) for name in ('q', 'qd', 'qdd', 'tau')}
    for k in range(steps + 1):
        t = k * dt
        tau = _returned_torque(model, torque_fn(t, q, qd), t)
        out['q'][k], out['qd'][k], out['tau'][k] = q, qd, tau
        if k == steps:
            out['qdd'][k] = forward_dynamics(model, q, qd, tau, solver=solver)
            break
        q, qd, out['qdd'][k] = _advance(model, q, qd, tau, dt, integrator, solver=solver,
                                        position_limits=stops)
        if energy_limit is not None and total_energy(model, q, qd) > energy_limit:
            raise SimulationError(f'total energy exceeded {energy_limit} J at t = {t + dt:.4f} s:'
                                  ' the simulation is running away; '
                                  + divergence_advice(model, out['q'][k], out['qd'][k], dt,
                                                      integrator))
    energy = total_energy(model, out['q'], out['qd'])
    return Trajectory(t=np.arange(steps + 1) * dt, energy=energy, **out)
