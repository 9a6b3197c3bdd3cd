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
"""TOPP-RA's two passes over the grid of the path parameter, in closed form.

Pham & Pham, "A New Approach to Time-Optimal Path Parameterization Based on Reachability
Analysis", IEEE T-RO 34(3), 2018. On the grid ``s_0 < … < s_N`` the path acceleration ``u_i`` is
constant on interval ``i`` (length ``Δ_i``), so ``x_{i+1} = x_i + 2 Δ_i u_i`` with ``x = ṡ²``.
Stage ``i`` has the slabs ``lo <= α u + β x_i <= hi`` of ``path_dynamics.slabs`` (``α >= 0``,
``(N, m)`` arrays, neutral padding ``α = β = 0``).

*Backward pass* (controllable sets, paper §IV-B): ``K_N = {x_end}`` and ``K_i = [0, k_i]`` with
``k_i`` the largest ``x_i`` for which some ``u`` meets the slabs and ``x_i + 2 Δ_i u <= k_{i+1}``.
That is a linear program in two variables; eliminating ``u`` (Fourier–Motzkin) solves it in
closed form: ``u`` must lie above every slab's lower line and below every upper line, so each
pair (upper side of slab ``p``, lower side of slab ``q``) bounds ``x``::

    (α_q β_p - α_p β_q) x <= α_q hi_p - α_p lo_q

The pairs among the stage's own slabs give a constant ``X_i`` (the largest feasible ``x``, in one
vectorised step for all stages); the pairs with the link ``x + 2 Δ u <= k_{i+1}`` are affine in
``k_{i+1}``: ``k_i = min(X_i, min_q (m_q k_{i+1} + e_q))``. *Forward pass* (paper §IV-C): from
``x_0``, the greedy largest ``u_i``, ``x_{i+1} = min(k_{i+1}, min_p (A_p x_i + F_p))`` with
``A_p = 1 - 2Δ β_p / α_p``, ``F_p = 2Δ hi_p / α_p``. Both recursions are scalar loops: the
engine's ``min_affine`` steps through them over every line of every stage, and its
``largest_feasible`` takes the Newton steps of :func:`largest_feasible` stage by stage (the same
operations, the same bits, ~1 % of the numpy and Python cost). Without the engine the Python
loops run: where the profile rides its bound (``k_{i+1} = X_{i+1}``, or ``x_i = k_i``) the step
was computed for all stages at once beforehand, so Python only steps through braking and
accelerating stretches.
The lower end of every ``K_i`` is 0 because rest (``u = x = 0``) is feasible at every point
(checked before: :func:`~robot_dynamics.analysis.path_dynamics.check_at_rest`).
"""

import numpy as np

from robot_dynamics.analysis.path_dynamics import BIG
from robot_dynamics.engine import ENGINE

ENVELOPE_POINTS = 4       # values per stage at which the passes' lowest lines are taken


def largest_feasible(alpha, beta, lo, hi, delta, iterations=100):
    """Return ``X`` (k,): the largest ``x >= 0`` at which some ``u`` meets every slab of a stage.

    ``alpha, beta, lo, hi`` (k, W) per stage (neutral padding), ``delta`` (k,) the intervals;
    the link's ``x + 2Δu >= 0`` counts too. ``u`` must lie above every lower line
    ``(lo - β x) / α`` and below every upper line ``(hi - β x) / α`` (``α > 0``), so the gap
    ``φ(x) = min upper - max lower`` is concave and piecewise linear with ``φ(0) >= 0`` (rest is
    feasible); ``X`` is its root (or the bound of the ``α = 0`` slabs). Newton's steps from the
    right along the active lines (supergradients) never pass the root and end on it after as
    many steps as pieces crossed (the pairwise Fourier–Motzkin elimination, without the pairs).
    """
    up = alpha > 0
    a = np.where(up, alpha, 1.0)
    with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
        cap = np.where(~up & (beta > 0), hi / np.where(beta > 0, beta, 1.0),
                       np.where(~up & (beta < 0), lo / np.where(beta < 0, beta, -1.0), BIG))
        x = np.clip(cap.min(axis=1, initial=BIG), 0.0, BIG)
        slope_of = np.where(up, -beta / a, 0.0)
        active = np.arange(x.size)                 # stages whose Newton steps go on
        for _ in range(iterations):
            A, B, L, H, S, D, xa = (v[active] for v in (a, beta, lo, hi, slope_of, delta, x))
            U = up[active]
            rows = np.arange(active.size)
            upper = np.where(U, (H - B * xa[:, None]) / A, BIG)
            lower = np.where(U, (L - B * xa[:, None]) / A, -BIG)
            i, j = upper.argmin(axis=1), lower.argmax(axis=1)
            top, bottom = upper[rows, i], lower[rows, j]
            link = -xa / (2.0 * D)                   # u >= -x / (2Δ)
            use_link = link > bottom
            bottom = np.where(use_link, link, bottom)
            gap = top - bottom
            # Rounding: the terms of each line, not their difference, set the scale.
            scale = (np.abs(H[rows, i]) + np.abs(B[rows, i] * xa)) / A[rows, i] + np.where(
                use_link, np.abs(link), (np.abs(L[rows, j]) + np.abs(B[rows, j] * xa))
                / A[rows, j])
            short = gap < -1e-12 * scale
            slope = S[rows, i] - np.where(use_link, -1.0 / (2.0 * D), S[rows, j])
            step = np.where(short, np.maximum(xa - gap / np.where(short, slope, -1.0), 0.0), xa)
            x[active] = step
            active = active[short & (step != xa)]
            if active.size == 0:
                break
    return x


def slab_bounds(alpha, beta, lo, hi, delta):
    """Per slab: ``m, e`` and ``A, F`` of the two passes (arrays of the slabs' shape).

    The lower side of a slab and the link's ``x + 2Δu <= k`` bound ``x <= m k + e``; the upper
    side bounds the next speed, ``x' = x + 2Δu <= A x + F`` (module docstring).
    """
    two = 2.0 * delta
    with np.errstate(divide='ignore', invalid='ignore', over='ignore'):
        Bq = alpha - two * beta                     # the pair (link upper side, slab lower side)
        ok = Bq > 0
        m = np.where(ok, alpha / np.where(ok, Bq, 1.0), 0.0)
        e = np.where(ok, -two * lo / np.where(ok, Bq, 1.0), BIG)
        up = alpha > 0
        A = np.where(up, 1.0 - two * beta / np.where(up, alpha, 1.0), 0.0)
        F = np.where(up, two * hi / np.where(up, alpha, 1.0), BIG)
    return m, np.minimum(e, BIG), A, np.minimum(F, BIG)


def backward_pass(X, m, e, x_end, old=None, changed=None):
    """Return ``k`` (N+1,): the upper ends of the controllable sets, ``k_N = x_end``.

    ``m, e`` (N, W): ``k_i = min(X_i, min_q (m_q k_{i+1} + e_q))`` (neutral: m = 0, e = BIG).
    Where ``k_{i+1}`` is at its cap ``X_{i+1}`` the step was computed for all stages at once.
    ``old``, ``changed`` (first, last): the previous ``k`` and the stages changed since; the
    pass starts at the last and stops below the first once ``k`` is the old one again.
    """
    N = X.size
    cap = np.append(X[1:], x_end)                    # k_{i+1} <= cap_i
    riding = np.minimum(X, (m * cap[:, None] + e).min(axis=1)).tolist()
    bottom, top = (0, N - 1) if old is None else changed
    k = [0.0] * N + [float(x_end)] if old is None else old.tolist()
    cap, m, e = cap.tolist(), m.tolist(), e.tolist()
    for i in range(top, -1, -1):
        following = k[i + 1]
        if following >= cap[i]:
            value = riding[i]
        else:
            value = min([riding[i]] + [a * following + b for a, b in zip(m[i], e[i])])
        if i < bottom and value == k[i]:
            break
        k[i] = value
    return np.maximum(np.array(k), 0.0)


def forward_pass(k, A, F, x_start, old=None, changed=None):
    """Return ``x`` (N+1,): the greedy profile from ``x_start`` under the controllable sets.

    ``A, F`` (N, W): ``x_{i+1} = min(k_{i+1}, min_p (A_p x_i + F_p))`` (neutral: A = 0, F = BIG).
    ``old``, ``changed`` (first, last): the previous ``x`` and the first and last stage whose
    slabs or ``k`` changed; the pass starts there and stops past the last once ``x`` is the
    old one again.
    """
    N = k.size - 1
    riding = np.minimum(k[1:], (A * k[:-1, None] + F).min(axis=1)).tolist()
    first, last = (0, N - 1) if old is None else changed
    x = [float(x_start)] + [0.0] * N if old is None else old.tolist()
    k, A, F = k.tolist(), A.tolist(), F.tolist()
    for i in range(first, N):
        if x[i] >= k[i]:
            x[i], value = k[i], riding[i]
        else:
            xi = x[i]
            value = min([k[i + 1]] + [a * xi + f for a, f in zip(A[i], F[i])])
        if i > last and value == x[i + 1]:
            break
        x[i + 1] = value
    return np.maximum(np.array(x), 0.0)


class Stages:
    """The slabs of the N stages of a grid ``s`` as (N, W) arrays, grown by :meth:`add`.

    :meth:`solve` runs the two passes. ``X`` is recomputed for the stages that got slabs.
    """

    def __init__(self, s):
        self.s, self.delta = s, np.diff(s)
        N = self.delta.size
        self.X = np.full(N, BIG)
        self.count = np.zeros(N, int)
        self.rows = [np.full((N, 0), fill) for fill in _NEUTRAL]
        self.k = self.x = self.ends = None
        self.changed = np.empty(0, int)

    def add(self, alpha, beta, lo, hi, stage):
        """Add slabs (flat arrays, ``stage`` their intervals)."""
        if stage.size == 0:
            return
        order = np.argsort(stage, kind='stable')
        stage = stage[order]
        # Sorted: each stage's run of slabs starts where the stage changes (np.unique and
        # np.searchsorted cost ~10x as much).
        starts = np.flatnonzero(np.concatenate([[True], stage[1:] != stage[:-1]]))
        sizes = np.diff(np.append(starts, stage.size))
        wanted = stage[starts]
        column = self.count[stage] + np.arange(stage.size) - np.repeat(starts, sizes)
        width = int(column.max(initial=-1)) + 1
        if width > self.rows[0].shape[1]:
            grow = max(width, 2 * self.rows[0].shape[1]) - self.rows[0].shape[1]
            self.rows = [np.concatenate([r, np.full((r.shape[0], grow), fill)], axis=1)
                         for r, fill in zip(self.rows, _NEUTRAL)]
        for r, values in zip(self.rows, (alpha, beta, lo, hi)):
            r[stage, column] = np.asarray(values)[order]
        self.count[wanted] += sizes
        self.changed = np.union1d(self.changed, wanted) if self.changed.size else wanted
        used = slice(0, int(self.count[wanted].max()))
        self.X[wanted] = _LARGEST(*(r[wanted, used] for r in self.rows), self.delta[wanted])

    def solve(self, x_start, x_end=0.0):
        """Return ``k, x`` (N+1,): the controllable sets' upper ends and the greedy profile.

        After :meth:`add` only the stretch that the new slabs change is stepped through again.
        """
        used = slice(0, int(self.count.max()))
        alpha, beta, lo, hi = (r[:, used] for r in self.rows)
        m, e, A, F = slab_bounds(alpha, beta, lo, hi, self.delta[:, None])
        if _PASSES is not None:                  # the compiled loop: every line, every stage
            k = np.maximum(_PASSES(m, e, self.X, float(x_end), True), 0.0)
            x = np.maximum(_PASSES(A, F, k[1:], float(min(x_start, k[0])), False), 0.0)
            self.k, self.x, self.ends = k, x, (x_start, x_end)
            self.changed = np.empty(0, int)
            return k, x
        again = self.k is not None and (x_start, x_end) == self.ends
        changed = (self.changed.min(), self.changed.max()) if again else None
        m, e = _useful(m, e, lo > -BIG / 2)
        k = _with_envelope(
            lambda a, b, old, stretch: backward_pass(self.X, a, b, x_end, old, stretch),
            m, e, np.append(self.X[1:], x_end), lambda k: (k[1:], k[:-1], self.X),
            self.k if again else None, changed)
        if again:
            moved = np.flatnonzero(k != self.k)
            first = min(changed[0], moved.min(initial=k.size) - 1)
            changed = (max(first, 0), max(changed[1], moved.max(initial=-1)))
        A, F = _useful(A, F, hi < BIG / 2)
        x = _with_envelope(
            lambda a, b, old, stretch: forward_pass(k, a, b, min(x_start, k[0]), old, stretch),
            A, F, k[:-1], lambda x: (np.minimum(x[:-1], k[:-1]), x[1:], k[1:]),
            self.x if again else None, changed)
        self.k, self.x, self.ends = k, x, (x_start, x_end)
        self.changed = np.empty(0, int)
        return k, x


def _useful(slope, offset, useful):
    """``slope, offset`` (N, W') without the columns no stage uses (neutral: 0, BIG)."""
    useful &= offset < BIG / 2
    columns = np.flatnonzero(useful.any(axis=0))
    return (np.where(useful, slope, 0.0)[:, columns], np.where(useful, offset, BIG)[:, columns])


def _envelope(slope, offset, upper, points=ENVELOPE_POINTS):
    """``slope, offset`` (N, points) of the lines lowest at ``points`` values in ``[0, upper]``.

    The passes step through ``min (slope v + offset)`` for ``v`` in ``[0, upper_i]``; the lines
    lowest somewhere there are nearly always among those lowest at a few points of it. The
    caller checks the pass against all lines and steps through again where one was missed.
    """
    rows = np.arange(slope.shape[0])[:, None]
    v = upper[:, None] * np.linspace(0.0, 1.0, points)
    lowest = (slope[:, None, :] * v[:, :, None] + offset[:, None, :]).argmin(axis=2)
    return slope[rows, lowest], offset[rows, lowest]


def _with_envelope(run, slope, offset, upper, check, old=None, stretch=None, rounds=2):
    """Run a pass on the lines of :func:`_envelope`, adding the lines it missed until exact.

    ``run(slopes, offsets, old, stretch)`` returns the pass's values ``v`` (``old``, ``stretch``:
    the previous values and the stages to step through again, see the passes); ``check(v)``
    gives, per stage, the value the step read, the value it wrote and its cap: the step is
    exact when the written value is ``max(min(cap, min over all lines), 0)``. The stages where
    it is not get the line lowest at the value read, and the pass steps through them again;
    after ``rounds`` such tries (nearly parallel speed lines, where the profile rides the speed
    limit, have many crossings) the pass runs on all lines.
    """
    rows = np.arange(slope.shape[0])
    candidates = _envelope(slope, offset, upper)
    for _ in range(rounds):
        values = run(*candidates, old, stretch)
        read, wrote, cap = check(values)
        lowest = (slope * read[:, None] + offset).argmin(axis=1)
        exact = np.maximum(np.minimum(cap, slope[rows, lowest] * read + offset[rows, lowest]),
                           0.0)
        wrong = np.flatnonzero(wrote != exact)
        if wrong.size == 0:
            return values
        candidates = tuple(np.column_stack([c, a[rows, lowest]])
                           for c, a in zip(candidates, (slope, offset)))
        old, stretch = values, (int(wrong.min()), int(wrong.max()))
    return run(slope, offset, None, None)


_NEUTRAL = (0.0, 0.0, -BIG, BIG)             # a slab that bounds nothing: 0 in [-BIG, BIG]
#: The engine's loop of the passes, ``min_affine(slope, offset, cap, y0, reverse)``, or None.
_PASSES = getattr(ENGINE, 'min_affine', None)
#: :func:`largest_feasible`, by the engine's loop when there is one (the same steps and bits).
_LARGEST = largest_feasible if getattr(ENGINE, 'largest_feasible', None) is None else (
    lambda alpha, beta, lo, hi, delta: ENGINE.largest_feasible(alpha, beta, lo, hi, delta, BIG,
                                                               100))


def interval_times(s, x):
    """Return the duration (N,) of each grid interval at constant ``u``: ``2Δ / (ṡ_i + ṡ_i+1)``."""
    speed = np.sqrt(x)
    with np.errstate(divide='ignore'):
        return 2.0 * np.diff(s) / (speed[:-1] + speed[1:])


def profile_positions(s, x, times):
    """``s(t)`` (shape of ``times``) of the profile itself at times from its start (clipped)."""
    t_grid = np.concatenate([[0.0], np.cumsum(interval_times(s, x))])
    speed, u = np.sqrt(x), np.diff(x) / (2.0 * np.diff(s))
    times = np.clip(times, 0.0, t_grid[-1])
    i = np.clip(np.searchsorted(t_grid, times, side='right') - 1, 0, s.size - 2)
    tau = np.minimum(times - t_grid[i], np.diff(t_grid)[i])
    return np.clip(s[i] + speed[i] * tau + u[i] * tau ** 2 / 2, s[i], s[i + 1])


def sample_profile(s, x, dt, window):
    """Sample the profile's moving average over ``window`` s every ``dt``: ``t, σ, σ̇, σ̈, stage``.

    On grid interval ``i`` the profile ``s(t)`` is quadratic, ``s_i + ṡ_i τ + u_i τ² / 2``
    (``τ = t - t_i``): its ``s̈`` jumps at the grid times, which no C² interpolation of samples
    (the controllers' quintic) follows without overshoot. The output is its moving average
    ``σ(t) = (1/w) ∫ s`` over ``[t - w/2, t + w/2]``: ``σ̇``, ``σ̈`` are the averages of ``ṡ``,
    ``s̈``
    (continuous, ``σ̈`` piecewise linear), the motion stays on the path, and where ``s̈`` is
    constant nothing changes. After the end ``s`` rests. A start at rest is delayed by ``w/2``
    (``s`` resting before it: ``σ, σ̇, σ̈`` start at exactly 0); a moving start is not, and ``s``
    continues backwards with its first interval's ``ṡ_0, u_0`` (the average then leads by
    ``u w² / 24``, 1e-7 of the path here) and the first sample is the start state itself
    ``(s_0, ṡ_0, u_0)``. The end, at rest, comes
    ``w/2`` after the profile's: the duration grows by ``w`` (``w/2`` from a moving start).
    Samples from 0 every ``dt``, the last one at the end itself. ``window`` 0: the profile
    itself (its ``s̈`` jumps between samples).
    """
    t_grid = np.concatenate([[0.0], np.cumsum(interval_times(s, x))])
    speed, u = np.sqrt(x), np.diff(x) / (2.0 * np.diff(s))
    h = np.diff(t_grid)
    area = np.concatenate([[0.0], np.cumsum(s[:-1] * h + speed[:-1] * h ** 2 / 2
                                            + u * h ** 3 / 6)])
    shift = window / 2 if x[0] == 0 else 0.0
    lead = 0.0 if x[0] == 0 else u[0]         # a moving start: s continues backwards
    duration = t_grid[-1] + window / 2 + shift
    t = np.arange(0.0, duration, dt)
    t = np.append(t, duration) if duration - t[-1] > 1e-9 * dt else np.append(t[:-1], duration)

    def state(time):
        """``s, ṡ`` and ``∫ s`` at profile times (extended before the start and after the end)."""
        i = np.clip(np.searchsorted(t_grid, time, side='right') - 1, 0, s.size - 2)
        tau = np.clip(time - t_grid[i], 0.0, h[i])
        position = s[i] + speed[i] * tau + u[i] * tau ** 2 / 2
        rate = speed[i] + u[i] * tau
        integral = area[i] + s[i] * tau + speed[i] * tau ** 2 / 2 + u[i] * (tau * tau * tau) / 6
        before, after = time < 0, time > t_grid[-1]
        position = np.where(before, s[0] + speed[0] * time + lead * time ** 2 / 2, position)
        rate = np.where(before, speed[0] + lead * time, np.where(after, 0.0, rate))
        integral = np.where(before, s[0] * time + speed[0] * time ** 2 / 2
                            + lead * (time * time * time) / 6,
                            np.where(after, area[-1] + s[-1] * (time - t_grid[-1]), integral))
        return position, rate, integral
    if window == 0:                                  # the profile itself
        sigma, sigma_dot, _ = state(t)
        i = np.clip(np.searchsorted(t_grid, t, side='right') - 1, 0, s.size - 2)
        sigma_ddot = np.where(t < t_grid[-1], u[i], u[-1])
        sigma = np.clip(sigma, s[0], s[-1])
    else:
        both = state(np.concatenate([t - shift - window / 2, t - shift + window / 2]))
        (s_lo, s_hi), (sd_lo, sd_hi), (area_lo, area_hi) = (
            (v[:t.size], v[t.size:]) for v in both)
        sigma = np.clip((area_hi - area_lo) / window, s[0], s[-1])
        sigma_dot = np.maximum((s_hi - s_lo) / window, 0.0)
        sigma_ddot = (sd_hi - sd_lo) / window
    if x[0] > 0:             # a moving start: the first sample is the start state itself
        sigma[0], sigma_dot[0], sigma_ddot[0] = s[0], speed[0], u[0]
    stage = np.clip(np.searchsorted(s, sigma, side='right') - 1, 0, s.size - 2)
    return t, sigma, sigma_dot, sigma_ddot, stage
