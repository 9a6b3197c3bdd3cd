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
"""Turney-Mudge-Lee's modified Newton-Euler: the consolidated operator A_i and inertia K_i.

Seed 002 §5, eq. 5.1-5.2 (operation counts in its Table 4). The recursion is Luh-Walker-Paul's
in link coordinates on standard (distal) DH frames S_i (see
:mod:`robot_dynamics.solvers.lwp_link` for the symbols ``ω_i, α_i, a_i, ā_i, r_i, r̄_i, f_i,
n_i``), with two changes:

- the Coriolis-centripetal operation ``α_i × b + ω_i × (ω_i × b)`` on any vector b is one
  matrix ``A_i = [α_i×] + ω_i ω_iᵀ - |ω_i|² E`` (6 multiplications, 9 additions), used for
  ``a_i = A_i r_i + R_i^{i-1} a_{i-1}`` and ``ā_i = A_i r̄_i + a_i`` (eq. 5.1);
- the Euler term ``I α + ω × I ω`` is ``Tr{A_i K_i σᵗ}`` with the second-moment matrix
  ``K_i = ∫ d dᵀ dm = ½ Tr{I} E - I`` (d from the centre of mass), whose x component is
  ``(A K)_zy - (A K)_yz`` (eq. 5.2). For principal axes K is the paper's diagonal
  ``((-Ixx+Iyy+Izz)/2, …)`` and this costs 6 multiplications and 3 additions; a general K uses
  its non-zero entries. (The report calls K_i an inertia "about the (i-1)th origin", but eq. 5.2
  keeps ``m_i (r̄_i + r_i) × ā_i`` with the centre-of-mass acceleration, which is consistent
  only with K about the centre of mass; that is what is used here.)

Extensions: general models via :func:`robot_dynamics.model.frames.distal_frames`; prismatic
joints as in seed 003 Table 2 (``a_i`` gains ``R(z_0 q̈) + 2 ω_i × (R z_0 q̇)``, ``r_i`` grows
with ``q_i``, ``τ_i`` from ``f_i``); gravity as ``a_0 = -g``; the tip wrench enters in the tool
frame S_n. The backward recursion is Luh-Walker-Paul's unchanged, so this module runs
:func:`robot_dynamics.solvers.lwp_link.backward_pass` with its own force ``m_i ā_i`` and
moment ``Tr{A_i K_i σᵗ}``; only the forward recursion and the Euler term are its own.
"""

import numpy as np

from robot_dynamics.solvers.registry import Solver
from robot_dynamics.model.frames import distal_frames
from robot_dynamics.spatial.explicit import (
    acceleration_operator, broadcast, cross_z, lincomb, rotate, rotate_back, rz_then, vector,
    z_times,
)
from robot_dynamics.solvers.lwp_link import backward_pass, broadcast_rotation
from robot_dynamics.spatial.vectors import cross


def turney_mudge_lee(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by the modified Newton-Euler set (seed 002 §5)."""
    fr = distal_frames(model)
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    R, r = [None] * n, [None] * n
    m_a_bar, euler = [None] * n, [None] * n

    # Forward recursion, i = 1 … n (seed 002 eq. 3.15, 3.16, 5.1).
    w = np.zeros((N, 3), dtype)
    alpha = np.zeros((N, 3), dtype)
    a = broadcast(fr.base_rotation.T @ -np.asarray(gravity, float), N, dtype)   # a_0 = -g
    for i in range(n):
        if fr.revolute[i]:
            R[i] = rz_then(np.cos(q[:, i]), np.sin(q[:, i]), fr.X_rotation[i])
            r[i] = fr.r[i]
            w_prev = w
            w = rotate_back(R[i], w + z_times(qd[:, i]))                          # 3.15
            alpha = rotate_back(R[i], alpha + z_times(qdd[:, i])
                                + cross_z(w_prev, qd[:, i]))                      # 3.16
            A = acceleration_operator(w, alpha)                                   # A_i
            a = rotate(A, broadcast(r[i], N, dtype)) + rotate_back(R[i], a)       # 5.1
        else:
            R[i] = broadcast_rotation(fr.X_rotation[i], N, dtype)
            r[i] = fr.r[i] + np.multiply.outer(q[:, i], fr.z[i])                  # r_i(q_i)
            w, alpha = rotate_back(R[i], w), rotate_back(R[i], alpha)
            A = acceleration_operator(w, alpha)
            a = rotate(A, r[i]) + rotate_back(R[i], a + z_times(qdd[:, i])) \
                + 2 * cross(w, np.multiply.outer(qd[:, i], fr.z[i]))              # 5.1'
        a_bar = rotate(A, broadcast(fr.rbar[i], N, dtype)) + a                   # ā_i
        m_a_bar[i] = fr.mass[i] * a_bar
        euler[i] = _trace_term(A, _second_moment(fr.inertia[i]))                  # Tr{A K σᵗ}

    # Backward recursion, i = n … 1 (seed 002 eq. 5.1, 5.2, 3.21): Luh-Walker-Paul's.
    return backward_pass(fr, R, r, m_a_bar, euler, f_tip, dtype)


def _second_moment(inertia):
    """``K = ½ Tr{I} E - I``: the second moment ``∫ d dᵀ dm`` about the centre of mass."""
    return 0.5 * np.trace(inertia) * np.eye(3) - inertia


def _trace_term(A, K):
    """``Tr{A K σᵗ}``: the vector ``((AK)_zy - (AK)_yz, (AK)_xz - (AK)_zx, (AK)_yx - (AK)_xy)``.

    Only the needed entries of ``A K`` are formed, from the non-zero entries of K.
    """
    def AK(row, col):
        return lincomb(K[:, col], (A[:, row, 0], A[:, row, 1], A[:, row, 2]))
    return vector(AK(2, 1) - AK(1, 2), AK(0, 2) - AK(2, 0), AK(1, 0) - AK(0, 1))


SOLVER = Solver(
    name='turney_mudge_lee',
    function=turney_mudge_lee,
    description='Modified Newton-Euler with the consolidated operator A_i and inertia K_i',
    reference='Turney, Mudge, Lee 1980; seed 002 §5 eq. 5.1-5.2, Table 4',
)
