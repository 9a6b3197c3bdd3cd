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
"""Torque and velocity feasibility of a waypoint trajectory, and its exact time scaling.

The trajectory is the interpolant that is executed (:func:`~robot_dynamics.simulation.
trajectory.sample_waypoints_many`: quintic, cubic or linear between waypoints). Sampling rule:
every segment at ``samples_per_segment + 1`` evenly spaced times, both ends included (default
64 intervals: on a fast UR5 motion of quintic moves the sampled peak torques are within 0.16 %
of those found with 2,000 intervals, 0.5 % with 32; test/analysis/test_feasibility.py). The
margin (default 5 %) covers that sampling error. At most ``MAX_SAMPLES`` samples per check:
a 10,000-point trajectory gets 2 per segment (20,000 samples of 6 joints: 36 ms on the shared
2-core machine at load 12, benchmarks/feasibility_check.py), which bounds the time the nodes'
callbacks spend on a check.

Time scaling (Hollerbach, "Dynamic scaling of manipulator trajectories", 1984): running the
motion ``k`` times slower, ``q_k(t) = q(t / k)``, gives ``q̇ / k`` and ``q̈ / k²``. With
``x = 1 / k`` every joint torque at every sample is a quadratic in ``x``::

    τ(x) = A x² + B x + C
    A = M(q) q̈ + C(q, q̇) q̇          (inertial, Coriolis, rotor inertia)
    B = Fv q̇                          (viscous friction)
    C = G(q) + Fc s(q̇) + τ₀ + Fa |s|  (gravity, Coulomb levels: sign(q̇ / k) = sign(q̇))

so the ``x`` where ``|τ(x)| > (1 - margin) τ_max`` are at most two open intervals per sample,
found from the roots of ``τ(x) = ±L``. The smallest feasible ``k >= 1`` is ``1 / x*`` with
``x*`` the largest point of (0, 1] outside the union of those intervals and of the velocity
intervals ``x > q̇_max / |q̇|``: exact, no trial runs. When ``|C| > L`` at a sample, gravity
(and Coulomb friction) alone exceed the limit and no ``k`` helps. Friction with a smooth
switch (ε > 0) or a Stribeck term is not polynomial in ``x``: then ``k`` comes from a bisection
on the full model at the same samples (``exact`` is False in the result). A trajectory of
positions only is linear between waypoints (as upstream interpolates it): its speed jumps at
the waypoints, an impulse of acceleration that no sampling sees; give velocities (and
accelerations) for a motion whose torque can be checked.
"""

from dataclasses import dataclass, field

import numpy as np

from robot_dynamics import api
from robot_dynamics.errors import ResultOverflowError
from robot_dynamics.simulation.trajectory import check_waypoints, sample_waypoints_many

SAMPLES_PER_SEGMENT = 64     # intervals per segment at which torque and speed are evaluated
MAX_SAMPLES = 20_000         # samples of one check; longer trajectories get fewer per segment
DEFAULT_MARGIN = 0.05        # fraction of the effort limit kept in reserve
MAX_SCALE = 1.0e3            # slower than this is reported as "no k helps"
ROUNDING = 1e-12             # relative excess that counts as rounding, not as a violation


@dataclass(frozen=True)
class Violation:
    """The worst excess of one joint: ``needed`` (N m, N, rad/s or m/s) above ``limit``."""

    joint: str
    kind: str            # 'effort' or 'velocity'
    time: float          # s from the trajectory start
    needed: float
    limit: float
    unit: str

    def describe(self):
        """Return the fact as a sentence (no scale factor)."""
        what = 'need' if self.kind == 'effort' else 'move at'
        return (f'joint {self.joint} would {what} {self.needed:.4g} {self.unit} at '
                f't = {self.time:.3g} s; the {self.kind} limit is {self.limit:.4g} {self.unit}')


@dataclass(frozen=True)
class Binding:
    """The limit that sets the slow-down: ``kind`` 'effort' or 'velocity', of ``joint``.

    ``detail``: its values as a phrase; ``effort_share``: the slowed motion's largest
    ``|τ| / τ_max`` (its torque peak as a fraction of the limit).
    """

    kind: str
    joint: str
    detail: str
    effort_share: float

    def describe(self, worst=None):
        """Return the phrase; shorter when ``worst`` (a :class:`Violation`) says the rest."""
        if self.kind == 'effort':
            return f'the effort limit of joint {self.joint} sets the slow-down: {self.detail}'
        same = worst is not None and (worst.kind, worst.joint) == (self.kind, self.joint)
        return ('the velocity limit sets the slow-down' + ('' if same else
                                                           f': joint {self.joint} {self.detail}')
                + f'; slowed, the efforts reach {100 * self.effort_share:.3g} % of their limits')


@dataclass(frozen=True)
class FeasibilityReport:
    """The check of one trajectory: samples, worst violations and the scale that fits.

    ``times`` (S,), ``torques`` and ``velocities`` (S, n) at the samples; ``effort_ratio``
    (S, n) is ``|τ| / τ_max`` (0 where a joint has no effort limit). ``scale`` is the smallest
    ``k >= 1`` that fits (1.0 if the motion fits as it is), None when no ``k`` helps
    (``reason`` says why). ``binding``: the :class:`Binding` limit that sets ``scale``, None
    when the motion fits as it is or no ``k`` helps.
    """

    times: np.ndarray
    torques: np.ndarray
    velocities: np.ndarray
    effort_ratio: np.ndarray
    violations: list
    scale: float
    exact: bool = True
    reason: str = ''
    margin: float = DEFAULT_MARGIN
    joint_names: tuple = field(default=())
    binding: Binding = None

    @property
    def feasible(self):
        """Tell whether the motion fits the limits as it is."""
        return not self.violations

    def message(self):
        """Return one line: 'fits' or the worst violation and the scale factor that fits."""
        if self.feasible:
            return 'the trajectory is within the effort and velocity limits'
        worst = max(self.violations, key=lambda v: v.needed / v.limit)
        if self.scale is None:
            return f'{worst.describe()}; {self.reason}'
        return (f'{worst.describe()}; slowed by {self.scale:.3g}x it fits (margin '
                f'{100 * self.margin:.3g} %)'
                + ('' if self.binding is None else '; ' + self.binding.describe(worst)))


def sample_times(times, samples_per_segment=SAMPLES_PER_SEGMENT):
    """Return the sample times (S,): each segment at ``samples + 1`` points, ends included."""
    times = np.asarray(times, dtype=float)
    if times.size < 2:
        return times.copy()
    per = int(max(1, min(samples_per_segment, MAX_SAMPLES // (times.size - 1))))
    u = np.linspace(0.0, 1.0, per + 1)[:-1]
    inner = (times[:-1, None] + np.diff(times)[:, None] * u).reshape(-1)
    return np.append(inner, times[-1])


def _torques(model, q, qd, qdd):
    """``api.inverse_dynamics`` of samples (S, n), +inf in the rows whose torques overflow.

    The public function refuses a result that overflows double precision (issue 22); here
    such an absurd sample counts as infeasible, and the plausibility bounds refuse the motion
    with their reason. Rows are retried one by one only when the batch overflowed.
    """
    try:
        return api.inverse_dynamics(model, q, qd, qdd)
    except ResultOverflowError:
        pass
    q, qd, qdd = np.broadcast_arrays(q, qd, qdd)
    tau = np.full(q.shape, np.inf)
    for row in range(q.shape[0]):
        try:
            tau[row] = api.inverse_dynamics(model, q[row], qd[row], qdd[row])
        except ResultOverflowError:
            pass
    return tau


def torque_terms(model, q, qd, qdd):
    """Return ``A, B, C`` (S, n): ``τ = A / k² + B / k + C`` for the motion slowed by k.

    ``C`` is the gravity plus the velocity-sign friction levels (:mod:`the module
    <robot_dynamics.analysis.feasibility>`); the split is exact for viscous + Coulomb friction
    (with offset and asymmetry).
    """
    zero = np.zeros_like(q)
    gravity = api.inverse_dynamics(model, q, zero, zero) - api.friction_torques(model, zero)
    friction = api.friction_torques(model, qd)
    viscous = model.viscous_friction * qd
    inertial = _torques(model, q, qd, qdd) - gravity - friction
    return inertial, viscous, gravity + friction - viscous


def _exact_polynomial(model):
    """Tell whether the friction law is polynomial in 1/k (no smooth switch, no Stribeck)."""
    return not (np.any(model.friction_smoothing > 0) or np.any(model.stribeck_friction != 0))


def _bad_intervals(A, B, C, L):
    """Open intervals of x in (0, 1] where ``|A x² + B x + C| > L`` (arrays of lo, hi)."""
    lows, highs = [], []
    a, b, c, lim = (v.reshape(-1) for v in np.broadcast_arrays(A, B, C, L))
    for sign in (1.0, -1.0):
        # sign * (a x² + b x + c) - lim > 0 is the violation of one side.
        qa, qb, qc = sign * a, sign * b, sign * c - lim
        roots = _quadratic_roots(qa, qb, qc)
        # Sample the polynomial between consecutive roots (and 0, 1) to find the bad pieces.
        points = np.concatenate([np.zeros((a.size, 1)), roots, np.ones((a.size, 1))], axis=1)
        points.sort(axis=1)
        mids = 0.5 * (points[:, 1:] + points[:, :-1])
        bad = qa[:, None] * mids ** 2 + qb[:, None] * mids + qc[:, None] > 0
        bad &= points[:, 1:] > points[:, :-1]
        lows.append(points[:, :-1][bad])
        highs.append(points[:, 1:][bad])
    return np.concatenate(lows), np.concatenate(highs)


def _quadratic_roots(a, b, c):
    """Real roots of ``a x² + b x + c`` clipped to [0, 1] (S, 2); 0 where there is none."""
    roots = np.zeros((a.size, 2))
    with np.errstate(divide='ignore', invalid='ignore'):
        disc = b * b - 4 * a * c
        sq = np.sqrt(np.where(disc >= 0, disc, 0.0))
        # Stable form: q = -(b + sign(b) sq) / 2, roots q / a and c / q.
        qq = -0.5 * (b + np.where(b >= 0, 1.0, -1.0) * sq)
        quad = (a != 0) & (disc >= 0)
        r1 = np.where(quad & (qq != 0), c / qq, 0.0)
        r2 = np.where(quad & (a != 0), qq / a, 0.0)
        lin = (a == 0) & (b != 0)
        r1 = np.where(lin, -c / np.where(lin, b, 1.0), r1)
    roots[:, 0], roots[:, 1] = r1, np.where(lin, 0.0, r2)
    return np.clip(np.nan_to_num(roots), 0.0, 1.0)


def largest_feasible_x(lows, highs):
    """Largest x in (0, 1] outside every open interval ``(lows, highs)``; 0 if none is.

    An interval that reaches 1 also covers x = 1 (the motion as it is violates there). Sweep
    by decreasing upper end: x drops to the lower end of each interval that covers it, and the
    sweep stops at the first interval that ends at or below the current x.
    """
    if lows.size == 0:
        return 1.0
    order = np.argsort(-highs, kind='stable')
    lows, highs = lows[order], highs[order]
    before = np.minimum.accumulate(np.concatenate([[1.0], lows]))[:-1]   # x before interval i
    stop = np.flatnonzero((highs <= before) & (highs < 1.0))
    return float(before[stop[0]] if stop.size else min(before[-1], lows[-1]))


def scale_factor(model, A, B, C, qd, margin=DEFAULT_MARGIN):
    """Return ``(k, reason)``: the smallest k >= 1 that fits, or ``(None, why)``."""
    effort = np.where(np.isfinite(model.effort_limit), model.effort_limit, np.inf)
    L = (1.0 - margin) * effort
    limited = np.isfinite(L)
    stuck = limited & (np.abs(C) > L)
    if np.any(stuck):
        s, j = np.argwhere(stuck)[0]
        return None, (f'gravity and Coulomb friction alone need {abs(C[s, j]):.4g} '
                      f'at joint {model.joint_names[j]} ({(1 - margin) * effort[j]:.4g} allowed '
                      'with the margin): no time scaling helps')
    # |A x² + B x + C| <= |A| + |B| + |C| on (0, 1]: only entries above L can violate.
    risky = limited & (np.abs(A) + np.abs(B) + np.abs(C) > L)
    lows, highs = _bad_intervals(A[risky], B[risky], C[risky],
                                 np.broadcast_to(L, A.shape)[risky])
    vmax = model.velocity_limit
    vcols = np.flatnonzero(np.isfinite(vmax))
    speed = np.abs(qd[:, vcols])
    with np.errstate(divide='ignore'):
        xv = np.where(speed > 0, vmax[vcols] / speed, np.inf)
    fast = xv < 1.0
    lows = np.concatenate([lows, xv[fast]])
    highs = np.concatenate([highs, np.ones(int(fast.sum()))])
    x = largest_feasible_x(lows, highs)
    if x <= 1.0 / MAX_SCALE:
        return None, f'no slow-down up to {MAX_SCALE:g}x fits'
    return 1.0 / x, ''


def binding_limit(model, t, torques, qd, k, margin):
    """Return the :class:`Binding` limit of the slow-down ``k``: the one the slowed motion reaches.

    ``torques`` (S, n): the torques of the motion slowed by ``k`` at the samples ``t``; ``qd``
    (S, n) the speeds before slowing. The binding limit is the larger of the effort ratio
    ``|τ_k| / ((1 - margin) τ_max)`` and the speed ratio ``|q̇| / (k q̇_max)`` (at ``k`` it is 1;
    the other is below it).
    """
    with np.errstate(divide='ignore', invalid='ignore'):
        effort = np.where(np.isfinite(model.effort_limit),
                          np.abs(torques) / ((1.0 - margin) * model.effort_limit), 0.0)
        speed = np.where(np.isfinite(model.velocity_limit),
                         np.abs(qd) / (k * model.velocity_limit), 0.0)
    peak_effort, peak_speed = effort.max(initial=0.0), speed.max(initial=0.0)
    ratio = speed if peak_speed >= peak_effort else effort
    s, j = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    unit = ('N m', 'rad/s') if model.is_revolute[j] else ('N', 'm/s')
    if ratio is speed:
        detail = (f'moves at {abs(qd[s, j]):.4g} {unit[1]} at t = {t[s]:.3g} s, {k:.3g}x its '
                  f'limit {model.velocity_limit[j]:.4g} {unit[1]}')
        kind = 'velocity'
    else:
        detail = (f'slowed, it needs {abs(torques[s, j]):.4g} {unit[0]} at t = {k * t[s]:.3g} s '
                  f'of the slowed motion, the limit {model.effort_limit[j]:.4g} {unit[0]} less '
                  'the margin')
        kind = 'effort'
    return Binding(kind, model.joint_names[j], detail, float(peak_effort * (1.0 - margin)))


def _fits(model, q, qd, qdd, k, margin):
    """Tell whether the samples slowed by ``k`` fit the limits (the full model's torque)."""
    tau = _torques(model, q, qd / k, qdd / k ** 2)
    limit = (1.0 - margin) * model.effort_limit
    return bool(np.all(np.abs(tau) <= limit) and np.all(np.abs(qd) / k <= model.velocity_limit))


def bisect_scale(model, q, qd, qdd, margin=DEFAULT_MARGIN, rtol=1e-12):
    """Return the smallest k in [1, MAX_SCALE] at which the samples fit, by bisection, or None.

    For friction laws that are not polynomial in 1/k; assumes that a motion that fits at k fits
    at every slower k above the answer (true for the quadratic law wherever gravity fits).
    """
    if _fits(model, q, qd, qdd, 1.0, margin):
        return 1.0
    if not _fits(model, q, qd, qdd, MAX_SCALE, margin):
        return None
    low, high = 1.0, MAX_SCALE
    while high - low > rtol * high:
        middle = 0.5 * (low + high)
        low, high = (low, middle) if _fits(model, q, qd, qdd, middle, margin) else (middle, high)
    return high


def _worst_violations(model, t, tau, qd):
    """Return the worst effort and velocity excess of each joint (:class:`Violation` list)."""
    found = []
    units = [('N m', 'rad/s') if revolute else ('N', 'm/s') for revolute in model.is_revolute]
    for kind, values, limits in (('effort', tau, model.effort_limit),
                                 ('velocity', qd, model.velocity_limit)):
        with np.errstate(divide='ignore', invalid='ignore'):
            ratio = np.where(np.isfinite(limits), np.abs(values) / limits, 0.0)
        for j in np.flatnonzero(ratio.max(axis=0, initial=0.0) > 1.0 + ROUNDING):
            s = int(np.argmax(ratio[:, j]))
            found.append(Violation(model.joint_names[j], kind, float(t[s]),
                                   float(abs(values[s, j])), float(limits[j]),
                                   units[j][0 if kind == 'effort' else 1]))
    return found


def check_trajectory(model, times, positions, velocities=None, accelerations=None,
                     margin=DEFAULT_MARGIN, samples_per_segment=SAMPLES_PER_SEGMENT):
    """Check the interpolated motion against the effort and velocity limits of ``model``.

    ``times`` (K,) s, ``positions`` (K, n), optional ``velocities`` and ``accelerations``
    (K, n), model joint order. Include a payload with ``model.with_payload(...)``. A violation
    is a torque above the URDF effort limit or a speed above the velocity limit (no margin);
    the ``scale`` reported is the smallest slow-down that keeps every torque within
    ``(1 - margin)`` of its limit and every speed within its limit.
    """
    times, positions, velocities, accelerations = check_waypoints(
        times, positions, velocities, accelerations)
    t = sample_times(times, samples_per_segment)
    q, qd, qdd = sample_waypoints_many(times, positions, velocities, accelerations, t)
    return check_samples(model, t - times[0], q, qd, qdd, margin)


def check_samples(model, t, q, qd, qdd, margin=DEFAULT_MARGIN):
    """Check a sampled motion: ``t`` (S,) s, ``q, qd, qdd`` (S, n); see :func:`check_trajectory`.

    For a motion interpolated elsewhere (the command line's splines); the samples must be
    fine enough to hold the peaks (the module's sampling rule).
    """
    if not 0.0 <= margin < 1.0:
        raise ValueError(f'margin: {margin!r} must be in [0, 1), e.g. 0.05 for 5 %')
    A, B, C = torque_terms(model, q, qd, qdd)
    tau = A + B + C
    violations = _worst_violations(model, t, tau, qd)
    exact = _exact_polynomial(model)
    if exact:
        scale, reason = scale_factor(model, A, B, C, qd, margin)
    else:
        scale = bisect_scale(model, q, qd, qdd, margin)
        reason = '' if scale is not None else f'no slow-down up to {MAX_SCALE:g}x fits'
    binding = None
    if violations and scale is not None:
        slowed = A / scale ** 2 + B / scale + C if exact else _torques(
            model, q, qd / scale, qdd / scale ** 2)
        binding = binding_limit(model, np.asarray(t, dtype=float), slowed, qd, scale, margin)
    with np.errstate(divide='ignore', invalid='ignore'):
        ratio = np.where(np.isfinite(model.effort_limit), np.abs(tau) / model.effort_limit, 0.0)
    return FeasibilityReport(np.asarray(t, dtype=float), tau, qd, ratio, violations, scale,
                             exact, reason, margin, tuple(model.joint_names), binding)


def scaled_waypoints(times, positions, velocities, accelerations, k):
    """Return the waypoints of the motion slowed by ``k`` (times x k, q̇ / k, q̈ / k²).

    The interpolant of the result is exactly ``q(t / k)``: a Hermite polynomial through the
    scaled end conditions is the original one in scaled time (uniqueness).
    """
    times = np.asarray(times, dtype=float)
    start = times[0]
    return (start + k * (times - start), positions,
            None if velocities is None else np.asarray(velocities) / k,
            None if accelerations is None else np.asarray(accelerations) / k ** 2)
