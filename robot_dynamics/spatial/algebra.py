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
"""Spatial algebra of the numpy algorithms: placements, motions, forces, inertias.

The frame convention is the package's one (:mod:`robot_dynamics.spatial`, the same as the
engine's ``engine/src/spatial.h``): a placement ``(R, p)`` puts a child frame in its parent
(``x_parent = R x_child + p``); spatial vectors are ordered (angular; linear) and taken about
the origin of the frame whose axes express them; a spatial inertia is about that origin too.
Every function works on batches (leading dimensions), real or complex.
"""

import numpy as np

from robot_dynamics.spatial.vectors import cross, rotate, skew


# ---------------------------------------------------------------------- placements
def compose(R_a, p_a, R_b, p_b):
    """Placement of B's child in A's parent: ``(R_a R_b, p_a + R_a p_b)``."""
    return R_a @ R_b, p_a + rotate(R_a, p_b)


def force_to_parent(R, p, n, f):
    """Carry a force ``(n; f)`` given in the child into the parent: ``(R n + p × R f; R f)``.

    ``n`` and ``f`` are (N, 3) halves; returns the parent's ``(n, f)`` (RBDA 2.2; Craig
    6.51-6.52: the moment of ``f`` moves from the child origin to the parent origin).
    """
    f_parent = rotate(R, f)
    return rotate(R, n) + cross(p, f_parent), f_parent


def parent_to_child(R, p):
    """Spatial motion transform ``X`` (N, 6, 6) from the parent frame to the child frame.

    ``X (w; v) = (Rᵀ w; Rᵀ (v - p × w))``; its transpose carries forces child → parent.
    """
    E = np.swapaxes(R, -1, -2)
    X = np.zeros(R.shape[:-2] + (6, 6), dtype=np.result_type(R, p))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    X[..., 3:, :3] = -E @ skew(p)
    return X


# ---------------------------------------------------------------------- inertias
def spatial_inertia(mass, com, inertia):
    """6×6 spatial inertia about a frame's origin from ``m``, ``c`` and ``I_c`` in that frame.

    ``[[I_c + m c̃ c̃ᵀ, m c̃], [m c̃ᵀ, m 1]]`` (RBDA 2.63): the engine's ``(m, h = m c, Ib)``.
    """
    C = skew(np.asarray(com, dtype=float))
    return np.block([[inertia + mass * C @ C.T, mass * C], [mass * C.T, mass * np.eye(3)]])


# ---------------------------------------------------------------------- cross products
def crm(v):
    """Motion cross-product matrices ``[v×]`` (N, 6, 6) of spatial motions ``v`` (N, 6)."""
    X = np.zeros(v.shape[:-1] + (6, 6))
    W = skew(v[..., :3])
    X[..., :3, :3] = X[..., 3:, 3:] = W
    X[..., 3:, :3] = skew(v[..., 3:])
    return X


def crf(v):
    """Force cross-product matrices ``[v×*] = -[v×]ᵀ`` (N, 6, 6)."""
    return -np.swapaxes(crm(v), -1, -2)
