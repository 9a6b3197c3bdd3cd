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
"""Optimal excitation: a periodic trajectory that makes the base parameters well determined.

Each joint follows a finite Fourier series with fundamental ``ω_f = 2π / T`` and ``L``
harmonics (Swevers, Ganseman, Tükel, De Schutter, Van Brussel 1997, eq. 9)::

    q_j(t) = q0_j + Σ_l [a_jl / (l ω_f) sin(l ω_f t) - b_jl / (l ω_f) cos(l ω_f t)]
    q̇_j(t) = Σ_l [a_jl cos(l ω_f t) + b_jl sin(l ω_f t)]
    q̈_j(t) = Σ_l l ω_f [-a_jl sin(l ω_f t) + b_jl cos(l ω_f t)]

It is periodic (so measurements can be averaged over periods and the filters see no
transient) and starts at rest (``Σ_l a_jl = 0`` and ``Σ_l l b_jl = 0``: the last harmonic's
coefficients are eliminated). The coefficients and offsets minimise the condition number of
the stacked base regressor (Gautier-Khalil 1992) on a grid over one period, subject to the
joint position, velocity, acceleration and effort limits on that grid (SLSQP, bounded time);
the result is checked on a fine grid and shrunk about ``q0`` if a limit is still exceeded.
"""

from dataclasses import dataclass
import time

import numpy as np

from robot_dynamics.identification.base import base_parameters
from robot_dynamics.identification.regressor import batch_regressor, parameters
from robot_dynamics.model.arguments import per_joint


@dataclass(frozen=True)
class FourierTrajectory:
    """Periodic joint trajectory: ``period`` T (s), offsets ``q0`` (n,), ``a``, ``b`` (n, L)."""

    joint_names: tuple
    period: float
    q0: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def harmonics(self):
        """Return the number of harmonics ``L``."""
        return self.a.shape[1]

    def evaluate(self, t):
        """Positions, velocities, accelerations (len(t), n) at times ``t`` (s)."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        w = 2 * np.pi / self.period * np.arange(1, self.harmonics + 1)      # (L,)
        s, c = np.sin(np.outer(t, w)), np.cos(np.outer(t, w))                 # (T, L)
        q = self.q0 + s @ (self.a / w).T - c @ (self.b / w).T
        qd = c @ self.a.T + s @ self.b.T
        qdd = -s @ (self.a * w).T + c @ (self.b * w).T
        return q, qd, qdd

    def sample(self, dt, periods=1):
        """Sample ``periods`` periods at step ``dt``: times (K,) and q, q̇, q̈ (K, n)."""
        steps = int(round(periods * self.period / dt))
        t = np.arange(steps + 1) * (periods * self.period / steps)
        return (t,) + self.evaluate(t)


@dataclass(frozen=True)
class ExcitationLimits:
    """Bounds the trajectory respects: positions, |velocity|, |acceleration|, |effort| (n,)."""

    lower: np.ndarray
    upper: np.ndarray
    velocity: np.ndarray
    acceleration: np.ndarray
    effort: np.ndarray

    @classmethod
    def from_model(cls, model, position_margin=0.05, velocity_fraction=0.8,
                   max_acceleration=None, effort_fraction=0.9):
        """Limits from the model: ``position_margin`` of each range kept free at both ends.

        Unbounded joints move within ±π rad (revolute) or ±0.5 m; unbounded velocities up to
        2 rad/s or 0.5 m/s; ``max_acceleration`` (scalar or (n,)) defaults to 10 rad/s² or
        2 m/s² (URDF has no acceleration limits); efforts up to ``effort_fraction`` of the
        model's (nominal) effort limits.
        """
        revolute = model.is_revolute
        lower = np.where(np.isfinite(model.lower_limit), model.lower_limit,
                         np.where(revolute, -np.pi, -0.5))
        upper = np.where(np.isfinite(model.upper_limit), model.upper_limit,
                         np.where(revolute, np.pi, 0.5))
        margin = position_margin * (upper - lower)
        velocity = np.where(np.isfinite(model.velocity_limit) & (model.velocity_limit > 0),
                            velocity_fraction * model.velocity_limit,
                            np.where(revolute, 2.0, 0.5))
        if max_acceleration is None:
            acceleration = np.where(revolute, 10.0, 2.0)
        else:
            acceleration = per_joint(model, max_acceleration, 'max_acceleration',
                                     'rad/s^2 or m/s^2')
        if np.any(acceleration <= 0) or not np.all(np.isfinite(acceleration)):
            raise ValueError(f'max_acceleration: expected positive finite values, got '
                             f'{acceleration.tolist()}')
        effort = np.where(np.isfinite(model.effort_limit) & (model.effort_limit > 0),
                          effort_fraction * model.effort_limit, np.inf)
        return cls(lower + margin, upper - margin, velocity, np.array(acceleration), effort)


@dataclass(frozen=True)
class Excitation:
    """A designed excitation and how good it is.

    ``trajectory``; ``condition`` number of the base regressor on the design grid;
    ``initial_condition`` (best random start); ``limits``; ``evaluations`` (objective
    evaluations) and ``elapsed`` wall seconds.
    """

    trajectory: FourierTrajectory
    condition: float
    initial_condition: float
    limits: ExcitationLimits
    evaluations: int
    elapsed: float


def design_excitation(model, period=10.0, harmonics=5, samples=120, limits=None,
                      joint_terms=('FV', 'FC', 'IA'), time_limit=30.0, iterations=200,
                      starts=8, seed=0):
    """Design an optimal periodic excitation for ``model`` (see the module docstring).

    ``period`` s, ``harmonics`` L, ``samples`` grid points per period for the objective and
    the constraints, ``limits`` an :class:`ExcitationLimits` (default from the model),
    ``time_limit`` wall seconds for the optimisation (the best feasible point so far is
    returned when it runs out; None: no limit), ``iterations`` SLSQP iterations at most,
    ``starts`` random starts. Returns an :class:`Excitation`.
    """
    if not (period > 0 and harmonics >= 2 and samples >= 10):
        raise ValueError('design_excitation: need period > 0, harmonics >= 2, samples >= 10')
    limits = limits or ExcitationLimits.from_model(model)
    if np.any(limits.lower >= limits.upper):
        raise ValueError('design_excitation: a joint has an empty position range after the '
                         'margin; reduce position_margin')
    import scipy.optimize        # scipy costs ~0.5 s to import: only when used
    problem = _Problem(model, period, harmonics, samples, limits, joint_terms,
                       time.monotonic() + (np.inf if time_limit is None else time_limit))
    rng = np.random.default_rng(seed)
    x0, initial = problem.best_start(rng, starts)
    problem.timed = True
    try:
        scipy.optimize.minimize(problem.objective, x0, jac=problem.objective_gradient,
                                method='SLSQP', options={'maxiter': iterations, 'ftol': 1e-6},
                                constraints=[{'type': 'ineq', 'fun': problem.constraints,
                                              'jac': problem.constraints_jacobian}])
    except _Deadline:
        pass
    trajectory = problem.safe_trajectory(problem.best_x if problem.best_x is not None else x0)
    return Excitation(trajectory, condition_number(model, trajectory, samples, joint_terms),
                      initial, limits, problem.evaluations, time.monotonic() - problem.start)


def condition_number(model, trajectory, samples=120, joint_terms=('FV', 'FC', 'IA')):
    """Condition number of the base regressor stacked over ``samples`` points of a period."""
    base = base_parameters(model, joint_terms)
    t = np.arange(samples) * trajectory.period / samples
    Y = batch_regressor(model, *trajectory.evaluate(t))
    return float(np.linalg.cond(base.regressor(Y).reshape(-1, base.count)))


class _Deadline(Exception):
    """The optimisation ran out of time."""


class _Problem:
    """Objective ``log cond`` and constraints on a grid, evaluated together and cached."""

    def __init__(self, model, period, harmonics, samples, limits, joint_terms, deadline):
        self.model, self.limits, self.deadline = model, limits, deadline
        self.n, self.L, self.period = model.dof, harmonics, period
        self.base = base_parameters(model, joint_terms)
        self.pi_base = self.base.values(parameters(model))
        self.t = np.arange(samples) * period / samples
        self.start = time.monotonic()
        self.evaluations = 0
        self.best_x, self.best_f = None, np.inf
        self.timed = False                   # the random starts always run to the end
        self._cache = {}

    # ------------------------------------------------------------ parametrisation
    def trajectory(self, x):
        """Decision vector ``[q0, a_1..L-1, b_1..L-1]`` → trajectory starting at rest."""
        n, L = self.n, self.L
        q0 = x[:n]
        a = np.empty((n, L))
        b = np.empty((n, L))
        a[:, :-1] = x[n:n + n * (L - 1)].reshape(n, L - 1)
        b[:, :-1] = x[n + n * (L - 1):].reshape(n, L - 1)
        a[:, -1] = -a[:, :-1].sum(1)                                   # q̇(0) = 0
        b[:, -1] = -(b[:, :-1] * np.arange(1, L)).sum(1) / L             # q̈(0) = 0
        return FourierTrajectory(self.model.joint_names, self.period, q0.copy(), a, b)

    def _values(self, x):
        """Objective (log cond) and constraint vector (>= 0 when feasible) at ``x``."""
        key = x.tobytes()
        if key not in self._cache:
            if self.timed and time.monotonic() > self.deadline:
                raise _Deadline
            self.evaluations += 1
            q, qd, qdd = self.trajectory(x).evaluate(self.t)
            Yb = self.base.regressor(batch_regressor(self.model, q, qd, qdd))
            singular = np.linalg.svd(Yb.reshape(-1, self.base.count), compute_uv=False)
            f = np.log(singular[0] / max(singular[-1], 1e-300))
            c = self._margins(q, qd, qdd, Yb @ self.pi_base)
            if c.min() >= -1e-9 and f < self.best_f:
                self.best_x, self.best_f = x.copy(), f
            if len(self._cache) > 4 * x.size + 8:
                self._cache.clear()
            self._cache[key] = (f, c)
        return self._cache[key]

    def _margins(self, q, qd, qdd, tau):
        lim = self.limits
        parts = [q - lim.lower, lim.upper - q, 1 - np.abs(qd) / lim.velocity,
                 1 - np.abs(qdd) / lim.acceleration]
        finite = np.isfinite(lim.effort)
        if finite.any():
            parts.append(1 - np.abs(tau[:, finite]) / lim.effort[finite])
        return np.concatenate([p.ravel() for p in parts])

    def _gradient(self, x, which):
        h = 1e-6 * np.maximum(1.0, np.abs(x))
        f0 = self._values(x)[which]
        columns = []
        for i in range(x.size):
            step = x.copy()
            step[i] += h[i]
            columns.append((self._values(step)[which] - f0) / h[i])
        return np.array(columns) if which == 0 else np.column_stack(columns)

    def objective(self, x):
        """Return ``log cond(Y_b)`` on the grid."""
        return self._values(x)[0]

    def objective_gradient(self, x):
        """Forward-difference gradient of the objective."""
        return self._gradient(x, 0)

    def constraints(self, x):
        """Limit margins (>= 0 when feasible)."""
        return self._values(x)[1]

    def constraints_jacobian(self, x):
        """Forward-difference Jacobian of the margins."""
        return self._gradient(x, 1)

    # ------------------------------------------------------------ starts and safety
    def best_start(self, rng, starts):
        """Best of ``starts`` random coefficient sets, each shrunk into the limits."""
        lim = self.limits
        q0 = 0.5 * (lim.lower + lim.upper)
        best_x, best_f = None, np.inf
        for _ in range(starts):
            x = np.concatenate([q0, rng.normal(size=2 * self.n * (self.L - 1))])
            x = self._shrink(x, 0.9)
            f, c = self._values(x)
            if c.min() >= -1e-9 and f < best_f:
                best_x, best_f = x, f
        if best_x is None:
            raise ValueError('design_excitation: no random start satisfies the limits (the '
                             'effort limits may be too tight for the nominal model at rest); '
                             'relax the limits')
        return best_x, float(np.exp(best_f))

    def _room(self, x, t):
        """Largest factor on the coefficients (not ``q0``) that keeps the kinematic limits."""
        lim = self.limits
        q0 = x[:self.n]
        q, qd, qdd = self.trajectory(x).evaluate(t)
        deviation = q - q0
        room = np.where(deviation > 0, (lim.upper - q0) / np.maximum(deviation, 1e-300),
                        (q0 - lim.lower) / np.maximum(-deviation, 1e-300))
        return min(room.min(), (lim.velocity / np.abs(qd).max(0).clip(1e-300)).min(),
                   (lim.acceleration / np.abs(qdd).max(0).clip(1e-300)).min())

    def _shrink(self, x, fraction):
        """Scale the coefficients to ``fraction`` of the tightest kinematic limit."""
        out = x.copy()
        out[self.n:] *= fraction * self._room(x, self.t)
        return out

    def safe_trajectory(self, x):
        """Return the trajectory of ``x``, shrunk to 99.99 % of the limits on a fine grid."""
        fine = np.linspace(0.0, self.period, 200 * self.L * 20 + 1)
        room = self._room(x, fine)
        if room < 1.0 / 0.9999:
            x = x.copy()
            x[self.n:] *= 0.9999 * room
        return self.trajectory(x)
