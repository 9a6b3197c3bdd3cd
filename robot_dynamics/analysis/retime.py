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
"""Time-optimal retiming of a trajectory goal, for the trajectory controller.

A goal is the controller's waypoints: ``times`` (K,), ``positions`` (K, n), optional
``velocities`` and ``accelerations`` (K, n), model joint order, interpolated as
:func:`~robot_dynamics.simulation.trajectory.sample_waypoints` does (quintic or cubic Hermite
polynomials). Its geometric path is that interpolant's: the goal is retimed along the
chord-length cubic spline through ``RESAMPLE`` points of it (per piece), which follows
it to ~1e-4 rad on the bundled arms (:func:`path_deviation`). The original time is not used
as the path parameter: where the goal rests (``q̇ = 0``) it has no speed (``q' = 0`` to second
order), and the timing's path speed would spike there. Goals of positions only (straight lines
for the controller, with corners no finite acceleration turns) are retimed along the clamped
cubic spline through their points.

Points where the goal's velocity is zero are stops, kept: the goal is retimed piece by piece
between them, each from rest to rest, and the pieces joined.

A moving start: when the first point's velocity ``v0`` is not zero (the arm's current state as
the first point) the motion starts at exactly that velocity, continuing along the path (the
spline leaves the first point along ``v0``), so no blend is needed. If the limits do not allow
stopping at the end of the first piece from that speed, or the current speed already exceeds a
limit, :class:`~robot_dynamics.errors.InfeasiblePathError` says so (the controller should then
stop the arm, or blend, before the goal). The goal ends at rest.

The result's waypoints are the re-timed samples every ``every * dt`` (positions, velocities,
accelerations): the controller's quintic Hermite interpolation between them reproduces the
motion; :attr:`RetimedGoal.interpolation_peak` is its largest ratio to a limit measured at
``CHECK_POINTS`` points inside each segment (the samples themselves are within the limits).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics import api
from robot_dynamics.analysis import path_dynamics as pd
from robot_dynamics.analysis.time_optimal import (ADDED_MARGIN, NEAR, TOLERANCE,
                                                  time_optimal_retiming)
from robot_dynamics.simulation.trajectory import check_waypoints, sample_waypoints_many

RESAMPLE = 200             # points of the Hermite interpolant per piece of a goal's path
CHECK_POINTS = 8           # points inside each segment where the interpolation is checked
WINDOW = 2                 # samples on either side of an excess that are constrained again


@dataclass(frozen=True)
class RetimedGoal:
    """Waypoints of a re-timed goal, (K', n) each, ``times`` (K',) from the goal's first time.

    ``duration`` and ``original_duration`` s; ``moving_start``: the motion starts at the first
    point's non-zero velocity; ``interpolation_peak``: the largest ``|value| / limit`` of the
    controller's quintic interpolation of these waypoints; ``pieces``: the
    :class:`~robot_dynamics.analysis.time_optimal.Retiming` (samples and report) of each piece
    between the goal's stops.
    """

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    duration: float
    original_duration: float
    moving_start: bool
    interpolation_peak: float
    pieces: tuple

    @property
    def sample_peak(self):
        """Return the largest ``|value| / limit`` at the samples (every ``dt``) of all pieces."""
        return max(piece.report.worst for piece in self.pieces)

    def message(self):
        """Return one line: the new duration against the old, the peaks, the pieces."""
        start = 'from its current velocity' if self.moving_start else 'from rest'
        return (f'retimed {start}: {self.original_duration:.4g} s -> {self.duration:.4g} s in '
                f'{len(self.pieces)} piece(s) between stops; peak |value|/limit '
                f'{self.sample_peak:.4f} at the samples, {self.interpolation_peak:.4f} in the '
                f'quintic interpolation of the {self.times.size} waypoints')


def goal_path(times, positions, velocities=None, accelerations=None, start_velocity=None):
    """Return the goal's geometric path ``q(s)``: a chord-length cubic spline (module docstring).

    Its ends are clamped to the directions of its first and last chords (``|q'| = 1`` up to the
    ends: a derivative clamped to 0 at a chord of micrometres would be a spike of curvature),
    the start to ``start_velocity`` where given. With velocities, through ``RESAMPLE`` points of
    the controller's Hermite interpolant per
    piece (evenly spaced in the original time, at least 4 per segment), so it follows that
    path (:func:`path_deviation`); without, through the goal's points.
    """
    from scipy.interpolate import BPoly
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    if times.size < 2:
        raise ValueError('trajectory: a goal to retime needs at least 2 points')
    points = positions
    if velocities is not None:
        orders = [positions, velocities] + ([] if accelerations is None else [accelerations])
        hermite = BPoly.from_derivatives(times, np.stack(orders, axis=1))   # (K, orders, n)
        per = max(4, -(-RESAMPLE // (times.size - 1)))
        u = np.linspace(0.0, 1.0, per + 1)[:-1]
        t = np.append((times[:-1, None] + np.diff(times)[:, None] * u).reshape(-1), times[-1])
        points = hermite(t)
        step = np.linalg.norm(np.diff(points, axis=0), axis=1)
        keep = np.append(True, step > 1e-9 * max(1.0, np.abs(points).max()))
        keep[-1] = True
        points = points[keep] if keep.sum() >= 2 else points[[0, -1]]
    start = points[1] - points[0] if start_velocity is None else start_velocity
    return pd.spline_path(points, start, points[-1] - points[-2])


def path_deviation(path, times, positions, velocities, accelerations=None, samples=64,
                   dense=20_000):
    """Largest joint-space distance from the controller's Hermite interpolant to ``path``.

    The interpolant at ``samples`` points per segment, each against the nearest of ``dense``
    points of ``path`` (their spacing bounds the error of this measure from above).
    """
    from scipy.interpolate import BPoly
    orders = [positions, velocities] + ([] if accelerations is None else [accelerations])
    hermite = BPoly.from_derivatives(times, np.stack(orders, axis=1))
    ours = path(np.linspace(path.x[0], path.x[-1], dense))
    theirs = hermite(np.linspace(times[0], times[-1], samples * (times.size - 1)))
    return float(max(np.linalg.norm(ours - point, axis=1).min() for point in theirs))


def retime_goal(model, times, positions, velocities=None, accelerations=None,
                velocity_limits=None, acceleration_limits=None, torque_limits=None, dt=1e-3,
                every=1, grid_points=401):
    """Return the :class:`RetimedGoal`: the goal's path at the fastest timing within the limits.

    Limits as :func:`~robot_dynamics.analysis.time_optimal.time_optimal` (default the model's
    URDF velocity and effort; keep a margin by passing e.g. ``0.95 * model.effort_limit``).
    ``every``: waypoints every ``every`` samples of ``dt`` (the last sample always).
    """
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    if not (isinstance(every, (int, np.integer)) and every >= 1):
        raise ValueError(f'every: {every!r} must be an integer >= 1')
    limits = pd.check_limits(model, velocity_limits, acceleration_limits, torque_limits)
    moving = velocities is not None and bool(np.any(velocities[0] != 0))

    def quintic(sample):
        return _interpolation_excess(model, limits, sample, every)
    pieces = []
    for first, last in _pieces(velocities, times.size):
        part = slice(first, last + 1)
        start = velocities[0] if moving and first == 0 else None
        path = goal_path(times[part], positions[part], _part(velocities, part),
                         _part(accelerations, part), start)
        pieces.append(time_optimal_retiming(
            model, path, *limits, dt, grid_points, describe=_describer(first, last + 1 - first),
            start_velocity=start, check=quintic))
    t, q, qd, qdd = _joined(pieces)
    chosen = _waypoint_indices(t.size, every)
    waypoints = (t[chosen], q[chosen], qd[chosen], qdd[chosen])
    peak = interpolation_peak(model, *waypoints, limits)
    return RetimedGoal(waypoints[0] + times[0], *waypoints[1:], float(t[-1]),
                       float(times[-1] - times[0]), moving, peak, tuple(pieces))


def _pieces(velocities, count):
    """``(first, last)`` point indices of the goal's pieces between its interior stops."""
    stops = [] if velocities is None else [k for k in range(1, count - 1)
                                           if not np.any(velocities[k])]
    ends = [0] + stops + [count - 1]
    return list(zip(ends[:-1], ends[1:]))


def _part(values, part):
    return None if values is None else values[part]


def _describer(offset, count):
    """Return ``describe(s)`` of a piece of ``count`` goal points from point ``offset``."""
    def describe(s):
        return (f'the path through goal points {offset} to {offset + count - 1} at s = {s:.4g} '
                'of its chord length')
    return describe


def _joined(pieces):
    """``t, q, qd, qdd`` of the pieces one after the other (each join, at rest, once)."""
    t, q, qd, qdd = [pieces[0].t], [pieces[0].q], [pieces[0].qd], [pieces[0].qdd]
    for piece in pieces[1:]:
        t.append(piece.t[1:] + t[-1][-1])
        for out, value in ((q, piece.q), (qd, piece.qd), (qdd, piece.qdd)):
            out.append(value[1:])
    return tuple(np.concatenate(v) for v in (t, q, qd, qdd))


def _waypoint_indices(count, every):
    """Every ``every``-th sample, and the last."""
    return np.unique(np.append(np.arange(0, count, every), count - 1))


def _interpolation_excess(model, limits, sample, every):
    """Return the samples to constrain again, and their scales, or None.

    Where the quintic interpolation of the waypoints exceeds a limit by ``r``: the samples of
    such a segment and around it that come near its peak, each to its own peak ratio divided
    by ``r`` (None: no segment exceeds).

    Between samples the motion's acceleration can jump (where the timing switches from
    accelerating to braking); a quintic through the samples' exact ``q, q̇, q̈`` cannot jump and
    overshoots near there (by up to ~20 % of a limit on the bundled arms). Scaling the limits
    around the jump by the overshoot brings the interpolation within them, at a little time.
    """
    chosen = _waypoint_indices(sample['t'].size, every)
    ratio = _segment_ratios(model, limits, *(sample[k][chosen] for k in ('t', 'q', 'qd', 'qdd')))
    bad = np.flatnonzero(ratio > 1.0 + TOLERANCE)
    if bad.size == 0:
        return None
    scale = np.ones(sample['t'].size)
    for k in bad:              # the samples of segment k and of the averaging window around
        span = np.arange(max(chosen[k] - WINDOW, 0),
                         min(chosen[k + 1] + WINDOW + 1, scale.size))
        peak = sample['ratio'][span]
        span = span[peak >= (1.0 - NEAR) * peak.max()]     # the samples near the peak
        scale[span] = np.minimum(scale[span], (1.0 - ADDED_MARGIN) * sample['ratio'][span]
                                 / ratio[k])
    points = np.flatnonzero(scale < 1.0)
    return points, scale[points]


def interpolation_peak(model, times, positions, velocities, accelerations, limits):
    """Largest ``|value| / limit`` of the quintic interpolation of waypoints inside segments."""
    return float(_segment_ratios(model, limits, times, positions, velocities, accelerations)
                 .max(initial=0.0))


def _segment_ratios(model, limits, times, positions, velocities, accelerations):
    """Per segment (K-1,): the largest ``|value| / limit`` at ``CHECK_POINTS`` points inside."""
    u = np.arange(1, CHECK_POINTS + 1) / (CHECK_POINTS + 1)
    t = (times[:-1, None] + np.diff(times)[:, None] * u).reshape(-1)
    q, qd, qdd = sample_waypoints_many(times, positions, velocities, accelerations, t)
    tau = api.inverse_dynamics(model, q, qd, qdd)
    with np.errstate(divide='ignore', invalid='ignore'):
        ratio = np.maximum.reduce([(np.abs(value) / limit).max(axis=1) for value, limit
                                   in zip((qd, qdd, tau), limits)])
    return ratio.reshape(times.size - 1, CHECK_POINTS).max(axis=1)
