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
"""Time-optimal timing of a geometric path under velocity, acceleration and torque limits.

:func:`time_optimal` runs TOPP-RA (:mod:`~robot_dynamics.analysis.reachability`) on a grid of
the path parameter with the dynamics along the path from one batched engine call
(:mod:`~robot_dynamics.analysis.path_dynamics`), then *checks its own output*: the motion is
sampled every ``dt`` (the output), the full model's inverse dynamics (friction and rotor
inertia included) is evaluated at every sample, and wherever a sample exceeds a limit the
constraint of that very point is added to its grid interval, exactly (the interval's ``u`` is
constant, so the point's torque is linear in the interval's ``(u, x_i)``), and the passes run
again. The loop ends when every sample is within every limit (``|τ| <= τ_max``, ``|q̇| <= q̇_max``,
``|q̈| <= q̈_max`` to a rounding of ``TOLERANCE``): that is the guarantee, at the samples
returned (not only at the grid points, where plain TOPP-RA guarantees it). Between samples the
motion is smooth (``σ`` quadratic per interval), so any finer sampling sees the same peaks to
within the change over one ``dt``.

The result is as fast as the limits allow on the grid (the greedy forward pass under exact
controllable sets is optimal for piecewise-constant ``u``, Pham & Pham Theorem 1), slowed only
where a sample needed it; the duration converges to the continuous optimum as the grid is
refined (``grid_points``). The viscous friction is handled conservatively (tangent bound, see
path_dynamics), so with large viscous friction the timing is a little slower than optimal.
"""

from dataclasses import dataclass, field

import numpy as np

from robot_dynamics import api
from robot_dynamics.analysis import path_dynamics as pd
from robot_dynamics.analysis import reachability as ra
from robot_dynamics.errors import InfeasiblePathError
from robot_dynamics.simulation.integrators import check_recording_size

GRID_POINTS = 401          # grid points of s (plus the path's own breakpoints)
TOLERANCE = 1e-9           # relative rounding allowed above a limit at a sample
MAX_ROUNDS = 12            # rounds of "sample, add the violated points, solve again"
MAX_CHECKS = 4             # rounds asked for by a further check (best effort)
SPEED_POINTS = 3           # points per interval inside it where the speed limit is checked
WINDOW = 2                 # the output averages the profile over WINDOW * dt (C2 samples)
WINDOW_POINTS = 5          # profile points per averaging window constrained for a sample
NEAR = 1e-2               # constraints within 1 % of their limit at an added point are kept
INITIAL_MARGIN = 2e-3      # fraction of the limits kept free at the grid (first solves then fit)
ADDED_MARGIN = 1e-4        # fraction of the limits kept free at points inside intervals


@dataclass(frozen=True)
class TimeOptimalReport:
    """What the timing achieved: ``peak`` ratios ``|value| / limit`` per joint (n,) at the samples.

    ``peak_torque``, ``peak_velocity``, ``peak_acceleration`` (0 where a joint has no limit of
    that kind); ``rounds``: solves run; ``points_added``: sample points added as constraints;
    ``binding``: per sample, the kind of the largest ratio ('torque', 'velocity',
    'acceleration'), the share of the duration each kind binds (ratio >= 0.99) in ``shares``.
    """

    duration: float
    grid_points: int
    rounds: int
    points_added: int
    peak_torque: np.ndarray
    peak_velocity: np.ndarray
    peak_acceleration: np.ndarray
    shares: dict = field(default_factory=dict)
    joint_names: tuple = ()

    @property
    def worst(self):
        """Return the largest ratio of any limit at any sample."""
        return float(max(self.peak_torque.max(), self.peak_velocity.max(),
                         self.peak_acceleration.max()))

    def message(self):
        """Return one line: duration, the peaks and the limits that bound the timing."""
        kinds = ', '.join(f'{kind} {100 * share:.0f} %' for kind, share in self.shares.items()
                          if share > 0) or 'none'
        peaks = ', '.join(f'{what}/limit {peak.max():.4f}' for what, peak in (
            ('|tau|', self.peak_torque), ('|qd|', self.peak_velocity),
            ('|qdd|', self.peak_acceleration)) if peak.any())
        return (f'duration {self.duration:.4f} s; peak {peaks or "-"}; at a limit: {kinds} of '
                f'the time ({self.rounds} solves, {self.points_added} points added)')


@dataclass(frozen=True)
class Retiming:
    """A time-optimal motion: samples ``t`` (S,), ``q, qd, qdd`` (S, n) every ``dt``, rest to rest.

    ``s`` (N+1,) grid of the path parameter, ``sd`` (N+1,) path speed on it, ``sdd`` (N,) path
    acceleration per interval, ``sigma`` (S,) the path parameter at the samples, ``tau`` (S, n)
    the full model's torques at the samples (the check), ``report`` a :class:`TimeOptimalReport`.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    sigma: np.ndarray
    s: np.ndarray
    sd: np.ndarray
    sdd: np.ndarray
    report: TimeOptimalReport

    @property
    def duration(self):
        """Return the duration of the motion, s."""
        return float(self.t[-1])


def time_optimal(model, path, velocity_limits=None, acceleration_limits=None,
                 torque_limits=None, dt=1e-3):
    """Return ``(t, q, qd, qdd)``: the fastest motion along ``path`` within the limits.

    ``path``: waypoints (K, n) in model joint order (then :func:`~robot_dynamics.analysis.
    path_dynamics.spline_path`: the clamped cubic spline through them, parameterised by chord
    length) or a piecewise polynomial ``q(s)`` with ``__call__(s, nu)`` and breakpoints ``.x``
    (e.g. ``scipy.interpolate.CubicSpline``). Limits (n,) or one number: default the model's
    URDF ``velocity`` and ``effort``, no acceleration limit; ``inf`` for none. From rest to
    rest; ``t`` (S,) from 0 every ``dt``, the last sample at the end. Every sample is within
    every limit (torques by the full model: friction, rotor inertia); see
    :func:`time_optimal_retiming` for the report and the options (grid, moving start).
    """
    result = time_optimal_retiming(model, path, velocity_limits, acceleration_limits,
                                   torque_limits, dt)
    return result.t, result.q, result.qd, result.qdd


def time_optimal_retiming(model, path, velocity_limits=None, acceleration_limits=None,
                          torque_limits=None, dt=1e-3, grid_points=GRID_POINTS,
                          start_velocity=None, describe=None, check=None):
    """Return the :class:`Retiming` of :func:`time_optimal` with its report.

    ``start_velocity`` (n,): the joint velocity at the first point (the arm already moving).
    With waypoints the spline then leaves the first waypoint along it; with a path object it
    must be along the path's tangent ``q'(s_0)``. The motion starts at exactly that velocity,
    if the limits allow stopping at the end of the path from it (else InfeasiblePathError).
    ``describe(s)``: phrases a place on the path for error messages. ``check(samples)``: a
    further check of the samples (a dict: ``t, q, qd, qdd, sigma, stage, ...``) once they are
    within the limits, returning None or ``(indices, scales)``: samples to constrain again
    with ``scales`` (<= 1) of the limits (the controller's interpolation, :mod:`~robot_dynamics.
    analysis.retime`).
    """
    dt = float(dt)
    if not (np.isfinite(dt) and dt > 0):
        raise ValueError(f'dt: {dt!r} must be a positive number of seconds, e.g. 0.001')
    if not (isinstance(grid_points, (int, np.integer)) and grid_points >= 2):
        raise ValueError(f'grid_points: {grid_points!r} must be an integer >= 2, e.g. 401')
    limits = pd.check_limits(model, velocity_limits, acceleration_limits, torque_limits)
    v0 = None if start_velocity is None else _vector(model, 'start_velocity', start_velocity)
    if not callable(path):
        path = pd.spline_path(path, v0)
        describe = describe or _between('waypoints', path.x)
    breakpoints = pd.check_path(model, path)
    describe = describe or _between('path breakpoints', breakpoints)
    s = np.union1d(np.linspace(breakpoints[0], breakpoints[-1], grid_points), breakpoints)
    s = s[np.concatenate([[True], np.diff(s) > 1e-9 * (s[-1] - s[0])])]
    s[-1] = breakpoints[-1]
    # The interval ends: the next interval's start, except at the path's breakpoints, where
    # the piece that ends there is evaluated just before it (one-sided derivatives).
    kinks = np.flatnonzero(np.isin(s[1:-1], breakpoints)) + 1
    every = _points(model, path, np.concatenate([s, np.nextafter(s[kinks], -np.inf)]), limits,
                    describe)
    end = np.arange(1, s.size)
    end[kinks - 1] = s.size + np.arange(kinks.size)
    points = {key: value[np.concatenate([np.arange(s.size - 1), end])]
              for key, value in every.items()}
    x_start = _start_speed(path, s[0], v0)
    speed = _speed_points(path, s)
    for window in (WINDOW * dt, 0.0):
        problem = _Problem(model, limits, s, points, speed, describe)
        x, sample, rounds, added = _rounds(model, path, limits, s, problem, x_start, dt, window,
                                           check)
        if sample is not None:
            break
    if sample is None:
        raise RuntimeError(f'time_optimal: samples still exceed a limit after {rounds} solves; '
                           'please report the path; a finer grid_points may help')
    return _result(model, limits, s, x, sample, rounds, added, grid_points)


def _rounds(model, path, limits, s, problem, x_start, dt, window, check):
    """Solve, check every sample, add the violated points, solve again, until none exceeds.

    Returns ``x, samples, rounds, points added``; samples None if some still exceed a limit
    after ``MAX_ROUNDS`` solves.

    Averaged over a window, a sample is not exactly the motion of one profile point: the
    profile's positions across the window get the sample's constraints, at 1/r of the limits
    for a sample over by r. Where the profile's speed or the path's curvature changes much
    within a window (a short violent motion near a clamped end) that may not converge; the
    caller then samples the profile itself (``window`` 0), where every added point is exact.
    """
    x = problem.solve(x_start)
    rounds, added, checks = 1, 0, 0
    while True:
        sample = _check_samples(model, path, limits, s, x, dt, window)
        over = sample['ratio'] > 1.0 + TOLERANCE
        found = None if over.any() or check is None or checks >= MAX_CHECKS else check(sample)
        if not over.any() and found is None:
            return x, sample, rounds, added
        checks += found is not None
        if rounds - checks >= MAX_ROUNDS:
            return x, None, rounds, added
        if found is None:
            chosen, keep = _new_points(sample, over)
            scale = (1.0 - ADDED_MARGIN) / np.maximum(sample['ratio'][chosen], 1.0)
        else:
            chosen, scale = found
            keep = np.ones((chosen.size, 3, model.dof), bool)
        offsets = window * np.linspace(-0.5, 0.5, WINDOW_POINTS if window else 1)
        sigma = ra.profile_positions(s, x, sample['t'][chosen, None] - sample['shift']
                                     + offsets).reshape(-1)
        stage = np.clip(np.searchsorted(s, sigma, side='right') - 1, 0, s.size - 2)
        problem.add(stage, sigma - s[stage], _points(model, path, sigma, limits,
                                                     problem.describe),
                    np.repeat(keep, offsets.size, axis=0), np.repeat(scale, offsets.size))
        x = problem.solve(x_start)
        rounds, added = rounds + 1, added + sigma.size


# ---------------------------------------------------------------------- the steps
class _Problem:
    """The constraint points of the stages, as slabs in a ``reachability.Stages``.

    The interval ends carry every constraint (TOPP-RA's interpolation scheme), the speed points
    the speed limit alone, points added in rounds the constraints their ``keep`` mask names,
    inside intervals with ``1 - ADDED_MARGIN`` of the limits. With viscous friction the slabs
    are built again after the first solve, with the tangents at its speeds.
    """

    def __init__(self, model, limits, s, ends, speed, describe):
        self.model, self.limits, self.s, self.describe = model, limits, s, describe
        N = s.size - 1
        self.viscous = bool(np.any(model.viscous_friction != 0))
        self.groups = [(np.concatenate([np.arange(N)] * 2),
                        np.concatenate([np.zeros(N), np.diff(s)]), ends, None,
                        1.0 - INITIAL_MARGIN)]
        self.speed, self.profile = speed, None
        self.stages = self._stages()

    def add(self, stage, delta, points, keep, scale):
        """Add constraint points inside intervals ``stage`` (P,) at offsets ``delta`` (P,).

        ``keep`` (P, 3, n): their constraints kept; ``scale`` (P,): the fraction of the limits.
        """
        self.groups.append((stage, delta, points, keep, np.asarray(scale, float)[:, None]))
        self.stages.add(*self._slabs(self.groups[-1]))

    def solve(self, x_start):
        """Return the profile ``x`` (N+1,) on the grid (InfeasiblePathError if there is none)."""
        x = self._passes(x_start)
        if self.viscous and self.profile is None:
            self.profile = x
            self.stages = self._stages()
            x = self._passes(x_start)
        return x

    def _stages(self):
        """Return the ``Stages`` of every point so far (one ``add``: one bound per stage)."""
        stages = ra.Stages(self.s)
        stage, delta, dq = self.speed
        speed = pd.speed_slabs(dq, self.limits[0], delta, 1.0 - INITIAL_MARGIN) + (stage,)
        stages.add(*(np.concatenate(columns) for columns in zip(
            speed, *(self._slabs(group) for group in self.groups))))
        return stages

    def _slabs(self, group):
        """Flat ``α, β, lo, hi, stage`` of a group of points, the columns ``keep`` names."""
        stage, delta, points, keep, scale = group
        tangent = None
        if self.profile is not None:
            x = self.profile
            tangent = x[stage] + (x[stage + 1] - x[stage]) * delta / np.diff(self.s)[stage]
        rows = pd.slabs(points, self.limits, delta, tangent, scale)
        mask = np.ones(rows[0].shape, bool)
        if keep is not None:
            kind, joint = pd.slab_kinds(self.limits, tangent is not None)
            mask = keep[:, kind, joint]
        return [r[mask] for r in rows] + [np.broadcast_to(stage[:, None], mask.shape)[mask]]

    def _passes(self, x_start):
        X = self.stages.X
        if np.any(X >= 1e-3 * pd.BIG):
            i = int(np.argmax(X >= 1e-3 * pd.BIG))
            raise InfeasiblePathError(
                f'path: nothing bounds the speed at {self.describe(self.s[i])}: no joint with '
                'a finite velocity, acceleration or torque limit moves there; give limits')
        k, x = self.stages.solve(x_start)
        if x_start > k[0] * (1 + 1e-9) + 1e-300:
            raise InfeasiblePathError(
                f'start: the arm moves along the path at {np.sqrt(x_start):.6g} per unit of s '
                f'but can follow the path and stop at its end within the limits only from '
                f'{np.sqrt(k[0]):.6g} ({100 * np.sqrt(k[0] / x_start):.3g} % of its speed); '
                'slow down first (a stop or a blend) or give a longer path',
                s=float(self.s[0]), needed=float(np.sqrt(x_start)), limit=float(np.sqrt(k[0])))
        stuck = np.flatnonzero((x[:-1] <= 0) & (x[1:] <= 0))
        if stuck.size:
            raise InfeasiblePathError(
                f'path: the limits allow no motion at {self.describe(self.s[stuck[0]])}: '
                'the speed along the path must be 0 there; change the path or the limits',
                s=float(self.s[stuck[0]]))
        return x


def _points(model, path, s, limits, describe):
    """Return the path points at ``s`` with their dynamics and friction terms (dict, (P, n))."""
    q, dq, ddq = pd.evaluate(path, s)
    pd.check_joint_limits(model, s, q)
    a, b, g = pd.path_terms(model, q, dq, ddq)
    v, r_lo, r_hi = pd.friction_bounds(model, dq)
    points = dict(dq=dq, ddq=ddq, a=a, b=b, g=g, v=v, R_lo=r_lo, R_hi=r_hi)
    pd.check_at_rest(model, s, points, limits[2], describe)
    return points


def _speed_points(path, s):
    """``stage, delta, q'`` of ``SPEED_POINTS`` points inside each interval for the speed limit.

    ``|q'(s)|² x(s) <= q̇_max²`` is not linear along an interval (``x`` is), and the speed limit
    binds over long stretches: checked only at the interval ends, the samples between exceed it
    by up to ~1 % (toppra's output does). These points need no dynamics.
    """
    N = s.size - 1
    stage = np.repeat(np.arange(N), SPEED_POINTS)
    delta = np.tile(np.arange(1, SPEED_POINTS + 1) / (SPEED_POINTS + 1), N) * np.diff(s)[stage]
    return stage, delta, pd.evaluate(path, s[stage] + delta, (1,))[0]


def _start_speed(path, s0, v0):
    """Return ``x_0 = ṡ_0²``: 0 at rest, else from ``v0 = q'(s_0) ṡ_0`` (v0 along the path)."""
    if v0 is None or not np.any(v0):
        return 0.0
    tangent = np.asarray(path(np.array([s0]), 1), dtype=float)[0]
    sd = float(tangent @ v0) / float(tangent @ tangent) if np.any(tangent) else 0.0
    if sd <= 0 or np.linalg.norm(v0 - sd * tangent) > 1e-6 * np.linalg.norm(v0):
        raise ValueError(f'start_velocity: {v0.tolist()} is not along the path at its start '
                         f'(tangent {tangent.tolist()}); the arm must move along the path, '
                         'forwards: give waypoints (the spline then starts along the velocity)')
    return sd * sd


def _check_samples(model, path, limits, s, x, dt, window):
    """Sample the profile every ``dt``; return the samples and their worst ratio to a limit."""
    duration = float(np.sum(ra.interval_times(s, x)))
    check_recording_size(model, duration, dt, int(duration / dt) + 1,
                         fix='give a larger dt or higher limits')
    t, sigma, sd, sdd, stage = ra.sample_profile(s, x, dt, window)
    q, dq, ddq = pd.evaluate(path, sigma)
    qd, qdd = dq * sd[:, None], dq * sdd[:, None] + ddq * (sd * sd)[:, None]
    tau = api.inverse_dynamics(model, q, qd, qdd)
    none = np.zeros_like(q)
    ratios = [np.abs(value) * (1.0 / limit) if np.isfinite(limit).any() else none
              for value, limit in zip((qd, qdd, tau), limits)]
    per_kind = [pd.row_reduce(np.maximum, r, 0.0) for r in ratios]    # speed, accel., torque
    return dict(t=t, sigma=sigma, stage=stage, q=q, qd=qd, qdd=qdd, tau=tau, ratios=ratios,
                per_kind=per_kind, ratio=np.maximum.reduce(per_kind),
                shift=window / 2 if x[0] == 0 else 0.0)


def _new_points(sample, over):
    """Return the samples to add as constraint points, and their constraints to keep.

    Every sample of an interval with a violation, or next to one, with the constraints that
    come within ``NEAR`` of their limit there (the re-solve pushes up to the limit elsewhere
    in the same interval otherwise, and the rounds would creep).
    """
    stage = sample['stage']
    bad = np.unique(stage[over])
    near_bad = np.isin(stage, np.concatenate([bad - 1, bad, bad + 1]))
    ratios = sample['ratios'][::-1]                  # torque, acceleration, speed
    keep = np.stack([r[near_bad] > 1.0 - NEAR for r in ratios], axis=1)
    keep[:, 2, 0] = keep[:, 2].any(axis=1)
    useful = keep.any(axis=(1, 2))
    return np.flatnonzero(near_bad)[useful], keep[useful]


def _result(model, limits, s, x, sample, rounds, added, grid_points):
    """Assemble the :class:`Retiming` from the final samples."""
    speed, accel, torque = sample['ratios']
    # 0 where a joint has no limit; per joint from the transposed copy (numpy's reduction
    # across the rows of a (S, n) array costs ~7x as much)
    peaks = [np.ascontiguousarray(r.T).max(axis=1) for r in (torque, speed, accel)]
    speed, accel, torque = sample['per_kind']
    shares = {kind: float(np.mean(r >= 0.99)) for kind, r in
              (('torque', torque), ('velocity', speed), ('acceleration', accel))}
    report = TimeOptimalReport(float(sample['t'][-1]), int(s.size), rounds, added, *peaks,
                               shares=shares, joint_names=tuple(model.joint_names))
    u = np.diff(x) / (2.0 * np.diff(s))
    return Retiming(sample['t'], sample['q'], sample['qd'], sample['qdd'], sample['tau'],
                    sample['sigma'], s, np.sqrt(x), u, report)


def _vector(model, name, value):
    value = np.asarray(value, dtype=float).reshape(-1)
    if value.shape != (model.dof,) or not np.all(np.isfinite(value)):
        raise ValueError(f'{name}: expected {model.dof} finite numbers (joints '
                         f'{list(model.joint_names)}), got {value.tolist()}')
    return value


def _between(noun, breakpoints):
    """Return ``describe(s)``: 's = 0.5 (between waypoints 1 and 2)'."""
    def describe(s):
        k = int(np.clip(np.searchsorted(breakpoints, s, side='right') - 1, 0,
                        breakpoints.size - 2))
        return f's = {s:.6g} (between {noun} {k} and {k + 1})'
    return describe
