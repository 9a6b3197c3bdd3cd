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
"""Generalized d'Alembert equations of motion (Lee, Lee, Nigam 1983; seed 003 §4).

Closed-form equations built from base-frame vectors and 3×3 rotations (seed 003 eq. 4.1-4.5)::

    Σ_j D_ij q̈_j + h_i^tran(q, q̇) + h_i^rot(q, q̇) + c_i = τ_i                     (4.1)

with, for body s (0-based, frames of :mod:`robot_dynamics.model`; every vector in the base
frame): ``z_j`` the axis of joint j and ``p_j`` the origin of frame {j} (on that axis, the
paper's ``z_{j-1}``, ``p_{j-1}``); ``r̄_s`` the centre of mass; ``c̄_s = r̄_s - p_s``;
``p*_k = p_{k+1} - p_k``; ``ˢR_0`` the rotation from the base into frame {s}; ``I_s`` the
inertia about the centre of mass in frame {s}. The partial velocities of body s with respect to
``q̇_j`` (``j ≤ s``) are ``z_j × (r̄_s - p_j)`` (linear) and ``z_j`` (angular) for a revolute
joint, ``z_j`` and ``0`` for a prismatic joint. Then

- ``D_ij = Σ_{s≥max(i,j)} (ˢR_0 z_i)ᵀ I_s (ˢR_0 z_j) + m_s [z_j × (r̄_s - p_j)]·[z_i × (r̄_s -
  p_i)]`` (4.2);
- ``h_i^tran = Σ_{s≥i} m_s a_s · [z_i × (r̄_s - p_i)]`` (4.3) where ``a_s`` is the
  velocity-product acceleration of the centre of mass: with ``ω_k = Σ_{p≤k} q̇_p z_p`` and
  ``ω̇_k = Σ_{2≤p≤k} ω_{p-1} × q̇_p z_p``, ``a_s = Σ_{k<s} [ω_k × (ω_k × p*_k) + ω̇_k × p*_k]
  + ω_s × (ω_s × c̄_s) + ω̇_s × c̄_s``;
- ``h_i^rot = Σ_{s≥i} (ˢR_0 z_i)ᵀ [I_s ˢR_0 ω̇_s + ˢR_0 ω_s × (I_s ˢR_0 ω_s)]`` (4.4);
- ``c_i = -g · [z_i × Σ_{j≥i} m_j (r̄_j - p_i)]`` (4.5).

The paper treats rotary joints only. Prismatic joints are added here in the same spirit: their
partial velocities above, no term in ``ω``, and the sliding of ``p*_k`` along ``z_{k+1}`` adds
the Coriolis acceleration ``2 ω_k × z_{k+1} q̇_{k+1}`` to ``a_s`` for every ``s > k``.
"""

import numpy as np

from robot_dynamics.algorithms.kinematics import body_poses, tip_wrench_torques
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.solvers.registry import Solver
from robot_dynamics.spatial.vectors import cross, rotate, rotate_back


def _geometry(model, q):
    """Base-frame ``R_s`` (N, 3, 3), ``p_s``, ``z_s``, ``r̄_s`` (N, 3) for every body."""
    R, p = body_poses(model, q)
    n = model.dof
    R = [R[:, s] for s in range(n)]
    p = [p[:, s] for s in range(n)]
    z = [rotate(R[s], np.broadcast_to(model.axis[s], p[s].shape)) for s in range(n)]
    com = [p[s] + rotate(R[s], np.broadcast_to(model.com[s], p[s].shape)) for s in range(n)]
    return R, p, z, com


def _linear_partials(model, p, z, com):
    """``v[s][j]`` (N, 3): partial velocity of body s's centre of mass w.r.t. ``q̇_j``, j ≤ s."""
    n = model.dof
    return [[cross(z[j], com[s] - p[j]) if model.joint_types[j] == REVOLUTE else z[j]
             for j in range(s + 1)] for s in range(n)]


def _angular_partials(model, R, z):
    """``w[s][j]`` (N, 3) = ``ˢR_0 z_j`` for revolute j ≤ s, or None (prismatic: zero)."""
    n = model.dof
    return [[rotate_back(R[s], z[j]) if model.joint_types[j] == REVOLUTE else None
             for j in range(s + 1)] for s in range(n)]


def dalembert_mass_matrix(model, q):
    """``D(q)`` (N, n, n) of seed 003 eq. 4.2 at ``q`` (N, n), rigid body only."""
    N, n = q.shape
    R, p, z, com = _geometry(model, q)
    return _mass_matrix(model, _linear_partials(model, p, z, com), _angular_partials(model, R, z),
                        (N, n, n), q.dtype)


def _mass_matrix(model, v, w, shape, dtype):
    n = model.dof
    D = np.zeros(shape, dtype=dtype)
    for s in range(n):
        I_w = [None if w[s][j] is None else w[s][j] @ model.inertia[s] for j in range(s + 1)]
        for j in range(s + 1):
            for i in range(j + 1):
                term = model.mass[s] * (v[s][i] * v[s][j]).sum(axis=-1)     # D_ij^tran
                if w[s][i] is not None and w[s][j] is not None:
                    term = term + (I_w[j] * w[s][i]).sum(axis=-1)            # D_ij^rot
                D[:, i, j] = D[:, i, j] + term
    iu = np.triu_indices(n, 1)
    D[:, iu[1], iu[0]] = D[:, iu[0], iu[1]]
    return D


def dalembert_velocity_terms(model, q, qd):
    """``h^tran + h^rot`` (N, n) of seed 003 eq. 4.3-4.4 at ``q, q̇`` (N, n)."""
    R, p, z, com = _geometry(model, q)
    return _velocity_terms(model, qd, R, p, z, com, _linear_partials(model, p, z, com),
                           _angular_partials(model, R, z))


def _velocity_terms(model, qd, R, p, z, com, v, w):
    N, n = qd.shape
    h = np.zeros((N, n), dtype=np.result_type(qd, R[0]))
    omega = np.zeros((N, 3), dtype=h.dtype)          # ω_k = Σ_{p≤k} q̇_p z_p
    domega = np.zeros((N, 3), dtype=h.dtype)         # ω̇_k = Σ_{p≤k} ω_{p-1} × q̇_p z_p
    a_chain = np.zeros((N, 3), dtype=h.dtype)        # Σ_{k<s} (… × p*_k) acceleration of p_s
    for s in range(n):
        if s > 0:
            p_star = p[s] - p[s - 1]                                     # p*_{s-1}
            a_chain = a_chain + cross(omega, cross(omega, p_star)) + cross(domega, p_star)
            if model.joint_types[s] != REVOLUTE:                         # sliding p*_{s-1}
                a_chain = a_chain + 2 * cross(omega, z[s] * qd[:, s, None])
        if model.joint_types[s] == REVOLUTE:
            spin = z[s] * qd[:, s, None]
            domega = domega + cross(omega, spin)
            omega = omega + spin
        c_bar = com[s] - p[s]
        a_s = a_chain + cross(omega, cross(omega, c_bar)) + cross(domega, c_bar)
        w_s = rotate_back(R[s], omega)                                   # ˢR_0 ω_s
        moment = rotate_back(R[s], domega) @ model.inertia[s].T \
            + cross(w_s, w_s @ model.inertia[s].T)                       # I ω̇ + ω × I ω
        for i in range(s + 1):
            h[:, i] = h[:, i] + model.mass[s] * (a_s * v[s][i]).sum(axis=-1)    # (4.3)
            if w[s][i] is not None:
                h[:, i] = h[:, i] + (moment * w[s][i]).sum(axis=-1)             # (4.4)
    return h


def dalembert_gravity(model, q, gravity=None):
    """``c(q)`` (N, n) of seed 003 eq. 4.5; ``gravity`` (3,) base frame, default the model's."""
    R, p, z, com = _geometry(model, q)
    g = model.gravity if gravity is None else gravity
    return _gravity(model, g, p, z, com, q.shape, q.dtype)


def _gravity(model, gravity, p, z, com, shape, dtype):
    n = model.dof
    c = np.zeros(shape, dtype=dtype)
    mass_below = 0.0                         # Σ_{j≥i} m_j
    moment_below = 0                         # Σ_{j≥i} m_j r̄_j
    for i in reversed(range(n)):
        mass_below = mass_below + model.mass[i]
        moment_below = moment_below + model.mass[i] * com[i]
        if model.joint_types[i] == REVOLUTE:
            lever = cross(z[i], moment_below - mass_below * p[i])
        else:
            lever = mass_below * z[i]
        c[:, i] = -(lever @ np.asarray(gravity, dtype=float))                  # (4.5)
    return c


def generalized_dalembert(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body torques (N, n) by the generalized d'Alembert equations (seed 003 eq. 4.1).

    Same signature as :func:`robot_dynamics.algorithms.rnea.rnea`; ``f_tip`` (N, 6), the wrench
    the tool exerts on the environment in the tool frame, enters as ``ᴺJᵀ f`` (Craig 5.96).
    """
    N, n = q.shape
    R, p, z, com = _geometry(model, q)
    v, w = _linear_partials(model, p, z, com), _angular_partials(model, R, z)
    dtype = np.result_type(q, qd, qdd, float)
    D = _mass_matrix(model, v, w, (N, n, n), dtype)
    tau = np.einsum('nij,nj->ni', D, qdd) \
        + _velocity_terms(model, qd, R, p, z, com, v, w) \
        + _gravity(model, gravity, p, z, com, (N, n), dtype)
    if f_tip is not None:
        tau = tau + tip_wrench_torques(model, q, f_tip)
    return tau


SOLVER = Solver(
    name='generalized_dalembert',
    function=generalized_dalembert,
    description="Generalized d'Alembert closed-form equations (D, h_tran, h_rot, c) in "
                'base-frame vectors; prismatic joints added',
    reference="Lee, Lee, Nigam 1983; seed 003 §4 eq. 4.1-4.5",
)
