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
"""The frames the papers' recursions need, derived once per model.

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

The vector helpers the papers' recursions use with these frames (``lincomb``, ``rz_then``, …)
are in :mod:`robot_dynamics.spatial.explicit`.
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
