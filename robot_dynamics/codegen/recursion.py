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
"""Renaud's Newton-Euler recursion (seed 001, relations 1-10) on symbolic scalars.

The same recursion as :mod:`robot_dynamics.solvers.renaud`, written over
:class:`~robot_dynamics.codegen.expr.Expr` scalars so that it *produces* the customised model
instead of evaluating it. Frames are Craig's modified DH frames {i}' of
:func:`robot_dynamics.model.frames.proximal_frames` (joint axis ``z``), so
``R_{i-1,i} = P_i Rz(q_i)`` and a rotation costs 4 multiplications and 2 additions plus what
the constant ``P_i`` needs (nothing for DH twist angles of 0, ±90°).

Body parameters ``m^i, u^i, k^i`` (moments at O_i, frame {i}') come already regrouped
(augmented bodies or base parameters, :mod:`robot_dynamics.codegen.parameters`), so the body
force and moment are ``F = m α + b u`` and ``N = k a + ω × (k ω) + u × α`` with
``b = â + ω̂ ω̂`` from ``δ = ω ⊗ ω`` (relations 2, 4), and ``ω × (k ω)`` also from δ.
"""

from robot_dynamics.codegen.expr import add3, cross, lincomb, matTvec, matvec

ZERO3 = (0.0, 0.0, 0.0)


def _name3(graph, v, name):
    """Label the components of a 3-vector ``name_x, name_y, name_z`` for the emitted code."""
    return tuple(graph.label(x, f'{name}_{axis}') for x, axis in zip(v, 'xyz'))


def _rz_T(c, s, v):
    """``Rz(q)ᵀ v``."""
    return (c * v[0] + s * v[1], c * v[1] - s * v[0], v[2])


def _rz(c, s, v):
    """``Rz(q) v``."""
    return (c * v[0] - s * v[1], s * v[0] + c * v[1], v[2])


def _dyad(w):
    """Relation (2): ``δ = ω ⊗ ω`` as a dict of its six distinct products."""
    return {'xx': w[0] * w[0], 'yy': w[1] * w[1], 'zz': w[2] * w[2],
            'xy': w[0] * w[1], 'xz': w[0] * w[2], 'yz': w[1] * w[2]}


def _b_operator(d, a):
    """Relation (4): ``b = â + ω̂ ω̂`` (3x3) from δ and the angular acceleration ``a``."""
    return ((-(d['yy'] + d['zz']), d['xy'] - a[2], d['xz'] + a[1]),
            (d['xy'] + a[2], -(d['xx'] + d['zz']), d['yz'] - a[0]),
            (d['xz'] - a[1], d['yz'] + a[0], -(d['xx'] + d['yy'])))


def _w_cross_kw(K, d):
    """``ω × (k ω)`` from δ (linear in δ; parameter differences are computed offline)."""
    return (lincomb((K[0][2], -K[0][1], K[1][2], K[2][2] - K[1][1]),
                    (d['xy'], d['xz'], d['yy'] - d['zz'], d['yz'])),
            lincomb((K[0][1], -K[1][2], K[0][2], K[0][0] - K[2][2]),
                    (d['yz'], d['xy'], d['zz'] - d['xx'], d['xz'])),
            lincomb((K[1][2], -K[0][2], K[0][1], K[1][1] - K[0][0]),
                    (d['xz'], d['yz'], d['xx'] - d['yy'], d['xy'])))


class Forward:
    """Per-body kinematic quantities of the forward recursion (relations 1-6)."""

    def __init__(self, n):
        self.cos, self.sin = [None] * n, [None] * n
        self.p = [None] * n          # p_{i-1,i} in frame i-1 (depends on q_i if prismatic)
        self.w, self.a, self.alpha = [None] * n, [None] * n, [None] * n
        self.delta, self.b = [None] * n, [None] * n


def forward(graph, frames, q, qd, qdd, gravity):
    """Relations (1)-(6): ``ω_i, a_i, δ_i, b_i, α_i`` in frame {i}', base to tip."""
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
            fw.p[i] = tuple(frames.p[i][k] + axis[k] * q[i] for k in range(3))
        r = alpha_prev if i == 0 else add3(alpha_prev, matvec(fw.b[i - 1], fw.p[i]))  # (6a)
        w_in, a_in, r_in = matTvec(P, w_prev), matTvec(P, a_prev), matTvec(P, r)
        if frames.revolute[i]:
            c, s = graph.function('cos', q[i]), graph.function('sin', q[i])
            fw.cos[i], fw.sin[i] = graph.label(c, f'c{i + 1}'), graph.label(s, f's{i + 1}')
            w_in, a_in, r_in = _rz_T(c, s, w_in), _rz_T(c, s, a_in), _rz_T(c, s, r_in)  # (1a)
            fw.w[i] = (w_in[0], w_in[1], w_in[2] + qd[i])                            # (1b)
            fw.a[i] = (a_in[0] + qd[i] * w_in[1], a_in[1] - qd[i] * w_in[0],
                       a_in[2] + qdd[i])                                             # (3b)
            fw.alpha[i] = r_in                                                       # (6c)
        else:
            fw.w[i], fw.a[i] = w_in, a_in
            twice = 2.0 * qd[i]
            fw.alpha[i] = (r_in[0] + twice * w_in[1], r_in[1] - twice * w_in[0],
                           r_in[2] + qdd[i])                                    # (5), (6c)
        j = i + 1
        fw.w[i] = _name3(graph, fw.w[i], f'w{j}')
        fw.a[i] = _name3(graph, fw.a[i], f'a{j}')
        fw.alpha[i] = _name3(graph, fw.alpha[i], f'alpha{j}')
        fw.delta[i] = {k: graph.label(v, f'd{j}_{k}') for k, v in _dyad(fw.w[i]).items()}  # (2)
        fw.b[i] = tuple(tuple(graph.label(x, f'b{j}_{r}{c}') for c, x in zip('xyz', row))
                        for r, row in zip('xyz', _b_operator(fw.delta[i], fw.a[i])))  # (4)
        w_prev, a_prev, alpha_prev = fw.w[i], fw.a[i], fw.alpha[i]
    return fw


def _to_parent(frames, fw, i, v):
    """``R_{i-1,i} v = P_i Rz(q_i) v`` (relations 7b, 9b)."""
    if frames.revolute[i]:
        v = _rz(fw.cos[i], fw.sin[i], v)
    return matvec(frames.P[i], v)


def backward(graph, frames, fw, bodies, tip_force=ZERO3, tip_moment=ZERO3):
    """Relations (7)-(10): joint forces ``f^i``, moments ``n^i`` and torques ``Γ^i``.

    ``bodies[i]`` has ``m`` (scalar), ``u`` (3) and ``K`` (3x3) as nodes or numbers.
    ``tip_force``, ``tip_moment``: the wrench exerted by the end-effector, at O_n in {n}'.
    Returns the list of joint torques/forces.
    """
    n = len(frames.revolute)
    tau = [None] * n
    f, nm = tip_force, tip_moment
    for i in reversed(range(n)):
        if i + 1 < n:
            f = _to_parent(frames, fw, i + 1, f)                                     # (7b)
            nm = add3(_to_parent(frames, fw, i + 1, nm), cross(fw.p[i + 1], f))      # (9b)
        body = bodies[i]
        force = tuple(body.m * fw.alpha[i][k] for k in range(3))
        force = add3(force, matvec(fw.b[i], body.u))                                 # (7a)
        f = _name3(graph, add3(f, force), f'f{i + 1}')                               # (8)
        moment = add3(matvec(body.K, fw.a[i]), _w_cross_kw(body.K, fw.delta[i]),
                      cross(body.u, fw.alpha[i]))
        nm = _name3(graph, add3(nm, moment), f'n{i + 1}')                            # (9a)
        tau[i] = nm[2] if frames.revolute[i] else f[2]                               # (10)
    return tau
