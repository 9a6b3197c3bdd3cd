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
"""Cartesian-space dynamics and Craig's B, C matrices (Craig ch. 5 and §6.8-6.10).

Joint space (Craig 6.59, 6.63)::

    τ = M(θ) θ̈ + V(θ, θ̇) + G(θ) = M(θ) θ̈ + B(θ) [θ̇θ̇] + C(θ) [θ̇²] + G(θ)

with ``[θ̇θ̇] = [θ̇1θ̇2, θ̇1θ̇3, …, θ̇(n-1)θ̇n]ᵀ`` (n(n-1)/2 Coriolis products, Craig 6.64) and
``[θ̇²] = [θ̇1², …, θ̇n²]ᵀ`` (6.65). Cartesian space (Craig 6.90-6.107), for a force-moment
``F`` acting on the end-effector, ``τ = Jᵀ F``::

    F = Mx(θ) ẍ + Vx(θ, θ̇) + Gx(θ),     Mx = J⁻ᵀ M J⁻¹,
    Vx = J⁻ᵀ (V - M J⁻¹ J̇ θ̇),           Gx = J⁻ᵀ G                        (6.99-6.103)
    Vx = Bx [θ̇θ̇] + Cx [θ̇²]                                                  (6.105-6.107)

``J`` is the geometric Jacobian (rows ``[v; ω]``) written in the frame of ``F`` and ``ẍ``:
``frame='tip'`` (Craig's usual choice, the tool frame {T}) or ``'base'``, with ``ẍ = J θ̈ + J̇ θ̇``
(Craig 6.96) the derivative of ``J θ̇`` in that choice. ``J`` must be square: with ``n ≠ 6``
joints choose ``n`` task rows (``rows=(0, 1)``, or ``('vx', 'vy')``, for a planar two-link arm).
``J̇`` and ``∂J/∂θ_k`` are taken by complex step, exact to rounding. ``M`` includes the rotors'
reflected inertia; friction is not part of these terms.
"""

import numpy as np

from robot_dynamics.api import (
    coriolis_torques, gravity_torques, mass_matrix, mass_matrix_derivatives)
from robot_dynamics.errors import SingularityError
from robot_dynamics.model.arguments import batch_arguments, unbatch
from robot_dynamics.algorithms.kinematics import jacobian as _jacobian

ROW_NAMES = ('vx', 'vy', 'vz', 'wx', 'wy', 'wz')
MAX_CONDITION = 1e8
_STEP = 1e-30


# ---------------------------------------------------------------------- joint space: B and C
def velocity_products(qd):
    """Craig's ``[θ̇θ̇]`` (…, n(n-1)/2) and ``[θ̇²]`` (…, n) (6.64-6.65) of ``qd`` (…, n)."""
    qd = np.asarray(qd, dtype=float)
    k, m = np.triu_indices(qd.shape[-1], 1)
    return qd[..., k] * qd[..., m], qd ** 2


def coriolis_centrifugal_matrices(model, q):
    """Craig's ``B(θ)`` (n, n(n-1)/2) and ``C(θ)`` (n, n) with ``V = B[θ̇θ̇] + C[θ̇²]`` (6.63).

    From the Christoffel symbols ``Γ_ikm = ½ (∂M_ik/∂θ_m + ∂M_im/∂θ_k - ∂M_km/∂θ_i)``:
    ``C_ik = Γ_ikk`` and ``B_i,(k,m) = 2 Γ_ikm`` for ``k < m`` (pairs in the order of
    :func:`velocity_products`). Batched: (N, n) in, (N, n, n(n-1)/2) and (N, n, n) out.
    """
    a, single = batch_arguments(model, q=q)
    dM = mass_matrix_derivatives(model, a['q'])             # [N, k, i, j] = ∂M_ij/∂θ_k
    n = model.dof
    i = np.arange(n)
    C = np.einsum('nkik->nik', dM) - 0.5 * np.einsum('nikk->nik', dM)
    k, m = np.triu_indices(n, 1)
    B = (dM[:, m[None, :], i[:, None], k[None, :]] + dM[:, k[None, :], i[:, None], m[None, :]]
         - dM[:, i[:, None], k[None, :], m[None, :]])
    return unbatch(B, single), unbatch(C, single)


# ---------------------------------------------------------------------- Jacobians
def task_rows(model, rows):
    """Return the indices of the task rows of ``[v; ω]`` (``rows``: indices or names; all six)."""
    if rows is None:
        if model.dof != 6:
            raise ValueError(f'the model has {model.dof} joints, so the 6-row Jacobian is not '
                             f'square: choose {model.dof} task rows of {list(ROW_NAMES)} with '
                             "rows=..., e.g. rows=('vx', 'vy') for a planar two-link arm")
        return np.arange(6)
    indices = [ROW_NAMES.index(r) if isinstance(r, str) else int(r) for r in rows]
    if len(indices) != model.dof or len(set(indices)) != len(indices) \
            or not all(0 <= r < 6 for r in indices):
        raise ValueError(f'rows={rows!r}: choose {model.dof} distinct rows of {list(ROW_NAMES)} '
                         '(or indices 0-5) so that the task Jacobian is square')
    return np.array(indices)


def jacobian_dot(model, q, qd, frame='base'):
    """``J̇ = Σ_k ∂J/∂θ_k θ̇_k`` (6, n) or (N, 6, n), rows ``[v; ω]``, by one complex step."""
    a, single = batch_arguments(model, q=q, qd=qd)
    J = _jacobian(model, a['q'] + 1j * _STEP * a['qd'], frame)
    return unbatch(J.imag / _STEP, single)


def jacobian_derivatives(model, q, frame='base'):
    """``∂J/∂θ_k`` for every k, (n, 6, n) or (N, n, 6, n) indexed ``[k, row, joint]``."""
    a, single = batch_arguments(model, q=q)
    N, n = a['q'].shape
    perturbed = np.repeat(a['q'].astype(complex), n, axis=0) \
        + 1j * _STEP * np.tile(np.eye(n), (N, 1))
    dJ = (_jacobian(model, perturbed, frame).imag / _STEP).reshape(N, n, 6, n)
    return unbatch(dJ, single)


def _checked_inverse(J, q, frame, max_condition):
    """``J⁻¹`` (N, n, n), or :class:`SingularityError` if J is (nearly) singular."""
    condition = np.linalg.cond(J)
    bad = np.flatnonzero(~(condition <= max_condition))
    if bad.size:
        k = bad[0]
        raise SingularityError(
            f'the {frame}-frame task Jacobian is (nearly) singular at q = '
            f'{np.round(q[k], 6).tolist()} (state {k}; condition number {condition[k]:.3g} > '
            f'{max_condition:.0e}): Cartesian dynamics are unbounded there. Move the arm away '
            'from the singularity (e.g. bend a stretched-out elbow) or choose other task rows.')
    return np.linalg.inv(J)


# ---------------------------------------------------------------------- Cartesian space
def cartesian_dynamics(model, q, qd, frame='tip', rows=None, max_condition=MAX_CONDITION):
    """``Mx`` (m, m), ``Vx`` (m,), ``Gx`` (m,) of Craig 6.99-6.103 (batched: leading N).

    ``frame``: ``'tip'`` (tool frame, Craig's usual) or ``'base'``; ``rows``: the task rows of
    ``[vx, vy, vz, wx, wy, wz]`` (default all six, which needs n = 6). Units: kg (and kg m²),
    N (and N m). Raises :class:`~robot_dynamics.errors.SingularityError` where the condition
    number of the task Jacobian exceeds ``max_condition``.
    """
    a, single = batch_arguments(model, q=q, qd=qd)
    q_, qd_ = a['q'], a['qd']
    index = task_rows(model, rows)
    J = _jacobian(model, q_, frame)[:, index]
    J_dot = jacobian_dot(model, q_, qd_, frame)[:, index]
    J_inv = _checked_inverse(J, q_, frame, max_condition)
    J_inv_T = np.swapaxes(J_inv, 1, 2)
    M = mass_matrix(model, q_)
    Mx = J_inv_T @ M @ J_inv                                                     # 6.99
    bias = coriolis_torques(model, q_, qd_) \
        - np.einsum('nij,njk,nk->ni', M @ J_inv, J_dot, qd_)                     # V - M J⁻¹ J̇ θ̇
    Vx = np.einsum('nij,nj->ni', J_inv_T, bias)                                  # 6.100
    Gx = np.einsum('nij,nj->ni', J_inv_T, gravity_torques(model, q_))           # 6.101
    return unbatch(Mx, single), unbatch(Vx, single), unbatch(Gx, single)


def cartesian_mass_matrix(model, q, frame='tip', rows=None, max_condition=MAX_CONDITION):
    """``Mx = J⁻ᵀ M J⁻¹`` (Craig 6.99); see :func:`cartesian_dynamics`."""
    a, single = batch_arguments(model, q=q)
    J = _jacobian(model, a['q'], frame)[:, task_rows(model, rows)]
    J_inv = _checked_inverse(J, a['q'], frame, max_condition)
    return unbatch(np.swapaxes(J_inv, 1, 2) @ mass_matrix(model, a['q']) @ J_inv, single)


def cartesian_coriolis_centrifugal(model, q, frame='tip', rows=None,
                                   max_condition=MAX_CONDITION):
    """Craig's ``Bx`` (m, n(n-1)/2) and ``Cx`` (m, n): ``Vx = Bx[θ̇θ̇] + Cx[θ̇²]`` (6.105-6.107).

    ``J̇ θ̇ = B_J [θ̇θ̇] + C_J [θ̇²]`` with ``B_J[:, (k,m)] = ∂J_k/∂θ_m + ∂J_m/∂θ_k`` and
    ``C_J[:, k] = ∂J_k/∂θ_k`` (``J_k``: column k); then ``Bx = J⁻ᵀ (B - M J⁻¹ B_J)`` and
    ``Cx = J⁻ᵀ (C - M J⁻¹ C_J)``.
    """
    a, single = batch_arguments(model, q=q)
    q_ = a['q']
    n = model.dof
    index = task_rows(model, rows)
    J_inv = _checked_inverse(_jacobian(model, q_, frame)[:, index], q_, frame, max_condition)
    dJ = jacobian_derivatives(model, q_, frame)[:, :, index]          # [N, k, row, joint]
    k, m = np.triu_indices(n, 1)
    B_J = dJ[:, m, :, k] + dJ[:, k, :, m]                              # (pairs, N, rows)
    B_J = np.moveaxis(B_J, 0, -1)
    C_J = np.moveaxis(dJ[:, np.arange(n), :, np.arange(n)], 0, -1)     # (N, rows, n)
    B, C = coriolis_centrifugal_matrices(model, q_)
    M_J_inv = mass_matrix(model, q_) @ J_inv
    J_inv_T = np.swapaxes(J_inv, 1, 2)
    Bx = J_inv_T @ (B - M_J_inv @ B_J)
    Cx = J_inv_T @ (C - M_J_inv @ C_J)
    return unbatch(Bx, single), unbatch(Cx, single)
