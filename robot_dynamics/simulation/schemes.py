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
"""One-step integration schemes for ``q̈ = accel(q, q̇)`` (Craig §6.12, seed 002 §7).

The state is ``(q, qd)``; the commanded torque is held constant over a step (zero-order hold,
as a digital controller applies it). Integrators:

- ``'euler'``: explicit Euler as in Craig 6.117 (``q += qd dt + ½ qdd dt²``, ``qd += qdd dt``);
- ``'semi_implicit_euler'``: symplectic Euler (``qd += qdd dt`` then ``q += qd dt``);
- ``'rk4'``: classical four-point Runge-Kutta of seed 002 §7;
- ``'implicit'``: Euler implicit in the joints' velocity-dependent forces (damping, viscous and
  smoothed Coulomb friction), in the spirit of MuJoCo's ``implicitfast``: one linearised
  backward-Euler step in ``q̇`` (:func:`_implicit`), then ``q += q̇⁺ dt``. Stable for any damping
  and ``dt``; first order.
- ``'implicit_coriolis'``: the same step with the Coriolis and centripetal term's velocity
  derivative ``∂(C(q, q̇) q̇)/∂q̇ = 2C`` in the step matrix too (MuJoCo's ``implicit``), for fast
  spinning arms at a large ``dt``; the step matrix is not symmetric (an LU solve).

Every scheme is ``f(accel, q, qd, dt) -> (q⁺, q̇⁺, q̈)`` with ``q̈`` the acceleration at the start
of the step; ``'implicit'`` takes ``damped_mass(q, qd, dt) -> (M, M + dt D)`` besides
(:data:`NEEDS_DAMPED_MASS`).
"""

import numpy as np


class SimulationError(ArithmeticError):
    """The simulated state became non-finite or its energy ran away."""


def _euler(accel, q, qd, dt):
    qdd = accel(q, qd)
    return q + qd * dt + 0.5 * qdd * dt * dt, qd + qdd * dt, qdd


def _semi_implicit_euler(accel, q, qd, dt):
    qdd = accel(q, qd)
    qd_next = qd + qdd * dt
    return q + qd_next * dt, qd_next, qdd


def _rk4(accel, q, qd, dt):
    """Seed 002 §7: h1 = ε g(y), h2 = ε g(y + h1/2), h3 = ε g(y + h2/2), h4 = ε g(y + h3)."""
    k1_q, k1_v = qd, accel(q, qd)
    k2_q, k2_v = qd + 0.5 * dt * k1_v, accel(q + 0.5 * dt * k1_q, qd + 0.5 * dt * k1_v)
    k3_q, k3_v = qd + 0.5 * dt * k2_v, accel(q + 0.5 * dt * k2_q, qd + 0.5 * dt * k2_v)
    k4_q, k4_v = qd + dt * k3_v, accel(q + dt * k3_q, qd + dt * k3_v)
    q_next = q + dt / 6.0 * (k1_q + 2 * k2_q + 2 * k3_q + k4_q)
    qd_next = qd + dt / 6.0 * (k1_v + 2 * k2_v + 2 * k3_v + k4_v)
    return q_next, qd_next, k1_v


def _implicit(accel, q, qd, dt, damped_mass):
    """Velocity-implicit Euler, MuJoCo's ``implicitfast`` without actuators or tendons.

    The backward-Euler velocity update ``q̇⁺ = q̇ + dt q̈(q, q̇⁺)`` linearised in ``q̇⁺`` about
    ``q̇`` with the joint forces' derivative alone (the Coriolis term's derivative is left out,
    as implicitfast does)::

        (M + dt D) (q̇⁺ - q̇) = dt M q̈ = dt (τ - V - G - F - Jᵀ f_tip),   q⁺ = q + dt q̇⁺

    ``D = diag(max(∂τ_f/∂q̇, 0))`` at the start of the step (``model/friction.py``:
    ``friction_slopes``; a negative Stribeck slope is left explicit so that ``M + dt D`` stays
    positive definite). ``'implicit_coriolis'`` passes ``M + dt (D + 2C)`` instead, with the
    Christoffel Coriolis matrix ``C`` (``∂(C q̇)/∂q̇ = 2C``: its symbols are symmetric in the
    two velocities).
    """
    qdd = accel(q, qd)
    M, M_hat = damped_mass(q, qd, dt)
    force = np.einsum('...ij,...j->...i', M, qdd)
    qd_next = qd + dt * np.linalg.solve(M_hat, force[..., None])[..., 0]
    return q + dt * qd_next, qd_next, qdd


INTEGRATORS = {'euler': _euler, 'semi_implicit_euler': _semi_implicit_euler, 'rk4': _rk4,
               'implicit': _implicit, 'implicit_coriolis': _implicit}

#: Schemes that need ``damped_mass(q, qd, dt) -> (M, W)`` as a fifth argument
#: (``W = M + dt D``, with ``+ 2 dt C`` for the Coriolis-implicit one).
NEEDS_DAMPED_MASS = frozenset({'implicit', 'implicit_coriolis'})
