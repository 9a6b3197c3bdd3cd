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
"""Hoisting: combinations of inertial parameters become parameters, computed once per model.

With symbolic inertial parameters the recursion forms combinations such as ``XX6R - ZZ6``
that depend on no input. Seed 001 counts them as computed once per robot, not per call; so
that the emitted code does what its header counts, each such combination becomes a parameter
of its own (a named entry of the parameter table, with its definition and value) and the
functions read it like the others.
"""

import math
import operator

from robot_dynamics.codegen.expr import Expr

_OPERATOR_TEXT = {'add': '+', 'sub': '-', 'mul': '*', 'div': '/'}
_OPERATOR = {'add': operator.add, 'sub': operator.sub, 'mul': operator.mul,
             'div': operator.truediv}
_OPERATOR_NAME = {'add': 'p', 'sub': 'm', 'mul': 'x', 'div': 'd'}
_FUNCTIONS = {'sin': math.sin, 'cos': math.cos, 'sqrt': math.sqrt,
              'sign': lambda x: float((x > 0) - (x < 0))}


def is_combination(node):
    """Tell whether ``node`` is computed from parameters and constants only (no input)."""
    return isinstance(node, Expr) and node.offline and node.op not in ('sym', 'const', 'neg')


def hoist_combinations(graph, functions, table):
    """Replace the per-model combinations the functions use by parameters; extend ``table``.

    ``functions`` maps names to objects with an ``outputs`` list (rewritten in place);
    ``table`` is the list of ``(name, definition, value)`` parameter entries.
    """
    values = {name: value for name, _, value in table}
    mapping = {}
    for function in functions.values():
        for node in _outermost(graph, function.outputs):
            if node.index not in mapping:
                name = combination_name(node)
                mapping[node.index] = graph.symbol(name, parameter=True)
                table.append((name, definition(node), evaluate(node, values)))
                values[name] = table[-1][2]
        function.outputs = substitute(graph, function.outputs, mapping)


def _outermost(graph, outputs):
    """Return the combinations used by an input-dependent node or returned as outputs."""
    found = [o for o in outputs if is_combination(o)]
    for node in graph.reachable(outputs):
        if not node.offline:
            found.extend(a for a in node.args if is_combination(a))
    return found


def combination_name(node):
    """Spell an identifier from the expression: ``XX6R_m_ZZ6`` (same structure, same name)."""
    if node.op == 'sym':
        return node.name
    if node.op == 'const':
        return 'c' + repr(node.value).replace('-', 'n').replace('.', '_').replace('+', '')
    if node.op == 'neg':
        return 'n' + combination_name(node.args[0])
    if node.op in _OPERATOR_NAME:
        a, b = node.args
        return f'{combination_name(a)}_{_OPERATOR_NAME[node.op]}_{combination_name(b)}'
    return f'{node.op}_{combination_name(node.args[0])}'


def definition(node, top=True):
    """Readable definition, e.g. ``XX6R - ZZ6``."""
    if node.op == 'sym':
        return node.name
    if node.op == 'const':
        return repr(node.value)
    if node.op == 'neg':
        return f'-{definition(node.args[0], False)}'
    if node.op in _OPERATOR_TEXT:
        a, b = node.args
        text = f'{definition(a, False)} {_OPERATOR_TEXT[node.op]} {definition(b, False)}'
        return text if top else f'({text})'
    return f'{node.op}({definition(node.args[0])})'


def evaluate(node, values):
    """Numeric value of a combination given the parameter ``values`` {name: value}."""
    if node.op == 'sym':
        return values[node.name]
    if node.op == 'const':
        return node.value
    args = [evaluate(a, values) for a in node.args]
    if node.op == 'neg':
        return -args[0]
    if node.op in _OPERATOR:
        return _OPERATOR[node.op](*args)
    return _FUNCTIONS[node.op](args[0])


def substitute(graph, outputs, mapping):
    """Rebuild ``outputs`` with the nodes of ``mapping`` {index: node} replaced."""
    new = {}
    for node in graph.reachable(outputs):                     # topological order
        if node.index in mapping:
            new[node.index] = mapping[node.index]
            continue
        args = tuple(new[a.index] for a in node.args)
        if all(a is b for a, b in zip(args, node.args)):
            new[node.index] = node
            continue
        rebuilt = graph._node(node.op, args, node.value, node.name)
        graph.label(rebuilt, graph.labels.get(node.index, f't{node.index}'))
        new[node.index] = rebuilt
    return [new[o.index] if isinstance(o, Expr) else o for o in outputs]
