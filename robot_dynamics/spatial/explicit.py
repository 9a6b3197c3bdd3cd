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
"""Batched 3-vector algebra written out by component: the papers' analytical forms.

Vectors are arrays (N, 3), rotations and operators (N, 3, 3), of any dtype: float, complex
(complex-step derivatives) and numpy object arrays of the counting scalar
(:mod:`robot_dynamics.analysis.opcount`), which is why every product is written out instead of
an ``einsum`` (:mod:`robot_dynamics.spatial.vectors` has those, for the reference algorithms).
A product with a constant's entry 0 or ±1 is never formed (:func:`lincomb`), so the DH structure
of a model (``cos 90° = 0`` after :func:`robot_dynamics.model.frames.proximal_frames` snaps it)
costs nothing, as in the papers' counts.
"""

import numpy as np


def lincomb(coefficients, arrays):
    """``Σ c_k x_k`` for constant floats ``c_k``, skipping ``c = 0`` and multiplying by no ±1."""
    total = None
    for c, x in zip(coefficients, arrays):
        if c == 0:
            continue
        if total is None:
            total = x if c == 1 else (-x if c == -1 else c * x)
        elif c == 1:
            total = total + x
        elif c == -1:
            total = total - x
        else:
            total = total + c * x
    if total is None:
        total = np.zeros_like(arrays[0])
    return total


def vector(x, y, z):
    """Stack three (N,) components into (N, 3)."""
    return np.stack(np.broadcast_arrays(x, y, z), axis=-1)


def z_times(scalar):
    """Return the vector ``s z_0 = (0, 0, s)`` (N, 3) without any multiplication."""
    zero = np.zeros_like(scalar)
    return vector(zero, zero, scalar)


def const_rotate(M, v, sparse=True):
    """``M v`` for a constant matrix M (3, 3) and vectors v (N, 3).

    ``sparse=True`` skips the products with entries 0 and ±1 (an analytical form);
    ``sparse=False`` does the 9 multiplications and 6 additions of a general product.
    """
    columns = [v[..., 0], v[..., 1], v[..., 2]]
    if sparse:
        return vector(*(lincomb(M[k], columns) for k in range(3)))
    return vector(*(M[k, 0] * columns[0] + M[k, 1] * columns[1] + M[k, 2] * columns[2]
                    for k in range(3)))


def rotate(R, v):
    """``R v`` for rotations (N, 3, 3) and vectors (N, 3): 9 multiplications, 6 additions."""
    return vector(*(R[..., k, 0] * v[..., 0] + R[..., k, 1] * v[..., 1] + R[..., k, 2] * v[..., 2]
                    for k in range(3)))


def rotate_back(R, v):
    """``Rᵀ v`` for rotations (N, 3, 3) and vectors (N, 3)."""
    return vector(*(R[..., 0, k] * v[..., 0] + R[..., 1, k] * v[..., 1] + R[..., 2, k] * v[..., 2]
                    for k in range(3)))


def compose(A, B):
    """Compose ``A B`` for stacks of rotations (N, 3, 3): 27 multiplications, 18 additions."""
    columns = [rotate(A, B[..., :, j]) for j in range(3)]
    return np.stack(columns, axis=-1)


def rz_then(c, s, X):
    """``Rz(q) X`` (N, 3, 3) from ``c = cos q``, ``s = sin q`` (N,) and a constant X (3, 3).

    Rows: ``c X_0 - s X_1``, ``s X_0 + c X_1``, ``X_2``; for a DH ``X = Rx(α)`` this costs the
    4 multiplications of the DH rotation matrix (seed 003 §3).
    """
    N = c.shape[0]
    row0 = [lincomb((X[0, j], -X[1, j]), (c, s)) for j in range(3)]
    row1 = [lincomb((X[0, j], X[1, j]), (s, c)) for j in range(3)]
    row2 = [np.broadcast_to(np.asarray(X[2, j], dtype=c.dtype), (N,)) for j in range(3)]
    return np.stack([np.stack(row, axis=-1) for row in (row0, row1, row2)], axis=-2)


def then_rz(X, c, s):
    """``X Rz(q)`` (N, 3, 3): columns ``c X^0 + s X^1``, ``-s X^0 + c X^1``, ``X^2``."""
    N = c.shape[0]
    col0 = [lincomb((X[k, 0], X[k, 1]), (c, s)) for k in range(3)]
    col1 = [lincomb((X[k, 1], -X[k, 0]), (c, s)) for k in range(3)]
    col2 = [np.broadcast_to(np.asarray(X[k, 2], dtype=c.dtype), (N,)) for k in range(3)]
    return np.stack([np.stack(col, axis=-1) for col in (col0, col1, col2)], axis=-1)


def broadcast(vector_3, N, dtype):
    """Broadcast a constant 3-vector to a batch (N, 3) of the given dtype."""
    return np.broadcast_to(np.asarray(vector_3, dtype=float), (N, 3)).astype(dtype)


def cross_z(w, s):
    """``w × (s z_0) = (w_y s, -w_x s, 0)`` (N, 3): the 2 products the papers count."""
    return vector(w[..., 1] * s, -(w[..., 0] * s), np.zeros_like(s))


def dot(v, c):
    """``v · c`` (N,) for vectors v (N, 3) and a constant c (3,), skipping zero components."""
    return lincomb(c, (v[..., 0], v[..., 1], v[..., 2]))


def omega_products(w):
    """Return ``δ = ω ⊗ ω`` as its six distinct products ``(xx, yy, zz, xy, xz, yz)``, each (N,).

    Seed 001 relation (2): 6 multiplications, reused by ``b_i`` and the gyroscopic moment.
    """
    wx, wy, wz = w[..., 0], w[..., 1], w[..., 2]
    return (wx * wx, wy * wy, wz * wz, wx * wy, wx * wz, wy * wz)


def acceleration_operator(w, dw, delta=None):
    """Return the operator ``A = [ω̇×] + [ω×][ω×]`` (N, 3, 3) with ``A b = ω̇ × b + ω × (ω × b)``.

    Seed 002 §5 (Turney-Mudge-Lee's A_i) and seed 001 relations (2), (4) (Renaud's ``b_i``
    from ``δ_i = ω ⊗ ω``, passed as ``delta`` when already formed): 6 multiplications and 9
    additions.
    """
    dxx, dyy, dzz, dxy, dxz, dyz = omega_products(w) if delta is None else delta
    ax, ay, az = dw[..., 0], dw[..., 1], dw[..., 2]
    rows = ((-(dyy + dzz), dxy - az, dxz + ay),
            (dxy + az, -(dzz + dxx), dyz - ax),
            (dxz - ay, dyz + ax, -(dxx + dyy)))
    return np.stack([np.stack(row, axis=-1) for row in rows], axis=-2)


def vdot(u, v):
    """Row-wise ``u · v`` (N,) of two batches of vectors (N, 3)."""
    return u[..., 0] * v[..., 0] + u[..., 1] * v[..., 1] + u[..., 2] * v[..., 2]
