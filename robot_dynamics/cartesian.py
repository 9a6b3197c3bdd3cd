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
(Craig 6.96) the derivative of ``J θ̇`` in that choice. ``rows`` picks ``m ≤ n`` task rows
(default all six; ``rows=('vx', 'vy')`` for a planar two-link arm).

Redundant arms (``m < n``, e.g. a 7-joint arm with all six rows) use Khatib's operational-space
form (Khatib 1987), which equals Craig's when ``J`` is square (``J̄ = J⁻¹``)::

    Mx = Λ = (J M⁻¹ Jᵀ)⁻¹,   J̄ = M⁻¹ Jᵀ Λ   (the dynamically consistent inverse),
    Vx = J̄ᵀ V - Λ J̇ θ̇,       Gx = J̄ᵀ G,       Bx = J̄ᵀ B - Λ B_J,   Cx = J̄ᵀ C - Λ C_J

``F = Mx ẍ + Vx + Gx`` then holds for the motion under ``τ = Jᵀ F`` with no null-space torque.
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
    """Return the indices of the task rows of ``[v; ω]`` (``rows``: indices or names; all six).

    At most ``model.dof`` rows: a task with more rows than joints cannot be tracked.
    """
    n = model.dof
    if rows is None:
        if n < 6:
            raise ValueError(f'the model has {n} joints, fewer than the 6 rows of [v; ω]: choose '
                             f'at most {n} task rows of {list(ROW_NAMES)} with rows=..., e.g. '
                             "rows=('vx', 'vy') for a planar two-link arm")
        return np.arange(6)
    names = [rows] if isinstance(rows, str) else list(rows)
    indices = [ROW_NAMES.index(r) if r in ROW_NAMES else -1 if isinstance(r, str) else int(r)
               for r in names]
    if not 1 <= len(indices) <= min(n, 6) or len(set(indices)) != len(indices) \
            or not all(0 <= r < 6 for r in indices):
        raise ValueError(f'rows={rows!r}: choose 1 to {min(n, 6)} distinct rows of '
                         f'{list(ROW_NAMES)} (or indices 0-5); the model has {n} joints')
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


def _check_rank(J, q, frame, max_condition):
    """Raise :class:`SingularityError` if the task Jacobian J (N, m, n) is (nearly) singular.

    The condition number is σ_max/σ_min of J; with m < n, a rank-deficient J makes J M⁻¹ Jᵀ
    singular.
    """
    condition = np.linalg.cond(J)
    bad = np.flatnonzero(~(condition <= max_condition))
    if bad.size:
        k = bad[0]
        raise SingularityError(
            f'the {frame}-frame task Jacobian is (nearly) singular at q = '
            f'{np.round(q[k], 6).tolist()} (state {k}; condition number {condition[k]:.3g} > '
            f'{max_condition:.0e}, so J M⁻¹ Jᵀ is singular): Cartesian dynamics are unbounded '
            'there. Move the arm away from the singularity (e.g. bend a stretched-out elbow) or '
            'choose other task rows.')


def _redundant_inverse(J, M, q):
    """Khatib's ``Λ = (J M⁻¹ Jᵀ)⁻¹`` and ``J̄ᵀ = Λ J M⁻¹`` for J (N, m, n) with m < n.

    With ``M = L Lᵀ`` and ``L⁻¹ Jᵀ = Q R`` (thin QR): ``J M⁻¹ Jᵀ = Rᵀ R``, so ``Λ = R⁻¹ R⁻ᵀ``
    and ``J̄ = M⁻¹ Jᵀ Λ = L⁻ᵀ Q R⁻ᵀ``; conditioned like J, not like J M⁻¹ Jᵀ.
    """
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise SingularityError(
            f'the mass matrix is not positive definite at q = {np.round(q[0], 6).tolist()} (or '
            'another state of the batch): a joint moves no mass and no rotor, so a redundant '
            'arm has no operational-space inertia. Give every link mass or inertia.') from None
    Q, R = np.linalg.qr(np.linalg.solve(L, np.swapaxes(J, 1, 2)))
    R_inv_T = np.swapaxes(np.linalg.inv(R), 1, 2)
    Lam = np.swapaxes(R_inv_T, 1, 2) @ R_inv_T
    J_bar = np.linalg.solve(np.swapaxes(L, 1, 2), Q @ R_inv_T)
    return Lam, np.swapaxes(J_bar, 1, 2)


def _operational_space(J, M, q, frame, max_condition):
    """``Λ`` (N, m, m) and ``J̄ᵀ`` (N, m, n); Craig's ``J⁻ᵀ M J⁻¹`` and ``J⁻ᵀ`` for square J."""
    _check_rank(J, q, frame, max_condition)
    if J.shape[1] < J.shape[2]:
        return _redundant_inverse(J, M, q)
    J_inv = np.linalg.inv(J)
    J_inv_T = np.swapaxes(J_inv, 1, 2)
    return J_inv_T @ M @ J_inv, J_inv_T


# ---------------------------------------------------------------------- Cartesian space
def cartesian_dynamics(model, q, qd, frame='tip', rows=None, max_condition=MAX_CONDITION):
    """``Mx`` (m, m), ``Vx`` (m,), ``Gx`` (m,) of Craig 6.99-6.103 (batched: leading N).

    ``frame``: ``'tip'`` (tool frame, Craig's usual) or ``'base'``; ``rows``: the ``m ≤ n``
    task rows of ``[vx, vy, vz, wx, wy, wz]`` (default all six, which needs n ≥ 6). With
    ``m < n`` (redundant) these are Khatib's ``Λ``, ``μ = J̄ᵀ V - Λ J̇ θ̇`` and ``p = J̄ᵀ G``.
    Units: kg (and kg m²), N (and N m). Raises :class:`~robot_dynamics.errors.SingularityError`
    where the condition number of the task Jacobian exceeds ``max_condition``.
    """
    a, single = batch_arguments(model, q=q, qd=qd)
    q_, qd_ = a['q'], a['qd']
    index = task_rows(model, rows)
    J = _jacobian(model, q_, frame)[:, index]
    J_dot = jacobian_dot(model, q_, qd_, frame)[:, index]
    Mx, J_bar_T = _operational_space(J, mass_matrix(model, q_), q_, frame, max_condition)
    Vx = np.einsum('nij,nj->ni', J_bar_T, coriolis_torques(model, q_, qd_)) \
        - np.einsum('nij,njk,nk->ni', Mx, J_dot, qd_)                           # 6.100
    Gx = np.einsum('nij,nj->ni', J_bar_T, gravity_torques(model, q_))           # 6.101
    return unbatch(Mx, single), unbatch(Vx, single), unbatch(Gx, single)


def cartesian_mass_matrix(model, q, frame='tip', rows=None, max_condition=MAX_CONDITION):
    """``Mx = J⁻ᵀ M J⁻¹`` (Craig 6.99), ``(J M⁻¹ Jᵀ)⁻¹`` if redundant; see cartesian_dynamics."""
    a, single = batch_arguments(model, q=q)
    J = _jacobian(model, a['q'], frame)[:, task_rows(model, rows)]
    Mx, _ = _operational_space(J, mass_matrix(model, a['q']), a['q'], frame, max_condition)
    return unbatch(Mx, single)


def cartesian_coriolis_centrifugal(model, q, frame='tip', rows=None,
                                   max_condition=MAX_CONDITION):
    """Craig's ``Bx`` (m, n(n-1)/2) and ``Cx`` (m, n): ``Vx = Bx[θ̇θ̇] + Cx[θ̇²]`` (6.105-6.107).

    ``J̇ θ̇ = B_J [θ̇θ̇] + C_J [θ̇²]`` with ``B_J[:, (k,m)] = ∂J_k/∂θ_m + ∂J_m/∂θ_k`` and
    ``C_J[:, k] = ∂J_k/∂θ_k`` (``J_k``: column k); then ``Bx = J⁻ᵀ (B - M J⁻¹ B_J)`` and
    ``Cx = J⁻ᵀ (C - M J⁻¹ C_J)``; redundant: ``Bx = J̄ᵀ B - Λ B_J``, ``Cx = J̄ᵀ C - Λ C_J``.
    """
    a, single = batch_arguments(model, q=q)
    q_ = a['q']
    n = model.dof
    index = task_rows(model, rows)
    J = _jacobian(model, q_, frame)[:, index]
    Lam, J_bar_T = _operational_space(J, mass_matrix(model, q_), q_, frame, max_condition)
    dJ = jacobian_derivatives(model, q_, frame)[:, :, index]          # [N, k, row, joint]
    k, m = np.triu_indices(n, 1)
    B_J = dJ[:, m, :, k] + dJ[:, k, :, m]                              # (pairs, N, rows)
    B_J = np.moveaxis(B_J, 0, -1)
    C_J = np.moveaxis(dJ[:, np.arange(n), :, np.arange(n)], 0, -1)     # (N, rows, n)
    B, C = coriolis_centrifugal_matrices(model, q_)
    Bx = J_bar_T @ B - Lam @ B_J
    Cx = J_bar_T @ C - Lam @ C_J
    return unbatch(Bx, single), unbatch(Cx, single)
