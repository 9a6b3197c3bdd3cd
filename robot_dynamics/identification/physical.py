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
"""A physically consistent model that reproduces identified base parameters.

Least squares returns base parameters ``θ`` (combinations of the standard ones); a URDF needs
every link's mass, centre of mass and inertia, and they must describe real bodies: positive
mass and an inertia about the centre of mass whose principal moments satisfy the triangle
inequality. Both conditions together are equivalent to a positive-definite *pseudo-inertia*
(Wensing, Kim, Slotine 2018)::

    J(φ) = [[Σ, h], [hᵀ, m]],   Σ = ½ tr(K) E - K,   h = m c,

with ``K`` the inertia about the link frame's origin; ``J`` is linear in the ten standard
parameters ``φ``. :func:`realise` solves the convex problem

    min ½‖R (K π - θ)‖² + ½μ‖D (π - π₀)‖²   subject to  J_i(π) ≻ 0,  FV, FC, IA > 0,

where ``R`` is the triangular factor of the weighted base regressor (the first term is the
increase of the weighted torque residual), ``π₀`` the nominal model's standard parameters,
``D`` scales them to comparable units and ``μ`` is 1e-10 of ``R``'s smallest squared singular
value on the identifiable directions: the nominal values only fill in what the data cannot
see. The constraints enter as the log-determinant barrier ``-Σ log det J_i - Σ log FV_j …``
(Boyd, Vandenberghe §11.2); Newton's method with a feasibility-keeping line search follows the
central path until the duality gap bound is below ``tolerance`` of the objective's scale. When
``θ`` itself is physical (noise-free data of a real body) the result reproduces it to the
accuracy of the data.

:func:`as_built` is the other direction, for simulated experiments (the identification demo and
the tests): a nominal model made into a real robot (heavier, with friction, every link a real
body).
"""

import numpy as np

from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, PER_JOINT, PER_LINK, parameters,
)


def pseudo_inertia(phi):
    """Return the pseudo-inertia ``J`` (4, 4) of ten standard parameters ``[M, MX … ZZ]``."""
    m, hx, hy, hz, xx, xy, yy, xz, yz, zz = phi
    K = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    J = np.empty((4, 4))
    J[:3, :3] = 0.5 * np.trace(K) * np.eye(3) - K
    J[:3, 3] = J[3, :3] = hx, hy, hz
    J[3, 3] = m
    return J


# ∂J/∂φ_a: J is linear in φ, so these ten constant matrices give J(φ) = Σ φ_a A_a.
_BASIS = np.array([pseudo_inertia(unit) for unit in np.eye(PER_LINK)])


def is_physical(phi, tolerance=0.0):
    """Tell whether ten standard parameters describe a rigid body (``J`` ≻ ``tolerance``)."""
    return bool(np.linalg.eigvalsh(pseudo_inertia(phi))[0] > tolerance)


class _Realisation:
    """The barrier problem in the free parameters: all link parameters, the free joint terms."""

    def __init__(self, model, base, R, theta, joint_terms):
        self.n = model.dof
        self.pi0 = parameters(model)
        self.free = np.concatenate((
            np.arange(PER_LINK * self.n),
            [PER_LINK * self.n + PER_JOINT * j + JOINT_PARAMETERS.index(term)
             for j in range(self.n) for term in joint_terms])).astype(int)
        self.positive = np.arange(PER_LINK * self.n, self.free.size)   # joint terms in z
        R = R / np.linalg.norm(R, 2)                       # scale-free: only the shape counts
        RK = R @ base.matrix
        singular = np.linalg.svd(RK, compute_uv=False)
        mu = 1e-10 * singular[singular > 1e-12 * singular[0]][-1] ** 2
        D = self.D = _scales(model, self.pi0)
        fixed = np.setdiff1d(np.arange(self.pi0.size), self.free)
        # r(z) = A z + r0 stacks R (K π - θ) and √μ D (π - π₀): f = ½ ‖r‖², exact to rounding.
        self.A = np.vstack((RK[:, self.free], np.sqrt(mu) * np.diag(D[self.free])))
        self.r0 = np.concatenate((RK[:, fixed] @ self.pi0[fixed] - R @ theta,
                                  -np.sqrt(mu) * D[self.free] * self.pi0[self.free]))
        self.H = self.A.T @ self.A                            # Hessian of the objective
        self.degree = 4 * self.n + self.positive.size        # barrier parameter

    def objective(self, z):
        """Return ``½ ‖A z + r0‖²``: the misfit plus the pull to the nominal values."""
        r = self.A @ z + self.r0
        return 0.5 * r @ r

    def gradient(self, z):
        """Return the objective's gradient ``Aᵀ (A z + r0)``."""
        return self.A.T @ (self.A @ z + self.r0)

    def barrier(self, z, derivatives=True):
        """Return ``-Σ log det J_i - Σ log z_joint`` (inf outside) and its gradient, Hessian."""
        n = self.n
        J = np.einsum('ia,ajk->ijk', z[:PER_LINK * n].reshape(n, PER_LINK), _BASIS)
        joint = z[self.positive]
        try:
            L = np.linalg.cholesky(J)
        except np.linalg.LinAlgError:
            return np.inf, None, None
        if np.any(joint <= 0):
            return np.inf, None, None
        value = -2 * np.log(np.diagonal(L, axis1=1, axis2=2)).sum() - np.log(joint).sum()
        if not derivatives:
            return value, None, None
        G = np.linalg.solve(J[:, None], _BASIS[None])                    # (n, 10, 4, 4)
        gradient = np.empty(z.size)
        gradient[:PER_LINK * n] = -np.trace(G, axis1=2, axis2=3).ravel()
        gradient[self.positive] = -1.0 / joint
        hessian = np.zeros((z.size, z.size))
        blocks = np.einsum('iaxy,ibyx->iab', G, G)
        for i in range(n):
            block = slice(PER_LINK * i, PER_LINK * (i + 1))
            hessian[block, block] = blocks[i]
        hessian[self.positive, self.positive] = 1.0 / joint ** 2
        return value, gradient, hessian

    def start(self, total_mass):
        """Return a strictly feasible point near the nominal model."""
        z = self.pi0[self.free].copy()
        floor = 1e-6 * max(total_mass, 1e-3)
        for i in range(self.n):
            block = slice(PER_LINK * i, PER_LINK * (i + 1))
            eigenvalues, vectors = np.linalg.eigh(pseudo_inertia(z[block]))
            J = (vectors * np.maximum(eigenvalues, floor)) @ vectors.T
            z[block] = np.linalg.lstsq(_BASIS.reshape(PER_LINK, -1).T, J.ravel(),
                                       rcond=None)[0]
        z[self.positive] = np.maximum(z[self.positive], 1e-6)
        return z

    def standard(self, z):
        """Return the standard parameters π (13 n,) with the free ones set to ``z``."""
        pi = self.pi0.copy()
        pi[self.free] = z
        return pi


def _scales(model, pi0):
    """Inverse typical magnitudes of the standard parameters: kg, kg m (0.1 m), kg m²."""
    n = model.dof
    D = np.empty(pi0.size)
    length = 0.1
    for i in range(n):
        mass = max(model.mass[i], 1e-3 * max(model.total_mass, 1.0))
        D[PER_LINK * i:PER_LINK * (i + 1)] = 1.0 / (mass * np.array(
            [1.0] + [length] * 3 + [length ** 2] * 6))
    joint = pi0[PER_LINK * n:].reshape(n, PER_JOINT)
    typical = np.maximum(np.abs(joint), [0.1, 0.1, 1e-3])
    D[PER_LINK * n:] = 1.0 / typical.reshape(-1)
    return D


def _newton(problem, z, t, max_steps=100):
    """Minimise ``t f + φ`` from the feasible ``z`` (damped Newton, backtracking)."""
    for _ in range(max_steps):
        value, g_barrier, h_barrier = problem.barrier(z)
        gradient = t * problem.gradient(z) + g_barrier
        hessian = t * problem.H + h_barrier
        step = -np.linalg.solve(hessian, gradient)
        decrement = -gradient @ step
        if decrement < 1e-12:
            return z
        total = t * problem.objective(z) + value
        s = 1.0
        while s > 1e-12:
            trial = z + s * step
            trial_barrier = problem.barrier(trial, derivatives=False)[0]
            if np.isfinite(trial_barrier) and \
                    t * problem.objective(trial) + trial_barrier <= total - 0.25 * s * decrement:
                break
            s *= 0.5
        else:
            return z
        z = trial
    return z


def realise(model, base, R, theta, joint_terms=JOINT_PARAMETERS, tolerance=1e-12):
    """Find standard parameters π (13 n,) of a physical model with ``K π`` closest to θ.

    ``R`` (b, b): triangular factor of the weighted base regressor; ``joint_terms``: the
    joint parameters that are free (the others keep the model's values). See the module
    docstring. After the barrier path, the smallest correction (in the ``D`` norm) that makes
    ``K π = θ`` exactly is applied if every link stays physical: then the model reproduces
    the identified base parameters to rounding. Returns π.
    """
    problem = _Realisation(model, base, R, theta, joint_terms)
    z = problem.start(model.total_mass)
    scale = max(problem.objective(z), 1e-300)
    t = problem.degree / scale
    while problem.degree / t >= tolerance * scale:
        z = _newton(problem, z, t)
        t *= 20.0
    return _exact(problem, base, theta, problem.standard(z))


def _exact(problem, base, theta, pi):
    """Apply the least-``D``-norm correction to ``K π = θ`` if the result stays physical."""
    D = problem.D[problem.free]
    K = base.matrix[:, problem.free]
    correction = np.linalg.lstsq(K / D, theta - base.matrix @ pi, rcond=None)[0] / D
    corrected = pi.copy()
    corrected[problem.free] += correction
    z = corrected[problem.free]
    if np.isfinite(problem.barrier(z, derivatives=False)[0]):
        return corrected
    return pi


def as_built(model, mass_factor=1.2, viscous=(1.5, 0.3), coulomb=(0.8, 0.2)):
    """Return the "real" robot: masses ×``mass_factor``, friction, every link a real body.

    Viscous and Coulomb friction fall linearly from the first to the last joint between the
    given values (N m s/rad, N m). Links must be real bodies: a massless link gets 1 kg, and
    every principal moment of inertia is lifted to ``max(I_k, 0.6 Σ I - I_k) + 0.001`` kg m²
    (the triangle inequality with margin; the bundled PUMA's link 1 and 3 violate it).
    """
    n = model.dof
    inertias = []
    for inertia in model.inertia:
        moments, axes = np.linalg.eigh(inertia)
        lifted = np.maximum(moments, 0.6 * moments.sum() - moments) + 1e-3
        inertias.append(axes @ np.diag(lifted) @ axes.T)
    return model.replace(mass=model.mass * mass_factor + (model.mass == 0),
                         inertia=np.array(inertias),
                         viscous_friction=np.linspace(*viscous, n),
                         coulomb_friction=np.linspace(*coulomb, n))
