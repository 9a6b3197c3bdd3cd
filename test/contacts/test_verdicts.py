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
"""A node's contact verdicts over a stream of joint states, without rclpy (contacts/verdicts.py).

At rest with the motors pushing ``s`` more than gravity on one joint, the estimate tends to
``-s`` (time constant 1/K): beyond the threshold it is a contact, counted once, published once.
"""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.contacts.verdicts import ContactVerdicts

STEP = 6.0      # N m on the second joint, three times the threshold


def run(verdicts, model, steps, names=None, drop=None):
    """Feed ``steps`` samples 2 ms apart at rest; the push from sample 40; return the changes."""
    q = np.full(model.dof, 0.3)
    gravity = rd.gravity_torques(model, q)
    names = list(names or model.joint_names)
    changes = []
    for k in range(steps):
        effort = gravity + (np.eye(model.dof)[1] * STEP if k >= 40 else 0.0)
        efforts = [effort[model.joint_names.index(n)] for n in names if n != drop]
        reading = verdicts.judge(2e-3 * k, q, np.zeros(model.dof), names, efforts)
        if verdicts.changed:
            changes.append((k, reading.in_contact))
    return changes


def test_a_contact_is_counted_once_and_the_verdict_published_when_it_changes():
    model = rd.load_model('panda')
    verdicts = ContactVerdicts(gain=50.0, thresholds=[2.0])
    verdicts.build(model)
    assert verdicts.monitor is not None and verdicts.problem == ''
    changes = run(verdicts, model, 80, names=list(reversed(model.joint_names)))   # by name
    # judged from 3/K = 60 ms (sample 30); 2 N m of the 6 N m step is reached ln(1.5) / 50 =
    # 8.1 ms after it: sample 44
    assert changes == [(30, False), (44, True)]
    assert verdicts.contacts == 1 and verdicts.published is True
    level, message = verdicts.health()
    assert level == 'WARN' and message.startswith('in contact') and 'panda_joint2' in message
    assert verdicts.values()['contacts_detected'] == '1'
    assert verdicts.values()['contact_thresholds'] == 'fixed values'


def test_a_first_command_after_a_hold_raises_no_alarm():
    """The lockstep simulator's start: zero efforts at t = 0, then the torque holding the arm.

    The first interval's trapezoid mixes the two: the estimate starts at (1 - e^{-K h}) G / 2
    (over the threshold on the shoulder) and decays with 1/K; it is judged from 3/K on.
    """
    model = rd.load_model('panda')
    q, h, K = np.full(model.dof, 0.3), 5e-3, 50.0
    gravity = rd.gravity_torques(model, q)
    verdicts = ContactVerdicts(gain=K, thresholds=[1.0])
    verdicts.build(model)
    names, readings = list(model.joint_names), []
    for k in range(40):
        efforts = np.zeros(model.dof) if k == 0 else gravity
        readings.append(verdicts.judge(h * k, q, np.zeros(model.dof), names, efforts))
    first = readings[1].tau_ext
    assert np.allclose(first, -np.expm1(-K * h) * gravity / 2, rtol=1e-9, atol=1e-12)
    assert np.abs(first).max() > 1.0                        # an alarm, were it judged
    judged = [k for k, r in enumerate(readings) if r.judged]
    assert judged[0] == 12 and not any(r.in_contact for r in readings)     # 60 ms = 3/K
    assert 'started less than 60 ms (3/K) ago' in readings[5].describe()
    assert verdicts.contacts == 0 and verdicts.published is False


def test_a_sample_without_every_effort_is_not_judged_and_health_says_so():
    model = rd.load_model('panda')
    verdicts = ContactVerdicts(gain=50.0, thresholds=[2.0])
    verdicts.build(model)
    assert run(verdicts, model, 5, drop=model.joint_names[3]) == []
    level, message = verdicts.health()
    assert level == 'WARN' and '~/collision is not updated' in message


def test_bad_thresholds_are_an_error_until_the_model_changes_and_no_thresholds_no_warn():
    model = rd.load_model('panda')
    verdicts = ContactVerdicts(thresholds=[1.0, 2.0])           # neither 1 nor 7 values
    assert verdicts.build(model) == [] and verdicts.monitor is None
    assert verdicts.health()[0] == 'ERROR' and 'contacts off' in verdicts.problem
    verdicts.forget_model()
    assert verdicts.model is None
    quiet = ContactVerdicts()                                    # nothing to judge with
    quiet.build(model)
    run(quiet, model, 3)
    assert quiet.health() is None and quiet.values()['contact_thresholds'] == 'none: not judged'
    assert ContactVerdicts(enabled=False).values() == {
        'contacts': 'disabled (contacts_enabled: false)'}
