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
"""Luh-Walker-Paul recursive Newton-Euler with every vector in base coordinates.

Seed 003 Table 1 (Milićević) and seed 002 §3 eq. 3.3-3.13 (Turney-Mudge-Lee): the starred
quantities of seed 002 are all expressed in the base frame, so the link data turn with the arm
and are rotated into the base frame at every call:

- ``⁰R_i = ⁰R_{i-1} ⁱ⁻¹R_i``: orientation of standard DH frame S_i;
- ``z_{i-1}``: joint i's axis, the third column of ``⁰R_{i-1}``;
- ``p*_i = ⁰R_i r_i`` (O_{i-1} → O_i), ``s̄_i = ⁰R_i r̄_i`` (O_i → centre of mass),
  ``I_i = ⁰R_i I ⁰R_iᵀ`` (about the centre of mass);
- ``ω_i, ω̇_i, v̇_i, ā_i``: angular velocity and acceleration, acceleration of O_i and of
  the centre of mass; ``F_i, N_i``: inertial force and moment; ``f_i, n_i``: force and moment on
  link i from link i-1 at O_{i-1}.

Extensions beyond the papers: general models are put into standard DH frames by
:func:`robot_dynamics.model.frames.distal_frames`; gravity is ``v̇_0 = -g`` in the base frame
(any direction); the tip wrench (Craig's ``f_{n+1}, n_{n+1}``, tool frame = S_n) is rotated by
``⁰R_n`` to start the backward recursion. Prismatic joints follow seed 003 Table 1.
"""

import numpy as np

from robot_dynamics.solvers.registry import Solver
from robot_dynamics.model.frames import distal_frames
from robot_dynamics.spatial.explicit import broadcast, compose, rotate, rz_then, vdot
from robot_dynamics.spatial.vectors import cross


def lwp_base(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by LWP in base coordinates; see the module docstring."""
    fr = distal_frames(model)
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    z, p_star, s_bar = [None] * n, [None] * n, [None] * n
    F, M = [None] * n, [None] * n

    # Forward recursion, i = 1 … n (seed 003 Table 1; seed 002 eq. 3.3-3.8).
    R0 = np.broadcast_to(fr.base_rotation, (N, 3, 3)).astype(dtype)              # ⁰R_0
    w = np.zeros((N, 3), dtype)
    dw = np.zeros((N, 3), dtype)
    dv = broadcast(-np.asarray(gravity, float), N, dtype)                         # v̇_0 = -g
    for i in range(n):
        z[i] = R0[:, :, 2]                                                        # z_{i-1}
        if fr.revolute[i]:
            R0 = compose(R0, rz_then(np.cos(q[:, i]), np.sin(q[:, i]), fr.X_rotation[i]))
            p_star[i] = rotate(R0, broadcast(fr.r[i], N, dtype))
            dw = dw + z[i] * qdd[:, i, None] + cross(w, z[i] * qd[:, i, None])    # 3.4
            w = w + z[i] * qd[:, i, None]                                         # 3.3
            dv = cross(dw, p_star[i]) + cross(w, cross(w, p_star[i])) + dv        # 3.7
        else:
            R0 = compose(R0, np.broadcast_to(fr.X_rotation[i], (N, 3, 3)))
            p_star[i] = rotate(R0, broadcast(fr.r[i], N, dtype)) + z[i] * q[:, i, None]
            dv = z[i] * qdd[:, i, None] + cross(dw, p_star[i]) \
                + 2 * cross(w, z[i] * qd[:, i, None]) \
                + cross(w, cross(w, p_star[i])) + dv                              # Table 1
        s_bar[i] = rotate(R0, broadcast(fr.rbar[i], N, dtype))
        a_bar = cross(dw, s_bar[i]) + cross(w, cross(w, s_bar[i])) + dv           # 3.8
        inertia = compose(compose(R0, np.broadcast_to(fr.inertia[i], (N, 3, 3))),
                          np.swapaxes(R0, 1, 2))                                  # I_i, base
        F[i] = fr.mass[i] * a_bar                                                 # 3.9
        M[i] = rotate(inertia, dw) + cross(w, rotate(inertia, w))                 # 3.10

    # Backward recursion, i = n … 1 (seed 003 Table 1; seed 002 eq. 3.9-3.13).
    f, nm = _tip_wrench(R0, f_tip, N, dtype)
    tau = np.empty((N, n), dtype)
    for i in reversed(range(n)):
        nm = nm + cross(p_star[i], f) + cross(p_star[i] + s_bar[i], F[i]) + M[i]   # 3.12
        f = F[i] + f                                                              # 3.9
        tau[:, i] = vdot(nm if fr.revolute[i] else f, z[i])                       # 3.13
    return tau


def _tip_wrench(R0_n, f_tip, N, dtype):
    """``f_{n+1}, n_{n+1}`` in the base frame from the tool-frame wrench, or zeros."""
    if f_tip is None:
        return np.zeros((N, 3), dtype), np.zeros((N, 3), dtype)
    return rotate(R0_n, f_tip[:, :3].astype(dtype)), rotate(R0_n, f_tip[:, 3:].astype(dtype))


SOLVER = Solver(
    name='lwp_base',
    function=lwp_base,
    description='Luh-Walker-Paul recursive Newton-Euler in base coordinates',
    reference='Luh, Walker, Paul 1980; seed 003 Table 1; seed 002 eq. 3.3-3.13',
)
