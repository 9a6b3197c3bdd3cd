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
"""Lagrange-Euler and generalized d'Alembert solvers against Newton-Euler and closed forms.

Turney-Mudge-Lee's equivalence theorem (seed 002 §4): the Lagrange M, C q̇ and G equal the
quantities obtained from the Newton-Euler recursion. Both closed-form solvers are checked
against the reference RNEA, the composite-rigid-body mass matrix, and Craig's closed-form
two-link planar arm (Craig §6.7, eq. 6.60).
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.api import mass_matrix_derivatives
from robot_dynamics.algorithms.rnea import rnea
from robot_dynamics.solvers.generalized_dalembert import (
    dalembert_gravity, dalembert_mass_matrix, dalembert_velocity_terms, generalized_dalembert)
from robot_dynamics.solvers.lagrange_euler import (
    lagrange_coriolis, lagrange_coriolis_coefficients, lagrange_euler, lagrange_gravity,
    lagrange_mass_matrix)
from robots import pinocchio_configuration, random_model, random_state

TOL = 1e-10


def _lagrange_terms(model, q, qd):
    return (lagrange_mass_matrix(model, q), lagrange_coriolis(model, q, qd),
            lagrange_gravity(model, q))


def _dalembert_terms(model, q, qd):
    return (dalembert_mass_matrix(model, q), dalembert_velocity_terms(model, q, qd),
            dalembert_gravity(model, q))


TERMS = {'lagrange_euler': _lagrange_terms, 'generalized_dalembert': _dalembert_terms}
SOLVERS = {'lagrange_euler': lagrange_euler, 'generalized_dalembert': generalized_dalembert}


def _scaled_error(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


@pytest.mark.parametrize('name', sorted(TERMS))
@pytest.mark.parametrize('n, seed', [(1, 0), (2, 1), (4, 2), (6, 3), (7, 4)])
def test_equivalence_theorem_on_random_robots(name, n, seed):
    """M, C q̇ and G equal the Newton-Euler-derived ones (seed 002 §4) to 1e-10."""
    rng = np.random.default_rng(seed)
    model = random_model(rng, n, prismatic_fraction=0.35)
    q, qd, _ = random_state(rng, n, N=4)
    M, V, G = TERMS[name](model, q, qd)
    assert _scaled_error(M, rd.mass_matrix(model, q)) < TOL
    assert _scaled_error(V, rd.coriolis_torques(model, q, qd)) < TOL
    assert _scaled_error(G, rd.gravity_torques(model, q)) < TOL
    assert np.allclose(M, np.swapaxes(M, 1, 2), atol=1e-12)


@pytest.mark.parametrize('name', sorted(SOLVERS))
def test_solver_equals_reference_rnea_with_tip_wrench(name):
    """Full rigid-body torque incl. gravity and a tool wrench (τ += ᴺJᵀ f) equals RNEA."""
    rng = np.random.default_rng(11)
    for n in (1, 3, 5):
        model = random_model(rng, n, prismatic_fraction=0.3)
        q, qd, qdd = random_state(rng, n, N=5)
        f_tip = rng.normal(size=(5, 6)) * 10
        expected = rnea(model, q, qd, qdd, model.gravity, f_tip)
        got = SOLVERS[name](model, q, qd, qdd, model.gravity, f_tip)
        assert _scaled_error(got, expected) < TOL


@pytest.mark.parametrize('name', sorted(SOLVERS))
def test_registered_and_usable_through_public_api(name):
    """The solvers are registered and the public API with friction and rotors agrees."""
    assert name in rd.solvers.available()
    rng = np.random.default_rng(5)
    model = random_model(rng, 4, friction=True, rotor=True)
    q, qd, qdd = random_state(rng, 4)
    f_tip = rng.normal(size=6)
    expected = rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip)
    assert _scaled_error(rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip, solver=name),
                         expected) < TOL
    assert _scaled_error(rd.mass_matrix(model, q, solver=name), rd.mass_matrix(model, q)) < TOL


@pytest.mark.parametrize('convention', ['standard', 'modified'])
def test_models_from_both_loaders(convention):
    """DH models (both conventions) and their URDF round trip give the same torques."""
    rng = np.random.default_rng(7)
    links = [dict(a=float(rng.uniform(-0.5, 0.5)), alpha=float(rng.uniform(-3, 3)),
                  d=float(rng.uniform(-0.5, 0.5)), mass=float(rng.uniform(1, 3)),
                  com=rng.uniform(-0.1, 0.1, 3).tolist(), inertia=[0.2, 0.3, 0.25, 0.01, 0.02,
                                                                   -0.01]) for _ in range(4)]
    links[2]['type'] = 'prismatic'
    links[2]['theta'] = 0.3
    model = rd.RobotModel.from_dh({'convention': convention, 'links': links})
    from_urdf = rd.RobotModel.from_urdf(model.to_urdf())
    q, qd, qdd = random_state(rng, 4, N=3)
    expected = rnea(model, q, qd, qdd, model.gravity)
    for solver in SOLVERS.values():
        for m in (model, from_urdf):
            assert _scaled_error(solver(m, q, qd, qdd, m.gravity), expected) < TOL


@pytest.mark.parametrize('name', sorted(TERMS))
def test_against_pinocchio(name):
    """M (CRBA), C q̇ and G (RNEA) from Pinocchio, an independent library, to 1e-10."""
    rng = np.random.default_rng(21)
    model = random_model(rng, 5, prismatic_fraction=0.4)
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    data = pm.createData()
    q, qd, _ = random_state(rng, 5, N=2)
    M, V, G = TERMS[name](model, q, qd)
    for k in range(2):
        config = pinocchio_configuration(pm, q[k])
        M_pin = np.triu(pin.crba(pm, data, config))
        M_pin = M_pin + np.triu(M_pin, 1).T
        G_pin = pin.computeGeneralizedGravity(pm, data, config)
        V_pin = pin.rnea(pm, data, config, qd[k], np.zeros(5)) - G_pin
        assert _scaled_error(M[k], M_pin) < TOL
        assert _scaled_error(V[k], V_pin) < TOL
        assert _scaled_error(G[k], G_pin) < TOL


def test_lagrange_coefficients_are_christoffel_symbols():
    """h_ikm (seed 003 eq. 2.14) = ½(∂M_ik/∂q_m + ∂M_im/∂q_k − ∂M_km/∂q_i); h_iii = 0."""
    rng = np.random.default_rng(9)
    model = random_model(rng, 5, prismatic_fraction=0.0)
    q = rng.uniform(-3, 3, size=(2, 5))
    h = lagrange_coriolis_coefficients(model, q)
    dM = mass_matrix_derivatives(model, q)                  # [N, k, i, j] = ∂M_ij/∂q_k
    christoffel = 0.5 * (np.einsum('nmik->nikm', dM) + np.einsum('nkim->nikm', dM)
                         - np.einsum('nikm->nikm', dM))
    assert _scaled_error(h, christoffel) < TOL
    assert np.allclose(h, np.swapaxes(h, 2, 3))
    assert np.allclose(np.einsum('niii->ni', h), 0.0, atol=1e-12)


def _craig_two_link(l1=0.7, l2=0.45, m1=2.3, m2=1.4, g=9.81):
    """Craig §6.7: planar RR arm, point masses at the distal ends, gravity along -Y0."""
    return rd.RobotModel(joint_types=['revolute'] * 2, axis=[[0, 0, 1]] * 2,
                         placement_rotation=[np.eye(3)] * 2,
                         placement_translation=[[0, 0, 0], [l1, 0, 0]], mass=[m1, m2],
                         com=[[l1, 0, 0], [l2, 0, 0]], inertia=[np.zeros((3, 3))] * 2,
                         tip_translation=[l2, 0, 0], gravity=[0, -g, 0])


@pytest.mark.parametrize('name', sorted(TERMS))
def test_craig_two_link_closed_form(name):
    """Craig eq. 6.60: M, V and G of the two-link planar arm in closed form."""
    l1, l2, m1, m2, g = 0.7, 0.45, 2.3, 1.4, 9.81
    model = _craig_two_link(l1, l2, m1, m2, g)
    rng = np.random.default_rng(3)
    q, qd, _ = random_state(rng, 2, N=6)
    M, V, G = TERMS[name](model, q, qd)
    c1, c2, s2 = np.cos(q[:, 0]), np.cos(q[:, 1]), np.sin(q[:, 1])
    c12 = np.cos(q[:, 0] + q[:, 1])
    M_ref = np.empty((6, 2, 2))
    M_ref[:, 0, 0] = l2 ** 2 * m2 + 2 * l1 * l2 * m2 * c2 + l1 ** 2 * (m1 + m2)
    M_ref[:, 0, 1] = M_ref[:, 1, 0] = l2 ** 2 * m2 + l1 * l2 * m2 * c2
    M_ref[:, 1, 1] = l2 ** 2 * m2
    V_ref = np.stack((-m2 * l1 * l2 * s2 * qd[:, 1] ** 2
                      - 2 * m2 * l1 * l2 * s2 * qd[:, 0] * qd[:, 1],
                      m2 * l1 * l2 * s2 * qd[:, 0] ** 2), axis=1)
    G_ref = np.stack((m2 * l2 * g * c12 + (m1 + m2) * l1 * g * c1, m2 * l2 * g * c12), axis=1)
    assert _scaled_error(M, M_ref) < TOL
    assert _scaled_error(V, V_ref) < TOL
    assert _scaled_error(G, G_ref) < TOL


def test_single_state_shapes():
    """The explicit Lagrange functions accept (n,) and return (n, n) / (n,)."""
    model = _craig_two_link()
    q, qd = np.array([0.3, -0.2]), np.array([1.0, 0.5])
    assert lagrange_mass_matrix(model, q).shape == (2, 2)
    assert lagrange_coriolis(model, q, qd).shape == (2,)
    assert lagrange_gravity(model, q).shape == (2,)
    assert lagrange_coriolis_coefficients(model, q).shape == (2, 2, 2)
