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
"""Customised dynamic models (seed 001): folding, counts, regrouping, agreement, export."""

import importlib.util
import pathlib
import re
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.algorithms.rnea import rnea
from robots import random_model, random_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOL = 1e-12


def load(name):
    """Load a bundled model from the source tree, model warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(ROOT / rd.BUNDLED_MODELS[name]))


def rows(values, N):
    """Stack generated outputs (scalars or (N,) arrays) into an (N, k) array."""
    out = np.empty((len(values), N))
    for k, value in enumerate(values):
        out[k] = value
    return out.T


def full(lower, n):
    """Symmetric (N, n, n) from the generated lower triangle (N, n(n+1)/2)."""
    i, j = np.tril_indices(n)
    M = np.empty((lower.shape[0], n, n))
    M[:, i, j] = lower
    M[:, j, i] = lower
    return M


def scale(x):
    """Tolerance scale max(1, |x|)."""
    return max(1.0, float(np.abs(x).max()))


# ---------------------------------------------------------------------- the symbolic scalar
def test_folding_never_builds_trivial_operations():
    g = Graph()
    x, y = g.symbol('x'), g.symbol('y')
    assert x * 0 is g.const(0.0) and 0.0 * x is g.const(0.0)
    assert x * 1 is x and x + 0 is x and 0 - x is -x and x - 0 is x
    assert -(-x) is x and (x * -1) is -x
    assert (x - x).value == 0.0
    assert (x * y) is (y * x)                                    # hash-consed, commutative
    assert (x - y) is -(y - x)                                   # one node for both signs
    assert (-x) * y is -(x * y) and x + (-y) is x - y
    shifted = (2.0 * x + 3.0) - 3.0             # no algebra beyond the identities above:
    assert shifted is not 2.0 * x                # the constants are not cancelled, and
    assert g.count([shifted]) == {'mul': 1, 'add': 2, 'div': 0}   # both adds are counted
    assert g.count([x * y, y * x, -(x * y)]) == {'mul': 1, 'add': 0, 'div': 0}
    assert g.count([x - y, y - x, x + y]) == {'mul': 0, 'add': 2, 'div': 0}
    assert g.count([g.function('cos', x) * g.function('sin', x)])['mul'] == 1
    assert g.const(2.0) * g.const(3.0) is g.const(6.0)


def test_parameter_expressions_are_offline_and_not_counted():
    g = Graph()
    a, b = g.symbol('a', parameter=True), g.symbol('b', parameter=True)
    x = g.symbol('x')
    term = (a - b) * x                                           # a - b: once per model
    assert (a - b).offline and not term.offline
    assert g.count([term]) == {'mul': 1, 'add': 0, 'div': 0}


# ---------------------------------------------------------------------- counts (seed 001)
def test_renaud_6r_reaches_the_papers_counts():
    """Seed 001, example: 181 mul / 127 add systematically, 164 / 115 by hand."""
    model = load('renaud_6r')
    augmented = rd.generate(model, symbolic_inertia=True, regroup_parameters='augmented')
    assert (augmented.multiplications, augmented.additions) == (179, 127)
    assert augmented.multiplications <= 181 and augmented.additions <= 127
    base = rd.generate(model, symbolic_inertia=True)             # default: base parameters
    assert (base.multiplications, base.additions) == (149, 100)
    assert base.multiplications <= 164 and base.additions <= 115
    numeric = rd.generate(model, symbolic_inertia=False)
    assert (numeric.multiplications, numeric.additions) == (143, 96)
    none = rd.generate(model, symbolic_inertia=True, regroup_parameters='none')
    assert (none.multiplications, none.additions) == (193, 140)


def test_renaud_6r_symbols_follow_the_papers_table():
    """Augmented parameters x*2 = x2 + m*3 a2, y*3 = y3 - m*4 r4; regrouping finds y5 - z6."""
    model = load('renaud_6r')
    augmented = dict((name, text) for name, text, _ in rd.generate(
        model, symbolic_inertia=True, regroup_parameters='augmented').parameters)
    assert augmented['MX2R'] == '0.43*M3 + 0.43*M4 + 0.43*M5 + 0.43*M6 + MX2'
    assert augmented['MY3R'] == '-0.43*M4 - 0.43*M5 - 0.43*M6 + MY3'
    structural_zeros = {'MX1', 'MY1', 'MY2', 'MZ2', 'MX3', 'MZ3', 'MX4', 'MY4', 'MX5', 'MZ5',
                        'MX6', 'MY6', 'XY1', 'XZ3', 'YZ5'}
    assert not structural_zeros & set(augmented)
    base = dict((name, text) for name, text, _ in rd.generate(
        model, symbolic_inertia=True).parameters)
    assert base['MY5R'] == 'MY5 - MZ6'                           # the paper's remark
    assert 'MZ6' not in base and 'YY6' not in base


def test_puma560_counts_are_pinned():
    model = load('puma560').without_joint_effects()
    counts = {}
    for symbolic in (True, False):
        for mode in ('augmented', 'base'):
            code = rd.generate(model, symbolic_inertia=symbolic, regroup_parameters=mode)
            counts[symbolic, mode] = (code.multiplications, code.additions)
    assert counts == {(True, 'augmented'): (222, 178), (True, 'base'): (199, 161),
                      (False, 'augmented'): (216, 175), (False, 'base'): (193, 157)}


def test_other_functions_counts_are_what_docs_codegen_says():
    """docs/codegen.md's counts of gravity, M and FD are the generator's (the CLI's too)."""
    text = ' '.join((ROOT / 'docs' / 'codegen.md').read_text().split())
    quoted = re.search(r'numeric base model costs (\d+) / (\d+)\. Other functions \(numeric, base '
                       r'parameters\): PUMA 560 gravity (\d+) / (\d+), mass matrix (\d+) / (\d+), '
                       r'forward dynamics (\d+) / (\d+) \+ (\d+) divisions; 6R mass matrix '
                       r'(\d+) / (\d+)\.', text)
    assert quoted, 'the counts paragraph of docs/codegen.md changed: update this test'
    counts = []
    for name in ('puma560', 'renaud_6r'):
        functions = rd.generate(load(name), functions='all').functions
        counts.append({f: (c.counts['mul'], c.counts['add'], c.counts['div'])
                       for f, c in functions.items()})
    puma, six_r = counts
    assert [int(g) for g in quoted.groups()] == [
        *puma['inverse_dynamics'][:2], *puma['gravity'][:2], *puma['mass_matrix'][:2],
        *puma['forward_dynamics'], *six_r['mass_matrix'][:2]]


def test_emitted_code_has_no_trivial_operation_and_counts_in_header():
    code = rd.generate(load('renaud_6r'), symbolic_inertia=True, functions='all')
    source = code.source
    assert '149 multiplications, 100 additions' in source.splitlines()[3]
    body = '\n'.join(line for line in source.splitlines() if not line.startswith('#'))
    for trivial in (r'\* 1\.0\b', r'\* 0\.0\b', r'\+ 0\.0\b', r'- 0\.0\b', r'\* \(-1\.0\)',
                    r'\b1\.0 \*', r'\b0\.0 \*'):
        assert not re.search(trivial, body), trivial
    inverse = body.split('def inverse_dynamics')[1].split('def ')[0]
    cosines = re.findall(r'= cos\(q\[(\d)\]\)', inverse)
    assert sorted(cosines) == ['1', '2', '3', '4', '5']         # once per joint; q1 not needed
    statements = [line for line in inverse.splitlines()
                  if re.match(r'\s+\w+ = .*[*+-]', line)]
    assert len(statements) >= 149 + 100                         # one line per operation
    assert len(set(line.split('=', 1)[1] for line in statements)) == len(statements)


# ---------------------------------------------------------------------- agreement
def check_agreement(model, symbolic, rng, regroup='base', N=4):
    """Check generated ID, G, M and FD against the library to 1e-12 (FD: times cond M)."""
    code = rd.generate(model, symbolic_inertia=symbolic, regroup_parameters=regroup,
                       functions='all')
    ns = code.python_namespace()
    extra = [code.parameter_values()] if symbolic else []
    n = model.dof
    q, qd, qdd = random_state(rng, n, N)
    tau = rng.uniform(-5, 5, (N, n))
    reference = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(rows(ns['inverse_dynamics'](q.T, qd.T, qdd.T, *extra), N)
                  - reference).max() <= TOL * scale(reference)
    G = rd.gravity_torques(model, q)
    assert np.abs(rows(ns['gravity'](q.T, *extra), N) - G).max() <= TOL * scale(G)
    M = rd.mass_matrix(model, q)
    assert np.abs(full(rows(ns['mass_matrix'](q.T, *extra), N), n) - M).max() <= TOL * scale(M)
    qdd_ref = rd.forward_dynamics(model, q, qd, tau)
    condition = max(np.linalg.cond(M_k) for M_k in M)
    error = np.abs(rows(ns['forward_dynamics'](q.T, qd.T, tau.T, *extra), N) - qdd_ref).max()
    assert error <= TOL * condition * scale(qdd_ref)


@pytest.mark.parametrize('name', ['two_link', 'puma560', 'stanford', 'renaud_6r', 'panda',
                                  'ur5'])
def test_bundled_models_agree_with_the_reference(name):
    rng = np.random.default_rng(11)
    model = load(name)
    for symbolic in (False, True):
        check_agreement(model, symbolic, rng)
    check_agreement(model, True, rng, regroup='augmented')


@pytest.mark.parametrize('seed', range(6))
def test_random_models_with_prismatic_joints_and_general_axes(seed):
    rng = np.random.default_rng(500 + seed)
    n = 1 + seed
    model = random_model(rng, n, prismatic_fraction=0.4, friction=True, rotor=True)
    model = rd.RobotModel.from_urdf(model.to_urdf())             # the URDF loader's frames too
    for regroup in ('none', 'augmented', 'base'):
        check_agreement(model, seed % 2 == 0, rng, regroup=regroup, N=3)


def test_symbolic_parameters_serve_every_robot_of_the_same_structure():
    """Code generated from one 6R serves another 6R with the same zeros, given its values."""
    model = load('renaud_6r')
    other = model.replace(mass=model.mass * [1.3, 0.7, 1.1, 2.0, 0.5, 1.7],
                          com=model.com * 1.25, inertia=model.inertia * 0.8)
    code = rd.generate(model, symbolic_inertia=True)
    values = rd.generate(other, symbolic_inertia=True).parameter_values()
    rng = np.random.default_rng(3)
    q, qd, qdd = random_state(rng, 6, 5)
    tau = rows(code.python_namespace()['inverse_dynamics'](q.T, qd.T, qdd.T, values), 5)
    reference = rd.inverse_dynamics(other, q, qd, qdd)
    assert np.abs(tau - reference).max() <= TOL * scale(reference)
    assert np.abs(tau - rd.inverse_dynamics(model, q, qd, qdd)).max() > 1e-3


def test_tip_wrench_and_gravity_options():
    rng = np.random.default_rng(8)
    model = random_model(rng, 4, prismatic_fraction=0.5)
    gravity = rng.normal(size=3) * 5
    code = rd.generate(model, gravity=gravity, tip_wrench=True)
    q, qd, qdd = random_state(rng, 4, 3)
    f_tip = rng.uniform(-10, 10, (3, 6))
    tau = rows(code.python_namespace()['inverse_dynamics'](q.T, qd.T, qdd.T, f_tip.T), 3)
    reference = rnea(model, q, qd, qdd, gravity, f_tip) + model.reflected_inertia * qdd \
        + rd.friction_torques(model, qd)
    assert np.abs(tau - reference).max() <= TOL * scale(reference)


# ---------------------------------------------------------------------- export and solver
def test_written_python_and_c_files(tmp_path):
    code = rd.generate(load('puma560'), functions='all')
    path = code.write(tmp_path / 'puma560_dynamics.py')
    spec = importlib.util.spec_from_file_location('puma560_dynamics', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    q = np.linspace(-1, 1, 6)
    tau = np.array(module.inverse_dynamics(q, q, q))
    model = load('puma560')
    assert np.abs(tau - rd.inverse_dynamics(model, q, q, q)).max() < 1e-12
    c_text = pathlib.Path(code.write(tmp_path / 'puma560_dynamics.c')).read_text()
    assert f'{code.multiplications} multiplications' in c_text
    assert '\nvoid rd_inverse_dynamics(const double *restrict q' in c_text
    assert '\nvoid rd_mass_matrix(' in c_text and 'rd_forward_dynamics(' in c_text
    with pytest.raises(ValueError, match='numeric inertial parameters'):
        rd.generate(model, symbolic_inertia=True).c_source


def test_generated_solver_is_registered_and_exact():
    assert 'generated' in rd.solvers.available()
    rng = np.random.default_rng(21)
    model = random_model(rng, 5, prismatic_fraction=0.4, friction=True, rotor=True)
    q, qd, qdd = random_state(rng, 5, 4)
    f_tip = rng.uniform(-5, 5, (4, 6))
    for tip in (None, f_tip):
        reference = rd.inverse_dynamics(model, q, qd, qdd, f_tip=tip)
        tau = rd.inverse_dynamics(model, q, qd, qdd, f_tip=tip, solver='generated')
        assert np.abs(tau - reference).max() <= TOL * scale(reference)
    M = rd.mass_matrix(model, q, solver='generated')
    assert np.abs(M - rd.mass_matrix(model, q)).max() <= TOL * scale(M)
