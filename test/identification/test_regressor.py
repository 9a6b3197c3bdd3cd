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
"""The regressor against inverse dynamics and Pinocchio; base parameters against seed 001."""

import re

import numpy as np
import pinocchio as pin
import pytest
from robots import pinocchio_configuration, random_inertia, random_model, random_state

import robot_dynamics as rd
from robot_dynamics.identification import base_parameters, parameters, regressor
from robot_dynamics.model.frames import axis_to_z_rotation

BUNDLED = sorted(rd.BUNDLED_MODELS)


def scale(x):
    return max(1.0, np.abs(x).max())


@pytest.mark.parametrize('n', [1, 2, 4, 7])
def test_regressor_times_parameters_is_inverse_dynamics(n):
    rng = np.random.default_rng(n)
    model = random_model(rng, n, prismatic_fraction=0.3, friction=True, rotor=True)
    q, qd, qdd = random_state(rng, n, 20)
    Y = regressor(model, q, qd, qdd)
    assert Y.shape == (20, n, 13 * n)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(Y @ parameters(model) - tau).max() <= 1e-12 * scale(tau)
    single = regressor(model, q[3], qd[3], qdd[3])
    assert single.shape == (n, 13 * n) and np.array_equal(single, Y[3])


@pytest.mark.parametrize('name', BUNDLED)
def test_regressor_on_bundled_models(name):
    model = rd.load_model(name)
    rng = np.random.default_rng(7)
    q, qd, qdd = random_state(rng, model.dof, 10)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(regressor(model, q, qd, qdd) @ parameters(model) - tau).max() \
        <= 1e-12 * scale(tau)


@pytest.mark.parametrize('n', [1, 3, 6])
def test_regressor_agrees_with_pinocchio(n):
    """Pinocchio's columns: m, mc_x, mc_y, mc_z, Ixx, Ixy, Iyy, Ixz, Iyz, Izz about O_i, {i}."""
    rng = np.random.default_rng(100 + n)
    model = random_model(rng, n, prismatic_fraction=0.35)
    pin_model = pin.buildModelFromXML(model.to_urdf())
    data = pin_model.createData()
    q, qd, qdd = random_state(rng, n, 4)
    Y = regressor(model, q, qd, qdd)
    for k in range(4):
        config = pinocchio_configuration(pin_model, q[k])
        Y_pin = pin.computeJointTorqueRegressor(pin_model, data, config, qd[k], qdd[k])
        assert np.abs(Y[k][:, :10 * n] - Y_pin).max() <= 1e-12 * scale(Y_pin)
    for i in range(n):
        inertia = pin_model.inertias[i + 1]
        assert np.allclose(parameters(model)[10 * i:10 * i + 10],
                           inertia.toDynamicParameters(), rtol=0, atol=1e-12)


def test_regressor_checks_its_input():
    model = rd.load_model('two_link')
    with pytest.raises(ValueError, match='qd: expected shape'):
        regressor(model, [0, 0], [0, 0, 0], [0, 0])


# ---------------------------------------------------------------------- base parameters
def test_renaud_6r_base_parameters_are_khalils():
    """Seed 001 6R: 36 inertial base parameters, the regrouping of Renaud / Khalil."""
    base = base_parameters(rd.load_model('renaud_6r'))
    table = dict(base.table())
    assert base.count == 52                          # 36 inertial + FV, FC per joint + IA3..6
    assert table['MY5R'] == 'MY5 - MZ6'              # the paper's remark
    assert table['MX2R'] == 'MX2 + 0.43 M3 + 0.43 M4 + 0.43 M5 + 0.43 M6'
    assert table['XX6R'] == 'XX6 - YY6' and table['ZZ6'] == 'ZZ6'
    assert table['ZZ1R'].startswith('ZZ1 + YY2') and table['ZZ1R'].endswith('IA1')
    assert not any(name.startswith(('M1', 'MZ', 'YY')) for name in base.names)


@pytest.mark.parametrize('n', [3, 6])
def test_base_regressor_reproduces_torques(n):
    rng = np.random.default_rng(n)
    model = random_model(rng, n, prismatic_fraction=0.3, friction=True, rotor=True)
    base = base_parameters(model)
    q, qd, qdd = random_state(rng, n, 30)
    Y = regressor(model, q, qd, qdd)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(base.regressor(Y) @ base.values(parameters(model)) - tau).max() \
        <= 1e-10 * scale(tau)
    stacked = base.regressor(Y).reshape(-1, base.count)
    assert np.linalg.matrix_rank(stacked) == base.count            # all identifiable
    assert np.linalg.matrix_rank(Y.reshape(-1, 13 * n)) == base.count


def test_joint_terms_option():
    model = rd.load_model('puma560')
    rigid = base_parameters(model, joint_terms=())
    assert not any(name[:2] in ('FV', 'FC', 'IA') for name in rigid.names)
    assert 'IA1' not in rigid.table()[0][1]
    with pytest.raises(ValueError, match='joint_terms: unknown'):
        base_parameters(model, joint_terms=('damping',))


# ------------------------------------------------------------ against the generator (seed 001)
def full_parameter_variant(model, seed=1):
    """Return the model with every inertial parameter non-zero (no structural zeros)."""
    rng = np.random.default_rng(seed)
    n = model.dof
    masses = rng.uniform(1.0, 3.0, n)
    return model.replace(mass=masses, com=rng.uniform(-0.1, 0.1, (n, 3)),
                         inertia=[random_inertia(rng, m) for m in masses]
                         ).without_joint_effects()


_TERM = re.compile(r'^(?P<name>[A-Z]+)(?P<body>[0-9]+)$')
_K = {'XX': (0, 0), 'XY': (0, 1), 'XZ': (0, 2), 'YY': (1, 1), 'YZ': (1, 2), 'ZZ': (2, 2)}


def generator_rows(model, generated):
    """Rows over our standard parameters of the generator's parameters the torques use.

    The generator's symbols (``XX1`` …) are about O_i in Craig's frame {i}' = {i} C_i; ours in
    {i}: ``u' = Cᵀ u``, ``K' = Cᵀ K C``.
    """
    names = rd.identification.parameter_names(model)
    index = {name: k for k, name in enumerate(names)}
    used = {node.name for node in generated.graph.reachable(
        generated.functions['inverse_dynamics'].outputs) if node.op == 'sym' and node.offline}
    rows = {}
    for label, text, _ in generated.parameters:          # hoisted labels refer to earlier ones
        row = np.zeros(len(names))
        for token in text.replace(' - ', ' -').replace(' + ', ' +').split():
            sign = -1.0 if token[0] == '-' else 1.0
            coefficient, _, name = token.lstrip('+-').rpartition('*')
            coefficient = sign * float(coefficient or 1.0)
            if name in rows:
                row += coefficient * rows[name]
            else:
                match = _TERM.match(name)
                row += coefficient * symbol_row(model, match['name'], int(match['body']), index)
        rows[label] = row
    return np.array([row for label, row in rows.items() if label in used])


def symbol_row(model, name, body, index):
    C = axis_to_z_rotation(model.axis[body - 1])
    row = np.zeros(len(index))
    if name == 'M':
        row[index[f'M{body}']] = 1.0
    elif name in ('MX', 'MY', 'MZ'):
        a = 'XYZ'.index(name[1])
        for k in range(3):
            row[index[f'M{"XYZ"[k]}{body}']] += C[k, a]
    else:
        a, b = _K[name]
        for k in range(3):
            for m in range(3):
                ours = next(s for s, (r, c) in _K.items() if {r, c} == {k, m} and r <= c)
                row[index[f'{ours}{body}']] += C[k, a] * C[m, b]
    return row


@pytest.mark.parametrize('name', ['renaud_6r', 'puma560', 'stanford', 'panda', 'ur5',
                                  'two_link'])
def test_same_count_and_span_as_the_generators_regrouping(name):
    model = full_parameter_variant(rd.load_model(name))
    generated = rd.generate(model, symbolic_inertia=True, regroup_parameters='base')
    G = generator_rows(model, generated)
    K = base_parameters(model, joint_terms=()).matrix
    rank = np.linalg.matrix_rank
    assert rank(G, tol=1e-9) == K.shape[0] == rank(K, tol=1e-9)        # same number
    assert rank(np.vstack((G, K)), tol=1e-9) == K.shape[0]             # same span
