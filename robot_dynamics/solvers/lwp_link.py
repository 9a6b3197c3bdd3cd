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
"""Luh-Walker-Paul recursive Newton-Euler in link coordinates, on standard DH frames.

Seed 002 eq. 3.15-3.21 (Turney-Mudge-Lee's restatement of Luh, Walker, Paul 1980) and seed 003
Table 2 (Milićević). Every vector and inertia of link i is expressed in its own standard
(distal) DH frame S_i, whose origin O_i lies on the axis of joint i+1; joint i turns about
``z_{i-1}``. In S_i:

- ``r_i``: from O_{i-1} to O_i (Paul's ``p*_i``), ``r̄_i``: from O_i to the centre of mass;
- ``R_i^{i-1} = (Rz(q_i) X_i)ᵀ`` rotates S_{i-1} into S_i; ``R_i^{i-1} z_{i-1}`` is the joint
  axis seen from link i;
- ``ω_i, α_i``: angular velocity and acceleration; ``a_i``: acceleration of O_i;
  ``ā_i``: of the centre of mass; ``f_i, n_i``: force and moment on link i from link i-1, the
  moment taken about O_{i-1}.

Extensions beyond the papers: a general model is first put into these frames by
:func:`robot_dynamics.model.frames.distal_frames` (a constant rotation per joint maps the
joint axis onto ``z``); the tool frame is S_n, so the tip wrench (Craig's ``f_{n+1}``,
``n_{n+1}``, exerted by the tool on the environment) enters the backward recursion unchanged.
Prismatic joints follow seed 003 Table 2: ``ω, α`` pass through, ``r_i`` grows by ``q_i`` along
the joint axis and ``a_i`` gains ``R(z_0 q̈) + 2 ω_i × (R z_0 q̇)``; ``τ_i`` is ``f_iᵀ`` of the
axis. Gravity is the base acceleration ``a_0 = -g`` (seed 002 end of §3).
"""

import numpy as np

from robot_dynamics.solvers.registry import Solver
from robot_dynamics.model.frames import distal_frames
from robot_dynamics.spatial.explicit import (
    broadcast, const_rotate, cross_z, dot, rotate, rotate_back, rz_then, z_times,
)
from robot_dynamics.spatial.vectors import cross


def lwp_link(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by LWP in link coordinates; see the module docstring."""
    fr = distal_frames(model)
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    R, r = [None] * n, [None] * n
    F, Nm = [None] * n, [None] * n

    # Forward recursion, i = 1 … n (seed 002 eq. 3.15-3.18; seed 003 Table 2).
    w = np.zeros((N, 3), dtype)
    dw = np.zeros((N, 3), dtype)
    a = broadcast(fr.base_rotation.T @ -np.asarray(gravity, float), N, dtype)   # a_0 = -g
    for i in range(n):
        if fr.revolute[i]:
            R[i] = rz_then(np.cos(q[:, i]), np.sin(q[:, i]), fr.X_rotation[i])   # ⁱ⁻¹R_i
            r[i] = broadcast(fr.r[i], N, dtype)
            w_prev = w
            w = rotate_back(R[i], w + z_times(qd[:, i]))                          # 3.15
            dw = rotate_back(R[i], dw + z_times(qdd[:, i])
                             + cross_z(w_prev, qd[:, i]))                         # 3.16
            a = cross(dw, r[i]) + cross(w, cross(w, r[i])) + rotate_back(R[i], a)  # 3.17
        else:
            R[i] = broadcast_rotation(fr.X_rotation[i], N, dtype)
            z = fr.z[i]
            r[i] = fr.r[i] + np.multiply.outer(q[:, i], z)                      # r_i(q_i)
            w, dw = rotate_back(R[i], w), rotate_back(R[i], dw)
            a = rotate_back(R[i], a + z_times(qdd[:, i])) + cross(dw, r[i]) \
                + 2 * cross(w, np.multiply.outer(qd[:, i], z)) \
                + cross(w, cross(w, r[i]))                                        # Table 2
        a_bar = cross(dw, fr.rbar[i]) + cross(w, cross(w, fr.rbar[i])) + a         # 3.18
        F[i] = fr.mass[i] * a_bar
        Nm[i] = const_rotate(fr.inertia[i], dw, sparse=False) \
            + cross(w, const_rotate(fr.inertia[i], w, sparse=False))

    return backward_pass(fr, R, r, F, Nm, f_tip, dtype)


def backward_pass(fr, R, r, F, Nm, f_tip, dtype):
    """Backward recursion, i = n … 1 (seed 002 eq. 3.19-3.21); S_n is the tool frame.

    ``R[i]`` (N, 3, 3) = ⁱ⁻¹R_i, ``r[i]`` (N, 3) or (3,), and body i's inertial force ``F[i]``
    and moment ``Nm[i]`` about its centre of mass (N, 3). Shared with Turney-Mudge-Lee, whose
    eq. 5.1-5.2 are this recursion with ``F = m ā`` and ``Nm = Tr{A K σᵗ}``. Returns τ (N, n).
    """
    N, n = F[0].shape[0], len(F)
    f, nm = _tip_wrench(f_tip, N, dtype)
    tau = np.empty((N, n), dtype)
    for i in reversed(range(n)):
        if i + 1 < n:
            f, nm = rotate(R[i + 1], f), rotate(R[i + 1], nm)                     # R_i^{i+1}
        nm = Nm[i] + cross(r[i] + fr.rbar[i], F[i]) + cross(r[i], f) + nm         # 3.20
        f = F[i] + f                                                              # 3.19
        tau[:, i] = dot(nm if fr.revolute[i] else f, fr.z[i])                     # 3.21
    return tau


def broadcast_rotation(X, N, dtype):
    """Broadcast a constant rotation (3, 3) to a batch (N, 3, 3)."""
    return np.broadcast_to(X, (N, 3, 3)).astype(dtype)


def _tip_wrench(f_tip, N, dtype):
    """``f_{n+1}, n_{n+1}`` in S_n (the tool frame, about its origin) or zeros."""
    if f_tip is None:
        return np.zeros((N, 3), dtype), np.zeros((N, 3), dtype)
    return f_tip[:, :3].astype(dtype), f_tip[:, 3:].astype(dtype)


SOLVER = Solver(
    name='lwp_link',
    function=lwp_link,
    description='Luh-Walker-Paul recursive Newton-Euler in link coordinates (standard DH)',
    reference='Luh, Walker, Paul 1980; seed 002 eq. 3.15-3.21; seed 003 Table 2',
)
