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
"""Cross-check every registered solver against the reference recursive Newton-Euler.

:func:`verify` runs each solver of :mod:`robot_dynamics.solvers` on seeded random states
(velocities, accelerations, a random tip wrench, the model's gravity), builds each solver's
mass matrix by strobing (seed 002 end of §3) and compares with the reference ``rnea`` and the
composite-rigid-body ``M``. If the Lagrange-Euler module is registered, its explicit ``M(q)``,
``h(q, q̇)`` and ``c(q)`` (seed 003 eq. 2.11-2.15) are also compared with the Newton-Euler
ones: ``M`` by CRBA, ``h = rnea(q, q̇, 0)`` without gravity, ``c = rnea(q, 0, 0)``.

Errors are reported as absolute maxima and relative to the torque (or mass-matrix) scale
``max(1, max |τ_ref|)``; a solver is ``ok`` when every relative error is below ``tolerance``.
"""

from dataclasses import dataclass, field
import importlib

import numpy as np

from robot_dynamics import solvers
from robot_dynamics.api import strobe_mass_matrix
from robot_dynamics.algorithms.crba import mass_matrix_crba
from robot_dynamics.algorithms.rnea import rnea

REFERENCE = 'rnea'


class _Record(dict):
    """A dataclass that is also its own ``dict`` view (JSON-ready, ``report['results']``)."""

    def __post_init__(self):
        """Mirror the fields into the mapping."""
        self.update(self.as_dict())

    def as_dict(self):
        """Fields as a plain dictionary (nested records converted too)."""
        return {name: ([dict(v) for v in value] if isinstance(value, tuple) else value)
                for name, value in vars(self).items()}


@dataclass(eq=False)
class SolverCheck(_Record):
    """One solver's largest discrepancies: torque (abs, rel) and strobed mass matrix (rel)."""

    solver: str
    reference: str
    max_abs_error: float
    torque_error: float
    mass_matrix_error: float
    ok: bool


@dataclass(eq=False)
class VerificationReport(_Record):
    """Per-solver results of :func:`verify`; ``str()`` is a markdown table."""

    model: str
    dof: int
    states: int
    seed: int
    tolerance: float
    results: tuple
    lagrange_terms: dict = field(default_factory=dict)

    @property
    def ok(self):
        """Tell whether every solver (and the Lagrange-Euler terms) agree within tolerance."""
        return all(r.ok for r in self.results) \
            and all(e <= self.tolerance for e in self.lagrange_terms.values())

    def __str__(self):
        """Markdown table of the discrepancies."""
        lines = [f'Solver verification for {self.model!r} ({self.dof} joints, {self.states} '
                 f'random states, seed {self.seed}, tolerance {self.tolerance:.0e}, '
                 f'errors relative to max(1, |reference|))', '',
                 '| solver | max abs torque error | rel. torque error | rel. M error (strobing '
                 'vs CRBA) | status |',
                 '|---|---|---|---|---|']
        for r in self.results:
            lines.append(f'| {r.solver} | {r.max_abs_error:.2e} | {r.torque_error:.2e} | '
                         f'{r.mass_matrix_error:.2e} | {"ok" if r.ok else "FAIL"} |')
        if self.lagrange_terms:
            lines += ['', '| Lagrange-Euler term vs Newton-Euler | rel. error |', '|---|---|']
            lines += [f'| {k} | {v:.2e} |' for k, v in self.lagrange_terms.items()]
        return '\n'.join(lines)


def verify(model, samples=20, seed=0, tolerance=1e-9):
    """Run every registered solver on random states and report its largest discrepancy.

    ``samples`` random states ``q ∈ [-π, π]``, ``q̇ ∈ [-2, 2]``, ``q̈ ∈ [-5, 5]`` (rad or m
    per s) with a random tip wrench (N, N m), drawn from ``numpy.random.default_rng(seed)``.
    Returns a :class:`VerificationReport` (also a ``dict``; ``print()`` gives markdown).
    """
    rng = np.random.default_rng(seed)
    shape = (samples, model.dof)
    q, qd, qdd = (rng.uniform(-np.pi, np.pi, shape), rng.uniform(-2, 2, shape),
                  rng.uniform(-5, 5, shape))
    f_tip = rng.uniform(-10, 10, (samples, 6))
    reference = rnea(model, q, qd, qdd, model.gravity, f_tip)
    M_ref = mass_matrix_crba(model, q)
    torque_scale, mass_scale = _scale(reference), _scale(M_ref)
    results = []
    for name in solvers.available():
        solver = solvers.get(name)
        tau = solver(model, q, qd, qdd, model.gravity, f_tip)
        error = float(np.abs(tau - reference).max())
        M_error = float(np.abs(strobe_mass_matrix(model, q, solver) - M_ref).max()) / mass_scale
        results.append(SolverCheck(
            solver=name, reference=REFERENCE, max_abs_error=error,
            torque_error=error / torque_scale, mass_matrix_error=M_error,
            ok=bool(error / torque_scale <= tolerance and M_error <= tolerance)))
    return VerificationReport(
        model=model.name, dof=model.dof, states=samples, seed=seed, tolerance=tolerance,
        results=tuple(results), lagrange_terms=_lagrange_terms(model, q, qd, M_ref))


def _lagrange_terms(model, q, qd, M_ref):
    """Relative errors of Lagrange-Euler's explicit M, h, c against Newton-Euler's, or {}."""
    if 'lagrange_euler' not in solvers.available():
        return {}
    try:
        module = importlib.import_module('robot_dynamics.solvers.lagrange_euler')
        M = module.lagrange_mass_matrix(model, q)
        h = module.lagrange_coriolis(model, q, qd)
        c = module.lagrange_gravity(model, q, model.gravity)
    except (ImportError, AttributeError):       # a third-party 'lagrange_euler' plugin
        return {}
    zero = np.zeros_like(q)
    h_ref = rnea(model, q, qd, zero, np.zeros(3))
    c_ref = rnea(model, q, zero, zero, model.gravity)
    return {'M (mass matrix)': float(np.abs(M - M_ref).max()) / _scale(M_ref),
            'C q̇ (Coriolis, centrifugal)': float(np.abs(h - h_ref).max()) / _scale(h_ref),
            'G (gravity)': float(np.abs(c - c_ref).max()) / _scale(c_ref)}


def _scale(x):
    return max(1.0, float(np.abs(x).max()))
