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
"""Renaud's Newton-Euler recursion (seed 001, relations 1-10), written once over any scalar.

The one implementation of the recursion. It runs on

- numpy arrays (N,), one per component of a batch of states: the registered solver
  :mod:`robot_dynamics.solvers.renaud` (scalar context :data:`NUMERIC`);
- the counting scalar of :mod:`robot_dynamics.analysis.opcount` (numpy object arrays, the same
  context): the solver's operation counts, charged to the relation tagged on each line;
- the symbolic :class:`~robot_dynamics.codegen.expr.Expr` scalar (its
  :class:`~robot_dynamics.codegen.expr.Graph` is the context): it *produces* the customised
  model of :mod:`robot_dynamics.codegen.generator` instead of evaluating it.

A scalar context has ``label(value, name)`` (names an intermediate in the generated code; the
identity for numbers) and ``function(name, x)`` (``'cos'``, ``'sin'``). Vectors are 3-tuples of
scalars (:mod:`robot_dynamics.spatial.components`), so a structural zero or one of the model
(DH twists of 0, ±90°, sparse first moments) costs nothing on any scalar.

Frames are Craig's modified DH frames {i}' of
:func:`robot_dynamics.model.frames.proximal_frames` (joint axis ``z``):
``R_{i-1,i} = P_i Rz(q_i)``, and ``p_{i-1,i}`` (gaining ``q_i z_i`` at a prismatic joint) runs
from O_{i-1} to O_i.

Body parameters (:class:`Body`: ``m``, ``u``, ``K``, the moments at O_i in {i}') come
regrouped by the caller: Renaud's augmented bodies (relation 0, :func:`augment`, written here
once over numbers and the linear forms of the symbolic parameters) for the solver, augmented or
base parameters for the generated code (:mod:`robot_dynamics.codegen.parameters`). A body whose
mass was moved to its parent has ``m = 0``, so ``f^i = e^i + m^i α_i`` (relation 8) costs
nothing where the paper passes ``e^i``. Forward, with ``δ = ω ⊗ ω`` and ``b = â + ω̂ ω̂``
(relations 2, 4); backward, the force and moment of each body are ``m α + b u`` and
``k a + ω × (k ω) + u × α``, the gyroscopic term linear in δ (its parameter differences, such
as ``k_zz - k_yy``, are constants of the model).
"""

from collections import namedtuple
import operator

import numpy as np

from robot_dynamics.spatial.components import (
    add3, cross, is_zero, lincomb, matTvec, matvec, placement_rotate, rz_T, scale3, ZERO3,
)

#: Moments of one (regrouped) body at O_i in {i}': mass ``m``, first moment ``u`` (3),
#: second moment ``K`` (3×3), as numbers or scalars of the context.
Body = namedtuple('Body', 'm u K')


def body_moments(frames, i):
    """Body i's own moments at O_i in {i}': ``m^i``, ``u^i = m^i d_ii`` and ``k^i`` (numbers).

    ``k^i = φ^i - m^i d̂_ii d̂_ii = φ^i + m^i (|d|² E - d dᵀ)`` (Huygens), ``φ^i`` the inertia
    about the centre of mass; ``frames``: :func:`robot_dynamics.model.frames.proximal_frames`.
    The solver's augmented bodies and the generator's standard parameters start from these.
    """
    m, c = frames.mass[i], np.asarray(frames.com[i])
    return Body(m, m * c, frames.inertia[i] + m * (c @ c * np.eye(3) - np.outer(c, c)))


def augment(body, m_next, p, add=operator.add, scale=operator.mul):
    """Relation (0): augmented body i, ``body`` plus the mass ``m_next`` = m*^{i+1} at O_{i+1}.

    ``body``: the moments ``m, u, K`` of body i at O_i in {i}' (:class:`Body` or any object
    with those attributes); ``p`` (3,): ``p_{i,i+1}``, from O_i to O_{i+1} in {i}'. Returns the
    augmented moments (Huygens' theorem for the point mass)::

        m*^i = m^i + m*^{i+1}                                                      (0)
        u*^i = u^i + m*^{i+1} p_{i,i+1}                                            (0a)
        k*^i = k^i - m*^{i+1} p̂ p̂ = k^i + m*^{i+1} (|p|² E - p pᵀ)                 (0b)

    Generic over what it adds and scales: ``add(x, y)`` and ``scale(c, x)`` (``c`` a number
    of the model's geometry). With the defaults the moments are numbers (the ``renaud``
    solver); :func:`robot_dynamics.codegen.parameters.regroup` passes the sum and scaling of
    linear forms of the symbolic parameters. The callers apply it from the tip to the base
    across revolute joints i+1 only, where the augmented body is rigid (seed 001).
    """
    p = np.asarray(p, dtype=float)
    pp = p @ p
    return Body(add(body.m, m_next),                                                  # (0)
                tuple(add(body.u[k], scale(p[k], m_next)) for k in range(3)),         # (0a)
                tuple(tuple(add(body.K[r][c], scale(pp * (r == c) - p[r] * p[c], m_next))
                            for c in range(3)) for r in range(3)))                    # (0b)


class _Numeric:
    """The scalar context of numbers and numpy arrays: no labels, numpy's functions."""

    @staticmethod
    def label(value, name):
        """Return ``value`` (names matter only in generated code)."""
        return value

    @staticmethod
    def function(name, x):
        """``np.cos`` or ``np.sin`` of ``x``."""
        return {'cos': np.cos, 'sin': np.sin}[name](x)


NUMERIC = _Numeric()


class Forward:
    """Per-body kinematic quantities of the forward recursion (relations 1-6)."""

    def __init__(self, n):
        """Empty lists of length ``n``."""
        self.cos, self.sin = [None] * n, [None] * n
        self.p = [None] * n          # p_{i-1,i} in frame i-1 (depends on q_i if prismatic)
        self.w, self.a, self.alpha = [None] * n, [None] * n, [None] * n
        self.delta, self.b = [None] * n, [None] * n


def _name3(scalars, v, name):
    """Label the components of a 3-vector ``name_x, name_y, name_z`` for the emitted code."""
    return tuple(scalars.label(x, f'{name}_{axis}') for x, axis in zip(v, 'xyz'))


def _dyad(w):
    """Relation (2): ``δ = ω ⊗ ω`` as a dict of its six distinct products."""
    return {'xx': w[0] * w[0], 'yy': w[1] * w[1], 'zz': w[2] * w[2],         # (2)
            'xy': w[0] * w[1], 'xz': w[0] * w[2], 'yz': w[1] * w[2]}         # (2)


def _b_operator(d, a):
    """Relation (4): ``b = â + ω̂ ω̂`` (3x3) from δ and the angular acceleration ``a``."""
    return ((-(d['yy'] + d['zz']), d['xy'] - a[2], d['xz'] + a[1]),          # (4)
            (d['xy'] + a[2], -(d['xx'] + d['zz']), d['yz'] - a[0]),          # (4)
            (d['xz'] - a[1], d['yz'] + a[0], -(d['xx'] + d['yy'])))          # (4)


def _w_cross_kw(K, d):
    """``ω × (k ω)`` from δ (relation 9a); a difference of δ is formed only where it is used."""
    return (_gyroscopic(K[0][2], -K[0][1], K[1][2], K[2][2] - K[1][1],
                        d['xy'], d['xz'], d['yy'], d['zz'], d['yz']),
            _gyroscopic(K[0][1], -K[1][2], K[0][2], K[0][0] - K[2][2],
                        d['yz'], d['xy'], d['zz'], d['xx'], d['xz']),
            _gyroscopic(K[1][2], -K[0][2], K[0][1], K[1][1] - K[0][0],
                        d['xz'], d['yz'], d['xx'], d['yy'], d['xy']))


def _gyroscopic(c0, c1, c2, c3, x0, x1, y, z, x3):
    """One component ``c0 x0 + c1 x1 + c2 (y - z) + c3 x3`` of ``ω × (k ω)`` (relation 9a)."""
    difference = 0.0 if is_zero(c2) else y - z                                    # (9a)
    return lincomb((c0, c1, c2, c3), (x0, x1, difference, x3))                    # (9a)


def forward(scalars, frames, q, qd, qdd, gravity):
    """Relations (1)-(6): ``ω_i, a_i, δ_i, b_i, α_i`` in frame {i}', base to tip.

    ``q, qd, qdd``: sequences of n scalars; ``gravity`` (3,) in the base frame (``α_0 = -g``).
    """
    n = len(frames.revolute)
    fw = Forward(n)
    w_prev, a_prev = ZERO3, ZERO3
    alpha_prev = tuple(-g for g in gravity)                  # α_0 = g z_0 (= -gravity)
    for i in range(n):
        P = frames.P[i]
        axis = (P[0][2], P[1][2], P[2][2])
        if frames.revolute[i]:
            fw.p[i] = tuple(frames.p[i])
        else:
            fw.p[i] = tuple(frames.p[i][k] + axis[k] * q[i] for k in range(3))  # (6a)
        r = alpha_prev if i == 0 else add3(alpha_prev, matvec(fw.b[i - 1], fw.p[i]))  # (6a)
        w_in = matTvec(P, w_prev)                                                    # (1a)
        a_in = matTvec(P, a_prev)                                                    # (3a)
        r_in = matTvec(P, r)                                                         # (6b)
        if frames.revolute[i]:
            c, s = scalars.function('cos', q[i]), scalars.function('sin', q[i])
            fw.cos[i], fw.sin[i] = scalars.label(c, f'c{i + 1}'), scalars.label(s, f's{i + 1}')
            w_in = rz_T(c, s, w_in)                                                  # (1a)
            a_in = rz_T(c, s, a_in)                                                  # (3a)
            r_in = rz_T(c, s, r_in)                                                  # (6b)
            fw.w[i] = (w_in[0], w_in[1], w_in[2] + qd[i])                            # (1b)
            fw.a[i] = (a_in[0] + qd[i] * w_in[1], a_in[1] - qd[i] * w_in[0],         # (3b)
                       a_in[2] + qdd[i])                                             # (3b)
            fw.alpha[i] = r_in                                                       # (6c)
        else:
            fw.w[i], fw.a[i] = w_in, a_in
            twice = 2.0 * qd[i]                                                      # (5)
            fw.alpha[i] = (r_in[0] + twice * w_in[1], r_in[1] - twice * w_in[0],    # (5), (6c)
                           r_in[2] + qdd[i])                                         # (5), (6c)
        j = i + 1
        fw.w[i] = _name3(scalars, fw.w[i], f'w{j}')
        fw.a[i] = _name3(scalars, fw.a[i], f'a{j}')
        fw.alpha[i] = _name3(scalars, fw.alpha[i], f'alpha{j}')
        fw.delta[i] = {k: scalars.label(v, f'd{j}_{k}') for k, v in _dyad(fw.w[i]).items()}
        fw.b[i] = tuple(tuple(scalars.label(x, f'b{j}_{r}{c}') for c, x in zip('xyz', row))
                        for r, row in zip('xyz', _b_operator(fw.delta[i], fw.a[i])))
        w_prev, a_prev, alpha_prev = fw.w[i], fw.a[i], fw.alpha[i]
    return fw


def backward(scalars, frames, fw, bodies, tip_force=ZERO3, tip_moment=ZERO3):
    """Relations (7)-(10): joint forces ``f^i``, moments ``n^i`` and torques ``Γ^i``.

    ``bodies[i]`` is a :class:`Body`; ``tip_force``, ``tip_moment``: the wrench exerted by the
    end-effector, at O_n in {n}' (:func:`tip_wrench`). Returns the n joint torques/forces.
    """
    n = len(frames.revolute)
    tau = [None] * n
    f, nm = tip_force, tip_moment
    for i in reversed(range(n)):
        if i + 1 < n:
            P, c, s = frames.P[i + 1], fw.cos[i + 1], fw.sin[i + 1]              # R_{i,i+1}
            f = placement_rotate(P, c, s, f)                                         # (7b)
            nm = add3(placement_rotate(P, c, s, nm), cross(fw.p[i + 1], f))          # (9b)
        body = bodies[i]
        force = scale3(body.m, fw.alpha[i])                                          # (8)
        force = add3(force, matvec(fw.b[i], body.u))                                 # (7a)
        f = _name3(scalars, add3(f, force), f'f{i + 1}')                             # (7a)
        moment = add3(matvec(body.K, fw.a[i]), _w_cross_kw(body.K, fw.delta[i]),    # (9a)
                      cross(body.u, fw.alpha[i]))                                    # (9a)
        nm = _name3(scalars, add3(nm, moment), f'n{i + 1}')                          # (9a)
        tau[i] = nm[2] if frames.revolute[i] else f[2]                               # (10)
    return tau


def tip_wrench(frames, f_tip):
    """Move the tool's wrench ``f_tip`` (6 scalars) to O_n, frame {n}': ``(f, R n + p × f)``."""
    R, p = frames.tip_rotation, frames.tip_translation
    force = matvec(R, f_tip[:3])
    return force, add3(matvec(R, f_tip[3:]), cross(tuple(p), force))


def torques(scalars, frames, bodies, q, qd, qdd, gravity, f_tip=None):
    """Joint torques/forces (n scalars): :func:`forward` then :func:`backward`."""
    fw = forward(scalars, frames, q, qd, qdd, gravity)
    if f_tip is None:
        return backward(scalars, frames, fw, bodies)
    return backward(scalars, frames, fw, bodies, *tip_wrench(frames, f_tip))
