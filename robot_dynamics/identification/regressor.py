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
"""The joint-torque regressor: the dynamics are linear in the inertial parameters.

``τ = Y(q, q̇, q̈) π`` (seed 001: the equations of motion are linear in the inertial
parameters; Khalil-Kleinfinger 1986, Atkeson-An-Hollerbach 1986). The standard parameter vector
``π`` has ``p = 13 n`` entries, in this order:

- per link i (bodies numbered from 1 as in the papers), ten parameters in frame {i} of the
  model (origin on joint i's axis, see :mod:`robot_dynamics.model`), about the origin O_i of
  that frame, in Pinocchio's order (``pinocchio.Inertia.toDynamicParameters``)::

      M_i, MX_i, MY_i, MZ_i, XX_i, XY_i, YY_i, XZ_i, YZ_i, ZZ_i

  with ``M`` the mass (kg), ``[MX, MY, MZ] = M c`` the first moment (kg m, ``c`` the centre of
  mass in {i}), and ``K = [[XX, XY, XZ], [XY, YY, YZ], [XZ, YZ, ZZ]]`` the inertia about O_i
  (kg m², Huygens: ``K = I_c + M (|c|² E - c cᵀ)``; products of inertia with the sign of the
  inertia matrix, as in URDF);
- then per joint j three joint-space parameters ``FV_j`` (viscous friction, N m s/rad),
  ``FC_j`` (Coulomb friction, N m) and ``IA_j`` (the rotor's reflected inertia
  ``rotor_inertia · gear_ratio²``, kg m²).

:func:`regressor` builds ``Y`` by a Newton-Euler recursion in link frames: the forward pass
is the reference solver's (Craig 6.45-6.47); each body's wrench about O_i is linear in its ten
parameters, ``[f; n] = A_i(ω, ω̇, v̇) φ_i`` with

    f = M v̇ + (ω̇× + ω×ω×) (M c),    n = (M c) × v̇ + K ω̇ + ω × (K ω)

(Atkeson-An-Hollerbach eq. 8), and the backward pass carries the columns ``A_i`` of every body
beyond joint j down to frame {j} (Craig 6.51-6.52) where the joint axis picks the torque.
"""

import numpy as np

from robot_dynamics.algorithms.rnea import forward_step
from robot_dynamics.model.arguments import batch_arguments, unbatch
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import skew

LINK_PARAMETERS = ('M', 'MX', 'MY', 'MZ', 'XX', 'XY', 'YY', 'XZ', 'YZ', 'ZZ')
JOINT_PARAMETERS = ('FV', 'FC', 'IA')
PER_LINK = len(LINK_PARAMETERS)
PER_JOINT = len(JOINT_PARAMETERS)


def parameter_names(model):
    """Names of the standard parameters ``π`` (p = 13 n), e.g. ``'XX2'``, ``'FV6'``."""
    n = model.dof
    return (tuple(f'{name}{i + 1}' for i in range(n) for name in LINK_PARAMETERS)
            + tuple(f'{name}{j + 1}' for j in range(n) for name in JOINT_PARAMETERS))


def link_parameters(mass, com, inertia):
    """Ten standard parameters of one body from mass, centre of mass and inertia about it."""
    c = np.asarray(com, dtype=float)
    K = np.asarray(inertia, dtype=float) + mass * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([mass, *(mass * c), K[0, 0], K[0, 1], K[1, 1], K[0, 2], K[1, 2], K[2, 2]])


def parameters(model):
    """Return the standard parameters ``π`` (13 n,) of ``model``: ``Y @ π`` is its dynamics.

    Order and frames: see the module docstring. Example::

        Y = rd.regressor(model, q, qd, qdd)            # (n, 13 n)
        tau = Y @ rd.parameters(model)                 # == rd.inverse_dynamics(model, ...)
    """
    links = [link_parameters(m, c, inertia)
             for m, c, inertia in zip(model.mass, model.com, model.inertia)]
    joints = np.column_stack([model.viscous_friction, model.coulomb_friction,
                              model.reflected_inertia])
    return np.concatenate(links + [joints.reshape(-1)])


def regressor(model, q, qd, qdd):
    """Joint-torque regressor ``Y`` with ``τ = Y π`` (full model: gravity, friction, rotors).

    ``q, qd, qdd``: (n,) or (N, n). Returns ``Y`` (n, 13 n) or (N, n, 13 n) over the standard
    parameters of :func:`parameters` (order and frames in the module docstring). Gravity is
    ``model.gravity``; a tool wrench is not part of the regressor.
    """
    a, single = batch_arguments(model, q=q, qd=qd, qdd=qdd)
    return unbatch(batch_regressor(model, a['q'], a['qd'], a['qdd']), single)


def batch_regressor(model, q, qd, qdd):
    """Unchecked :func:`regressor` on (N, n) arrays → (N, n, 13 n)."""
    N, n = q.shape
    blocks, placements = _forward(model, q, qd, qdd)
    Y = np.zeros((N, n, (PER_LINK + PER_JOINT) * n))
    wrench = None                   # columns of bodies i … n-1, wrenches about O_i in {i}
    for i in reversed(range(n)):
        if wrench is not None:
            wrench = _to_parent(*placements[i + 1], wrench)
            wrench = np.concatenate((blocks[i], wrench), axis=2)
        else:
            wrench = blocks[i]
        rows = slice(3, 6) if model.joint_types[i] == REVOLUTE else slice(0, 3)
        Y[:, i, PER_LINK * i:PER_LINK * n] = model.axis[i] @ wrench[:, rows]      # 6.53
    joint = PER_LINK * n + PER_JOINT * np.arange(n)
    index = np.arange(n)
    Y[:, index, joint] = qd
    Y[:, index, joint + 1] = np.sign(qd)
    Y[:, index, joint + 2] = qdd
    return Y


def _forward(model, q, qd, qdd):
    """Forward pass (Craig 6.45-6.47): body blocks ``A_i`` (N, 6, 10) and placements."""
    N, n = q.shape
    w = np.zeros((N, 3))
    dw = np.zeros((N, 3))
    dv = np.broadcast_to(-model.gravity, (N, 3)).astype(float)               # a_0 = -g
    blocks, placements = [], []
    for i in range(n):
        R, p, w, dw, dv = forward_step(model, i, q, qd, qdd, w, dw, dv)  # Craig 6.45-6.47
        blocks.append(body_block(w, dw, dv))
        placements.append((R, p))
    return blocks, placements


def body_block(w, dw, dv):
    """Return ``A`` (N, 6, 10) with ``[f; n] = A φ``: the wrench about O_i, linear in φ_i."""
    N = w.shape[0]
    A = np.zeros((N, 6, PER_LINK))
    W = skew(w)
    A[:, :3, 0] = dv                                                   # f: M v̇
    A[:, :3, 1:4] = skew(dw) + W @ W                                   # f: (ω̇× + ω×ω×) Mc
    A[:, 3:, 1:4] = -skew(dv)                                          # n: Mc × v̇
    A[:, 3:, 4:] = _inertia_columns(dw) + W @ _inertia_columns(w)      # n: K ω̇ + ω × K ω
    return A


def _inertia_columns(v):
    """``L(v)`` (N, 3, 6) with ``K v = L(v) [XX, XY, YY, XZ, YZ, ZZ]``."""
    x, y, z = v[:, 0], v[:, 1], v[:, 2]
    zero = np.zeros_like(x)
    return np.stack((np.stack((x, y, zero, z, zero, zero), -1),
                     np.stack((zero, x, y, zero, z, zero), -1),
                     np.stack((zero, zero, zero, x, y, z), -1)), -2)


def _to_parent(R, p, wrench):
    """Wrench columns (N, 6, c) about O_i in {i} → about O_{i-1} in {i-1} (Craig 6.51-6.52)."""
    f = R @ wrench[:, :3]
    m = R @ wrench[:, 3:] + skew(p) @ f
    return np.concatenate((f, m), axis=1)
