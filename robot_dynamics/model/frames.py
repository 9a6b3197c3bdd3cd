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
"""The frames the papers' recursions need, derived once per model, and small vector helpers.

A :class:`~robot_dynamics.model.RobotModel` places frame {i} of body i anywhere on joint i's
axis, with the axis in any direction (URDF). The papers need Denavit-Hartenberg-like frames in
which the joint axis is ``z``. Two views are derived here and cached per model (outside the
immutable model, in a weak dictionary):

:func:`proximal_frames` (Craig's modified DH, Renaud): frame {i}' = {i} · C_i, where the
    constant rotation ``C_i`` maps ``z`` onto ``axis[i]`` (``C_i = E`` when the axis already is
    ``z``). Then ``ⁱ⁻¹T_i = X_i · Joint_z(q_i)`` with the constant placement
    ``X_i = (P_i, p_i)``, ``P_i = C_{i-1}ᵀ R_tree C_i``, ``p_i = C_{i-1}ᵀ p_tree``: the general
    form of ``Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)`` (a DH model gives back exactly that).

:func:`distal_frames` (standard DH, Luh-Walker-Paul, Turney-Mudge-Lee, Milićević): frame
    S_i is fixed to body i at the *next* joint, S_i = {i}' · X_{i+1}, and the tool frame for the
    last body, S_n = {n}' · T_tool; S_0 = base · X_1 has joint 1's axis as ``z_0``. Then
    ``ⁱ⁻¹T_i = Joint_z(q_i) · X_{i+1}``: joint i moves about ``z_{i-1}`` as in the papers, and
    ``r_i`` (origin O_{i-1} → O_i), ``r̄_i`` (O_i → centre of mass) and the inertia are constant
    in S_i (``r_i`` gains ``q_i z`` for a prismatic joint).

Entries within 1e-14 of 0 or ±1 are snapped to exactly 0 or ±1, so that DH structure (for
example ``cos 90° = 6e-17``) is exact and :func:`lincomb` can skip those products, as the
papers' analytical forms do.

The helpers below work on batches of 3-vectors (N, 3) and rotations (N, 3, 3) of any dtype,
including numpy object arrays (operation counting) and complex arrays.
"""

from dataclasses import dataclass
import weakref

import numpy as np

from robot_dynamics.spatial.joints import REVOLUTE

_EZ = np.array([0.0, 0.0, 1.0])
_proximal_cache = weakref.WeakKeyDictionary()
_distal_cache = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class ProximalFrames:
    """Per-joint constants in Craig's (modified DH) frames {i}' with joint i along ``z_i``.

    ``P`` (n, 3, 3), ``p`` (n, 3): placement of {i}' in {i-1}' before the joint motion;
    ``com`` (n, 3) and ``inertia`` (n, 3, 3) (about the centre of mass) in {i}';
    ``tip_rotation``, ``tip_translation``: tool frame in {n}'.
    """

    revolute: tuple
    P: np.ndarray
    p: np.ndarray
    mass: np.ndarray
    com: np.ndarray
    inertia: np.ndarray
    tip_rotation: np.ndarray
    tip_translation: np.ndarray


@dataclass(frozen=True)
class DistalFrames:
    """Per-joint constants in standard DH frames S_i (body i, origin O_i on joint i+1's axis).

    ``X_rotation`` (n, 3, 3): S_i in the joint frame {i}' (so ``ⁱ⁻¹R_i = Rz(q_i) X_rotation``);
    ``r`` (n, 3): O_{i-1} → O_i in S_i at ``q_i = 0``; ``z`` (n, 3): joint i's axis
    ``R_i^{i-1} z_0`` in S_i; ``rbar`` (n, 3): O_i → centre of mass in S_i; ``inertia``
    (n, 3, 3) about the centre of mass in S_i; ``base_rotation``: S_0 in the base frame.
    The tool frame is S_n, so a tip wrench needs no transformation.
    """

    revolute: tuple
    X_rotation: np.ndarray
    r: np.ndarray
    z: np.ndarray
    mass: np.ndarray
    rbar: np.ndarray
    inertia: np.ndarray
    base_rotation: np.ndarray


def _snap(array):
    """Round entries within 1e-14 of 0, +1 or -1 to exactly that value."""
    array = np.array(array, dtype=float)
    for value in (0.0, 1.0, -1.0):
        array[np.abs(array - value) < 1e-14] = value
    return array


def axis_to_z_rotation(axis):
    """Return a rotation ``C`` with ``C z = axis``; the identity if the axis is ``z``."""
    axis = np.asarray(axis, dtype=float)
    if np.allclose(axis, _EZ, atol=1e-14):
        return np.eye(3)
    if np.allclose(axis, -_EZ, atol=1e-14):
        return np.diag([1.0, -1.0, -1.0])                    # half turn about x
    v = np.cross(_EZ, axis)
    s, c = np.linalg.norm(v), axis @ _EZ
    K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]]) / s
    return np.eye(3) + s * K + (1 - c) * (K @ K)               # Rodrigues, angle acos(c)


def proximal_frames(model):
    """Put the model in Craig's modified DH frames (joint axes on ``z``); cached per model."""
    frames = _proximal_cache.get(model)
    if frames is None:
        C = [axis_to_z_rotation(a) for a in model.axis]
        C_parent = [np.eye(3)] + C[:-1]
        frames = ProximalFrames(
            revolute=tuple(t == REVOLUTE for t in model.joint_types),
            P=_snap([Cp.T @ R @ Ci for Cp, R, Ci in zip(C_parent, model.placement_rotation, C)]),
            p=_snap([Cp.T @ p for Cp, p in zip(C_parent, model.placement_translation)]),
            mass=np.array(model.mass, dtype=float),
            com=_snap([Ci.T @ c for Ci, c in zip(C, model.com)]),
            inertia=_snap([Ci.T @ I @ Ci for Ci, I in zip(C, model.inertia)]),
            tip_rotation=_snap(C[-1].T @ model.tip_rotation),
            tip_translation=_snap(C[-1].T @ model.tip_translation),
        )
        _proximal_cache[model] = frames
    return frames


def distal_frames(model):
    """Put the model in standard (distal) DH frames S_i; cached per model."""
    frames = _distal_cache.get(model)
    if frames is None:
        pf = proximal_frames(model)
        X_R = list(pf.P[1:]) + [pf.tip_rotation]             # S_i in {i}'
        X_p = list(pf.p[1:]) + [pf.tip_translation]
        frames = DistalFrames(
            revolute=pf.revolute,
            X_rotation=_snap(X_R),
            r=_snap([R.T @ p for R, p in zip(X_R, X_p)]),
            z=_snap([R[2] for R in X_R]),                      # X_Rᵀ z_0: third row of X_R
            mass=pf.mass,
            rbar=_snap([R.T @ (c - p) for R, p, c in zip(X_R, X_p, pf.com)]),
            inertia=_snap([R.T @ I @ R for R, I in zip(X_R, pf.inertia)]),
            base_rotation=pf.P[0],
        )
        _distal_cache[model] = frames
    return frames


# ---------------------------------------------------------------------- batched helpers
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
