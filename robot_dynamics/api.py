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
"""Public dynamics functions: checked inputs, batches, and derivation by composition.

Every function takes ``(n,)`` arrays for one state or ``(N, n)`` arrays for a batch or
trajectory and returns ``(n,)``/``(n, n)`` or ``(N, n)``/``(N, n, n)`` accordingly. Units are
SI: rad and m for ``q``, rad/s and m/s for ``qd``, N m and N for torques and forces.

The equation of motion (Craig 6.114, seed 002 eq. 2.11)::

    tau = M(q) qdd + V(q, qd) + G(q) + F(qd) + J(q)ᵀ f_tip

with ``M`` including the rotors' reflected inertia, ``F(qd) = Fv qd + Fc sign(qd)`` the joint
friction (plus the richer law's terms where a model has them, :mod:`robot_dynamics.model.friction`)
and ``f_tip`` the wrench the tool exerts on its environment, in the tool frame.

Without a ``solver`` argument every function runs the compiled engine
(:mod:`robot_dynamics.engine`: the model as data, inputs checked in C, one state or a batch
in one call). ``solver='name'`` selects a registered formulation, run by its readable numpy
implementation (``solver='rnea'`` the reference Newton-Euler). When the engine is not
available the numpy implementations answer every call, with the same results and errors.
"""

from functools import update_wrapper

import numpy as np

from robot_dynamics import solvers
from robot_dynamics.engine import ENGINE as _engine
from robot_dynamics.model.arguments import (batch_arguments, batch_rows, check_result,
                                            check_result_size, unbatch)
from robot_dynamics.model.friction import friction_slopes as _friction_slopes
from robot_dynamics.model.friction import friction_torques as _friction
from robot_dynamics.algorithms.crba import mass_matrix_crba
from robot_dynamics.algorithms.derivatives import rnea_derivatives as _rnea_derivatives
from robot_dynamics.algorithms.kinematics import jacobian as _jacobian
from robot_dynamics.algorithms.kinematics import potential_energy as _potential_energy
from robot_dynamics.algorithms.kinematics import tip_pose as _tip_pose
from robot_dynamics.algorithms.kinematics import tip_wrench_torques as _tip_wrench_torques

_NO_GRAVITY = np.zeros(3)


# ---------------------------------------------------------------------- joint-space terms
def friction_torques(model, qd):
    """Return the joint friction ``τ_f(q̇)``, shape of ``qd``.

    ``Fv qd + Fc sign(qd)`` (Craig 6.112), plus the offset, asymmetric, smooth and Stribeck
    terms a model may carry (:mod:`robot_dynamics.model.friction`, home of ``∂τ_f/∂q̇`` too).
    """
    a, single = batch_arguments(model, qd=qd)
    return unbatch(_friction(model, a['qd']), single)


def friction_slopes(model, qd):
    """Return ``∂τ_f/∂q̇`` per joint, shape of ``qd``.

    Friction couples no joints: this is the diagonal of its velocity Jacobian. Viscous: Fv;
    the Coulomb step contributes 0, at q̇ = 0 too (:mod:`robot_dynamics.model.friction`).
    """
    a, single = batch_arguments(model, qd=qd)
    return unbatch(_friction_slopes(model, a['qd']), single)


# ---------------------------------------------------------------------- inverse dynamics
def inverse_dynamics(model, q, qd, qdd, f_tip=None, solver=None):
    """Joint torques/forces that produce ``qdd`` at state ``(q, qd)``: the full model.

    Includes gravity, the tip wrench ``f_tip`` (6,) or (N, 6) (``[f; n]`` exerted by the tool
    on the environment, tool frame, N and N m), friction and rotor inertia. ``solver`` names a
    registered formulation (see :func:`robot_dynamics.solvers.available`); default: the
    engine (the reference Newton-Euler recursion, compiled). Shapes: (n,) → (n,); (N, n) → (N, n).
    """
    if solver is None and _engine is not None:
        return _engine.inverse_dynamics(model, q, qd, qdd, f_tip)
    a, single = batch_arguments(model, q=q, qd=qd, qdd=qdd, f_tip=f_tip)
    with np.errstate(over='ignore', invalid='ignore'):
        tau = solvers.get(solver)(model, a['q'], a['qd'], a['qdd'], model.gravity, a['f_tip'])
        tau = tau + model.reflected_inertia * a['qdd'] + _friction(model, a['qd'])
    return unbatch(check_result(tau, a), single)


def gravity_torques(model, q, solver=None):
    """Gravity vector ``G(q) = ID(q, 0, 0)`` (seed 002 eq. 2.11), shape of ``q``."""
    if solver is None and _engine is not None:
        return _engine.gravity(model, q)
    a, single = batch_arguments(model, q=q)
    zero = np.zeros_like(a['q'])
    return unbatch(check_result(solvers.get(solver)(model, a['q'], zero, zero, model.gravity), a),
                   single)


def coriolis_torques(model, q, qd, solver=None):
    """Coriolis and centrifugal torques ``V(q, qd) = ID(q, qd, 0) - G(q)`` without friction."""
    if solver is None and _engine is not None:
        return _engine.coriolis(model, q, qd)
    a, single = batch_arguments(model, q=q, qd=qd)
    zero = np.zeros_like(a['q'])
    with np.errstate(over='ignore', invalid='ignore'):
        V = solvers.get(solver)(model, a['q'], a['qd'], zero, _NO_GRAVITY)
    return unbatch(check_result(V, a), single)


def mass_matrix(model, q, solver=None):
    """Joint-space inertia matrix ``M(q)`` (n, n) or (N, n, n), rotor inertia included.

    With ``solver=None`` the composite-rigid-body algorithm; with a solver name, strobing
    (seed 002 end of §3 and §7): column j is that solver's torque for ``qdd = e_j`` with zero
    velocity and gravity.
    """
    if solver is None and _engine is not None:
        return _engine.mass_matrix(model, q)
    a, single = batch_arguments(model, q=q)
    q_ = a['q']
    if solver is None:
        M = mass_matrix_crba(model, q_)
    else:
        M = strobe_mass_matrix(model, q_, solvers.get(solver))
    return unbatch(M + np.diag(model.reflected_inertia), single)


if _engine is not None and hasattr(_engine, 'Public'):
    # mass_matrix(model, q) straight to the engine, without this frame (issue 32: a tenth of
    # the call); any other call, or _engine switched off, runs the function above
    mass_matrix = update_wrapper(_engine.Public(mass_matrix, _engine.mass_matrix, globals(), 2),
                                 mass_matrix)


def strobe_mass_matrix(model, q, solver):
    """Rigid-body ``M`` (N, n, n) by strobing unit accelerations through ``solver``."""
    N, n = q.shape
    q_rep = np.repeat(q, n, axis=0)                                 # (N n, n)
    unit = np.tile(np.eye(n), (N, 1))
    columns = solver(model, q_rep, np.zeros_like(q_rep), unit, _NO_GRAVITY)
    return np.swapaxes(columns.reshape(N, n, n), 1, 2)


def coriolis_matrix(model, q, qd):
    """Coriolis matrix ``C(q, qd)`` with ``C qd = V`` and ``Ṁ - 2C`` skew-symmetric.

    Built from the Christoffel symbols of the first kind,
    ``C_ij = Σ_k ½ (∂M_ij/∂q_k + ∂M_ik/∂q_j - ∂M_jk/∂q_i) qd_k``; the partial derivatives of
    the composite-rigid-body ``M`` are taken by complex step, exact to rounding. The engine
    computes the same matrix in O(n²) from spatial quantities (see ``engine/src/coriolis.c``).
    """
    if _engine is not None:
        return _engine.coriolis_matrix(model, q, qd)
    a, single = batch_arguments(model, q=q, qd=qd)
    dM = mass_matrix_derivatives(model, a['q'])                    # (N, k, i, j) = ∂M_ij/∂q_k
    with np.errstate(over='ignore', invalid='ignore'):
        dM_k = np.einsum('nkij,nk->nij', dM, a['qd'])               # Ṁ
        dM_j = np.einsum('njik,nk->nij', dM, a['qd'])               # Σ_k ∂M_ik/∂q_j qd_k
        dM_i = np.einsum('nijk,nk->nij', dM, a['qd'])               # Σ_k ∂M_jk/∂q_i qd_k
        C = 0.5 * (dM_k + dM_j - dM_i)
    return unbatch(check_result(C, a), single)


def mass_matrix_derivatives(model, q, step=1e-30):
    """``∂M/∂q_k`` for every k, shape (N, n, n, n) indexed ``[N, k, i, j]`` (complex step)."""
    N, n = q.shape
    perturbed = np.repeat(q.astype(complex), n, axis=0)             # (N n, n)
    perturbed += 1j * step * np.tile(np.eye(n), (N, 1))
    return (mass_matrix_crba(model, perturbed).imag / step).reshape(N, n, n, n)


def mass_matrix_dot(model, q, qd):
    """Time derivative ``Ṁ(q, qd) = Σ_k ∂M/∂q_k qd_k`` (n, n) or (N, n, n); equals ``C + Cᵀ``."""
    if _engine is not None:
        return _engine.mass_matrix_dot(model, q, qd)
    a, single = batch_arguments(model, q=q, qd=qd)
    dM = mass_matrix_derivatives(model, a['q'])
    with np.errstate(over='ignore', invalid='ignore'):
        M_dot = np.einsum('nkij,nk->nij', dM, a['qd'])
    return unbatch(check_result(M_dot, a), single)


# ---------------------------------------------------------------------- forward dynamics
def forward_dynamics(model, q, qd, tau, f_tip=None, solver=None):
    """Joint accelerations ``qdd = M⁻¹ (tau - V - G - F - Jᵀ f_tip)`` (Craig 6.115).

    ``M`` is symmetric positive definite (seed 002 §7), so the solve is by Cholesky
    factorisation. ``solver=None`` runs the engine (composite-rigid-body M, Newton-Euler bias
    and Cholesky below 9 joints, the articulated-body algorithm from 9); a solver name uses
    that solver for both the bias and M (by strobing).
    """
    if solver is None and _engine is not None:
        return _engine.forward_dynamics(model, q, qd, tau, f_tip)
    a, single = batch_arguments(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    with np.errstate(over='ignore', invalid='ignore'):
        qdd = forward_dynamics_batch(model, a['q'], a['qd'], a['tau'], a['f_tip'], solver)
    return unbatch(check_result(qdd, a), single)


def forward_dynamics_batch(model, q, qd, tau, f_tip=None, solver=None):
    """Forward dynamics of checked float batches (N, n) → (N, n); see :func:`forward_dynamics`.

    For callers that validated their arrays already (the integrators step many times).
    """
    solver_ = solvers.get(solver)
    bias = solver_(model, q, qd, np.zeros_like(q), model.gravity, f_tip) + _friction(model, qd)
    if solver is None:
        M = mass_matrix_crba(model, q)
    else:
        M = strobe_mass_matrix(model, q, solver_)
    M = M + np.diag(model.reflected_inertia)
    return cholesky_solve(M, tau - bias)


def cholesky_solve(M, b):
    """Solve ``M x = b`` for stacks of SPD matrices (N, n, n) and right-hand sides (N, n)."""
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError as exc:
        raise np.linalg.LinAlgError('mass matrix is not positive definite: a link with zero '
                                    'mass and inertia on a moving joint?') from exc
    y = np.linalg.solve(L, b[..., None])
    return np.linalg.solve(np.swapaxes(L, -1, -2), y)[..., 0]


# ---------------------------------------------------------------------- derivatives
def inverse_dynamics_derivatives(model, q, qd, qdd, f_tip=None):
    """Partial derivatives of the full inverse dynamics: ``(∂τ/∂q, ∂τ/∂q̇, M)``.

    Analytic, from the Newton-Euler recursion (Carpentier & Mansard, RSS 2018; the derivation
    is in ``engine/src/derivatives_body.h``), with gravity, the tool wrench ``f_tip`` (held
    fixed in the tool frame), rotor inertia (in ``M``) and friction (its slope on the diagonal of
    ``∂τ/∂q̇``: Coulomb's step contributes 0, at ``q̇ = 0`` too; with ``friction_smoothing`` the
    tanh law's slope, see :mod:`robot_dynamics.model.friction`). ``∂τ/∂q̈ = M``.
    Shapes: (n,) → three (n, n); (N, n) → three (N, n, n).
    """
    if _engine is not None:
        return _engine.inverse_dynamics_derivatives(model, q, qd, qdd, f_tip)
    _check_derivatives_size(model, q=q, qd=qd, qdd=qdd, f_tip=f_tip)
    a, single = batch_arguments(model, q=q, qd=qd, qdd=qdd, f_tip=f_tip)
    with np.errstate(over='ignore', invalid='ignore'):
        out = _rnea_derivatives(model, a['q'], a['qd'], a['qdd'], a['f_tip'])
    return _split(unbatch(check_result(out, a), single))


def forward_dynamics_derivatives(model, q, qd, tau, f_tip=None):
    """Partial derivatives of the forward dynamics: ``(∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ = M⁻¹)``.

    With ``q̈ = FD(q, q̇, τ)`` and ``ID(q, q̇, q̈) = τ``: ``∂q̈/∂x = -M⁻¹ ∂τ/∂x`` at that ``q̈``
    (Carpentier & Mansard, RSS 2018, §IV), by Cholesky factorisation of ``M``. Includes
    everything :func:`inverse_dynamics_derivatives` does; ``∂q̈/∂f_tip`` is ``-M⁻¹ ᴺJᵀ``.
    Shapes: (n,) → three (n, n); (N, n) → three (N, n, n).
    """
    if _engine is not None:
        return _engine.forward_dynamics_derivatives(model, q, qd, tau, f_tip)
    _check_derivatives_size(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    a, single = batch_arguments(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    with np.errstate(over='ignore', invalid='ignore'):
        qdd = forward_dynamics_batch(model, a['q'], a['qd'], a['tau'], a['f_tip'])
        d = _rnea_derivatives(model, a['q'], a['qd'], qdd, a['f_tip'])
        eye = np.broadcast_to(np.eye(model.dof), d[:, 2].shape)
        out = np.stack([-cholesky_solve_matrix(d[:, 2], d[:, 0]),
                        -cholesky_solve_matrix(d[:, 2], d[:, 1]),
                        cholesky_solve_matrix(d[:, 2], eye)], axis=1)
    return _split(unbatch(check_result(out, a), single))


def _check_derivatives_size(model, **arrays):
    """Refuse, before any copy or work, a batch whose three (n, n) results exceed the cap.

    The engine checks the same before allocating (binding_dispatch.c); this is the numpy path's.
    """
    check_result_size(batch_rows(**arrays), 3 * 8 * model.dof ** 2,
                      f'a batch of derivatives ({", ".join(arrays)})')


def _split(stacked):
    """Three matrices from a (3, n, n) or (N, 3, n, n) block (as the engine returns them)."""
    if stacked.ndim == 3:
        return stacked[0], stacked[1], stacked[2]
    return stacked[:, 0], stacked[:, 1], stacked[:, 2]


def cholesky_solve_matrix(M, B):
    """Solve ``M X = B`` for stacks of SPD ``M`` (N, n, n) and matrices ``B`` (N, n, k)."""
    return np.swapaxes(cholesky_solve(M[:, None], np.swapaxes(B, 1, 2)), 1, 2)


# ---------------------------------------------------------------------- kinematics, energy
def jacobian(model, q, frame='base'):
    """Geometric Jacobian of the tool frame (6, n) or (N, 6, n), rows ``[v; ω]`` (Craig §5.7).

    ``frame='base'``: base-frame axes (Craig's ⁰J); ``frame='tip'``: tool-frame axes (ᴺJ).
    """
    if _engine is not None and frame in ('base', 'tip'):
        return _engine.jacobian(model, q, frame == 'tip')
    a, single = batch_arguments(model, q=q)
    return unbatch(_jacobian(model, a['q'], frame), single)


def tip_pose(model, q):
    """Tool-frame pose in the base frame as a homogeneous transform (4, 4) or (N, 4, 4)."""
    if _engine is not None:
        return _engine.tip_pose(model, q)
    a, single = batch_arguments(model, q=q)
    R, p = _tip_pose(model, a['q'])
    T = np.zeros(R.shape[:1] + (4, 4))
    T[:, :3, :3], T[:, :3, 3], T[:, 3, 3] = R, p, 1.0
    return unbatch(T, single)


def static_torques(model, q, f_tip):
    """Joint torques that balance a tool wrench: ``τ = ᴺJᵀ f_tip`` (Craig 5.96), tool frame."""
    if _engine is not None:
        return _engine.static_torques(model, q, f_tip)
    a, single = batch_arguments(model, q=q, f_tip=f_tip)
    with np.errstate(over='ignore', invalid='ignore'):
        tau = _tip_wrench_torques(model, a['q'], a['f_tip'])
    return unbatch(check_result(tau, a), single)


def kinetic_energy(model, q, qd):
    """Kinetic energy ``½ qdᵀ M qd`` (rotors included), J; scalar or (N,)."""
    if _engine is not None:
        return _engine.kinetic_energy(model, q, qd)
    a, single = batch_arguments(model, q=q, qd=qd)
    M = mass_matrix_crba(model, a['q']) + np.diag(model.reflected_inertia)
    with np.errstate(over='ignore', invalid='ignore'):
        T = 0.5 * np.einsum('ni,nij,nj->n', a['qd'], M, a['qd'])
    return unbatch(check_result(T, a), single)


def potential_energy(model, q):
    """Gravitational potential energy ``-Σ m_i gᵀ p_ci``, J; zero at the base origin."""
    if _engine is not None:
        return _engine.potential_energy(model, q)
    a, single = batch_arguments(model, q=q)
    return unbatch(_potential_energy(model, a['q']), single)


def total_energy(model, q, qd):
    """Kinetic plus potential energy, J; scalar or (N,)."""
    if _engine is not None:
        return _engine.total_energy(model, q, qd)
    return kinetic_energy(model, q, qd) + potential_energy(model, q)
