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
the same torques, and the generator and the solver call that one function.
"""

import math

import numpy as np

from robot_dynamics.algorithms import renaud as recursion
from robot_dynamics.analysis.opcount import Counted, counting
from robot_dynamics.codegen import generator
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.model.frames import proximal_frames
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
