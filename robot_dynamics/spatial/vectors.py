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
"""Batched 3-vector helpers: every vector is an array (N, 3), every rotation (N, 3, 3).

They keep the recursions readable (``cross(w, v)`` rather than an einsum) and work for real
and complex arrays alike (the Coriolis matrix differentiates by complex step).
"""

import math

import numpy as np


def cross(a, b):
    """Row-wise cross product of (N, 3) arrays."""
    a, b = np.asarray(a), np.asarray(b)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), dtype=np.result_type(a, b))
    out[..., 0] = a1 * b2 - a2 * b1
    out[..., 1] = a2 * b0 - a0 * b2
    out[..., 2] = a0 * b1 - a1 * b0
    return out


def rotate(R, v):
    """``R v`` for a stack of rotations (N, 3, 3) and vectors (N, 3)."""
    return np.einsum('...ij,...j->...i', R, v)


def rotate_back(R, v):
    """``Rᵀ v``: express in the child frame a vector given in the parent frame."""
    return np.einsum('...ji,...j->...i', R, v)


def skew(v):
    """Return the cross-product matrix ``[v×]`` (..., 3, 3) of vectors (..., 3)."""
    z = np.zeros_like(v[..., 0])
    return np.stack((np.stack((z, -v[..., 2], v[..., 1]), -1),
                     np.stack((v[..., 2], z, -v[..., 0]), -1),
                     np.stack((-v[..., 1], v[..., 0], z), -1)), -2)


def axis_rotation(axis, angle):
    """Rotation by ``angle`` (N,) about the unit ``axis`` (3,): Rodrigues' formula, (N, 3, 3)."""
    K = skew(np.asarray(axis, dtype=float))
    s, c = np.sin(angle)[:, None, None], np.cos(angle)[:, None, None]
    return np.eye(3) + s * K + (1 - c) * (K @ K)


def rpy_matrix(rpy):
    """URDF roll-pitch-yaw (fixed X, then Y, then Z axes) to a rotation matrix (3, 3)."""
    return np.array(rpy_entries(rpy)).reshape(3, 3)


def rpy_entries(rpy):
    """Return the nine entries of :func:`rpy_matrix` (a list of floats, row by row).

    The C library's cosines and sines (``math``), as the URDF loader's compiled copy
    (``io/src/urdf_rotations.c``) takes them: the same bits with or without it, on any machine.
    """
    angles = [float(angle) for angle in rpy]
    if len(angles) != 3:
        raise ValueError('rpy_entries: expected three angles')
    (cr, cp, cy), (sr, sp, sy) = map(math.cos, angles), map(math.sin, angles)
    return [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
            sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
            -sp, cp * sr, cp * cr]


def matrix_rpy(R):
    """Inverse of :func:`rpy_matrix` (roll, pitch, yaw), robust at pitch = ±90°."""
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-12:
        return np.array([np.arctan2(-R[1, 2], R[1, 1]), pitch, 0.0])
    return np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])
