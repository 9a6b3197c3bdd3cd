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
"""

from dataclasses import dataclass
import weakref

import numpy as np

from robot_dynamics.solvers.registry import Solver
from robot_dynamics.model.frames import (
    acceleration_operator, apply, const_cross, const_rotate, cross_z, lincomb, omega_products,
    proximal_frames, rotate, rotate_back, then_rz, vector, z_times,
)
from robot_dynamics.spatial.vectors import cross, skew

_cache = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class AugmentedBodies:
    """Moments of the augmented bodies at O_i in R_i (relation 0): m* (n,), u* (n, 3), k*.

    ``gyro`` (n, 3, 6): constant coefficients of ``ω × (k* ω)`` on the products
    ``δ = (xx, yy, zz, xy, xz, yz)`` of relation (2), so that term needs no new product of
    velocities (for a diagonal k*, one multiplication per component).
    """

    m_star: np.ndarray
    u_star: np.ndarray
    k_star: np.ndarray
    gyro: np.ndarray


def augmented_bodies(model):
    """Relation (0), once per model (cached): augment across revolute joints only."""
    bodies = _cache.get(model)
    if bodies is None:
        fr = proximal_frames(model)
        n = model.dof
        m_star, u_star, k_star = np.zeros(n), np.zeros((n, 3)), np.zeros((n, 3, 3))
        for i in reversed(range(n)):
            d = skew(fr.com[i])
            m_star[i], u_star[i] = fr.mass[i], fr.mass[i] * fr.com[i]         # m^i, u^i
            k_star[i] = fr.inertia[i] - fr.mass[i] * d @ d                     # k^i (Huygens)
            if i + 1 < n and fr.revolute[i + 1]:
                p_hat = skew(fr.p[i + 1])
                m_star[i] += m_star[i + 1]                                     # (0)
                u_star[i] += m_star[i + 1] * fr.p[i + 1]                       # (0a)
                k_star[i] -= m_star[i + 1] * p_hat @ p_hat                     # (0b)
        k_star = _clean(k_star)
        bodies = AugmentedBodies(m_star, _clean(u_star), k_star,
                                 np.array([_gyroscopic_coefficients(k) for k in k_star]))
        _cache[model] = bodies
    return bodies


def _gyroscopic_coefficients(k):
    """Coefficients (3, 6) of ``ω × (k ω)`` on ``δ = (xx, yy, zz, xy, xz, yz)``.

    ``(ω × k ω)_c = Σ_j k[c+2, j] δ[c+1, j] - k[c+1, j] δ[c+2, j]`` (indices mod 3).
    """
    index = {(0, 0): 0, (1, 1): 1, (2, 2): 2, (0, 1): 3, (0, 2): 4, (1, 2): 5}
    coefficients = np.zeros((3, 6))
    for c in range(3):
        u, v = (c + 1) % 3, (c + 2) % 3
        for j in range(3):
            coefficients[c, index[tuple(sorted((u, j)))]] += k[v, j]
            coefficients[c, index[tuple(sorted((v, j)))]] -= k[u, j]
    return _clean(coefficients)


def _clean(array):
    """Exact zeros where the augmented moments vanish up to rounding (sparse products)."""
    array = np.array(array)
    array[np.abs(array) < 1e-15 * max(1.0, np.abs(array).max())] = 0.0
    return array


def renaud(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by Renaud's relations (1)-(10)."""
    fr, aug = proximal_frames(model), augmented_bodies(model)
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    R = [None] * n                                          # R_{i-1,i}
    w, a, b, alpha = [None] * n, [None] * n, [None] * n, [None] * n
    delta = [None] * n
    p_next = [None] * n                                     # p_{i-1,i}(i-1) for prismatic i

    # Forward recursion, i = 1 … n: relations (1)-(6).
    w_prev = np.zeros((N, 3), dtype)
    a_prev = np.zeros((N, 3), dtype)
    r_prev = np.broadcast_to(-np.asarray(gravity, float), (N, 3)).astype(dtype)  # α_0 = -g
    for i in range(n):
        if fr.revolute[i]:
            R[i] = then_rz(fr.P[i], np.cos(q[:, i]), np.sin(q[:, i]))
        else:
            R[i] = np.broadcast_to(fr.P[i], (N, 3, 3)).astype(dtype)
        w_in = rotate_back(R[i], w_prev)                                          # (1a)
        a_in = rotate_back(R[i], a_prev)                                          # (3a)
        r_in = rotate_back(R[i], r_prev)                                          # (6b)
        if fr.revolute[i]:
            w[i] = w_in + z_times(qd[:, i])                                       # (1b)
            a[i] = a_in + cross_z(w_in, qd[:, i]) + z_times(qdd[:, i])            # (3b)
            alpha[i] = r_in                                                       # (6c)
        else:
            w[i], a[i] = w_in, a_in
            t = 2 * cross_z(w_in, qd[:, i]) + z_times(qdd[:, i])                  # (5)
            alpha[i] = t + r_in                                                   # (6c)
        delta[i] = omega_products(w[i])                                          # (2)
        b[i] = acceleration_operator(w[i], a[i], delta[i])                        # (4)
        if i + 1 < n:
            if fr.revolute[i + 1]:
                r_prev = alpha[i] + apply(b[i], fr.p[i + 1])                      # (6a)
            else:
                p_next[i + 1] = fr.p[i + 1] + np.multiply.outer(q[:, i + 1], fr.P[i + 1][:, 2])
                r_prev = alpha[i] + rotate(b[i], p_next[i + 1])                   # (6a)
        w_prev, a_prev = w[i], a[i]

    # Backward recursion, i = n … 1: relations (7)-(10).
    e, nm = _tip_wrench(fr, f_tip, N, dtype)                # e^{n+1} = f^{n+1}, n^{n+1} at O_n
    tau = np.empty((N, n), dtype)
    for i in reversed(range(n)):
        if i + 1 < n:
            e = rotate(R[i + 1], e)                                               # (7b)
            nm = rotate(R[i + 1], nm)                                             # (9b)
        e_next = e
        e = e_next + apply(b[i], aug.u_star[i])                                   # (7a)
        k_star = aug.k_star[i]
        gyroscopic = vector(*(lincomb(aug.gyro[i][c], delta[i]) for c in range(3)))  # (9a)
        nm = nm + const_rotate(k_star, a[i]) + gyroscopic \
            + const_cross(aug.u_star[i], alpha[i])                                # (9a)
        if i + 1 < n and fr.revolute[i + 1]:
            nm = nm + const_cross(fr.p[i + 1], e_next)                            # (9a)
        elif i + 1 < n:
            nm = nm + cross(p_next[i + 1], e_next)                                # (9a)
        if fr.revolute[i]:
            tau[:, i] = nm[:, 2]                                                  # (10)
        else:
            e = e + aug.m_star[i] * alpha[i]                                      # (8): f^i
            tau[:, i] = e[:, 2]                                                   # (10)
    return tau


def _tip_wrench(fr, f_tip, N, dtype):
    """``f^{n+1}`` and its moment ``n^{n+1}`` about O_n, in R_n, or zeros."""
    if f_tip is None:
        return np.zeros((N, 3), dtype), np.zeros((N, 3), dtype)
    f = const_rotate(fr.tip_rotation, f_tip[:, :3].astype(dtype))
    nm = const_rotate(fr.tip_rotation, f_tip[:, 3:].astype(dtype)) \
        + const_cross(fr.tip_translation, f)
    return f, nm


SOLVER = Solver(
    name='renaud',
    function=renaud,
    description="Renaud's augmented-body Newton-Euler, quasi-minimal (modified DH frames)",
    reference='Renaud 1987, relations (0)-(10) (seed 001)',
)
