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
"""Renaud's quasi-minimal Newton-Euler with augmented bodies, on modified DH frames.

Seed 001 (Renaud 1987), relations (0)-(10). Frame R_i is fixed to body i, its ``z_i`` along
joint i and its origin O_i on that axis (Craig's modified DH frame); ``v(i)`` is a vector's
column in R_i, ``R_{i,i-1}`` rotates R_{i-1} into R_i and ``p_{i,i+1}`` goes from O_i to
O_{i+1}. Body i has mass ``m^i``, first moment ``u^i = m^i d_ii`` and second moment (inertia at
O_i) ``k^i = φ^i - m^i d̂_ii d̂_ii`` (Huygens). The augmented body i is body i plus the mass
``m*^{i+1}`` of the bodies beyond it, concentrated at O_{i+1}; its moments at O_i are
(relation 0)::

    m*^i = m^i + m*^{i+1},  u*^i = u^i + m*^{i+1} p_{i,i+1},  k*^i = k^i - m*^{i+1} p̂ p̂.

Forward recursion (1)-(6): ``ω_i, a_i`` (angular velocity and acceleration), ``δ_i = ω ⊗ ω``,
``b_i = â_i + ω̂_i ω̂_i`` (so ``b_i x = a_i × x + ω_i × (ω_i × x)``), ``t_i`` the prismatic
relative acceleration, ``α_i = p̈_{0i} + g`` (acceleration of O_i minus gravity). Backward
recursion (7)-(10) with ``f^i = e^i + m*^i α_i``::

    e^i = e^{i+1} + b_i u*^i                                   (7)
    f^i = e^i + m*^i α_i            (prismatic joints only)    (8)
    n^i = n^{i+1} + k*^i a_i + ω_i × (k*^i ω_i) + u*^i × α_i + p_{i,i+1} × e^{i+1}   (9)
    Γ^i = z_i · (σ̄_i n^i + σ_i f^i)                            (10)

The augmented body i is rigid only if joint i+1 is revolute (the paper's remark). Where joint
i+1 is prismatic, this implementation does not augment body i (``m*^i = m^i``, ``u*^i = u^i``,
``k*^i = k^i``) and passes the full force ``f^{i+1}`` (from relation 8) in place of
``e^{i+1}`` in (7) and (9), with the joint-dependent ``p_{i,i+1} = p + q_{i+1} z_{i+1}``; this
is exact, as the derivation of (7) and (9) shows. As the paper asks, every product with a
constant 0 or ±1 is skipped (``lincomb``), so DH structure costs nothing.

Extensions: general models via :func:`robot_dynamics.model.frames.proximal_frames`;
gravity ``α_0 = -g`` in any direction; the tip wrench (exerted by the end-effector on the
environment, as the paper's ``f^{n+1}, n^{n+1}``) is moved to O_n in R_n.

This module is the registered solver. Relations (0)-(10) are written once, over any scalar,
in :mod:`robot_dynamics.algorithms.renaud`: this solver runs relation (0) on numbers (once per
model, :func:`augmented_bodies`) and relations (1)-(10) on numpy arrays (and, for
:mod:`robot_dynamics.analysis.opcount`, on the counting scalar); :mod:`robot_dynamics.codegen`
runs the same code on linear forms and symbols to generate the customised model.
"""

from dataclasses import dataclass
import weakref

import numpy as np

from robot_dynamics.algorithms.renaud import augment, Body, body_moments, NUMERIC, torques
from robot_dynamics.model.frames import proximal_frames
from robot_dynamics.solvers.registry import Solver

_cache = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class AugmentedBodies:
    """Moments of the augmented bodies at O_i in R_i (relation 0): m* (n,), u* (n, 3), k*.

    ``bodies``: one :class:`~robot_dynamics.algorithms.renaud.Body` per link, as the recursion
    takes them: ``m`` is ``m*^i`` where joint i is prismatic and 0 where it is revolute (there
    the parent's augmented body carries it, and the revolute joint i needs no ``f^i``).
    """

    m_star: np.ndarray
    u_star: np.ndarray
    k_star: np.ndarray
    bodies: tuple


def augmented_bodies(model):
    """Relation (0), once per model (cached): augment across revolute joints only.

    :func:`~robot_dynamics.algorithms.renaud.augment` on numbers, from the tip to the base;
    the code generator's regrouping runs the same function on linear forms.
    """
    bodies = _cache.get(model)
    if bodies is None:
        fr = proximal_frames(model)
        n = model.dof
        star = [body_moments(fr, i) for i in range(n)]                         # m^i, u^i, k^i
        for i in reversed(range(n - 1)):
            if fr.revolute[i + 1]:
                star[i] = augment(star[i], star[i + 1].m, fr.p[i + 1])          # (0)
        m_star = np.array([b.m for b in star], dtype=float)
        u_star, k_star = _clean([b.u for b in star]), _clean([b.K for b in star])
        recursion_bodies = tuple(
            Body(0.0 if fr.revolute[i] else float(m_star[i]), tuple(float(x) for x in u_star[i]),
                 tuple(tuple(float(x) for x in row) for row in k_star[i]))
            for i in range(n))
        bodies = AugmentedBodies(m_star, u_star, k_star, recursion_bodies)
        _cache[model] = bodies
    return bodies


def _clean(array):
    """Exact zeros where the augmented moments vanish up to rounding (sparse products)."""
    array = np.array(array, dtype=float)
    array[np.abs(array) < 1e-15 * max(1.0, np.abs(array).max())] = 0.0
    return array


def renaud(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by Renaud's relations (1)-(10) on numpy arrays."""
    N, n = q.shape
    columns = [[x[:, i] for i in range(n)] for x in (q, qd, qdd)]
    tip = None if f_tip is None else [f_tip[:, k] for k in range(6)]
    tau = torques(NUMERIC, proximal_frames(model), augmented_bodies(model).bodies, *columns,
                  tuple(gravity), tip)
    out = np.empty((N, n), np.result_type(q, qd, qdd, float))
    for i, value in enumerate(tau):
        out[:, i] = value
    return out


SOLVER = Solver(
    name='renaud',
    function=renaud,
    description="Renaud's augmented-body Newton-Euler, quasi-minimal (modified DH frames)",
    reference='Renaud 1987, relations (0)-(10) (seed 001)',
)
