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
"""Collision thresholds: the envelope fit, the learnt band, the file, the model check."""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts import CollisionThresholds, collision_thresholds, observe
from robot_dynamics.contacts.thresholds import fit_band, friction_at_rest
from robot_dynamics.errors import ModelWarning
from robot_dynamics.io.thresholds_yaml import ThresholdsError


def test_the_band_is_the_least_envelope():
    """Samples under a + b x, touching it at both ends: the fit finds a and b exactly."""
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 3, 2000)
    x[:2] = 0.0, 3.0
    height = 0.4 + 0.25 * x
    residual = height * rng.uniform(0, 1, x.size) * rng.choice([-1, 1], x.size)
    residual[:2] = -height[0], height[1]
    features = np.column_stack((np.ones_like(x), x, rng.uniform(0, 1, (x.size, 2))))
    coefficients = fit_band(residual, features)
    assert np.allclose(coefficients, [0.4, 0.25, 0, 0], atol=1e-9)
    assert np.all(features @ coefficients >= np.abs(residual) - 1e-9)


@pytest.fixture(scope='module')
def learnt():
    """Thresholds of the Panda (viscous + Coulomb friction) on a noisy recording."""
    model = rd.load_model('panda').replace(viscous_friction=np.full(7, 0.6),
                                           coulomb_friction=np.linspace(0.3, 0.9, 7))
    rng = np.random.default_rng(4)
    t = np.cumsum(np.r_[0.0, rng.uniform(8e-4, 1.2e-3, 3999)])
    w = np.linspace(0.7, 2.1, 7)
    q, qd = np.sin(np.outer(t, w)), np.cos(np.outer(t, w)) * w
    qdd = -np.sin(np.outer(t, w)) * w ** 2
    tau = rd.inverse_dynamics(model, q, qd, qdd) * 1.03 + rng.normal(0, 0.05, q.shape)
    return model, t, q, qd, tau, collision_thresholds(model, t, q, qd, tau)


def test_learnt_thresholds_cover_the_learning_data_with_the_safety_factor(learnt):
    model, t, q, qd, tau, thresholds = learnt
    run = observe(model, t, q, qd, tau, thresholds.gain)
    band = thresholds.band(run.qd, run.momentum_rate, run.gravity)
    ratio = np.abs(run.tau_ext) / band
    assert ratio.max() <= 1 / thresholds.safety + 1e-6          # the envelope times safety
    assert np.all(ratio.max(axis=0) > 0.3)                      # and no looser than needed
    assert np.all(thresholds.constant >= 0.2 * friction_at_rest(model) - 1e-15)
    assert np.allclose(thresholds.peak, np.abs(run.tau_ext).max(axis=0))
    assert thresholds.safety == 2.0 and thresholds.hold == 'linear'
    assert np.all(thresholds.gain == 50.0)


def test_floor_and_margins(learnt):
    model, t, q, qd, tau, _ = learnt
    exact = rd.inverse_dynamics(model, q, qd, -np.sin(np.outer(t, np.linspace(0.7, 2.1, 7)))
                                * np.linspace(0.7, 2.1, 7) ** 2)
    thresholds = collision_thresholds(model, t, q, qd, exact, friction_margin=0.0)
    rms = np.sqrt(np.mean(exact ** 2, axis=0))
    assert np.allclose(thresholds.constant, 0.01 * rms, rtol=1e-12)   # the floor: no zeros
    with pytest.raises(ValueError, match='safety: 0.5; give a factor >= 1'):
        collision_thresholds(model, t, q, qd, tau, safety=0.5)
    with pytest.raises(ValueError, match='floor: -1'):
        collision_thresholds(model, t, q, qd, tau, floor=-1)


def test_efforts_that_never_change_are_refused(learnt):
    """A driver's zeros would give thresholds as large as the torque: never 'no contact'."""
    model, t, q, qd, tau, _ = learnt
    zeros = tau.copy()
    zeros[:, 4] = 0.0
    with pytest.raises(ValueError, match=r"tau: the efforts of joints \['panda_joint5'\] never "
                                         r'change \(all \[0\.\]\): no torque was recorded'):
        collision_thresholds(model, t, q, qd, zeros)


def test_a_model_that_explains_little_is_warned_about(learnt):
    model, t, q, qd, tau, _ = learnt
    wrong = model.replace(mass=2 * model.mass)
    with pytest.warns(ModelWarning, match=r"thresholds: on joints \[.*'panda_joint2'.* more "
                                          r'than half the measured torque unexplained .*'
                                          r'panda_joint2 37\.5 of 27'):
        collision_thresholds(wrong, t, q, qd, tau)
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)
        collision_thresholds(model, t, q, qd, tau)


def test_the_file_round_trips_and_reorders_joints(learnt, tmp_path):
    model, *_, thresholds = learnt
    path = thresholds.write(tmp_path / 'arm.contacts.yaml', comment='test')
    back = CollisionThresholds.read(str(path))
    for key in ('gain', 'constant', 'velocity', 'momentum_rate', 'gravity', 'peak',
                'fingerprint'):
        assert np.array_equal(getattr(back, key), getattr(thresholds, key)), key
    assert back.joint_names == model.joint_names and back.source == thresholds.source
    text = path.read_text()
    assert text.startswith('# test\n') and 'format: robot_dynamics/contacts 1' in text
    reversed_file = CollisionThresholds(model.joint_names[::-1], thresholds.gain[::-1],
                                        thresholds.constant[::-1], thresholds.velocity[::-1],
                                        thresholds.momentum_rate[::-1],
                                        thresholds.gravity[::-1], fingerprint=thresholds
                                        .fingerprint[::-1])
    ordered = reversed_file.for_model(model)
    assert ordered.joint_names == model.joint_names
    assert np.array_equal(ordered.constant, thresholds.constant)


def test_a_model_the_thresholds_were_not_learnt_for_is_named(learnt):
    model, *_, thresholds = learnt
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)
        thresholds.for_model(model)                              # the same model: silent
    other = model.replace(coulomb_friction=np.zeros(7))
    with pytest.warns(ModelWarning, match=r"learnt for another model .* differs at joints "
                                          r"\['panda_joint1'.*--friction"):
        thresholds.for_model(other)
    with pytest.raises(ValueError, match=r"no thresholds for joints \['joint1'"):
        thresholds.for_model(rd.load_model('ur5').replace(
            joint_names=tuple(f'joint{k}' for k in range(1, 7))))


@pytest.mark.parametrize('text, message', [
    ('joints: []', 'expected a mapping with "format'),
    ('format: robot_dynamics/contacts 9\njoints: {}', "format 'robot_dynamics/contacts 9'"),
    ('hold: zoh\njoints: {}', 'hold \'zoh\'; use linear or previous'),
    ('joints:\n  j1: {gain: 50, constant: 1, velocity: 0, momentum_rate: 0}',
     r"\['gravity'\] missing"),
    ('joints:\n  j1: {gain: 50, constant: 1, velocity: 0, momentum_rate: 0, gravity: 0, '
     'speed: 2}', "unknown key 'speed'"),
    ('joints:\n  j1: {gain: 0, constant: 1, velocity: 0, momentum_rate: 0, gravity: 0}',
     'gain 0.0; the observer gain must be > 0'),
    ('joints:\n  j1: {gain: 50, constant: -1, velocity: 0, momentum_rate: 0, gravity: 0}',
     'constant must be a finite number >= 0'),
    ('joints:\n  j1: {gain: 50, constant: .nan, velocity: 0, momentum_rate: 0, gravity: 0}',
     'constant must be a finite number'),
    ('joints:\n  j1: &a {gain: 50, constant: 1, velocity: 0, momentum_rate: 0, gravity: 0}\n'
     '  j2: *a', 'alias'),
])
def test_bad_files_are_refused_naming_the_field(text, message):
    with pytest.raises(ThresholdsError, match=message):
        CollisionThresholds.read(text + '\n')


def test_a_missing_file_is_named():
    with pytest.raises(ThresholdsError, match='nowhere.contacts.yaml: no such file'):
        CollisionThresholds.read('nowhere.contacts.yaml')
