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
"""Property-based tests (hypothesis) over random robots, states and mutated documents.

- Every registered solver agrees with the reference RNEA (tip wrench and gravity included).
- The identities of the foundation: ``G = ID(q, 0, 0)``, ``V = ID(q, qd, 0) - G``, column j of
  ``M`` = ``ID(q, 0, e_j) - G``, ``M`` symmetric positive definite, ``C qd = V``,
  ``qdᵀ (Ṁ - 2C) qd = 0`` with ``Ṁ`` checked against a central difference of ``M``, and
  ``FD(ID(qdd)) = qdd``.
- The URDF and DH loaders fed random and mutated documents raise only
  :class:`robot_dynamics.errors.ModelError` (subclasses), never KeyError, TypeError, ….

Example counts are bounded so that the file runs in well under a minute.
"""

import copy
import warnings

import numpy as np
import pinocchio as pin
import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

import robot_dynamics as rd
from robot_dynamics.errors import ModelError
from robot_dynamics.algorithms.rnea import rnea
from robots import pinocchio_configuration, random_model

FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TOL = 1e-9


def scale(x):
    """Tolerance scale max(1, |x|)."""
    return max(1.0, float(np.max(np.abs(x))))


@st.composite
def robots(draw, max_dof=7, joint_effects=True):
    """Draw a random serial robot (revolute and prismatic joints, random frames, inertias)."""
    n = draw(st.integers(1, max_dof))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    prismatic = draw(st.sampled_from([0.0, 0.3, 1.0]))
    effects = joint_effects and draw(st.booleans())
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = random_model(np.random.default_rng(seed), n, prismatic_fraction=prismatic,
                             friction=effects, rotor=effects)
    gravity = draw(st.sampled_from([None, (0.0, 0.0, -9.81), (3.0, -2.0, 1.0)]))
    return model if gravity is None else model.with_gravity(gravity)


def vectors(n, bound):
    """Return a strategy for an (n,) float vector with entries in [-bound, bound]."""
    return st.lists(st.floats(-bound, bound, allow_nan=False, allow_infinity=False),
                    min_size=n, max_size=n).map(np.array)


@st.composite
def robot_and_state(draw, max_dof=7, joint_effects=True):
    """Draw a robot with ``q`` (rad or m), ``qd`` and ``qdd`` of its size."""
    model = draw(robots(max_dof, joint_effects))
    n = model.dof
    return model, draw(vectors(n, 3.2)), draw(vectors(n, 3.0)), draw(vectors(n, 10.0))


# ---------------------------------------------------------------------- solvers
@FAST
@given(robot_and_state(max_dof=6, joint_effects=False), vectors(6, 30.0))
def test_every_registered_solver_agrees_with_the_reference(case, wrench):
    model, q, qd, qdd = case
    batch = [x[None, :] for x in (q, qd, qdd)]
    reference = rnea(model, *batch, model.gravity, wrench[None, :])
    for name in rd.solvers.available():
        tau = rd.solvers.get(name)(model, *batch, model.gravity, wrench[None, :])
        error = np.abs(tau - reference).max() / scale(reference)
        assert error <= TOL, f'solver {name!r}: relative error {error:.2e}'


# ---------------------------------------------------------------------- identities
@FAST
@given(robot_and_state())
def test_gravity_coriolis_and_mass_matrix_come_from_inverse_dynamics(case):
    model, q, qd, _ = case
    rigid = model.without_joint_effects()
    n, zero = model.dof, np.zeros(model.dof)
    G = rd.gravity_torques(rigid, q)
    pin_model = pin.buildModelFromXML(rigid.to_urdf())       # an independent oracle for G
    pin_model.gravity.linear = np.array(rigid.gravity)
    G_pin = pin.computeGeneralizedGravity(pin_model, pin_model.createData(),
                                          pinocchio_configuration(pin_model, q))
    assert np.allclose(G, G_pin, rtol=0, atol=TOL * scale(G))
    V = rd.inverse_dynamics(rigid, q, qd, zero) - G
    assert np.allclose(rd.coriolis_torques(rigid, q, qd), V, rtol=0, atol=TOL * scale(V))
    M = rd.mass_matrix(model, q)
    columns = np.array([rd.inverse_dynamics(rigid, q, zero, e) - G for e in np.eye(n)]).T
    columns += np.diag(model.reflected_inertia)
    assert np.allclose(M, columns, rtol=0, atol=TOL * scale(M))
    assert np.allclose(M, M.T, rtol=0, atol=1e-12 * scale(M))
    assert np.linalg.eigvalsh(M)[0] > 0, 'M is not positive definite'
    np.linalg.cholesky(M)


@FAST
@given(robot_and_state())
def test_coriolis_matrix_is_consistent_and_passive(case):
    model, q, qd, _ = case
    rigid = model.without_joint_effects()
    C = rd.coriolis_matrix(rigid, q, qd)
    V = rd.coriolis_torques(rigid, q, qd)
    assert np.allclose(C @ qd, V, rtol=0, atol=TOL * scale(V))
    M_dot = rd.mass_matrix_dot(rigid, q, qd)
    h = 1e-6                                                   # independent: central difference
    difference = (rd.mass_matrix(rigid, q + h * qd) - rd.mass_matrix(rigid, q - h * qd)) / (2 * h)
    assert np.allclose(M_dot, difference, rtol=0, atol=1e-6 * scale(M_dot))
    power = qd @ (M_dot - 2 * C) @ qd
    assert abs(power) <= TOL * scale(M_dot) * max(1.0, qd @ qd)
    skew = M_dot - 2 * C
    assert np.allclose(skew, -skew.T, rtol=0, atol=TOL * scale(M_dot))


@FAST
@given(robot_and_state(), st.sampled_from([None, 'rnea', 'craig', 'renaud']))
def test_forward_dynamics_inverts_inverse_dynamics(case, solver):
    model, q, qd, qdd = case
    tau = rd.inverse_dynamics(model, q, qd, qdd, solver=solver)
    back = rd.forward_dynamics(model, q, qd, tau, solver=solver)
    M = rd.mass_matrix(model, q)
    condition = np.linalg.cond(M)
    assert np.allclose(back, qdd, rtol=0, atol=1e-12 * condition * scale(qdd)), \
        f'cond(M) = {condition:.1e}'


# ---------------------------------------------------------------------- loader fuzzing
def urdf_for(seed, n):
    """Return a valid URDF of a random robot."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return random_model(np.random.default_rng(seed), n, friction=True,
                            rotor=True).to_urdf()


GARBAGE = st.one_of(st.text(max_size=12), st.sampled_from(
    ['', 'nan', 'inf', '-1', '0', '1e400', '1 2', '1 2 3 4', 'a b c', '&amp;', '-0', ' ']))


@st.composite
def mutated_urdf(draw):
    """Draw a valid URDF with elements and attributes deleted, duplicated or garbled."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(urdf_for(draw(st.integers(0, 1000)), draw(st.integers(1, 4))))
    for _ in range(draw(st.integers(1, 4))):
        elements = list(root.iter())
        element = elements[draw(st.integers(0, len(elements) - 1))]
        action = draw(st.sampled_from(['delete', 'duplicate', 'attribute', 'drop-attribute',
                                       'text', 'rename', 'child']))
        parents = {child: parent for parent in root.iter() for child in parent}
        parent = parents.get(element)
        if action == 'delete' and parent is not None:
            parent.remove(element)
        elif action == 'duplicate' and parent is not None:
            parent.append(copy.deepcopy(element))     # (garbled text may not re-parse)
        elif action == 'attribute' and element.attrib:
            key = draw(st.sampled_from(sorted(element.attrib)))
            element.set(key, draw(GARBAGE))
        elif action == 'drop-attribute' and element.attrib:
            del element.attrib[draw(st.sampled_from(sorted(element.attrib)))]
        elif action == 'text':
            element.text = draw(GARBAGE)
        elif action == 'rename':
            element.tag = draw(st.sampled_from(['link', 'joint', 'inertial', 'origin', 'axis',
                                                'limit', 'mass', 'bogus', 'transmission']))
        elif action == 'child':
            element.append(ET.Element(draw(st.sampled_from(
                ['link', 'joint', 'inertia', 'mass', 'parent', 'child', 'mimic', 'x']))))
    return ET.tostring(root, encoding='unicode')


def only_model_errors(load, document):
    """Run a loader; a ModelError (any subclass) or a model is fine, anything else fails."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            model = load(document)
        except ModelError as exc:
            assert str(exc), 'empty error message'
            return None
    assert model.dof >= 1
    return model


@FUZZ
@given(mutated_urdf())
def test_mutated_urdf_raises_only_model_errors(document):
    only_model_errors(rd.RobotModel.from_urdf, document)


@FUZZ
@given(st.text(max_size=200).map(lambda t: '<robot name="r">' + t + '</robot>'))
def test_random_urdf_text_raises_only_model_errors(document):
    only_model_errors(rd.RobotModel.from_urdf, document)


@FUZZ
@given(st.text(max_size=300))
def test_random_text_raises_only_model_errors(text):
    only_model_errors(rd.RobotModel.from_urdf, text + '<')
    only_model_errors(rd.RobotModel.from_dh, text + '\n')


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                    st.sampled_from(['pi', '-pi/2', 'pi/0', 'pi/x', 'revolute', 'prismatic',
                                     'standard', 'modified']))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=7), st.dictionaries(st.one_of(st.text(max_size=6), st.integers()),
                                                 inner, max_size=4)), max_leaves=12)


def valid_dh(seed):
    """Return a valid DH document (dict) of up to 4 links."""
    rng = np.random.default_rng(seed)
    links = []
    for i in range(int(rng.integers(1, 5))):
        kind = 'prismatic' if rng.random() < 0.3 else 'revolute'
        entry = {'type': kind, 'a': float(rng.uniform(-1, 1)),
                 'alpha': float(rng.uniform(-3, 3)), 'd': float(rng.uniform(-1, 1)),
                 'mass': float(rng.uniform(0.1, 5)), 'com': rng.uniform(-0.1, 0.1, 3).tolist(),
                 'inertia': [0.1, 0.1, 0.1, 0.0, 0.0, 0.0],
                 'limits': {'lower': -2.0, 'upper': 2.0, 'velocity': 3.0, 'effort': 50.0}}
        if kind == 'prismatic':
            entry['theta'] = float(rng.uniform(-1, 1))
        links.append(entry)
    return {'name': 'arm', 'convention': 'standard' if seed % 2 else 'modified',
            'gravity': [0, 0, -9.81], 'links': links}


@st.composite
def mutated_dh(draw):
    """Draw a valid DH dict with fields deleted, replaced by random values or added."""
    document = valid_dh(draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(1, 4))):
        target = document
        if draw(st.booleans()) and document.get('links'):
            links = document['links']
            if isinstance(links, list) and links and isinstance(links[0], dict):
                target = links[draw(st.integers(0, len(links) - 1))]
        if not isinstance(target, dict):
            break
        keys = sorted(map(str, target)) + ['extra', 'limits', 'inertia', 'com']
        key = draw(st.sampled_from(keys))
        action = draw(st.sampled_from(['delete', 'replace', 'replace']))
        if action == 'delete':
            target.pop(key, None)
        else:
            target[key] = draw(VALUES)
    return document


@FUZZ
@given(mutated_dh())
def test_mutated_dh_raises_only_model_errors(document):
    only_model_errors(rd.RobotModel.from_dh, document)


@FUZZ
@given(mutated_dh())
def test_mutated_dh_as_yaml_raises_only_model_errors(document):
    try:
        text = yaml.safe_dump(document)
    except yaml.YAMLError:
        return
    only_model_errors(rd.RobotModel.from_dh, text)


@FUZZ
@given(VALUES)
def test_random_values_as_dh_raise_only_model_errors(value):
    if isinstance(value, str):
        value = value + '\n'
    only_model_errors(rd.RobotModel.from_dh, value if isinstance(value, (dict, str)) else
                      {'convention': 'standard', 'links': value})


@pytest.mark.parametrize('seed', range(6))
def test_unmutated_documents_load(seed):
    """The mutation strategies start from valid documents (so the fuzzers explore near them)."""
    assert only_model_errors(rd.RobotModel.from_urdf, urdf_for(seed, 3)) is not None
    assert only_model_errors(rd.RobotModel.from_dh, valid_dh(seed)) is not None
