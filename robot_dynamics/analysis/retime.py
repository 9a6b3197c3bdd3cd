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
:func:`~robot_dynamics.simulation.trajectory.sample_waypoints` does. Its geometric path is
that interpolant with the original time as the path parameter, ``q(s)``, ``s`` in
``[times[0], times[-1]]`` (a quintic or cubic Hermite spline through the points: its own
path, exactly). Goals of positions only are interpolated by straight lines, whose corners no
finite acceleration turns: they are retimed along the clamped cubic spline through their
points (chord length), which passes through every point.

A moving start: when the first point's velocity is not zero (the arm's current state as the
first point) the motion starts at exactly that velocity, continuing along the path: the
path's tangent there is that velocity (``ṡ = 1`` in the original time), so no blend is needed.
If the limits do not allow stopping at the end of the path from that speed, or the current
speed already exceeds a limit, :class:`~robot_dynamics.errors.InfeasiblePathError` says so
(the controller should then stop the arm, or blend, before the goal). The goal ends at rest.

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

CHECK_POINTS = 8           # points inside each segment where the interpolation is checked
WINDOW = 2                 # samples on either side of an excess that are constrained again


@dataclass(frozen=True)
class RetimedGoal:
    """Waypoints of a re-timed goal, (K', n) each, ``times`` (K',) from the goal's first time.

    ``duration`` and ``original_duration`` s; ``moving_start``: the motion starts at the first
    point's non-zero velocity; ``interpolation_peak``: the largest ``|value| / limit`` of the
    controller's quintic interpolation of these waypoints; ``retiming``: the
    :class:`~robot_dynamics.analysis.time_optimal.Retiming` (samples and report).
    """

    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray
    accelerations: np.ndarray
    duration: float
    original_duration: float
    moving_start: bool
    interpolation_peak: float
    retiming: object

    def message(self):
        """Return one line: the new duration against the old and the report."""
        start = 'from its current velocity' if self.moving_start else 'from rest'
        return (f'retimed {start}: {self.original_duration:.4g} s -> {self.duration:.4g} s; '
                f'{self.retiming.report.message()}; quintic interpolation of the '
                f'{self.times.size} waypoints peaks at {self.interpolation_peak:.4f} of a limit')


def goal_path(times, positions, velocities=None, accelerations=None):
    """Return the goal's geometric path ``q(s)`` (module docstring): a scipy ``BPoly``/spline."""
    from scipy.interpolate import BPoly
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    if times.size < 2:
        raise ValueError('trajectory: a goal to retime needs at least 2 points')
    if velocities is None:
        return pd.spline_path(positions)
    orders = [positions, velocities] + ([] if accelerations is None else [accelerations])
    return BPoly.from_derivatives(times, np.stack(orders, axis=1))     # (K, orders, n)


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
    path = goal_path(times, positions, velocities, accelerations)
    moving = velocities is not None and bool(np.any(velocities[0] != 0))
    spline = velocities is None

    def describe(s):
        if spline:
            k = int(np.clip(np.searchsorted(path.x, s, side='right') - 1, 0, times.size - 2))
            return f'the spline through the goal points, between points {k} and {k + 1}'
        k = int(np.clip(np.searchsorted(times, s, side='right') - 1, 0, times.size - 2))
        return f'original time {s:.4g} s (between goal points {k} and {k + 1})'
    limits = pd.check_limits(model, velocity_limits, acceleration_limits, torque_limits)

    def quintic(sample):
        return _interpolation_excess(model, limits, sample, every)
    result = time_optimal_retiming(
        model, path, velocity_limits, acceleration_limits, torque_limits, dt, grid_points,
        start_velocity=velocities[0] if moving else None, describe=describe, check=quintic)
    chosen = _waypoint_indices(result.t.size, every)
    waypoints = (result.t[chosen], result.q[chosen], result.qd[chosen], result.qdd[chosen])
    peak = interpolation_peak(model, *waypoints, limits)
    return RetimedGoal(waypoints[0] + times[0], *waypoints[1:], result.duration,
                       float(times[-1] - times[0]), moving, peak, result)


def _waypoint_indices(count, every):
    """Every ``every``-th sample, and the last."""
    return np.unique(np.append(np.arange(0, count, every), count - 1))


def _interpolation_excess(model, limits, sample, every):
    """Samples to constrain again where the quintic interpolation of the waypoints exceeds a
    limit by ``r``: the samples of such a segment and around it that come near its peak, each
    to its own peak ratio divided by ``r`` (None: no segment exceeds).

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
        span = np.arange(max(chosen[k] - WINDOW, 0), min(chosen[k + 1] + WINDOW + 1,
                                                          scale.size))
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
