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
"""Discrete-time linearisation of one integrator step, exact by the chain rule.

State ``x = [q; q̇]`` (2n), input ``u = τ`` (n), one step ``x⁺ = Φ(x, u)`` of a scheme of
:mod:`robot_dynamics.simulation.schemes` (the torque held over the step). ``A = ∂Φ/∂x``
(2n, 2n) and ``B = ∂Φ/∂u`` (2n, n) come from the analytic derivatives of the forward dynamics
(:func:`robot_dynamics.forward_dynamics_derivatives`) carried through the scheme's stages.
Each scheme has one function here, registered in :data:`LINEARIZATIONS` under the scheme's
name: a new integrator adds one function.
"""

import numpy as np

from robot_dynamics.api import (coriolis_matrix, forward_dynamics, forward_dynamics_derivatives,
                                inverse_dynamics_derivatives, mass_matrix)
from robot_dynamics.errors import ResultOverflowError
from robot_dynamics.model.arguments import (batch_arguments, batch_rows, check_result,
                                            check_result_size, unbatch)
from robot_dynamics.model.friction import friction_slope_rates, friction_slopes
from robot_dynamics.simulation.integrators import _check_settings, check_step_matrix


def linearize(model, q, qd, tau, dt, integrator='rk4', f_tip=None):
    """Return ``(A, B)`` of one step of ``integrator`` from ``(q, qd)`` under ``tau``.

    ``x⁺ ≈ x⁺(x̄, ū) + A (x - x̄) + B (u - ū)`` with ``x = [q; q̇]``; shapes (n,) → (2n, 2n),
    (2n, n); a batch (N, n) → (N, 2n, 2n), (N, 2n, n). ``f_tip`` (tool frame) is held fixed.
    Joint position limits (:func:`robot_dynamics.simulate`) are not part of the step.
    """
    _check_settings(integrator, dt)
    if integrator not in LINEARIZATIONS:
        raise ValueError(f'integrator: no linearisation of {integrator!r}; available: '
                         f'{sorted(LINEARIZATIONS)}')
    n = model.dof
    check_result_size(batch_rows(q=q, qd=qd, tau=tau, f_tip=f_tip), 8 * 6 * n * n,
                      'a batch of linearisations (q, qd, tau, f_tip)')
    a, single = batch_arguments(model, q=q, qd=qd, tau=tau, f_tip=f_tip)
    N = a['q'].shape[0]
    A, B = np.empty((N, 2 * n, 2 * n)), np.empty((N, 2 * n, n))
    for k in range(0, N, CHUNK):                    # peak memory: the output and one chunk
        rows = slice(k, k + CHUNK)
        f_tip_k = None if a['f_tip'] is None else a['f_tip'][rows]
        dynamics = _Dynamics(model, a['tau'][rows], f_tip_k, None if single else k)
        try:
            A[rows], B[rows] = LINEARIZATIONS[integrator](dynamics, a['q'][rows],
                                                          a['qd'][rows], float(dt))
        except ResultOverflowError:      # a stage's overflow named the stage's state: name
            check_result(np.nan, {k: a[k] for k in ('q', 'qd', 'tau')})   # the caller's input
    return unbatch(A, single), unbatch(B, single)


#: Rows linearised at a time: the schemes' intermediates (~5x the output) stay bounded.
CHUNK = 1024


class _Dynamics:
    """``q̈ = FD(q, q̇, τ)`` and its partials at a fixed input, for the schemes below."""

    def __init__(self, model, tau, f_tip, first_row=None):
        self.model, self.tau, self.f_tip = model, tau, f_tip
        self.first_row = first_row          # of these rows in the caller's batch (None: single)

    def accel(self, q, qd):
        """Accelerations (N, n)."""
        return forward_dynamics(self.model, q, qd, self.tau, self.f_tip)

    def partials(self, q, qd):
        """``∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ``, each (N, n, n)."""
        return forward_dynamics_derivatives(self.model, q, qd, self.tau, self.f_tip)


def _euler(dynamics, q, qd, dt):
    """Craig 6.117: ``q⁺ = q + q̇ dt + ½ q̈ dt²``, ``q̇⁺ = q̇ + q̈ dt``."""
    Fq, Fv, Fu = dynamics.partials(q, qd)
    eye = np.broadcast_to(np.eye(q.shape[1]), Fq.shape)
    A = np.block([[eye + 0.5 * dt * dt * Fq, dt * eye + 0.5 * dt * dt * Fv],
                  [dt * Fq, eye + dt * Fv]])
    return A, np.concatenate((0.5 * dt * dt * Fu, dt * Fu), axis=1)


def _semi_implicit_euler(dynamics, q, qd, dt):
    """``q̇⁺ = q̇ + q̈ dt``, then ``q⁺ = q + q̇⁺ dt``."""
    Fq, Fv, Fu = dynamics.partials(q, qd)
    eye = np.broadcast_to(np.eye(q.shape[1]), Fq.shape)
    velocity = np.concatenate((dt * Fq, eye + dt * Fv), axis=2)            # ∂q̇⁺/∂x
    position = np.concatenate((eye, np.zeros_like(eye)), axis=2) + dt * velocity
    return np.concatenate((position, velocity), axis=1), \
        np.concatenate((dt * dt * Fu, dt * Fu), axis=1)


def _rk4(dynamics, q, qd, dt):
    """Seed 002 §7, the four stages differentiated in turn: ``k_s = f(x + c_s dt k_{s-1})``.

    With ``z = (x, u)`` and ``f(x) = [q̇; FD(q, q̇, u)]``: ``∂k_s/∂z = J(x_s) ∂x_s/∂z + ∂f/∂u``,
    ``J = [[0, I], [∂q̈/∂q, ∂q̈/∂q̇]]``; ``∂x⁺/∂z = [I 0] + dt/6 Σ w_s ∂k_s/∂z``.
    """
    N, n = q.shape
    dx = np.zeros((N, 2 * n, 3 * n))                     # ∂x_s/∂(x, u) of the stage state
    dx[:, np.arange(2 * n), np.arange(2 * n)] = 1.0
    x0 = dx.copy()
    total = np.zeros_like(dx)
    q_s, qd_s = q, qd
    for weight, next_c in ((1.0, 0.5), (2.0, 0.5), (2.0, 1.0), (1.0, None)):
        Fq, Fv, Fu = dynamics.partials(q_s, qd_s)
        dk = np.empty_like(dx)
        dk[:, :n] = dx[:, n:]                                         # ∂q̇_s/∂z
        dk[:, n:] = Fq @ dx[:, :n] + Fv @ dx[:, n:]
        dk[:, n:, 2 * n:] += Fu
        total += weight * dk
        if next_c is not None:
            qdd_s = dynamics.accel(q_s, qd_s)
            q_s, qd_s = q + next_c * dt * qd_s, qd + next_c * dt * qdd_s
            dx = x0 + next_c * dt * dk
    step = x0 + dt / 6.0 * total
    return step[:, :, :2 * n], step[:, :, 2 * n:]


def _implicit(dynamics, q, qd, dt, coriolis=False):
    """Implicit step: ``W Δv = dt (τ - b(q, q̇))``, ``q̇⁺ = q̇ + Δv``, ``q⁺ = q + dt q̇⁺``.

    ``W = M(q) + dt D(q̇)`` (``+ 2 dt C(q, q̇)`` with ``coriolis``);
    ``∂Δv = W⁻¹ (dt ∂(τ - b) - ∂W Δv)``: ``∂b/∂q``, ``∂b/∂q̇`` are the inverse dynamics'
    derivatives at ``q̈ = 0``; ``∂(M a)/∂q`` at ``a = Δv`` is
    ``∂ID(q, 0, a)/∂q - ∂ID(q, 0, 0)/∂q``;
    ``∂D/∂q̇ = diag(∂²τ_f/∂q̇²)`` where the slope is positive (0 where it is clipped).
    With ``coriolis``, ``∂(2C(q, q̇) Δv)/∂q̇ = 2C(q, Δv)`` and ``∂(2C(q, q̇) Δv)/∂q`` is
    the polarisation of the quadratic velocity terms (:func:`_coriolis_rate`).
    """
    model, N, n = dynamics.model, q.shape[0], q.shape[1]
    slopes = friction_slopes(model, qd)
    M = np.reshape(mass_matrix(model, q), (N, n, n))
    W = M + dt * np.maximum(slopes, 0.0)[:, :, None] * np.eye(n)
    if coriolis:
        W = W + 2.0 * dt * np.reshape(coriolis_matrix(model, q, qd), (N, n, n))
        check_step_matrix(W, dt, qd, dynamics.first_row)
    force = np.einsum('nij,nj->ni', M, dynamics.accel(q, qd))            # τ - b
    dv = dt * np.linalg.solve(W, force[..., None])[..., 0]
    zero = np.zeros_like(q)
    db_dq, db_dqd, _ = inverse_dynamics_derivatives(model, q, qd, zero, dynamics.f_tip)
    at_rest = inverse_dynamics_derivatives(model, q, zero, zero)[0]
    dMa_dq = inverse_dynamics_derivatives(model, q, zero, dv)[0] - at_rest
    rates = np.where(slopes > 0, friction_slope_rates(model, qd), 0.0)
    eye = np.broadcast_to(np.eye(n), (N, n, n))
    rhs_q = -dt * db_dq - dMa_dq
    rhs_qd = -dt * db_dqd - dt * (rates * dv)[:, None, :] * eye
    if coriolis:
        rhs_q = rhs_q - dt * _coriolis_rate(model, q, qd, dv, at_rest)
        rhs_qd = rhs_qd - 2.0 * dt * np.reshape(coriolis_matrix(model, q, dv), (N, n, n))
    v_q = np.linalg.solve(W, rhs_q)
    v_qd = eye + np.linalg.solve(W, rhs_qd)
    v_u = dt * np.linalg.inv(W)
    velocity = np.concatenate((v_q, v_qd), axis=2)
    position = np.concatenate((eye, np.zeros_like(eye)), axis=2) + dt * velocity
    return np.concatenate((position, velocity), axis=1), np.concatenate((dt * v_u, v_u), axis=1)


def _coriolis_rate(model, q, qd, dv, at_rest):
    """``∂(2C(q, q̇) Δv)/∂q`` at fixed ``q̇``, ``Δv`` (N, n, n), exactly.

    The velocity terms ``V(q, v) = C(q, v) v`` are a quadratic form in ``v``, so
    ``2C(q, q̇) Δv = V(q, q̇ + Δv) - V(q, q̇) - V(q, Δv)``; with ``P(v) = ∂ID(q, v, 0)/∂q``
    (``V``'s derivative plus gravity's, which cancels as ``+1 - 1 - 1 + 1``):
    ``P(q̇ + Δv) - P(q̇) - P(Δv) + P(0)``, ``P(0)`` given as ``at_rest``. Friction does not
    depend on ``q``.
    """
    zero = np.zeros_like(q)

    def P(v):
        return inverse_dynamics_derivatives(model, q, v, zero)[0]
    return P(qd + dv) - P(qd) - P(dv) + at_rest


def _implicit_coriolis(dynamics, q, qd, dt):
    """Linearise the implicit step with the Coriolis term's velocity derivative in ``W``."""
    return _implicit(dynamics, q, qd, dt, coriolis=True)


#: Scheme name (as in robot_dynamics.simulation.schemes.INTEGRATORS) → its linearisation.
LINEARIZATIONS = {'euler': _euler, 'semi_implicit_euler': _semi_implicit_euler, 'rk4': _rk4,
                  'implicit': _implicit, 'implicit_coriolis': _implicit_coriolis}
