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
"""Joint compliance seen by motor-side encoders (identification/compliance.py).

The truth is a flexible-joint PUMA (Spong's model, 5000 N m/rad on every joint) recorded
by encoders on the motors, noise-free: outside the rigid model class the estimator fits,
and its errors are measured against the truth's own parameters.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import design_excitation, identify, parameters
from robot_dynamics.identification.physical import as_built
from robot_dynamics.io.recordings import Recording

STIFFNESS = 5000.0
RATE = 1000.0


def flexible_recording(truth, trajectory, seconds):
    """Motor positions ``q + τ/k`` and motor torques (rotor and friction on the motor)."""
    h = 1.0 / RATE
    t = (np.arange(int(seconds * RATE)) + 0.5) * h

    def link(time):
        q, qd, qdd = trajectory.evaluate(time)
        return q, qd, rd.inverse_dynamics(truth.without_joint_effects(), q, qd, qdd)
    q, qd, tau = link(t)
    before, after = link(t - h)[2], link(t + h)[2]
    theta = q + tau / STIFFNESS
    theta_d = qd + (after - before) / (2 * h) / STIFFNESS
    theta_dd = trajectory.evaluate(t)[2] + (after - 2 * tau + before) / h ** 2 / STIFFNESS
    motor = tau + truth.reflected_inertia * theta_dd + rd.friction_torques(truth, theta_d)
    return Recording(truth.joint_names, t, theta, motor)


@pytest.fixture(scope='module')
def runs():
    nominal = rd.load_model('puma560')
    truth = as_built(nominal)
    excitation = design_excitation(nominal, time_limit=None, iterations=1, starts=2, seed=1)
    recording = flexible_recording(truth, excitation.trajectory, 20.0)
    return truth, {flag: identify(nominal, recording, validation=0, physical=False,
                                  compliance=flag) for flag in (False, True)}


def _relative_errors(result, truth):
    b = result.base.count
    true = result.base.values(parameters(truth))[:b]
    return np.abs(result.theta[:b] - true) / (np.abs(true) + 1e-3 * np.abs(true).max())


def test_compliance_removes_most_of_the_flexible_joints_bias(runs):
    truth, results = runs
    rigid, corrected = (_relative_errors(results[flag], truth) for flag in (False, True))
    assert np.median(corrected) < 0.5 * np.median(rigid), (np.median(corrected),
                                                           np.median(rigid))   # 1.0 %, 3.8 %
    assert corrected.max() < 0.5 * rigid.max(), (corrected.max(), rigid.max())  # 28 %, 113 %


def test_stiffness_of_the_joints_that_carry_the_arm(runs):
    _, results = runs
    compliance = results[True].details['compliance']
    assert np.all(compliance.used[:3] > 0), compliance           # the wrist deflects little
    stiffness = compliance.stiffness[:3] / STIFFNESS
    assert abs(stiffness[2] - 1) < 0.1, stiffness                # measured 0.96
    assert np.all((stiffness > 0.5) & (stiffness < 2.0)), stiffness   # 1.55, 1.35 (joints 1-2)
    assert not np.any(results[False].details['compliance'].used)
