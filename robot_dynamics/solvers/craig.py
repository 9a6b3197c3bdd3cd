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
"""Craig's iterative Newton-Euler (Introduction to Robotics §6.5) on modified DH frames.

Seed 004, eq. 6.45-6.50 (outward iterations) and 6.51-6.53 (inward iterations). Frame {i} is
Craig's link frame: its ``Ẑ_i`` is joint i's axis and its origin lies on that axis. In {i}:
``ω_i, ω̇_i`` angular velocity and acceleration, ``v̇_i`` acceleration of the origin,
``v̇_Ci`` of the centre of mass ``P_Ci``, ``F_i, N_i`` inertial force and moment (6.49, 6.50),
``f_i, n_i`` force and moment exerted on link i by link i-1. ``ⁱ⁺¹_iR`` rotates {i} into
{i+1} and ``ⁱP_{i+1}`` locates {i+1} in {i}.

Extensions: a URDF model's frames are turned into Craig's by
:func:`robot_dynamics.model.frames.proximal_frames` (a constant rotation per joint maps the
joint axis onto ``Ẑ``; then ``ⁱ⁻¹_iR = P_i Rz(θ_i)``, the general form of
``Rx(α_{i-1}) Rz(θ_i)``). Prismatic joints use Craig's eq. 6.33-6.34 form: ``ω, ω̇`` pass
through, ``v̇_{i+1}`` gains ``2 ω_{i+1} × ḋ_{i+1} Ẑ + d̈_{i+1} Ẑ`` and ``ⁱP_{i+1}`` grows by
``d_{i+1}`` along the axis; ``τ`` is ``f · Ẑ``. Gravity: ``v̇_0 = -g`` (Craig §6.5). The tool
frame is "link n+1" of the inward iteration, so ``f_{n+1}, n_{n+1}`` are the tip wrench.
"""

import numpy as np

from robot_dynamics.solvers.registry import Solver
from robot_dynamics.model.frames import (
    broadcast, const_rotate, cross_z, proximal_frames, rotate, rotate_back, then_rz, z_times,
)
from robot_dynamics.spatial.vectors import cross


def craig(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by Craig's iterations; see the module docstring."""
    fr = proximal_frames(model)
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    R, P = [None] * (n + 1), [None] * (n + 1)                 # ⁱ⁻¹_iR, ⁱ⁻¹P_i
    F, Nm = [None] * n, [None] * n

    # Outward iterations, i: 0 → n-1 (Craig 6.45-6.50).
    w = np.zeros((N, 3), dtype)
    dw = np.zeros((N, 3), dtype)
    dv = broadcast(-np.asarray(gravity, float), N, dtype)                       # ⁰v̇_0 = -g
    for i in range(n):
        if fr.revolute[i]:
            R[i] = then_rz(fr.P[i], np.cos(q[:, i]), np.sin(q[:, i]))
            P[i] = broadcast(fr.p[i], N, dtype)
            dv = rotate_back(R[i], cross(dw, P[i]) + cross(w, cross(w, P[i])) + dv)  # 6.47
            w = rotate_back(R[i], w)
            dw = rotate_back(R[i], dw) + cross_z(w, qd[:, i]) + z_times(qdd[:, i])   # 6.46
            w = w + z_times(qd[:, i])                                                # 6.45
        else:
            R[i] = np.broadcast_to(fr.P[i], (N, 3, 3)).astype(dtype)
            P[i] = fr.p[i] + np.multiply.outer(q[:, i], fr.P[i][:, 2])             # d_i along Ẑ
            dv = rotate_back(R[i], cross(dw, P[i]) + cross(w, cross(w, P[i])) + dv)
            w, dw = rotate_back(R[i], w), rotate_back(R[i], dw)
            dv = dv + 2 * cross(w, z_times(qd[:, i])) + z_times(qdd[:, i])        # 6.47'
        c = fr.com[i]
        dv_c = cross(dw, c) + cross(w, cross(w, c)) + dv                          # 6.48
        F[i] = fr.mass[i] * dv_c                                                  # 6.49
        Nm[i] = const_rotate(fr.inertia[i], dw, sparse=False) \
            + cross(w, const_rotate(fr.inertia[i], w, sparse=False))              # 6.50

    # Inward iterations, i: n-1 → 0 (Craig 6.51-6.53); link n+1 is the tool.
    R[n] = np.broadcast_to(fr.tip_rotation, (N, 3, 3)).astype(dtype)
    P[n] = broadcast(fr.tip_translation, N, dtype)
    if f_tip is None:
        f, nm = np.zeros((N, 3), dtype), np.zeros((N, 3), dtype)
    else:
        f, nm = f_tip[:, :3].astype(dtype), f_tip[:, 3:].astype(dtype)
    tau = np.empty((N, n), dtype)
    for i in reversed(range(n)):
        Rf = rotate(R[i + 1], f)
        nm = Nm[i] + rotate(R[i + 1], nm) + cross(fr.com[i], F[i]) \
            + cross(P[i + 1], Rf)                                                 # 6.52
        f = Rf + F[i]                                                             # 6.51
        tau[:, i] = nm[:, 2] if fr.revolute[i] else f[:, 2]                       # 6.53
    return tau


SOLVER = Solver(
    name='craig',
    function=craig,
    description="Craig's iterative Newton-Euler, outward and inward iterations (modified DH)",
    reference='Craig, Introduction to Robotics §6.5, eq. 6.45-6.53 (seed 004)',
)
