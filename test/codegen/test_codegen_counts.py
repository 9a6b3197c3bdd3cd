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
"""A generated file's header counts exactly the operators its functions perform.

The emitted Python and C are parsed (Python's own parser; each C statement is one binary
operation or a free function call) and every ``*``, ``/``, ``+`` and ``-`` between two operands
is counted; unary minus is free (seed 001's rules). Per-model parameter combinations are
parameters of their own, computed once (the parameter table), not in the functions.
"""

import ast
import pathlib
import re
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.codegen.hoisting import is_combination
from robots import random_model, random_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
KINDS = {ast.Mult: 'mul', ast.Div: 'div', ast.Add: 'add', ast.Sub: 'add'}


def load(name):
    """Load a bundled model from the source tree, model warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(ROOT / rd.BUNDLED_MODELS[name]))


def header_counts(source, comment):
    """Return {function: {'mul', 'add', 'div'}} from the header lines of a generated file."""
    pattern = re.compile(rf'^{re.escape(comment)} (\w+): (\d+) multiplications, (\d+) additions'
                         r'(?:, (\d+) divisions)?$')
    counts = {}
    for line in source.splitlines():
        match = pattern.match(line)
        if match:
            name, mul, add, div = match.groups()
            counts[name] = {'mul': int(mul), 'add': int(add), 'div': int(div or 0)}
    return counts


def operator_counts(tree):
    """Binary ``* / + -`` in an AST, by kind."""
    counts = {'mul': 0, 'add': 0, 'div': 0}
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            counts[KINDS[type(node.op)]] += 1
    return counts


def python_counts(source):
    """Operators performed by each function of a generated Python module."""
    module = ast.parse(source)
    return {node.name: operator_counts(node) for node in module.body
            if isinstance(node, ast.FunctionDef)}


def c_counts(source):
    """Operators performed by each ``rd_<name>`` function of a generated C file."""
    counts = {}
    for name, body in re.findall(r'\nvoid rd_(\w+)\([^)]*\)\n\{\n(.*?)\n\}', source, re.S):
        statements = [re.sub(r'^\s*(const double \w+ =|out\[\d+\] =)\s*|;\s*$', '', line)
                      for line in body.splitlines()]
        counts[name] = operator_counts(ast.parse('\n'.join(statements)))
    return counts


@pytest.mark.parametrize('name', ['renaud_6r', 'puma560', 'stanford', 'panda'])
@pytest.mark.parametrize('regroup', ['base', 'augmented', 'none'])
def test_python_header_counts_the_emitted_operators(name, regroup):
    code = rd.generate(load(name), symbolic_inertia=True, regroup_parameters=regroup,
                       functions='all')
    source = code.source
    assert python_counts(source) == header_counts(source, '#')
    for function in code.functions.values():
        assert python_counts(source)[function.name] == function.counts
        assert not any(map(is_combination, code.graph.reachable(function.outputs)))


@pytest.mark.parametrize('name', ['renaud_6r', 'puma560', 'ur5'])
def test_c_header_counts_the_emitted_operators(name):
    source = rd.generate(load(name), functions='all').c_source
    assert c_counts(source) == header_counts(source, ' *')
    assert set(c_counts(source)) == set(rd.codegen.generator.FUNCTIONS)


def test_renaud_6r_counts_are_the_papers_and_the_code_does_them():
    code = rd.generate(load('renaud_6r'), symbolic_inertia=True)
    counts = python_counts(code.source)['inverse_dynamics']
    assert counts == {'mul': 149, 'add': 100, 'div': 0}
    table = {name: (text, value) for name, text, value in code.parameters}
    text, value = table['XX6R_m_ZZ6']                            # computed once per model
    assert text == 'XX6R - ZZ6'
    assert value == pytest.approx(table['XX6R'][1] - table['ZZ6'][1], abs=1e-15)


def test_hoisted_parameters_still_give_the_library_torques():
    rng = np.random.default_rng(77)
    model = random_model(rng, 5, prismatic_fraction=0.4, friction=True, rotor=True)
    code = rd.generate(model, symbolic_inertia=True, functions='all')
    assert any('_m_' in name or '_p_' in name or '_x_' in name for name, _, _ in code.parameters)
    q, qd, qdd = random_state(rng, 5, 3)
    tau = np.array(code.python_namespace()['inverse_dynamics'](
        q.T, qd.T, qdd.T, code.parameter_values())).T
    reference = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(tau - reference).max() <= 1e-12 * max(1.0, np.abs(reference).max())
