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
"""Renaud's recursion is written once and runs on numbers, symbols and the counting scalar.

The same :func:`robot_dynamics.algorithms.renaud.torques` is run on numpy arrays (the solver),
on :class:`~robot_dynamics.codegen.expr.Expr` symbols (then the expression graph is evaluated
node by node, independently of the emitters) and on :class:`Counted` numbers; all three give
the same torques, and the generator and the solver call that one function. Relation (0),
the augmented bodies, is likewise one function that the solver runs on numbers and the
generator's regrouping on linear forms.
"""

import math

import numpy as np
import pinocchio as pin
import pytest

from robot_dynamics.algorithms import renaud as recursion
from robot_dynamics.analysis.opcount import Counted, counting
from robot_dynamics.codegen import generator, parameters
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.model.frames import proximal_frames
from robot_dynamics.solvers import renaud as renaud_solver
from robot_dynamics.solvers.renaud import augmented_bodies, renaud
from robots import random_model, random_state

_OPERATIONS = {'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': lambda a, b: a * b,
               'div': lambda a, b: a / b, 'neg': lambda a: -a, 'sin': math.sin, 'cos': math.cos}


def evaluate(graph, outputs, values):
    """Value of each output node for symbol ``values`` {name: float}, node by node."""
    result = {}
    for node in graph.reachable(outputs):
        if node.op == 'const':
            result[node.index] = node.value
        elif node.op == 'sym':
            result[node.index] = values[node.name]
        else:
            result[node.index] = _OPERATIONS[node.op](*(result[a.index] for a in node.args))
    return [result[o.index] if hasattr(o, 'index') else float(o) for o in outputs]


def test_one_recursion_on_numbers_symbols_and_counted_numbers():
    rng = np.random.default_rng(25)
    model = random_model(rng, 6, prismatic_fraction=0.4)
    q, qd, qdd = random_state(rng, 6, 1)
    f_tip = rng.normal(size=(1, 6))
    frames, bodies = proximal_frames(model), augmented_bodies(model).bodies
    numeric = renaud(model, q, qd, qdd, model.gravity, f_tip)[0]

    graph = Graph()
    symbols = {name: [graph.symbol(f'{name}{i}') for i in range(6)]
               for name in ('q', 'qd', 'qdd')}
    tip = [graph.symbol(f'f{k}') for k in range(6)]
    outputs = recursion.torques(graph, frames, bodies, symbols['q'], symbols['qd'],
                                symbols['qdd'], tuple(model.gravity), tip)
    values = {f'{name}{i}': float(x[0, i]) for name, x in (('q', q), ('qd', qd), ('qdd', qdd))
              for i in range(6)}
    values.update({f'f{k}': float(f_tip[0, k]) for k in range(6)})
    symbolic = np.array(evaluate(graph, outputs, values))

    with counting() as tally:
        counted = recursion.torques(recursion.NUMERIC, frames, bodies,
                                    *([Counted(x[0, i]) for i in range(6)] for x in (q, qd, qdd)),
                                    tuple(model.gravity), [Counted(x) for x in f_tip[0]])
    counted = np.array([c.value for c in counted])

    scale = np.abs(numeric).max()
    assert np.abs(symbolic - numeric).max() <= 1e-14 * scale
    assert np.array_equal(counted, numeric)                 # the same operations, in order
    assert tally.mul > 0 and graph.count(outputs)['mul'] <= tally.mul   # sharing only removes


def test_the_generator_and_the_solver_call_the_one_recursion():
    assert generator.forward is recursion.forward and generator.backward is recursion.backward
    assert generator.tip_wrench is recursion.tip_wrench


# ------------------------------------------------------------- relation (0), written once
def test_relation_0_is_a_point_mass_added_by_huygens_theorem():
    """``augment`` = Pinocchio's sum of body i and the point mass m*^{i+1} at O_{i+1}, at O_i."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        m, m_next = rng.uniform(0.1, 5.0, 2)
        com, p = rng.uniform(-0.5, 0.5, (2, 3))
        inertia = random_model(rng, 1).inertia[0]                  # about the centre of mass
        k = pin.Inertia(m, com, inertia).matrix()[3:, 3:]          # second moment at O_i
        star = recursion.augment(recursion.Body(m, tuple(m * com), k), m_next, p)
        oracle = pin.Inertia(m, com, inertia) + pin.Inertia(m_next, p, np.zeros((3, 3)))
        assert star.m == pytest.approx(oracle.mass, rel=1e-15)
        scale = np.abs(oracle.matrix()).max()
        assert np.abs(np.array(star.u) - oracle.mass * oracle.lever).max() <= 1e-15 * scale
        assert np.abs(np.array(star.K) - oracle.matrix()[3:, 3:]).max() <= 1e-15 * scale


def test_the_solver_and_the_regrouping_call_the_one_relation_0(monkeypatch):
    """Both run ``augment`` once per revolute joint beyond the first, on numbers and on forms."""
    calls = []

    def counted(body, m_next, p, *functions):
        calls.append('number' if isinstance(m_next, float) else type(m_next).__name__)
        return recursion.augment(body, m_next, p, *functions)

    monkeypatch.setattr(renaud_solver, 'augment', counted)
    monkeypatch.setattr(parameters, 'augment', counted)
    model = random_model(np.random.default_rng(3), 8, prismatic_fraction=0.4)
    frames = proximal_frames(model)
    expected = int(np.count_nonzero(frames.revolute[1:]))
    assert 0 < expected < 7                                        # both joint types beyond 1
    augmented_bodies(model)
    assert calls == ['number'] * expected
    for mode in ('augmented', 'base'):
        calls.clear()
        parameters.regroup(parameters.symbolic_bodies(parameters.standard_parameters(frames)),
                           frames, mode)
        assert calls == ['dict'] * expected


@pytest.mark.parametrize('seed', range(4))
def test_the_regroupings_augmented_bodies_are_the_solvers(seed):
    """'augmented' linear forms, evaluated, equal the solver's u*, k* and the m it passes on."""
    model = random_model(np.random.default_rng(seed), 7, prismatic_fraction=0.4)
    frames = proximal_frames(model)
    values = parameters.standard_parameters(frames)
    numbers = parameters.symbol_values(values)
    forms = parameters.regroup(parameters.symbolic_bodies(values), frames, 'augmented')
    solver = augmented_bodies(model)
    for i, (form, body) in enumerate(zip(forms, solver.bodies)):
        u = [parameters.evaluate(x, numbers) for x in form.u]
        K = [[parameters.evaluate(x, numbers) for x in row] for row in form.K]
        m = parameters.evaluate(form.m, numbers)
        scale = max(1.0, np.abs(solver.k_star[i]).max(), np.abs(solver.u_star[i]).max())
        assert np.abs(np.subtract(u, solver.u_star[i])).max() <= 2e-15 * scale
        assert np.abs(np.subtract(K, solver.k_star[i])).max() <= 2e-15 * scale
        assert m == pytest.approx(body.m if i > 0 else solver.m_star[0], rel=1e-15)
