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
"""A symbolic scalar for straight-line code: an expression DAG with folding and sharing.

This is the "analytical, iterative" computation of seed 001 (Renaud, part "extrinsic
calculation") done by the computer: every operation on :class:`Expr` values

- folds constants and never builds an addition of 0 or a multiplication by 0 or ±1
  ("deletion of redundant calculations (add with 0, multiply by 0 or 1)");
- is hash-consed in its :class:`Graph`, so a quantity computed twice is one node
  (common-subexpression elimination: Renaud's "naming any new quantity ... and utilizing this
  name in the subsequent development");
- keeps negation as a free sign (``-(x)``) and pushes it outwards, so ``a·b`` and ``-a·b``
  share the product.

Nodes whose leaves are all inertial parameters or constants are *offline*: they are computed
once per model (like the paper's ``x*2 = x2 + m3 a2``) and are not counted.

Counting rules (:meth:`Graph.count`): a multiplication or division by anything but a constant
0 or ±1 is one multiplication; an addition or subtraction is one addition; negation, sin, cos
and sign are free (the paper does not count sin/cos); only nodes the outputs depend on count.
"""

import math

from robot_dynamics.errors import ModelError

_COMMUTATIVE = ('add', 'mul')


class Expr:
    """One node of a :class:`Graph`: an operation on earlier nodes, a symbol or a constant."""

    __slots__ = ('graph', 'op', 'args', 'value', 'name', 'offline', 'index')

    def __init__(self, graph, op, args=(), value=None, name=None, offline=False):
        self.graph, self.op, self.args = graph, op, args
        self.value, self.name, self.offline = value, name, offline
        self.index = len(graph.nodes)

    # -- arithmetic ----------------------------------------------------------------------
    def __add__(self, other):
        return self.graph.add(self, other)

    def __radd__(self, other):
        return self.graph.add(other, self)

    def __sub__(self, other):
        return self.graph.sub(self, other)

    def __rsub__(self, other):
        return self.graph.sub(other, self)

    def __mul__(self, other):
        return self.graph.mul(self, other)

    def __rmul__(self, other):
        return self.graph.mul(other, self)

    def __truediv__(self, other):
        return self.graph.div(self, other)

    def __neg__(self):
        return self.graph.neg(self)

    def __pos__(self):
        return self

    def __repr__(self):
        if self.op == 'const':
            return repr(self.value)
        if self.op == 'sym':
            return self.name
        return f'<{self.op} #{self.index}>'

    @property
    def is_const(self):
        """Tell whether the node is a numeric constant."""
        return self.op == 'const'


class Graph:
    """The hash-consing table that owns every node of one generated model."""

    def __init__(self):
        self.nodes = []
        self._table = {}
        self.labels = {}

    def label(self, value, name):
        """Give a computed node a readable name for the emitted code (first name wins)."""
        if isinstance(value, Expr) and value.op not in ('const', 'sym', 'neg') \
                and value.index not in self.labels:
            self.labels[value.index] = name
        return value

    # -- node construction ---------------------------------------------------------------
    def _node(self, op, args=(), value=None, name=None):
        if op in _COMMUTATIVE and args[0].index > args[1].index:
            args = (args[1], args[0])
        key = (op, tuple(a.index for a in args), value, name)
        node = self._table.get(key)
        if node is None:
            offline = all(a.offline for a in args) if args else op == 'const'
            node = Expr(self, op, args, value, name, offline)
            self.nodes.append(node)
            self._table[key] = node
        return node

    def const(self, value):
        """Return the node of a numeric constant (``-0.0`` is stored as ``0.0``)."""
        value = float(value) + 0.0
        return self._node('const', value=value)

    def symbol(self, name, parameter=False):
        """Return an input (``parameter=False``) or inertial parameter (offline) ``name``."""
        node = self._node('sym', name=name)
        node.offline = parameter
        return node

    def wrap(self, x):
        """Return ``x`` as a node of this graph (numbers become constants)."""
        if isinstance(x, Expr):
            return x
        return self.const(x)

    # -- folding operations --------------------------------------------------------------
    def neg(self, a):
        """Return ``-a``: free; ``--a = a``; ``-(c) = (-c)``."""
        a = self.wrap(a)
        if a.op == 'const':
            return self.const(-a.value)
        if a.op == 'neg':
            return a.args[0]
        return self._node('neg', (a,))

    def add(self, a, b):
        """Return ``a + b`` with ``x + 0 = x`` and signs moved outwards."""
        a, b = self.wrap(a), self.wrap(b)
        if a.op == 'const' and b.op == 'const':
            return self.const(a.value + b.value)
        if a.op == 'const' and a.value == 0:
            return b
        if b.op == 'const' and b.value == 0:
            return a
        if b.op == 'neg':
            return self.sub(a, b.args[0])
        if a.op == 'neg':
            return self.sub(b, a.args[0])
        if b.op == 'const' and b.value < 0:
            return self.sub(a, self.const(-b.value))
        if a.op == 'const' and a.value < 0:
            return self.sub(b, self.const(-a.value))
        return self._node('add', (a, b))

    def sub(self, a, b):
        """Return ``a - b``: ``x - 0 = x``, ``0 - x = -x``, ``x - x = 0``; one canonical order."""
        a, b = self.wrap(a), self.wrap(b)
        if a.op == 'const' and b.op == 'const':
            return self.const(a.value - b.value)
        if b.op == 'const' and b.value == 0:
            return a
        if a.op == 'const' and a.value == 0:
            return self.neg(b)
        if a is b:
            return self.const(0.0)
        if b.op == 'neg':
            return self.add(a, b.args[0])
        if a.op == 'neg':
            return self.neg(self.add(a.args[0], b))
        if b.op == 'const' and b.value < 0:
            return self.add(a, self.const(-b.value))
        if a.index > b.index:                        # a - b = -(b - a): share one node
            return self.neg(self._node('sub', (b, a)))
        return self._node('sub', (a, b))

    def mul(self, a, b):
        """Return ``a b``: ``x·0 = 0``, ``x·1 = x``, ``x·(-1) = -x``, signs moved outwards."""
        a, b = self.wrap(a), self.wrap(b)
        if a.op == 'const' and b.op == 'const':
            return self.const(a.value * b.value)
        if b.op == 'const':
            a, b = b, a
        if a.op == 'const':
            if a.value == 0:
                return a
            if a.value == 1:
                return b
            if a.value == -1:
                return self.neg(b)
            if a.value < 0:
                return self.neg(self.mul(self.const(-a.value), b))
        if a.op == 'neg':
            return self.neg(self.mul(a.args[0], b))
        if b.op == 'neg':
            return self.neg(self.mul(a, b.args[0]))
        return self._node('mul', (a, b))

    def div(self, a, b):
        """Return ``a / b``; a division by the constant 0 is a :class:`ModelError`.

        In the generated forward dynamics that is a Cholesky pivot that vanishes for every
        configuration: a moving joint that carries no mass or inertia.
        """
        a, b = self.wrap(a), self.wrap(b)
        if b.op == 'const':
            if b.value == 0:
                raise ModelError('division by a structural zero: the mass matrix is singular '
                                 'in every configuration (a moving joint carries no mass or '
                                 'inertia); give that link inertia or make the joint fixed')
            return self.mul(1.0 / b.value, a)
        if a.op == 'const' and a.value == 0:
            return a
        if a.op == 'neg':
            return self.neg(self.div(a.args[0], b))
        if b.op == 'neg':
            return self.neg(self.div(a, b.args[0]))
        return self._node('div', (a, b))

    def function(self, name, a):
        """``sin``, ``cos``, ``sign`` or ``sqrt`` of ``a`` (folded for constants)."""
        a = self.wrap(a)
        if a.op == 'const':
            value = {'sin': math.sin, 'cos': math.cos, 'sqrt': math.sqrt,
                     'sign': lambda x: float((x > 0) - (x < 0))}[name](a.value)
            return self.const(value)
        return self._node(name, (a,))

    # -- analysis ------------------------------------------------------------------------
    def reachable(self, outputs):
        """Nodes the ``outputs`` depend on, in creation (= topological) order."""
        seen = set()
        stack = [self.wrap(o) for o in outputs]
        while stack:
            node = stack.pop()
            if node.index in seen:
                continue
            seen.add(node.index)
            stack.extend(node.args)
        return [self.nodes[i] for i in sorted(seen)]

    def count(self, outputs):
        """Online multiplications, additions and divisions the ``outputs`` need (rules above)."""
        counts = {'mul': 0, 'add': 0, 'div': 0}
        for node in self.reachable(outputs):
            if node.offline:
                continue
            if node.op == 'mul':
                counts['mul'] += 1
            elif node.op in ('add', 'sub'):
                counts['add'] += 1
            elif node.op == 'div':
                counts['div'] += 1
        return counts
