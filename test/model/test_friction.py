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
"""The joint friction law: closed forms, its derivative, the engine, Pinocchio, the sidecar."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import ModelError, engine
from robot_dynamics.io.friction_yaml import friction_yaml
from robot_dynamics.model.friction import friction_slopes, friction_torques
from robots import pinocchio_configuration, random_model, random_state

LAW = dict(viscous_friction=[0.5, 1.0, 0.0], coulomb_friction=[2.0, 1.0, 0.5],
           friction_offset=[0.3, 0.0, -0.2], coulomb_asymmetry=[0.5, -0.25, 0.0],
           friction_smoothing=[0.0, 0.02, 0.05], stribeck_friction=[1.5, 0.0, 0.4],
           stribeck_velocity=[0.1, 0.0, 0.2])


@pytest.fixture(scope='module')
def model():
    return random_model(np.random.default_rng(3), 3, prismatic_fraction=0.3).replace(**LAW)


def test_closed_form_values(model):
    """Hand-evaluated law at chosen velocities (docstring of robot_dynamics.model.friction)."""
    qd = np.array([0.1, 0.02, -0.2])
    expected = [0.5 * 0.1 + 0.3 + (2.0 + 1.5 / np.e) + 0.5,            # step, v = vs
                1.0 * 0.02 + 1.0 * np.tanh(1.0) - 0.25 * np.tanh(1.0),  # smooth, asymmetric
                -0.2 + (0.5 + 0.4 / np.e) * np.tanh(-4.0)]             # smooth Stribeck
    assert np.allclose(friction_torques(model, qd), expected, rtol=0, atol=1e-15)
    at_rest = friction_torques(model, np.zeros(3))
    assert np.array_equal(at_rest, [0.3, 0.0, -0.2])                    # the offsets only
    levels = friction_torques(model, np.array([[1e3, 1e3, 1e3], [-1e3, -1e3, -1e3]]))
    assert levels[0, 0] - 0.5e3 == pytest.approx(0.3 + 2.5, abs=1e-12)  # Fc + Fa moving +
    assert levels[1, 0] + 0.5e3 == pytest.approx(0.3 - 1.5, abs=1e-12)  # -(Fc - Fa) moving -


def test_slopes_equal_central_differences(model):
    rng = np.random.default_rng(0)
    qd = rng.uniform(-0.5, 0.5, (200, 3))
    qd = qd[np.all(np.abs(qd) > 1e-3, axis=1)]                  # the step: away from 0
    h = 1e-6
    numeric = (friction_torques(model, qd + h) - friction_torques(model, qd - h)) / (2 * h)
    assert np.allclose(friction_slopes(model, qd), numeric, rtol=1e-7, atol=1e-6)
    assert np.array_equal(friction_slopes(model, np.zeros(3))[:1], [0.5])  # documented at 0


def test_engine_computes_the_same_law_and_slopes(model):
    rng = np.random.default_rng(1)
    qd = rng.uniform(-0.5, 0.5, (50, 3))
    assert np.allclose(engine.ENGINE.friction(model, qd, False), friction_torques(model, qd),
                       rtol=1e-15, atol=1e-15)
    assert np.allclose(engine.ENGINE.friction(model, qd, True), friction_slopes(model, qd),
                       rtol=1e-13, atol=1e-13)


def test_inverse_and_forward_dynamics_include_the_law(model):
    """Engine (single, lanes) = numpy reference = Pinocchio's RNEA + armature + the law."""
    import pinocchio as pin
    rng = np.random.default_rng(2)
    q, qd, qdd = random_state(rng, 3, 9)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.allclose(tau, rd.inverse_dynamics(model, q, qd, qdd, solver='rnea'),
                       rtol=1e-12, atol=1e-12)
    for k in range(9):
        assert np.array_equal(tau[k], rd.inverse_dynamics(model, q[k], qd[k], qdd[k]))
    rigid_model = model.without_joint_effects()
    pin_model = pin.buildModelFromXML(rigid_model.to_urdf())
    data = pin_model.createData()
    for k in range(9):
        rigid = pin.rnea(pin_model, data, pinocchio_configuration(pin_model, q[k]), qd[k],
                         qdd[k])
        expected = rigid + model.reflected_inertia * qdd[k] + friction_torques(model, qd[k])
        assert np.allclose(tau[k], expected, rtol=1e-10, atol=1e-10)
    assert np.allclose(rd.forward_dynamics(model, q, qd, tau), qdd, rtol=1e-9, atol=1e-9)
    assert np.allclose(rd.forward_dynamics(model, q, qd, tau, solver='rnea'), qdd,
                       rtol=1e-9, atol=1e-9)


def test_simulation_in_the_engine_feels_the_law(model):
    """A run of the engine's integrator equals the numpy integrator's (same law)."""
    q0, qd0 = np.zeros(3), np.array([0.3, -0.2, 0.1])
    fast = rd.simulate(model, q0, qd0, np.zeros(3), 0.2, dt=1e-3)
    slow = rd.simulate(model, q0, qd0, np.zeros(3), 0.2, dt=1e-3, solver='rnea')
    plain = rd.simulate(model.replace(**dict.fromkeys(LAW, np.zeros(3))), q0, qd0,
                        np.zeros(3), 0.2, dt=1e-3)
    assert np.allclose(fast.q, slow.q, rtol=1e-9, atol=1e-9)
    assert np.abs(fast.q - plain.q).max() > 1e-3


def test_sidecar_round_trip_changes_the_torques(model, tmp_path):
    path = tmp_path / 'arm.friction.yaml'
    path.write_text(friction_yaml(model, laws={model.joint_names[0]: 'stribeck'}))
    plain = model.replace(**dict.fromkeys(LAW, np.zeros(3)))
    back = plain.with_friction(str(path))
    for field in LAW:
        assert np.array_equal(getattr(back, field), getattr(model, field)), field
    q, qd, qdd = random_state(np.random.default_rng(4), 3)
    assert np.array_equal(rd.inverse_dynamics(back, q, qd, qdd),
                          rd.inverse_dynamics(model, q, qd, qdd))
    urdf = tmp_path / 'arm.urdf'
    urdf.write_text(plain.to_urdf())
    loaded = rd.load_model(str(urdf), friction=str(path))
    assert np.allclose(rd.inverse_dynamics(loaded, q, qd, qdd),
                       rd.inverse_dynamics(model, q, qd, qdd), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('text, message', [
    ('joints: {nope: {viscous: 1}}', r"joints \['nope'\] are not in the model"),
    ('joints: {joint1: {viscus: 1}}', "unknown key 'viscus'"),
    ('joints: {joint1: {viscous: .nan}}', 'viscous must be a finite number'),
    ('joints: {joint1: {viscous: &a 1, coulomb: *a}}', 'anchors and aliases are refused'),
    ('joints: {joint1: {coulomb: 1, asymmetry: 2}}', r'give \|Fa\| <= Fc'),
    ('joints: {joint1: {stribeck: 1}}', 'stribeck_velocity of joint .* must be > 0'),
    ('[1, 2]', 'expected a mapping with "joints'),
])
def test_bad_sidecars_are_refused_naming_the_fix(text, message):
    with pytest.raises(ModelError, match=message):
        rd.load_model('two_link').with_friction(text + '\n')


def test_generated_code_refuses_the_richer_law(model):
    with pytest.raises(ValueError, match='generated code holds viscous and Coulomb friction '
                                         'only'):
        rd.generate(model)
    fast = rd.fast.compile(model, backend='python')          # the engine computes it
    q, qd, qdd = random_state(np.random.default_rng(5), 3)
    assert fast.method == 'reference'
    assert np.allclose(fast.inverse_dynamics(q, qd, qdd), rd.inverse_dynamics(model, q, qd, qdd),
                       rtol=1e-14, atol=1e-14)
