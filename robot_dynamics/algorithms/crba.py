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
"""Composite-rigid-body mass matrix (Walker-Orin 1982; Featherstone, RBDA §6.2).

Spatial vectors in body frames, motion vectors ordered ``[ω; v]``. ``X_i`` maps motion vectors
from the parent's frame to frame {i}; ``I_i`` is body i's 6×6 spatial inertia about the origin of
{i}; ``S_i`` its joint's motion subspace. The composite inertia of bodies i…n is folded tip to
base, then each column of M is read off by carrying ``F = I^c_i S_i`` back to the base.
"""

import numpy as np

from robot_dynamics.algorithms.kinematics import joint_transform
from robot_dynamics.spatial.algebra import parent_to_child, spatial_inertia
from robot_dynamics.spatial.joints import REVOLUTE


def motion_subspace(model, i):
    """``S_i`` (6,): ``[axis; 0]`` for a revolute joint, ``[0; axis]`` for a prismatic one."""
    zero = np.zeros(3)
    axis = model.axis[i]
    return np.concatenate((axis, zero) if model.joint_types[i] == REVOLUTE else (zero, axis))


def mass_matrix_crba(model, q):
    """Rigid-body joint-space inertia matrix (N, n, n) at configurations ``q`` (N, n)."""
    N, n = q.shape
    X = [parent_to_child(*joint_transform(model, i, q[:, i])) for i in range(n)]
    Ic = [np.broadcast_to(spatial_inertia(model.mass[i], model.com[i], model.inertia[i]),
                          (N, 6, 6)).astype(X[i].dtype) for i in range(n)]
    S = [motion_subspace(model, i) for i in range(n)]
    for i in reversed(range(1, n)):                                  # composite inertias
        Ic[i - 1] = Ic[i - 1] + np.swapaxes(X[i], 1, 2) @ Ic[i] @ X[i]
    M = np.zeros((N, n, n), dtype=X[0].dtype)
    for i in range(n):
        F = Ic[i] @ S[i]                                             # (N, 6)
        M[:, i, i] = F @ S[i]
        for j in reversed(range(i)):
            F = np.einsum('nji,nj->ni', X[j + 1], F)                 # X_{j+1}ᵀ F
            M[:, i, j] = M[:, j, i] = F @ S[j]
    return M
