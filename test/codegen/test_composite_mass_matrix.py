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
"""The generated mass matrix by composite rigid bodies: Pinocchio's CRBA, counts, layout."""

import pathlib
import re
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.algorithms.renaud import Body, backward, body_moments, forward, NUMERIC
from robot_dynamics.codegen import compiled, composite
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.codegen.parameters import (
    evaluate, regroup, standard_parameters, symbol_values, symbolic_bodies,
)
from robot_dynamics.model.frames import proximal_frames
from robots import pinocchio_configuration, random_model

ROOT = pathlib.Path(__file__).resolve().parents[2]
needs_compiler = pytest.mark.skipif(not compiled.compiler_available(), reason='no C compiler')


def load(name):
    """Load a bundled model, rigid body, model warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(ROOT / rd.BUNDLED_MODELS[name])).without_joint_effects()


def pinocchio_mass_matrices(model, q):
    """Pinocchio's ``crba`` (upper triangle mirrored) at each row of ``q`` (N, n)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        pm = pin.buildModelFromXML(model.to_urdf())
    pd = pm.createData()
    out = []
    for row in q:
        M = pin.crba(pm, pd, pinocchio_configuration(pm, row)).copy()
        out.append(np.triu(M) + np.triu(M, 1).T)
    return np.array(out)


def models():
    """DH arms, a prismatic joint (Stanford) and random chains with general axes."""
    named = [(name, load(name)) for name in ('panda', 'ur5', 'stanford', 'puma560')]
    return named + [(f'random{seed}', random_model(np.random.default_rng(seed), 7, 0.4))
                    for seed in range(3)]


@pytest.mark.parametrize('name, model', models(), ids=[name for name, _ in models()])
def test_composite_recursion_on_numbers_is_pinocchios_crba(name, model):
    """The recursion itself, run on numpy arrays (standard parameters), against Pinocchio."""
    frames = proximal_frames(model)
    bodies = [body_moments(frames, i) for i in range(model.dof)]
    q = np.random.default_rng(4).uniform(-np.pi, np.pi, (5, model.dof))
    lower = composite.mass_matrix(NUMERIC, frames, bodies, list(q.T))
    expected = pinocchio_mass_matrices(model, q)
    scale = max(1.0, np.abs(expected).max())
    for i in range(model.dof):
        for j in range(i + 1):
            assert np.abs(lower[i][j] - expected[:, i, j]).max() <= 1e-12 * scale, (i, j)


def strobed_counts(model):
    """Operations of the mass matrix by strobing: n inverse dynamics with ``qdd = e_j``."""
    graph, frames, n = Graph(), proximal_frames(model), model.dof
    values = standard_parameters(frames)
    numbers = symbol_values(values)
    bodies = [Body(evaluate(b.m, numbers), [evaluate(x, numbers) for x in b.u],
                   [[evaluate(x, numbers) for x in row] for row in b.K])
              for b in regroup(symbolic_bodies(values), frames, 'base')]
    q = [graph.symbol(f'q[{i}]') for i in range(n)]
    lower = []
    for j in range(n):
        unit = [1.0 if k == j else 0.0 for k in range(n)]
        column = backward(graph, frames, forward(graph, frames, q, [0.0] * n, unit, (0,) * 3),
                          bodies)
        lower += column[j:]
    counts = graph.count(lower)
    return counts['mul'], counts['add']


def test_panda_counts_are_what_docs_codegen_says():
    text = ' '.join((ROOT / 'docs' / 'codegen.md').read_text().split())
    quoted = re.search(r"The Panda's mass matrix costs (\d+) / (\d+), by strobing (\d+) / (\d+)\.",
                       text)
    assert quoted, 'the Panda sentence of docs/codegen.md changed: update this test'
    counts = rd.generate(load('panda'), functions=('mass_matrix',)).functions['mass_matrix']
    assert [int(g) for g in quoted.groups()] == [counts.counts['mul'], counts.counts['add'],
                                                 *strobed_counts(load('panda'))]


@needs_compiler
@pytest.mark.parametrize('name', ['panda', 'ur5', 'stanford'])
def test_compiled_mass_matrix_is_whole_and_symmetric_for_one_state_and_batches(name):
    """The C kernel writes both triangles: one state, pairs of states and an odd tail."""
    model = load(name)
    fm = fast.compile(model, backend='c', method='generated')
    q = np.random.default_rng(8).uniform(-np.pi, np.pi, (5, model.dof))
    expected = pinocchio_mass_matrices(model, q)
    scale = max(1.0, np.abs(expected).max())
    batch = fm.mass_matrix(q)
    assert batch.shape == (5, model.dof, model.dof)
    assert np.abs(batch - expected).max() <= 1e-10 * scale
    assert np.array_equal(batch, np.swapaxes(batch, 1, 2))
    for row, M in zip(q, expected):
        single = fm.mass_matrix(row)
        assert single.shape == (model.dof, model.dof)
        assert np.abs(single - M).max() <= 1e-10 * scale


@needs_compiler
def test_all_prismatic_chain_compiles():
    """Constant gravity torques and a constant M (prismatic joints only) are still emitted."""
    model = random_model(np.random.default_rng(2), 2, 1.0)
    assert model.joint_types == ('prismatic', 'prismatic')
    fm = fast.compile(model, backend='c', method='generated')
    q = np.random.default_rng(3).uniform(-1, 1, (3, 2))
    for ours, reference in ((fm.gravity(q), rd.gravity_torques(model, q)),
                            (fm.mass_matrix(q), rd.mass_matrix(model, q))):
        assert np.abs(ours - reference).max() <= 1e-12 * max(1.0, np.abs(reference).max())
