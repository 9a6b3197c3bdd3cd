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
"""Reference recursive Newton-Euler inverse dynamics in link coordinates.

The Luh-Walker-Paul recursion as written in link frames (seed 002 eq. 3.15-3.21; Craig §6.5
eq. 6.45-6.53), generalised from Denavit-Hartenberg ``z`` axes to an arbitrary joint axis and
vectorised over a batch of N states. Each body's quantities are expressed in its own frame
{i} (see :mod:`robot_dynamics.model`):

- ``ω_i``, ``ω̇_i``: angular velocity and acceleration of body i;
- ``v̇_i``: linear acceleration of the origin of {i}; ``v̇_ci`` of its centre of mass;
- ``F_i``, ``N_i``: inertial force and moment (Newton and Euler equations, Craig 6.49-6.50);
- ``f_i``, ``n_i``: force and moment exerted on body i by body i-1.

Registered as the default solver ``'rnea'`` (:mod:`robot_dynamics.solvers.reference`); it
returns rigid-body torques
only. Friction and rotor inertia are joint-space terms added in one place,
:func:`robot_dynamics.api.inverse_dynamics`.
"""

import numpy as np

from robot_dynamics.algorithms.kinematics import joint_transform
from robot_dynamics.spatial.algebra import force_to_parent
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import cross, rotate_back


def rnea(model, q, qd, qdd, gravity, f_tip=None, transform=joint_transform):
    """Rigid-body joint torques (N, n) for states ``q, qd, qdd`` (N, n).

    ``gravity`` (3,) is the gravitational acceleration in the base frame; ``f_tip`` (N, 6) is
    the wrench ``[f; n]`` the tool exerts on the environment, in the tool frame (Craig's
    ``f_{N+1}, n_{N+1}``), or None. ``transform(model, i, q_i) → (R, p)`` places body i in
    its parent (default :func:`~robot_dynamics.algorithms.kinematics.joint_transform`, a
    rotation about any axis; :mod:`robot_dynamics.solvers.craig` passes ``P_i Rz(q_i)``).
    """
    N, n = q.shape
    dtype = np.result_type(q, qd, qdd, float)
    R, p = [None] * n, [None] * n
    F, Nm = [None] * n, [None] * n

    # Forward recursion: velocities and accelerations, base to tip (Craig 6.45-6.47).
    w = np.zeros((N, 3), dtype)
    dw = np.zeros((N, 3), dtype)
    dv = np.broadcast_to(-np.asarray(gravity, dtype=float), (N, 3)).astype(dtype)  # a_0 = -g
    for i in range(n):
        R[i], p[i], w, dw, dv = forward_step(model, i, q, qd, qdd, w, dw, dv, transform)
        c = model.com[i]
        dv_c = cross(dw, c) + cross(w, cross(w, c)) + dv                           # 6.48
        F[i] = model.mass[i] * dv_c                                                # 6.49
        Iw = w @ model.inertia[i].T
        Nm[i] = dw @ model.inertia[i].T + cross(w, Iw)                             # 6.50

    # Backward recursion: forces and moments, tip to base (Craig 6.51-6.53).
    f, nm = _tip_wrench_in_last_body(model, f_tip, N, dtype)
    tau = np.empty((N, n), dtype)
    R_next, p_next = None, None
    for i in reversed(range(n)):
        if R_next is not None:
            nm, f = force_to_parent(R_next, p_next, nm, f)                         # 6.51-6.52
        nm = Nm[i] + nm + cross(model.com[i], F[i])                                # 6.52
        f = F[i] + f                                                               # 6.51
        axis_moment = nm if model.joint_types[i] == REVOLUTE else f
        tau[:, i] = axis_moment @ model.axis[i]                                    # 6.53
        R_next, p_next = R[i], p[i]
    return tau


def forward_step(model, i, q, qd, qdd, w, dw, dv, transform=joint_transform):
    """One outward step (Craig 6.45-6.47): body i's ``R, p`` and ``ω_i, ω̇_i, v̇_i`` in {i}.

    ``w, dw, dv`` (N, 3) are body i-1's in its own frame; returns the joint transform (R, p) of
    joint i (from ``transform``, see :func:`rnea`) and body i's angular velocity, angular
    acceleration and origin acceleration.
    """
    R, p = transform(model, i, q[:, i])
    z = model.axis[i]
    dv = rotate_back(R, dv + cross(dw, p) + cross(w, cross(w, p)))             # 6.47
    w, dw = rotate_back(R, w), rotate_back(R, dw)
    if model.joint_types[i] == REVOLUTE:
        dw = dw + cross(w, np.multiply.outer(qd[:, i], z)) \
            + np.multiply.outer(qdd[:, i], z)                                    # 6.46
        w = w + np.multiply.outer(qd[:, i], z)                                   # 6.45
    else:
        dv = dv + 2 * cross(w, np.multiply.outer(qd[:, i], z)) \
            + np.multiply.outer(qdd[:, i], z)                                    # 6.47'
    return R, p, w, dw, dv


def _tip_wrench_in_last_body(model, f_tip, N, dtype):
    """Force and moment ``f_{n+1}, n_{n+1}`` about the last body's origin, its frame."""
    if f_tip is None:
        return np.zeros((N, 3), dtype), np.zeros((N, 3), dtype)
    f = f_tip[:, :3] @ model.tip_rotation.T
    nm = f_tip[:, 3:] @ model.tip_rotation.T + cross(model.tip_translation, f)
    return f.astype(dtype), nm.astype(dtype)
