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
"""What the dynamics node computes with and its settings' rules, without rclpy.

control/effective_model.py: the effective model (payload, overrides, order), a payload's
checks, the settings, the ~/reload_model rate and a desired trajectory's acceptance.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control.effective_model import (EffectiveModel, ReloadGate, accepted_motion,
                                                    check_change, check_settings,
                                                    checked_payload)
from robot_dynamics.control.goals import NeedsState, TrajectoryRequest
from robot_dynamics.control.joint_states import message_joint_limit

INERTIA = [0.02, 0.03, 0.04, 0.0, 0.0, 0.0]


def test_the_effective_model_is_the_source_with_payload_overrides_and_order():
    source = rd.load_model('ur5')
    payload = checked_payload(source, 2.5, [0.05, -0.02, 0.1], INERTIA)
    names = list(reversed(source.joint_names))
    built = EffectiveModel.build(source, payload, {'gravity': [0.0, 0.0, -1.62],
                                                   'joints': names})
    q = np.linspace(-0.5, 0.5, source.dof)
    heavier = source.with_payload(*payload).with_gravity(np.array([0.0, 0.0, -1.62]))
    np.testing.assert_allclose(rd.gravity_torques(built.model, q),
                               rd.gravity_torques(heavier, q), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rd.gravity_torques(built.no_gravity, q), np.zeros(source.dof))
    assert built.names == names and list(built.order) == list(range(source.dof))[::-1]
    assert built.message_limit == message_joint_limit(source)
    with pytest.raises(ValueError, match='joints'):
        EffectiveModel.build(source, None, {'joints': names[:2]})


def test_a_payload_that_is_not_finite_or_too_heavy_is_refused():
    source = rd.load_model('ur5')
    with pytest.raises(ValueError, match='NaN or inf'):
        checked_payload(source, np.nan, [0.0, 0.0, 0.0], INERTIA)
    with pytest.raises(ValueError):
        checked_payload(source, 1e4, [0.0, 0.0, 0.0], INERTIA)


def test_settings_and_the_reload_rate():
    check_settings({'solver': 'rnea', 'feasibility': 'scale', 'publish_mode': 'timer'})
    for values, reason in (({'solver': 'nope'}, "solver: unknown 'nope'; valid solvers: "),
                           ({'feasibility': 'maybe'}, "feasibility: 'maybe' is not one of"),
                           ({'joint_states_qos': 'best'}, 'joint_states_qos')):
        with pytest.raises(ValueError, match=reason):
            check_settings(values)
    gate = ReloadGate(interval=1.0)
    assert gate.refusal(10.0) == ''
    assert gate.refusal(10.25) == 'reload refused: one per 1.0 s; retry in 0.75 s'
    assert gate.refusal(11.0) == ''


def test_a_desired_motion_is_judged_from_the_state():
    model = rd.load_model('ur5')
    q0 = np.zeros(model.dof)
    request = TrajectoryRequest.from_points(model.joint_names, [0.0, 2.0],
                                            [q0, q0 + 0.1], [[], []], [[], []], 0)
    with pytest.raises(NeedsState):
        accepted_motion(model, request, None, 10 ** 9, 'reject')
    trajectory, note = accepted_motion(model, request, (q0, q0), 10 ** 9, 'reject')
    assert note == '' and trajectory.start_ns == 10 ** 9
    fast = TrajectoryRequest.from_points(model.joint_names, [0.0, 0.15],     # beyond 150 N m
                                         [q0, q0 + 0.3], [[], []], [[], []], 0)
    _, note = accepted_motion(model, fast, (q0, q0), 10 ** 9, 'warn')
    assert note.startswith('desired_trajectory warn: joint shoulder_lift_joint would need')


def test_a_parameter_change_is_refused_before_it_is_applied():
    source = rd.load_model('ur5')
    check_change({'gravity': [0.0, 0.0, -1.0]}, {'gravity': [0.0, 0.0, -1.0]}, source, None)
    for overrides, reason in (({'solver': 'nope'}, 'solver'),
                              ({'gravity': [0.0, 0.0, np.inf]}, 'gravity'),
                              ({'joints': ['a']}, 'joints'),
                              ({'model': 'nope'}, 'not a bundled model'),
                              ({'rotor_inertia': [1.0, 2.0]}, 'rotor_inertia'),
                              ({'locked_joints': ['nope=1.0']}, 'nope')):
        with pytest.raises(ValueError, match=reason):
            check_change(overrides, overrides, source, None)
    with pytest.raises(ValueError, match='robot_description is set and takes precedence'):
        check_change({'model': 'ur5'}, {'model': 'ur5', 'robot_description': '<robot/>'},
                     None, None)
    check_change({'joints': ['a']}, {'joints': ['a']}, None, None)     # no model: judged later
