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
"""The customised dynamic model of one robot: straight-line code from Renaud's recursion.

:func:`generate` runs Renaud's recursion (:mod:`robot_dynamics.algorithms.renaud`, the same
code the ``renaud`` solver evaluates) on symbolic scalars (seed 001, "analytical rather than
numerical, iterative rather than developed") and returns a :class:`GeneratedModel`: the
expression DAG of each requested function, its operation count, and emitters for Python and C.

Functions (all rigid-body plus the model's joint effects, exactly as
:func:`robot_dynamics.inverse_dynamics`):

- ``inverse_dynamics(q, qd, qdd)`` → τ (n), the paper's model (relations 1-10);
- ``gravity(q)`` → G (n): the same with ``qd = qdd = 0``;
- ``mass_matrix(q)`` → the lower triangle of M row by row, ``M[i][j]`` for ``j <= i``, by
  composite rigid bodies (:mod:`robot_dynamics.codegen.composite`) or, when that is shorter
  (joint axes in general directions), by strobing (seed 002: column j is the torque for
  ``qdd = e_j``, no velocity and gravity; folding and sharing make one program of the n passes);
- ``forward_dynamics(q, qd, tau)`` → qdd (n): ``M qdd = tau - b(q, qd)`` solved by an
  unrolled ``L D Lᵀ`` factorisation (one division per joint).
"""

import hashlib

import numpy as np

from robot_dynamics.algorithms.renaud import backward, forward, tip_wrench
from robot_dynamics.codegen import composite, emit
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.codegen.hoisting import hoist_combinations
from robot_dynamics.model.friction import has_extra_friction
from robot_dynamics.codegen.parameters import (
    BodyParameters, evaluate, form_text, regroup, standard_parameters, symbol_values,
    symbolic_bodies,
)
from robot_dynamics.model.frames import proximal_frames

FUNCTIONS = ('inverse_dynamics', 'gravity', 'mass_matrix', 'forward_dynamics')
_INPUTS = {'inverse_dynamics': ('q', 'qd', 'qdd'), 'gravity': ('q',), 'mass_matrix': ('q',),
           'forward_dynamics': ('q', 'qd', 'tau')}


class GeneratedFunction:
    """One generated function: input names, output nodes and operation counts."""

    def __init__(self, name, inputs, outputs, counts):
        self.name, self.inputs, self.outputs, self.counts = name, inputs, outputs, counts


class GeneratedModel:
    """A customised dynamic model: DAG, counts, parameters and source code.

    ``multiplications`` and ``additions`` count the inverse dynamic model (the paper's
    figure of merit); ``functions[name].counts`` has the counts of every generated function.
    ``parameters`` lists ``(name, definition, value)`` of the symbolic inertial parameters
    (empty when they were baked in as numbers).
    """

    def __init__(self, model, graph, functions, parameters, options):
        self.model_name, self.dof = model.name, model.dof
        self.graph, self.functions, self.parameters = graph, functions, parameters
        self.options = options
        main = functions.get('inverse_dynamics') or next(iter(functions.values()))
        self.multiplications = main.counts['mul']
        self.additions = main.counts['add']
        self.divisions = main.counts['div']

    @property
    def source(self):
        """Readable Python source of every generated function."""
        return emit.python_module(self)

    @property
    def c_source(self):
        """C99 source of every generated function, exported ``rd_<name>`` (numeric only)."""
        return emit.c_module(self, static=False)

    def write(self, path, language=None):
        """Write the Python (``.py``) or C (``.c``/``.h``) source to ``path``; return the path."""
        language = language or ('c' if str(path).endswith(('.c', '.h')) else 'python')
        if language not in ('python', 'c'):
            raise ValueError(f"language must be 'python' or 'c', got {language!r}")
        text = self.source if language == 'python' else self.c_source
        with open(path, 'w') as handle:
            handle.write(text)
        return path

    def python_namespace(self):
        """Execute the Python source and return its namespace (the generated functions)."""
        namespace = {}
        label = f'<generated {emit.safe_text(self.model_name)}>'
        exec(compile(self.source, label, 'exec'), namespace)
        return namespace

    def parameter_values(self):
        """Numeric values {name: value} of the symbolic parameters, from the model."""
        return {name: value for name, _, value in self.parameters}

    def __repr__(self):
        """Model, counts."""
        return (f'GeneratedModel({self.model_name!r}, {self.multiplications} multiplications, '
                f'{self.additions} additions)')


def generate(model, symbolic_inertia=False, regroup_parameters='base', functions=None,
             gravity=None, tip_wrench=False):
    """Generate the customised dynamic model of ``model`` (seed 001).

    ``symbolic_inertia``: keep every non-zero inertial parameter (and joint-effect
    coefficient) as a named symbol (True), or bake in the model's numbers (False).
    ``regroup_parameters``: ``'base'`` (default), ``'augmented'`` (Renaud's augmented bodies
    only) or ``'none'``; see :mod:`robot_dynamics.codegen.parameters`. ``functions``: names
    from :data:`FUNCTIONS` or ``'all'`` (default: inverse dynamics only). ``gravity`` (3,):
    default the model's. ``tip_wrench``: inverse dynamics takes a sixth input ``f_tip`` (6,),
    the wrench ``[f; n]`` the tool exerts on the environment, tool frame.
    """
    if has_extra_friction(model):
        raise ValueError('generated code holds viscous and Coulomb friction only; this model '
                         'has the richer friction law (offset, asymmetry, smoothing or '
                         'Stribeck): generate model.replace(friction_offset=0, ...) and add '
                         'robot_dynamics.model.friction.friction_torques, or use the engine')
    if functions is None:
        functions = ('inverse_dynamics',)
    elif functions == 'all':
        functions = FUNCTIONS
    unknown = set(functions) - set(FUNCTIONS)
    if unknown:
        raise ValueError(f'unknown function(s) {sorted(unknown)}; choose from {FUNCTIONS}')
    frames = proximal_frames(model)
    gravity = tuple(float(g) for g in (model.gravity if gravity is None else gravity))
    graph = Graph()
    bodies, effects, parameters = _parameters(graph, model, frames, symbolic_inertia,
                                              regroup_parameters)
    n = model.dof
    q = [graph.symbol(f'q[{i}]') for i in range(n)]
    builder = _Builder(graph, frames, bodies, effects, q, gravity)
    generated = {}
    for name in functions:
        inputs, outputs = builder.build(name, tip_wrench)
        generated[name] = GeneratedFunction(name, inputs, outputs, None)
    hoist_combinations(graph, generated, parameters)          # computed once per model
    for function in generated.values():
        function.counts = graph.count(function.outputs)
    options = dict(symbolic_inertia=symbolic_inertia, regroup_parameters=regroup_parameters,
                   gravity=gravity, tip_wrench=tip_wrench)
    return GeneratedModel(model, graph, generated, parameters, options)


def _parameters(graph, model, frames, symbolic, mode):
    """Body parameter nodes (regrouped), joint-effect nodes and the parameter table."""
    values = standard_parameters(frames)
    numbers = symbol_values(values)
    bodies = regroup(symbolic_bodies(values), frames, mode)
    table, cache = [], {}

    def node(form, name):
        if not form:
            return 0.0
        if not symbolic:
            return evaluate(form, numbers)
        key = tuple(sorted(form.items()))
        if key not in cache:
            if len(form) == 1 and abs(next(iter(form.values())) - 1.0) < 1e-15:
                label = next(iter(form))
            else:
                label = name
            cache[key] = graph.symbol(label, parameter=True)
            table.append((label, form_text(form), evaluate(form, numbers)))
        return cache[key]

    nodes = []
    for i, body in enumerate(bodies):
        j = i + 1
        K = [[None] * 3 for _ in range(3)]
        for r, c, name in ((0, 0, 'XX'), (0, 1, 'XY'), (0, 2, 'XZ'), (1, 1, 'YY'), (1, 2, 'YZ'),
                           (2, 2, 'ZZ')):
            K[r][c] = K[c][r] = node(body.K[r][c], f'{name}{j}R')
        u = [node(body.u[k], f'M{"XYZ"[k]}{j}R') for k in range(3)]
        nodes.append(BodyParameters(node(body.m, f'M{j}R'), u, K))
    effects = []
    for i in range(model.dof):
        row = {}
        for key, value in (('IA', model.reflected_inertia[i]), ('FV', model.viscous_friction[i]),
                           ('FC', model.coulomb_friction[i])):
            if value == 0:
                row[key] = 0.0
            elif symbolic:
                row[key] = graph.symbol(f'{key}{i + 1}', parameter=True)
                table.append((f'{key}{i + 1}', f'{key}{i + 1}', float(value)))
            else:
                row[key] = float(value)
        effects.append(row)
    return nodes, effects, table


class _Builder:
    """Builds the outputs of each generated function on one shared graph."""

    def __init__(self, graph, frames, bodies, effects, q, gravity):
        self.graph, self.frames, self.bodies, self.effects = graph, frames, bodies, effects
        self.q, self.gravity, self.n = q, gravity, len(q)

    def _inputs(self, name):
        return [self.graph.symbol(f'{name}[{i}]') for i in range(self.n)]

    def _rigid(self, qd, qdd, gravity, tip=None):
        fw = forward(self.graph, self.frames, self.q, qd, qdd, gravity)
        if tip is None:
            return backward(self.graph, self.frames, fw, self.bodies)
        force, moment = tip_wrench(self.frames, tip)
        return backward(self.graph, self.frames, fw, self.bodies, force, moment)

    def _joint_effects(self, tau, qd, qdd):
        """Add rotor inertia ``IA qdd`` and friction ``FV qd + FC sign(qd)`` (Craig 6.112)."""
        out = []
        for i, t in enumerate(tau):
            e = self.effects[i]
            if qdd is not None:
                t = t + e['IA'] * qdd[i]
            t = t + e['FV'] * qd[i]
            if not (isinstance(e['FC'], float) and e['FC'] == 0):
                t = t + e['FC'] * self.graph.function('sign', qd[i])
            out.append(t)
        return out

    def build(self, name, tip_wrench):
        """Input names and output nodes of function ``name``."""
        g, n = self.graph, self.n
        if name == 'inverse_dynamics':
            qd, qdd = self._inputs('qd'), self._inputs('qdd')
            inputs = ['q', 'qd', 'qdd']
            tip = None
            if tip_wrench:
                tip = [g.symbol(f'f_tip[{k}]') for k in range(6)]
                inputs.append('f_tip')
            tau = self._joint_effects(self._rigid(qd, qdd, self.gravity, tip), qd, qdd)
            return inputs, [g.label(t, f'tau{i + 1}') for i, t in enumerate(tau)]
        zero = [0.0] * n
        if name == 'gravity':
            return ['q'], [g.wrap(t) for t in self._rigid(zero, zero, self.gravity)]
        M = self._mass_matrix()
        if name == 'mass_matrix':
            return ['q'], [M[i][j] for i in range(n) for j in range(i + 1)]
        qd, tau = self._inputs('qd'), self._inputs('tau')
        bias = self._joint_effects(self._rigid(qd, zero, self.gravity), qd, None)
        rhs = [g.label(t - b, f'rhs{i + 1}') for i, (t, b) in enumerate(zip(tau, bias))]
        return ['q', 'qd', 'tau'], _ldlt_solve(g, M, rhs)

    def _mass_matrix(self):
        """Lower triangle of M (rotor inertia on the diagonal), the shorter of two programs.

        Composite rigid bodies (:mod:`robot_dynamics.codegen.composite`), or strobing when
        that needs fewer operations (joint axes in general directions, where the composite
        inertia's rotation costs more than the columns' inverse dynamics).
        """
        if getattr(self, '_M', None) is None:
            n, g = self.n, self.graph
            candidates = [composite.mass_matrix(g, self.frames, self.bodies, self.q),
                          self._strobed_mass_matrix()]
            M = min(candidates, key=lambda M: _operations(g, M))
            for i in range(n):
                for j in range(i + 1):
                    value = g.wrap(M[i][j] + (self.effects[i]['IA'] if i == j else 0.0))
                    M[i][j] = g.label(value, f'M{i + 1}_{j + 1}')
            self._M = M
        return self._M

    def _strobed_mass_matrix(self):
        """Rigid-body lower triangle of M: column j is the torque for ``qdd = e_j`` (seed 002).

        No velocity, no gravity; constant folding and sharing turn the n passes into one
        straight-line program.
        """
        n = self.n
        M = [[None] * n for _ in range(n)]
        for j in range(n):
            unit = [1.0 if k == j else 0.0 for k in range(n)]
            column = self._rigid([0.0] * n, unit, (0.0, 0.0, 0.0))
            for i in range(j, n):
                M[i][j] = column[i]
        return M


def _operations(graph, M):
    """Online multiplications and additions of the lower triangle of ``M``."""
    counts = graph.count([x for i, row in enumerate(M) for x in row[:i + 1]])
    return counts['mul'] + counts['add'] + counts['div']


def _ldlt_solve(g, M, b):
    """Solve ``M x = b`` by ``M = L D Lᵀ`` (unit lower L), unrolled: n divisions."""
    n = len(b)
    L = [[0.0] * n for _ in range(n)]
    d, inv_d = [None] * n, [None] * n
    for j in range(n):
        ld = [g.label(L[j][k] * d[k], f'LD{j + 1}_{k + 1}') for k in range(j)]
        column = []
        for i in range(j, n):
            s = M[i][j]
            for k in range(j):
                s = s - L[i][k] * ld[k]
            column.append(s)
        d[j] = g.label(column[0], f'D{j + 1}')
        inv_d[j] = g.label(g.div(1.0, d[j]), f'invD{j + 1}')
        for i in range(j + 1, n):
            L[i][j] = g.label(column[i - j] * inv_d[j], f'L{i + 1}_{j + 1}')
    y = list(b)
    for i in range(n):
        for k in range(i):
            y[i] = y[i] - L[i][k] * y[k]
    x = [y[i] * inv_d[i] for i in range(n)]
    for i in reversed(range(n)):
        for k in range(i + 1, n):
            x[i] = x[i] - L[k][i] * x[k]
        g.label(x[i], f'qdd{i + 1}')
    return x


def fingerprint(model, **options):
    """Hash everything the generated code depends on (model arrays and options)."""
    digest = hashlib.sha256()
    for name in ('axis', 'placement_rotation', 'placement_translation', 'mass', 'com',
                 'inertia', 'tip_rotation', 'tip_translation', 'gravity', 'viscous_friction',
                 'coulomb_friction', 'rotor_inertia', 'gear_ratio'):
        digest.update(np.ascontiguousarray(getattr(model, name), dtype=float).tobytes())
    digest.update(repr((model.joint_types, sorted(options.items()))).encode())
    return digest.hexdigest()[:20]
