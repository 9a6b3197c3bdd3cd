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
"""Joint-space trajectories: sampling of waypoint trajectories and standard test motions.

A waypoint trajectory is a time vector ``times`` (K,) in seconds, strictly increasing, and
``positions`` (K, n) with optional ``velocities`` and ``accelerations`` (K, n), as in a ROS
``trajectory_msgs/JointTrajectory``. Between two waypoints it is interpolated by

- a quintic Hermite polynomial when velocities and accelerations are given (position, velocity
  and acceleration continuous; Craig §7.3, eq. 7.18–7.19 for the boundary conditions),
- a cubic Hermite polynomial when only velocities are given (Craig eq. 7.11),
- a straight line otherwise (velocity = slope, acceleration zero).

Before the first waypoint the trajectory holds the first position and after the last one it
holds the last position, both at rest; at the first waypoint it has that point's velocity and
acceleration (a motion that starts from a moving arm's state starts at its speed). Pure
numpy: the ROS nodes call it, it never imports ROS.
"""

import numpy as np

BLEND = 0.25          # blend of a positions-only motion, x the shorter adjacent segment
PEAK_SAMPLES = 16      # intervals per segment at which segment_peaks evaluates the interpolant
_PEAK_BLOCK = 2048     # segments x joints per block there (large fresh arrays cost page faults)


def _quintic_coefficients(p0, v0, a0, p1, v1, a1, T):
    """``c0 … c5`` of the quintic through (p, v, a) at both ends of a segment of length T."""
    c0, c1, c2 = p0, v0, a0 / 2.0
    # Craig eq. 7.19: the three top coefficients from the end conditions.
    d = p1 - (c0 + c1 * T + c2 * T ** 2)
    dv = v1 - (c1 + 2 * c2 * T)
    da = a1 - 2 * c2
    c3 = (10 * d - 4 * dv * T + 0.5 * da * T ** 2) / T ** 3
    c4 = (-15 * d + 7 * dv * T - da * T ** 2) / T ** 4
    c5 = (6 * d - 3 * dv * T + 0.5 * da * T ** 2) / T ** 5
    return c0, c1, c2, c3, c4, c5


def _cubic_coefficients(p0, v0, p1, v1, T):
    """``c0 … c3`` of the cubic through (p, v) at both ends of a segment (Craig eq. 7.11)."""
    c2 = (3 * (p1 - p0) - (2 * v0 + v1) * T) / T ** 2
    c3 = (-2 * (p1 - p0) + (v0 + v1) * T) / T ** 3
    return p0, v0, c2, c3


def _hermite_quintic(p0, v0, a0, p1, v1, a1, T, s):
    """Quintic through (p, v, a) at both ends of a segment of length T, evaluated at s ∈ [0, T]."""
    c0, c1, c2, c3, c4, c5 = _quintic_coefficients(p0, v0, a0, p1, v1, a1, T)
    position = c0 + s * (c1 + s * (c2 + s * (c3 + s * (c4 + s * c5))))
    velocity = c1 + s * (2 * c2 + s * (3 * c3 + s * (4 * c4 + s * 5 * c5)))
    acceleration = 2 * c2 + s * (6 * c3 + s * (12 * c4 + s * 20 * c5))
    return position, velocity, acceleration


def _hermite_cubic(p0, v0, p1, v1, T, s):
    """Cubic through (p, v) at both ends of a segment of length T (Craig eq. 7.11)."""
    c0, c1, c2, c3 = _cubic_coefficients(p0, v0, p1, v1, T)
    position = c0 + s * (c1 + s * (c2 + s * c3))
    velocity = c1 + s * (2 * c2 + s * 3 * c3)
    acceleration = 2 * c2 + 6 * c3 * s
    return position, velocity, acceleration


def check_waypoints(times, positions, velocities=None, accelerations=None):
    """Validate and convert a waypoint trajectory; raise ``ValueError`` naming the problem."""
    times = np.asarray(times, dtype=float).reshape(-1)
    positions = np.atleast_2d(np.asarray(positions, dtype=float))
    if positions.shape[0] != times.size or times.size == 0:
        raise ValueError(f'trajectory: {times.size} times but {positions.shape[0]} position '
                         'rows; give one time_from_start per point and at least one point')
    if np.any(np.diff(times) <= 0):
        raise ValueError('trajectory: time_from_start must increase strictly from point to '
                         'point')
    arrays = {'times': times, 'positions': positions}
    for name, value in (('velocities', velocities), ('accelerations', accelerations)):
        if value is not None:
            value = np.atleast_2d(np.asarray(value, dtype=float))
            if value.shape != positions.shape:
                raise ValueError(f'trajectory: {name} have shape {value.shape}, positions '
                                 f'{positions.shape}; give all or none per point')
        arrays[name] = value
    for name, value in arrays.items():
        if value is not None and not np.all(np.isfinite(value)):
            raise ValueError(f'trajectory: {name} contain NaN or inf')
    return arrays['times'], positions, arrays['velocities'], arrays['accelerations']


def sample_waypoints(times, positions, velocities, accelerations, t):
    """Desired ``(q, qd, qdd)`` (n,) each at time ``t`` (s, same origin as ``times``)."""
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    rest = np.zeros(positions.shape[1])
    if t < times[0] or times.size == 1:
        return positions[0].copy(), rest, rest.copy()
    if t >= times[-1]:
        return positions[-1].copy(), rest, rest.copy()
    k = int(np.searchsorted(times, t, side='right')) - 1          # times[k] <= t < times[k+1]
    T, s = times[k + 1] - times[k], t - times[k]
    p0, p1 = positions[k], positions[k + 1]
    if velocities is not None and accelerations is not None:
        return _hermite_quintic(p0, velocities[k], accelerations[k],
                                p1, velocities[k + 1], accelerations[k + 1], T, s)
    if velocities is not None:
        return _hermite_cubic(p0, velocities[k], p1, velocities[k + 1], T, s)
    slope = (p1 - p0) / T
    return p0 + slope * s, slope, rest


def parabolic_blends(times, positions, start_velocity, blend=BLEND):
    """Knots of a positions-only motion: linear segments with parabolic blends (Craig §7.3).

    ``times`` (K,), ``positions`` (K, n) and the velocity (n,) at the first point; the motion
    ends at rest at the last point. Each segment is a straight line at constant speed; at
    each interior point the speed changes from one segment's to the next at constant
    acceleration during a blend of ``blend`` x the shorter adjacent segment, centred on the
    point (the line through the point is kept; the corner is cut by ``Δv b / 8``); at the
    ends, blends of ``blend`` x the first and last segments start from the given velocity and
    stop at rest, the end segments' speeds raised so that the lines still pass through the
    points (Craig eq. 7.24-7.28). The peak speed is at most ``1 / (1 - blend)`` x the
    straight-line interpolation's (1.33x at the default), where a cubic spline through rest
    to rest reaches 1.5x, and every acceleration is finite.

    Returns ``times, positions, velocities`` (2K,) / (2K, n): the blends' start and end
    points, whose cubic Hermite interpolation (:func:`sample_waypoints` with velocities and
    no accelerations) is exactly the blended motion (each piece is of degree 2 or 1).
    """
    t = np.asarray(times, dtype=float)
    p = np.asarray(positions, dtype=float)
    v_start = np.asarray(start_velocity, dtype=float)
    dt = np.diff(t)
    b = np.empty(t.size)
    b[0], b[-1] = blend * dt[0], blend * dt[-1]
    b[1:-1] = blend * np.minimum(dt[:-1], dt[1:])
    v = (p[1:] - p[:-1]) / dt[:, None]                      # one speed per segment
    anchor_t, anchor_p = t[:-1].copy(), p[:-1].copy()       # each segment's line through
    end_blend = b[1] / 2 if t.size == 2 else 0.0           # one segment: both blends on it
    v[0] = (p[1] - p[0] - v_start * b[0] / 2) / (dt[0] - b[0] / 2 - end_blend)
    anchor_t[0], anchor_p[0] = t[0] + b[0], p[0] + (v_start + v[0]) * b[0] / 2
    if t.size > 2:
        v[-1] = (p[-1] - p[-2]) / (dt[-1] - b[-1] / 2)

    def line(k, at):
        return anchor_p[k] + v[k] * (at - anchor_t[k])
    knots_t = [t[0], t[0] + b[0]]
    knots_p = [p[0], anchor_p[0]]
    knots_v = [v_start, v[0]]
    for k in range(1, t.size - 1):
        before, after = t[k] - b[k] / 2, t[k] + b[k] / 2
        knots_t += [before, after]
        knots_p += [line(k - 1, before), line(k, after)]
        knots_v += [v[k - 1], v[k]]
    knots_t += [t[-1] - b[-1], t[-1]]
    knots_p += [line(t.size - 2, t[-1] - b[-1]), p[-1]]
    knots_v += [v[-1], np.zeros_like(v_start)]
    return np.array(knots_t), np.array(knots_p), np.array(knots_v)


def segment_peaks(times, positions, velocities=None, accelerations=None, samples=PEAK_SAMPLES):
    """Peak ``|velocity|`` and ``|acceleration|`` (K-1, n) of each segment of the interpolant.

    The interpolant is the one :func:`sample_waypoints` uses (quintic, cubic or linear), each
    segment evaluated at ``samples + 1`` evenly spaced times, both ends included: never above
    the true peak, at most ~2 % below it (exact for a minimum-jerk move's speed). A linear
    segment's acceleration is 0 (:func:`sample_waypoints` samples no kink either). About 4.5 ms
    for 10,000 quintic points of 6 joints (2 ms cubic, 0.3 ms linear; docs/robustness.md).
    """
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    T = np.diff(times)[:, None]
    rise = positions[1:] - positions[:-1]
    if velocities is None:
        return np.abs(rise) / T, np.zeros_like(rise)
    # In normalised time u = s / T the segment's coefficients are linear in its end conditions
    # scaled by T (rise, v T, a T^2): c = C ends, with C read off the coefficient functions
    # at T = 1 for unit end conditions. Then qd = sum_k k c_k u^(k-1) / T and
    # qdd = sum_k k (k-1) c_k u^(k-2) / T^2: one matrix product per sampled quantity.
    unit = np.eye(5 if accelerations is not None else 3)
    if accelerations is None:
        ends = (rise, velocities[:-1] * T, velocities[1:] * T)
        C = np.array(_cubic_coefficients(0.0, unit[1], unit[0], unit[2], 1.0)[1:])
    else:
        ends = (rise, velocities[:-1] * T, accelerations[:-1] * T ** 2, velocities[1:] * T,
                accelerations[1:] * T ** 2)
        C = np.array(_quintic_coefficients(0.0, unit[1], unit[2], unit[0], unit[3], unit[4],
                                           1.0)[1:])
    u, k = np.linspace(0.0, 1.0, samples + 1)[:, None], np.arange(1, len(C) + 1)
    samplers = ((k * u ** (k - 1)) @ C, (k[1:] * (k[1:] - 1) * u ** (k[1:] - 2)) @ C[1:])
    X = np.stack(ends).reshape(len(ends), -1)
    peaks = np.empty((2, X.shape[1]))
    for start in range(0, X.shape[1], _PEAK_BLOCK):     # blocks: no large fresh arrays
        block = X[:, start:start + _PEAK_BLOCK]
        for sampler, peak in zip(samplers, peaks):
            np.abs(sampler @ block).max(axis=0, out=peak[start:start + _PEAK_BLOCK])
    return peaks[0].reshape(rise.shape) / T, peaks[1].reshape(rise.shape) / T ** 2


def home_posture(model):
    """Return the home posture (n,): 0 where the limits allow it, else the middle of the range.

    Where only one limit is finite and 0 is outside the range, the finite limit. The standard
    trajectory starts and ends here, and the simulation node starts here by default.
    """
    lower, upper = model.lower_limit, model.upper_limit
    with np.errstate(invalid='ignore'):              # -inf + inf where both are unlimited
        middle = np.where(np.isfinite(lower + upper), 0.5 * (lower + upper),
                          np.where(np.isfinite(lower), lower, upper))
    return np.where((lower <= 0) & (upper >= 0), 0.0, middle)


def standard_waypoints(model, move_time=1.0, amplitude=0.5, moves=4):
    """Return a standard point-to-point test motion for ``model`` within its joint limits.

    Returns ``times`` (K,), ``positions``, ``velocities``, ``accelerations`` (K, n): a home
    posture (0, or the middle of the range where 0 is outside the limits) followed by ``moves``
    rest-to-rest moves of ``move_time`` seconds, alternately ``+amplitude`` and ``-amplitude``
    (rad or m, shrunk to 40 % of the free range on each side) about home, ending at home.
    With zero velocity and acceleration at every waypoint, the quintic Hermite interpolation
    of :func:`sample_waypoints` makes each move the classic quintic (minimum-jerk) profile.
    """
    lower, upper = model.lower_limit, model.upper_limit
    home = home_posture(model)
    room_up = np.minimum(amplitude, 0.4 * (upper - home))
    room_down = np.minimum(amplitude, 0.4 * (home - lower))
    targets = [home]
    for k in range(moves - 1):
        sign = 1.0 if k % 2 == 0 else -1.0
        targets.append(home + (room_up if sign > 0 else -room_down) * _pattern(model.dof, k))
    targets.append(home)
    positions = np.array(targets)
    times = move_time * np.arange(len(targets))
    zeros = np.zeros_like(positions)
    return times, positions, zeros, zeros.copy()


def _pattern(n, k):
    """Per-joint weights in [0.5, 1] that differ between moves, so joints do not move alike."""
    return 0.75 + 0.25 * np.cos(np.arange(n) * 1.3 + k * 0.7)


def sample_waypoints_many(times, positions, velocities, accelerations, t):
    """Return the desired ``q, qd, qdd`` (S, n) at the times ``t`` (S,).

    :func:`sample_waypoints` vectorised: the same interpolant, the same holds before the first
    and after the last waypoint.
    """
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    t = np.asarray(t, dtype=float).reshape(-1)
    rest = np.zeros((t.size, positions.shape[1]))
    if times.size == 1:
        return np.repeat(positions, t.size, axis=0), rest, rest.copy()
    k = np.clip(np.searchsorted(times, t, side='right') - 1, 0, times.size - 2)
    T = np.diff(times)[:, None]                       # per segment; coefficients likewise
    s = np.minimum(np.clip(t - times[k], 0.0, None)[:, None], T[k])
    p0, p1 = positions[:-1], positions[1:]
    if velocities is not None and accelerations is not None:
        c = _quintic_coefficients(p0, velocities[:-1], accelerations[:-1], p1,
                                  velocities[1:], accelerations[1:], T)
    elif velocities is not None:
        c = _cubic_coefficients(p0, velocities[:-1], p1, velocities[1:], T)
    else:
        c = (p0, (p1 - p0) / T)
    c = [np.broadcast_to(ci, p0.shape)[k] for ci in c]
    q = qd = qdd = 0.0
    for i in reversed(range(len(c))):                  # Horner, with the derivatives
        qdd = qdd * s + 2 * qd if i < len(c) - 1 else qdd
        qd = qd * s + q
        q = q * s + c[i]
    qdd = qdd + rest
    outside = ((t < times[0]) | (t >= times[-1]))[:, None]
    held = np.where(t[:, None] < times[0], positions[0], positions[-1])
    return (np.where(outside, held, q), np.where(outside, 0.0, qd),
            np.where(outside, 0.0, qdd))
