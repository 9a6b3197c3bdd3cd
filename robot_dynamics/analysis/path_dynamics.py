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
"""The dynamics along a geometric path ``q(s)``, as linear constraints on ``(s̈, ṡ²)``.

On a path the joint motion is ``q̇ = q' ṡ`` and ``q̈ = q' s̈ + q'' ṡ²`` (``'`` is d/ds), so the
rigid-body torque is linear in ``u = s̈`` and ``x = ṡ²`` (Pham & Pham, T-RO 2018, eq. 3)::

    τ(s) = a(s) u + b(s) x + g(s) + τ_f(q' ṡ)
    a = M q'                          = ID(q, 0, q')  - ID(q, 0, 0)
    b = M q'' + C(q, q') q'           = ID(q, q', q'') - ID(q, 0, 0)   (friction taken out)
    g = G(q)                          = ID(q, 0, 0)                    (friction taken out)

all three from ONE batched call of the engine over every point (:func:`path_terms`). Rotor
inertia is inside ``a`` and ``b``. Friction ``τ_f`` (:mod:`robot_dynamics.model.friction`) is
split in two: the viscous part ``Fv q' ṡ = v √x`` and the rest ``R``. For ``ṡ > 0`` the sign of
``q̇_j`` is the sign of ``q'_j``, so ``R_j`` lies in an interval ``[R_lo, R_hi]`` fixed by that
sign (one value for plain Coulomb friction; the smooth switch and the Stribeck term widen
it); the torque constraint uses the bound of the interval that works against each limit.
The viscous term is not linear in ``x``: on the side where it works against a limit it is
replaced by its tangent at a known speed ``x̂`` (``√x <= (x + x̂) / (2 √x̂)``, √ is concave),
and on the side where it helps it is left out; both make the constraint stricter, never
looser (:func:`slabs`).

A constraint is a *slab* ``lo <= α u + β x <= hi`` with ``α >= 0`` (rows flipped to make it so).
At a point ``δ`` after the start ``s_i`` of a grid interval in which ``u`` is constant, the
speed is ``x(s) = x_i + 2 δ u`` (``d(ṡ²)/ds = 2 s̈``), so a constraint at that point is a slab in
the interval's ``(u, x_i)``: ``α = a + 2 δ b``, ``β = b`` (TOPP-RA's interpolation scheme puts
such points at both ends of each interval).
"""

import numpy as np

from robot_dynamics import api
from robot_dynamics.errors import InfeasiblePathError
from robot_dynamics.model.arguments import per_joint
from robot_dynamics.model.friction import EXTRA_FIELDS

#: Stand-in for "no bound" in the slabs: finite, so that 0 * BIG is 0, never NaN.
BIG = 1e200


# ---------------------------------------------------------------------- paths
def spline_path(waypoints, start_direction=None, end_direction=None):
    """Return the clamped cubic spline through ``waypoints`` (K, n), parameterised by chord length.

    ``s`` runs over the cumulative Euclidean distance between consecutive waypoints in joint space
    (rad and m mixed as numbers), so ``|q'| ≈ 1`` between them; ``q'(0) = q'(S) = 0`` (clamped),
    or ``q'`` the unit vector along ``start_direction`` / ``end_direction`` where given (the arm
    leaves along its velocity; a path that keeps its speed up to the end). A
    ``scipy.interpolate.CubicSpline``; raises ``ValueError`` naming the bad waypoint.
    """
    from scipy.interpolate import CubicSpline
    W = np.asarray(waypoints, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f'path: expected waypoints of shape (K, n) with K >= 2, got shape '
                         f'{W.shape}; give at least two rows of joint positions')
    bad = np.argwhere(~np.isfinite(W))
    if bad.size:
        raise ValueError(f'path: waypoint {bad[0][0]} holds {W[tuple(bad[0])]} at column '
                         f'{bad[0][1]}; give finite joint positions')
    chord = np.linalg.norm(np.diff(W, axis=0), axis=1)
    if np.any(chord <= 1e-12 * max(1.0, np.abs(W).max())):
        k = int(np.argmax(chord <= 1e-12 * max(1.0, np.abs(W).max())))
        raise ValueError(f'path: waypoints {k} and {k + 1} are the same point: the chord-length '
                         'breakpoints would not increase strictly; remove the repeated waypoint')
    ends = []
    for direction in (start_direction, end_direction):
        norm = 0.0 if direction is None else np.linalg.norm(direction)
        ends.append((1, np.zeros(W.shape[1]) if norm == 0 else np.asarray(direction) / norm))
    return CubicSpline(np.concatenate([[0.0], np.cumsum(chord)]), W, bc_type=tuple(ends))


def check_path(model, path):
    """Return the breakpoints (B,) of a path object after checking it; raise ``ValueError``.

    ``path`` has ``path(s, nu)`` (positions for ``nu = 0``, derivatives d^nu q / ds^nu), each
    (S, n) for ``s`` (S,), and strictly increasing finite breakpoints ``path.x``.
    """
    if not callable(path) or not hasattr(path, 'x'):
        raise ValueError('path: expected waypoints (K, n) or a piecewise polynomial q(s) with '
                         '__call__(s, nu) and breakpoints .x (e.g. scipy CubicSpline)')
    x = np.asarray(path.x, dtype=float).reshape(-1)
    if x.size < 2 or not np.all(np.isfinite(x)):
        raise ValueError(f'path.x: breakpoints must be at least 2 finite numbers, got {x!r}')
    if np.any(np.diff(x) <= 0):
        k = int(np.argmax(np.diff(x) <= 0))
        raise ValueError(f'path.x: breakpoints must increase strictly; x[{k}] = {x[k]:.6g} >= '
                         f'x[{k + 1}] = {x[k + 1]:.6g}; sort them and drop repeats')
    sample = np.asarray(path(x[:1], 0), dtype=float)
    if sample.shape != (1, model.dof):
        raise ValueError(f'path: q(s) has shape {sample.shape[1:]} per point, the model has '
                         f'{model.dof} joints {list(model.joint_names)}')
    return x


def evaluate(path, s, orders=(0, 1, 2)):
    """Return ``q, q', q''`` (S, n) at ``s`` (S,), or the ``orders`` asked for.

    A non-finite value raises ``ValueError`` naming the derivative and the place.
    """
    values = [np.asarray(path(s, nu), dtype=float).reshape(len(s), -1) for nu in orders]
    for nu, value in zip(orders, values):
        if not np.all(np.isfinite(value)):
            where = s[np.argwhere(~np.isfinite(value))[0][0]]
            raise ValueError(f'path: d^{nu}q/ds^{nu} is not finite at s = {where:.6g}; give a '
                             'path with finite positions and derivatives (no NaN waypoint)')
    return values


def check_joint_limits(model, s, q):
    """Raise ``InfeasiblePathError`` if ``q`` (S, n) at ``s`` leaves the model's joint range."""
    lower = q < model.lower_limit - 1e-9 * np.maximum(1.0, np.abs(model.lower_limit))
    upper = q > model.upper_limit + 1e-9 * np.maximum(1.0, np.abs(model.upper_limit))
    bad = np.argwhere(lower | upper)
    if bad.size:
        k, j = bad[0]
        name = model.joint_names[j]
        raise InfeasiblePathError(
            f'path: leaves the joint limits at s = {s[k]:.6g}: joint {name} at {q[k, j]:.6g}, '
            f'range [{model.lower_limit[j]:.6g}, {model.upper_limit[j]:.6g}]; move the '
            'waypoints inside the range', joint=name, s=float(s[k]), needed=float(q[k, j]))


# ---------------------------------------------------------------------- limits
def check_limits(model, velocity_limits=None, acceleration_limits=None, torque_limits=None):
    """Return ``(v, a, τ)`` limits (n,) each: the given ones or the model's (inf: no limit).

    Defaults: URDF ``velocity`` and ``effort``; no acceleration limit. A limit must be positive
    (``inf`` for none): zero, negative or NaN raises ``ValueError`` naming the field and joint.
    """
    given = {'velocity_limits': (velocity_limits, model.velocity_limit),
             'acceleration_limits': (acceleration_limits, np.full(model.dof, np.inf)),
             'torque_limits': (torque_limits, model.effort_limit)}
    out = []
    for field, (value, default) in given.items():
        limit = per_joint(model, default if value is None else value, field,
                          'inf for no limit')
        bad = np.flatnonzero(~(limit > 0))
        if bad.size:
            j = bad[0]
            raise ValueError(f'{field}: joint {model.joint_names[j]} has limit {limit[j]!r}; '
                             'a limit must be positive (inf for none): with 0 the joint cannot '
                             'move and no timing exists')
        out.append(limit)
    if not np.any(np.isfinite(np.concatenate(out))):
        raise ValueError('velocity_limits, acceleration_limits, torque_limits: all are '
                         'infinite, so nothing bounds the speed; give at least one finite limit')
    return tuple(out)


# ---------------------------------------------------------------------- dynamics
def path_terms(model, q, dq, ddq):
    """Return ``a, b, g`` (P, n): ``τ = a s̈ + b ṡ² + g + τ_f`` at path points (module docstring).

    One call of :func:`robot_dynamics.api.inverse_dynamics` on the stacked (3P, n) batch
    ``(q, 0, 0)``, ``(q, 0, q')``, ``(q, q', q'')``; friction is subtracted exactly (same law).
    """
    P, zero = q.shape[0], np.zeros_like(q)
    tau = api.inverse_dynamics(model, np.concatenate([q, q, q]),
                               np.concatenate([zero, zero, dq]),
                               np.concatenate([zero, dq, ddq]))
    static = tau[:P]
    if not has_friction(model):
        return tau[P:2 * P] - static, tau[2 * P:] - static, static
    rest = api.friction_torques(model, zero[:1])
    return (tau[P:2 * P] - static, tau[2 * P:] - static - (api.friction_torques(model, dq) - rest),
            static - rest)


def has_friction(model):
    """Tell whether any friction field of the model is non-zero."""
    return any(np.any(getattr(model, name)) for name in
               ('viscous_friction', 'coulomb_friction') + EXTRA_FIELDS)


def friction_bounds(model, dq):
    """Return ``v, R_lo, R_hi`` (P, n): ``τ_f = v ṡ + R`` with ``R`` in ``[R_lo, R_hi]`` for ṡ > 0.

    ``v = Fv q'``. With ``σ = sign(q')``, ``R = τ₀ + σ |s| (Fc + σ Fa + Fs e)``: ``e`` in [0, 1]
    (Stribeck), ``|s|`` = 1 for the step or in [0, 1] for the tanh switch.
    """
    if not has_friction(model):
        zero = np.zeros_like(dq)
        return zero, zero, zero
    sigma = np.sign(dq)
    level = model.coulomb_friction + sigma * model.coulomb_asymmetry
    lo = level + np.minimum(model.stribeck_friction, 0.0)
    hi = level + np.maximum(model.stribeck_friction, 0.0)
    smooth = model.friction_smoothing > 0
    lo, hi = np.where(smooth, np.minimum(lo, 0.0), lo), np.where(smooth, np.maximum(hi, 0.0), hi)
    ends = np.stack([sigma * lo, sigma * hi])
    return (model.viscous_friction * dq, model.friction_offset + ends.min(0),
            model.friction_offset + ends.max(0))


def check_at_rest(model, s, points, torque_limits, describe=None):
    """Raise ``InfeasiblePathError`` where gravity and friction alone exceed a torque limit.

    At such a point no speed works (``x = 0, u = 0`` is the only motion that needs nothing but
    ``g + R``, and TOPP needs it feasible). ``describe(s)`` phrases the place (default ``s = …``).
    """
    need_hi = points['g'] + points['R_hi']
    need_lo = points['g'] + points['R_lo']
    worst = np.maximum(need_hi, -need_lo) / torque_limits
    k, j = np.unravel_index(int(np.argmax(worst)), worst.shape)
    if worst[k, j] <= 1.0:
        return
    name = model.joint_names[j]
    needed = need_hi[k, j] if need_hi[k, j] > -need_lo[k, j] else need_lo[k, j]
    place = describe(s[k]) if describe else f's = {s[k]:.6g}'
    raise InfeasiblePathError(
        f'path infeasible at {place}: joint {name} needs {abs(needed):.6g} to hold the pose '
        f'against gravity (and friction when moving), its torque limit is {torque_limits[j]:.6g}; '
        'no timing helps: change the path or the payload', joint=name, s=float(s[k]),
        needed=float(abs(needed)), limit=float(torque_limits[j]))


def slabs(points, limits, delta, tangent=None, scale=1.0):
    """Return ``α, β, lo, hi`` (P, m): the slabs ``lo <= α u + β x_i <= hi`` of each point.

    ``points``: dict of (P, n) arrays ``dq, ddq, a, b, g, v, R_lo, R_hi`` (:func:`path_terms`,
    :func:`friction_bounds`); ``limits``: ``(v, a, τ)`` (n,); ``delta`` (P,): the point's
    distance after its interval's start; ``tangent`` (P,): the speed ``x̂`` of the viscous tangent
    (None: viscous friction left out, an optimistic first pass); ``scale`` (P, 1) or a number:
    the fraction of the limits the point may use. Columns: the torque of each joint with a
    finite limit, the acceleration likewise, then the speed ``x <= min (v / q')²``.
    """
    _, amax, tmax = (np.where(np.isfinite(limit), limit * scale, limit) for limit in limits)
    finite = [np.isfinite(limit) for limit in limits]
    two_delta = 2.0 * delta[:, None]
    columns = []
    b_hi = b_lo = points['b']
    c_hi = c_lo = 0.0
    if tangent is not None:
        root = np.sqrt(np.maximum(tangent, 1e-300))[:, None]
        v = points['v']
        b_hi, c_hi = points['b'] + np.maximum(v, 0) / (2 * root), np.maximum(v, 0) * root / 2
        b_lo, c_lo = points['b'] + np.minimum(v, 0) / (2 * root), np.minimum(v, 0) * root / 2
    # Torque: a u + b y + g + (v √y) + R within ±τmax, y = x + 2δu. Written with its upper-side
    # coefficients; where the lower side's differ (viscous tangent) the slab is split in two.
    torque = finite[2]
    rest_hi = (tmax - points['g'] - points['R_hi'] - c_hi)[:, torque]
    rest_lo = (-tmax - points['g'] - points['R_lo'] - c_lo)[:, torque]
    for b, lo, hi in ((b_hi, -BIG, rest_hi), (b_lo, rest_lo, BIG)) if tangent is not None \
            else ((b_hi, rest_lo, rest_hi),):
        columns.append((points['a'][:, torque] + two_delta * b[:, torque], b[:, torque],
                        np.broadcast_to(lo, rest_hi.shape), np.broadcast_to(hi, rest_hi.shape)))
    accel = finite[1]
    if accel.any():
        amax = np.broadcast_to(amax, points['dq'].shape)[:, accel]
        columns.append((points['dq'][:, accel] + two_delta * points['ddq'][:, accel],
                        points['ddq'][:, accel], -amax, amax))
    columns.append(tuple(c[:, None] for c in speed_slabs(points['dq'], limits[0], delta, scale)))
    alpha, beta, lo, hi = (np.concatenate([c[k] for c in columns], axis=1) for k in range(4))
    flip = alpha < 0                              # -hi <= -α u - β x <= -lo
    return (np.where(flip, -alpha, alpha), np.where(flip, -beta, beta),
            np.where(flip, -hi, lo), np.where(flip, -lo, hi))


def speed_slabs(dq, vmax, delta, scale=1.0):
    """Return ``α, β, lo, hi`` (P,) of the speed limit alone at points ``q'`` (P, n).

    ``x(s) <= min_j (scale q̇_max_j / q'_j)²`` with ``x(s) = x_i + 2 δ u`` (no dynamics needed).
    """
    with np.errstate(divide='ignore'):
        speed = np.where(dq != 0, scale * vmax / np.abs(dq), np.inf) ** 2
    hi = np.minimum(row_reduce(np.minimum, speed, np.inf), BIG)
    return 2.0 * delta, np.ones_like(hi), np.full_like(hi, -BIG), hi


def row_reduce(ufunc, a, initial):
    """Return ``ufunc`` over each row of ``a`` (P, n): the same as ``ufunc.reduce(a, axis=1)``.

    Column by column: numpy's reduction along a short last axis costs ~8x as much.
    """
    return ufunc.reduce([np.full(a.shape[0], initial)] + [a[:, j] for j in range(a.shape[1])])


def slab_kinds(limits, tangent_given):
    """Return ``kind, joint`` (m,) of the columns of :func:`slabs`.

    Kind 0 torque, 1 acceleration, 2 speed (joint 0 for the one speed column).
    """
    torque, accel = (np.flatnonzero(np.isfinite(limits[k])) for k in (2, 1))
    torque = np.tile(torque, 2 if tangent_given else 1)
    return (np.concatenate([np.zeros(torque.size, int), np.ones(accel.size, int), [2]]),
            np.concatenate([torque, accel, [0]]))
