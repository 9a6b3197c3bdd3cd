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
"""Lagrange-Euler dynamics with 4×4 homogeneous matrices (Uicker 1965, Lewis 1974).

The formulation of seed 002 §2 (Turney-Mudge-Lee eq. 2.1-2.11 and their Appendix) and seed 003
§2 (Milićević eq. 2.3-2.15), written over the model's own frames instead of Denavit-Hartenberg
ones: the link transform is ``ⁱ⁻¹T_i = placement_i · Joint_i(q_i)`` (see
:mod:`robot_dynamics.model`). Symbols (0-based joint indices, 4×4 matrices, (N, 4, 4) batches):

- ``⁰T_i``: pose of body i in the base frame; ``ʲT_i`` the chain from body j to body i;
- ``Q_i``: derivative operator of joint i, ``∂Joint_i/∂q_i = Q_i Joint_i = Joint_i Q_i``, with
  ``Q_i = [[a×, 0], [0, 0]]`` for a revolute joint about the unit axis ``a`` (seed 002 eq. 1.5,
  the spin matrix ``σ_z`` for a Denavit-Hartenberg ``z`` axis) and ``Q_i = [[0, a], [0, 0]]``
  for a prismatic joint (the extension of Paul's ``Δ`` to sliding joints);
- ``U_ij = ∂⁰T_i/∂q_j = ⁰T_j Q_j ʲT_i`` for ``j ≤ i`` (seed 003 eq. 2.3; seed 002 eq. 1.11);
- ``U_ijk = ∂U_ij/∂q_k = ⁰T_j Q_j ʲT_k Q_k ᵏT_i`` for ``j ≤ k ≤ i`` (seed 002 eq. 1.12);
- ``J_i``: the pseudo-inertia ``∫ d dᵀ dm`` of body i in homogeneous coordinates (eq. 1.28).

Then ``D_ik = Σ_{j≥max(i,k)} Tr(U_jk J_j U_jiᵀ)`` (003 eq. 2.11),
``h_ikm = Σ_{j≥max(i,k,m)} Tr(U_jkm J_j U_jiᵀ)`` (2.14), ``c_i = -Σ_{j≥i} m_j gᵀ U_ji r̄_j``
(2.15), and ``τ = D q̈ + h + c`` (2.6). The solver evaluates the torque by the cubic strategy of
seed 002's Appendix: for each link j the bracket ``Σ_k U_jk q̈_k + Σ_k Σ_m U_jkm q̇_k q̇_m`` is
formed once, multiplied by ``J_j`` and traced against every ``U_ji``.
"""

import numpy as np

from robot_dynamics.algorithms.kinematics import joint_transform, tip_wrench_torques
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.solvers.registry import Solver
from robot_dynamics.spatial.vectors import skew


# ---------------------------------------------------------------------- building blocks
def homogeneous(R, p):
    """4×4 transforms (N, 4, 4) from rotations (N, 3, 3) and translations (N, 3)."""
    T = np.zeros(R.shape[:-2] + (4, 4), dtype=np.result_type(R, p))
    T[..., :3, :3], T[..., :3, 3], T[..., 3, 3] = R, p, 1
    return T


def derivative_operator(model, i):
    """``Q_i`` (4, 4): ``∂Joint_i/∂q_i = Q_i Joint_i`` (seed 002 eq. 1.5, extended)."""
    Q = np.zeros((4, 4))
    if model.joint_types[i] == REVOLUTE:
        Q[:3, :3] = skew(model.axis[i])
    else:
        Q[:3, 3] = model.axis[i]
    return Q


def pseudo_inertia(model, i):
    """``J_i`` (4, 4) about the origin of frame {i} (seed 002 eq. 1.26-1.28), kg, kg m, kg m²."""
    m, c, inertia = model.mass[i], model.com[i], model.inertia[i]
    second_moment = 0.5 * np.trace(inertia) * np.eye(3) - inertia + m * np.outer(c, c)
    J = np.empty((4, 4))
    J[:3, :3], J[:3, 3], J[3, :3], J[3, 3] = second_moment, m * c, m * c, m
    return J


def transform_derivatives(model, q):
    """``⁰T_i``, ``U_ij`` and ``U_ijk`` at ``q`` (N, n), following seed 002's Appendix.

    Returns ``(pose, U, U2)``: ``pose[i]`` (N, 4, 4); ``U[i][j]`` for ``j ≤ i``;
    ``U2[i][j][k]`` for ``j ≤ k ≤ i`` (``U_ijk = U_ikj``; only ``j ≤ k`` is stored).
    """
    n = q.shape[1]
    link = [homogeneous(*joint_transform(model, i, q[:, i])) for i in range(n)]
    Q = [derivative_operator(model, i) for i in range(n)]
    # ʲT_i for j < i: pairs, triples, … as in the Appendix; chain[-1, i] = ⁰T_i.
    chain = {}
    for i in range(n):
        chain[i - 1, i] = link[i]
        for j in range(i - 2, -2, -1):
            chain[j, i] = link[j + 1] @ chain[j + 1, i]
    pose = [chain[-1, i] for i in range(n)]
    posed_Q = [pose[j] @ Q[j] for j in range(n)]                   # ⁰T_j Q_j
    U = [[posed_Q[j] @ chain[j, i] if j < i else posed_Q[i] for j in range(i + 1)]
         for i in range(n)]                                            # seed 002 eq. 1.11
    U2 = [[{k: U[k][j] @ Q[k] @ chain[k, i] if k < i else U[i][j] @ Q[i]
            for k in range(j, i + 1)} for j in range(i + 1)] for i in range(n)]   # eq. 1.12
    return pose, U, U2


def _trace_product(A, B):
    """``Tr(A Bᵀ)`` for stacks (N, 4, 4): the sum of the element-wise products."""
    return (A * B).sum(axis=(-2, -1))


def velocity_products(qd):
    """``{(k, m): w_km}`` for ``k ≤ m``: ``q̇_k²`` and ``2 q̇_k q̇_m`` (N,), formed once."""
    n = qd.shape[1]
    return {(k, m): qd[:, k] * qd[:, m] if k == m else 2 * qd[:, k] * qd[:, m]
            for k in range(n) for m in range(k, n)}


def _velocity_bracket(U2_j, products, extent):
    """``Σ_k Σ_m U_jkm q̇_k q̇_m`` (N, 4, 4) for link j, using ``U_jkm = U_jmk``."""
    total = 0
    for k in range(extent):
        for m in range(k, extent):
            total = total + U2_j[k][m] * products[k, m][:, None, None]
    return total


def _rows(model, value):
    array = np.asarray(value)
    return np.atleast_2d(array), array.ndim == 1


# ---------------------------------------------------------------------- explicit matrices
def lagrange_mass_matrix(model, q):
    """Inertia matrix ``D(q)`` (n, n) or (N, n, n), seed 003 eq. 2.11, rigid body only."""
    q_, single = _rows(model, q)
    N, n = q_.shape
    _, U, _ = transform_derivatives(model, q_)
    J = [pseudo_inertia(model, j) for j in range(n)]
    D = np.zeros((N, n, n), dtype=q_.dtype)
    for i in range(n):
        for k in range(i + 1):
            D[:, i, k] = D[:, k, i] = sum(_trace_product(U[j][k] @ J[j], U[j][i])
                                          for j in range(i, n))
    return D[0] if single else D


def lagrange_coriolis_coefficients(model, q):
    """``h_ikm(q)`` (n, n, n) or (N, n, n, n), seed 003 eq. 2.14: ``h_i = Σ h_ikm q̇_k q̇_m``."""
    q_, single = _rows(model, q)
    N, n = q_.shape
    _, U, U2 = transform_derivatives(model, q_)
    J = [pseudo_inertia(model, j) for j in range(n)]
    h = np.zeros((N, n, n, n), dtype=q_.dtype)
    for i in range(n):
        for k in range(n):
            for m in range(k, n):
                h[:, i, k, m] = h[:, i, m, k] = sum(
                    _trace_product(U2[j][k][m] @ J[j], U[j][i]) for j in range(max(i, m), n))
    return h[0] if single else h


def lagrange_coriolis(model, q, qd):
    """Coriolis and centrifugal torques ``h(q, q̇)`` (n,) or (N, n), seed 003 eq. 2.12-2.14."""
    q_, single = _rows(model, q)
    qd_ = np.atleast_2d(qd)
    n = q_.shape[1]
    _, U, U2 = transform_derivatives(model, q_)
    h = np.zeros(q_.shape, dtype=np.result_type(q_, qd_))
    products = velocity_products(qd_)
    for j in range(n):
        bracket = _velocity_bracket(U2[j], products, j + 1) @ pseudo_inertia(model, j)
        for i in range(j + 1):
            h[:, i] = h[:, i] + _trace_product(bracket, U[j][i])
    return h[0] if single else h


def lagrange_gravity(model, q, gravity=None):
    """Gravity loading ``c(q)`` (n,) or (N, n), seed 003 eq. 2.15 (seed 002 eq. 2.8).

    ``gravity`` (3,) in the base frame, m/s² (default ``model.gravity``).
    """
    q_, single = _rows(model, q)
    _, U, _ = transform_derivatives(model, q_)
    c = _gravity_terms(model, U, model.gravity if gravity is None else gravity,
                       q_.shape, q_.dtype)
    return c[0] if single else c


def _gravity_terms(model, U, gravity, shape, dtype):
    """``c_i = -Σ_{j≥i} gᵀ U_ji (m_j r̄_j)`` with homogeneous ``r̄_j`` and ``g = [g; 0]``."""
    n = shape[1]
    g = np.append(np.asarray(gravity, dtype=float), 0.0)
    c = np.zeros(shape, dtype=dtype)
    for j in range(n):
        moment = model.mass[j] * np.append(model.com[j], 1.0)     # m_j r̄_j (homogeneous)
        for i in range(j + 1):
            c[:, i] = c[:, i] - (U[j][i] @ moment) @ g
    return c


# ---------------------------------------------------------------------- inverse dynamics
def lagrange_euler(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body torques (N, n) by the Lagrange-Euler equations (seed 002 eq. 2.11).

    Same signature as :func:`robot_dynamics.algorithms.rnea.rnea`: ``q, qd, qdd`` (N, n);
    ``gravity`` (3,) base frame; ``f_tip`` (N, 6) the wrench ``[f; n]`` the tool exerts on the
    environment, tool frame, added through the tool-frame Jacobian (``τ += ᴺJᵀ f``, Craig 5.96).
    """
    N, n = q.shape
    _, U, U2 = transform_derivatives(model, q)
    tau = _gravity_terms(model, U, gravity, q.shape, np.result_type(q, qd, qdd, float))
    products = velocity_products(qd)                                 # q̇_k q̇_m, once
    for j in range(n):
        bracket = _velocity_bracket(U2[j], products, j + 1)          # Appendix: Σ U q̇ q̇
        for k in range(j + 1):
            bracket = bracket + U[j][k] * qdd[:, k, None, None]      # … + Σ U q̈
        bracket = bracket @ pseudo_inertia(model, j)                 # [ … ] J_j
        for i in range(j + 1):
            tau[:, i] = tau[:, i] + _trace_product(bracket, U[j][i])   # Tr{[ … ] J_j U_jiᵀ}
    if f_tip is not None:
        tau = tau + tip_wrench_torques(model, q, f_tip)
    return tau


def lagrange_euler_explicit(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body torques (N, n) from the explicit coefficients: ``τ = D q̈ + h + c``.

    Seed 003 eq. 2.5: every ``D_ik`` (2.11), every ``h_ikm`` (2.14) and ``c_i`` (2.15) formed
    first, then combined with ``q̈`` and ``q̇_k q̇_m`` — the quartic route that seed 003 Table 3
    counts. Same signature as :func:`lagrange_euler`; not registered (it exists to be counted
    and as a check of the coefficients).
    """
    D = lagrange_mass_matrix(model, q)
    h = lagrange_coriolis_coefficients(model, q)
    tau = np.einsum('nik,nk->ni', D, qdd) + np.einsum('nikm,nk,nm->ni', h, qd, qd) \
        + lagrange_gravity(model, q, gravity)
    if f_tip is not None:
        tau = tau + tip_wrench_torques(model, q, f_tip)
    return tau


SOLVER = Solver(
    name='lagrange_euler',
    function=lagrange_euler,
    description='Lagrange-Euler with 4x4 homogeneous matrices and pseudo-inertias (Uicker, '
                'Lewis); cubic Appendix strategy',
    reference='seed 002 §2 eq. 2.1-2.11 and Appendix; seed 003 §2 eq. 2.3-2.15',
)
