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
"""Rigid-body inertia helpers: inertia matrices from URDF/DH values, merging bodies."""

import numpy as np

from robot_dynamics.errors import ModelError


def inertia_matrix(value, what='inertia'):
    """Return a (3, 3) inertia from a 3×3 matrix or ``[ixx, iyy, izz, ixy, iyz, ixz]``."""
    array = np.asarray(value, dtype=float)
    if array.shape == (6,):
        ixx, iyy, izz, ixy, iyz, ixz = array
        array = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    if array.shape != (3, 3):
        raise ModelError(f'{what}: expected a 3x3 matrix or 6 values '
                         f'[ixx, iyy, izz, ixy, iyz, ixz], got shape {array.shape}')
    if not np.all(np.isfinite(array)):
        raise ModelError(f'{what}: contains NaN or inf')
    return array


def combine_bodies(*bodies):
    """Merge rigid bodies ``(mass, com (3,), inertia about com (3, 3))`` given in one frame.

    Returns the combined ``(mass, com, inertia about the combined com)``; parallel-axis theorem.
    """
    total = sum(m for m, _, _ in bodies)
    if total <= 0:
        return 0.0, np.zeros(3), sum(np.asarray(i, float) for _, _, i in bodies)
    com = sum(m * np.asarray(c, float) for m, c, _ in bodies) / total
    inertia = np.zeros((3, 3))
    for m, c, i in bodies:
        d = np.asarray(c, float) - com
        inertia += np.asarray(i, float) + m * (d @ d * np.eye(3) - np.outer(d, d))
    return total, com, inertia
