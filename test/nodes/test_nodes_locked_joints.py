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
"""dynamics_node over real rclpy/DDS: gravity follows a gripper opening and closing.

The node loads an arm whose gripper fingers (and a pan camera) are locked side branches; the
``joint_states`` messages carry the finger positions; the published gravity torques must equal
Pinocchio's reduced model with the fingers locked at the measured positions.
"""

import numpy as np
import pytest

import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from diagnostic_msgs.msg import DiagnosticStatus  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402

from robots import quiet_model_from_urdf  # noqa: E402
from ros_graph import make_dynamics, Probe, vector  # noqa: E402
from urdf_trees import arm_with_gripper, oracle_dynamics, reduced_oracle  # noqa: E402

FINGER, MIMIC = 'grip_finger_joint1', 'grip_finger_joint2'


@pytest.fixture(scope='module')
def urdf():
    """Return the arm-with-gripper URDF text."""
    return arm_with_gripper()


def oracle_gravity(urdf, chain, locked, q):
    """Pinocchio's gravity torques with the side branches locked at ``locked``."""
    reduced = reduced_oracle(urdf, chain, locked)
    return oracle_dynamics(reduced, q, q * 0, q * 0, 'world')[2]


def published_gravity(ros, probe, names, positions):
    """Send one joint state; return the next published gravity torques."""
    probe.clear()
    probe.send_state(names, positions)
    assert probe.wait_outputs()
    return vector(probe.received['gravity_torques'][0])


def test_gravity_follows_the_measured_gripper_opening(ros, urdf):
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf, locked_joints=['camera_pan=0.6'],
                             locked_joints_rate=1000.0)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.array([0.4, -0.3, 0.8, 0.1, -0.6, 0.5])
    pan = {'camera_pan': 0.6}

    closed = published_gravity(ros, probe, chain, q)              # no finger measured yet
    expected = oracle_gravity(urdf, chain, {FINGER: 0.0, MIMIC: 0.0, **pan}, q)
    np.testing.assert_allclose(closed, expected, rtol=0, atol=1e-10 * abs(expected).max())

    half = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.02])   # mimic follows
    expected = oracle_gravity(urdf, chain, {FINGER: 0.02, MIMIC: 0.02, **pan}, q)
    np.testing.assert_allclose(half, expected, rtol=0, atol=1e-10 * abs(expected).max())

    apart = published_gravity(ros, probe, [MIMIC, FINGER] + chain, np.r_[0.04, 0.035, q])
    expected = oracle_gravity(urdf, chain, {FINGER: 0.035, MIMIC: 0.04, **pan}, q)
    np.testing.assert_allclose(apart, expected, rtol=0, atol=1e-10 * abs(expected).max())
    assert np.abs(apart - closed).max() > 1e-3           # the gripper's motion is visible
    assert dynamics.locked.remerges == 2


def test_remerging_is_rate_limited(ros, urdf):
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf, locked_joints_rate=0.01)    # once per 100 s
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.zeros(model.dof)
    first = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.04])
    second = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.0])
    assert dynamics.locked.remerges == 1
    np.testing.assert_array_equal(first, second)          # still merged at 0.04
    expected = oracle_gravity(urdf, chain, {FINGER: 0.04, MIMIC: 0.04, 'camera_pan': 0.2}, q)
    np.testing.assert_allclose(second, expected, rtol=0, atol=1e-10 * abs(expected).max())


def test_locked_joints_parameter_is_validated_and_reloads_the_model(ros, urdf):
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf)
    result = dynamics.set_parameters([Parameter('locked_joints', value=['camera_pan'])])[0]
    assert not result.successful and "'camera_pan' is not NAME=VALUE" in result.reason
    assert dynamics._source_model.locked_joints['camera_pan'] == 0.2
    result = dynamics.set_parameters([Parameter('locked_joints', value=['camera_pan=0.9'])])[0]
    assert result.successful
    assert dynamics._source_model.locked_joints['camera_pan'] == 0.9
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.full(model.dof, 0.2)
    gravity = published_gravity(ros, probe, chain, q)
    expected = oracle_gravity(urdf, chain, {FINGER: 0.0, MIMIC: 0.0, 'camera_pan': 0.9}, q)
    np.testing.assert_allclose(gravity, expected, rtol=0, atol=1e-10 * abs(expected).max())


def test_an_implausible_finger_reading_is_dropped_and_the_next_valid_one_works(ros, urdf):
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf, locked_joints_rate=1000.0)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.array([0.4, -0.3, 0.8, 0.1, -0.6, 0.5])
    pan = {'camera_pan': 0.2}
    opened = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.04])
    for bad, limits in ((1e9, '[0, 0.04] widened by 0.1'), (0.5, '[0, 0.04]')):
        before = dynamics.dropped
        gravity = published_gravity(ros, probe, chain + [FINGER], np.r_[q, bad])
        assert dynamics.dropped == before + 1             # the arm part is still used
        assert f"'{FINGER}' = {bad:.6g} is outside its limits {limits}" in dynamics.last_error
        np.testing.assert_array_equal(gravity, opened)    # the last good opening stays
        assert dynamics.locked.model.locked_joints[FINGER] == 0.04
        level, message = dynamics.health()
        assert level == DiagnosticStatus.WARN and f'{bad:.6g}' in message, message
    for opening in (0.01, 0.03):                          # every later valid reading works
        gravity = published_gravity(ros, probe, chain + [FINGER], np.r_[q, opening])
        expected = oracle_gravity(urdf, chain, {FINGER: opening, MIMIC: opening, **pan}, q)
        np.testing.assert_allclose(gravity, expected, rtol=0, atol=1e-10 * abs(expected).max())
    assert dynamics.health()[0] == DiagnosticStatus.OK
    assert dynamics.locked.remerges == 3


def test_a_refused_remerge_keeps_the_previous_positions_and_model(ros, urdf, monkeypatch):
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf, locked_joints_rate=1000.0)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.array([0.4, -0.3, 0.8, 0.1, -0.6, 0.5])
    opened = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.04])
    set_model = dynamics._set_model

    def refuse(source, payload):
        raise ValueError('refused for the test')
    monkeypatch.setattr(dynamics, '_set_model', refuse)
    gravity = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.01])
    assert 'refused for the test' in dynamics.last_error
    np.testing.assert_array_equal(gravity, opened)
    assert dynamics.locked.model.locked_joints[FINGER] == 0.04
    assert dynamics.health()[0] == DiagnosticStatus.WARN
    monkeypatch.setattr(dynamics, '_set_model', set_model)
    gravity = published_gravity(ros, probe, chain + [FINGER], np.r_[q, 0.02])
    expected = oracle_gravity(urdf, chain, {FINGER: 0.02, MIMIC: 0.02, 'camera_pan': 0.2}, q)
    np.testing.assert_allclose(gravity, expected, rtol=0, atol=1e-10 * abs(expected).max())
    assert dynamics.health()[0] == DiagnosticStatus.OK


@pytest.mark.parametrize('entries, reason', [
    (['grip_finger_joint1=5'], "'grip_finger_joint1' = 5 is outside its limits [0, 0.04]"),
    (['grip_finger_joint1=0.05'], "'grip_finger_joint1' = 0.05 is outside its limits [0, 0.04]"),
    (['nojoint=0.02'], "'nojoint' is not a locked joint of this model; locked joints are "
                       "['camera_pan', 'grip_finger_joint1', 'grip_finger_joint2'"),
    (['arm_j1=0.1'], "'arm_j1' is not a locked joint")])
def test_a_locked_joints_value_the_model_refuses_is_refused_when_set(ros, urdf, entries, reason):
    dynamics = make_dynamics(ros, urdf, locked_joints=['camera_pan=0.6'])
    model = dynamics.model
    result = dynamics.set_parameters([Parameter('locked_joints', value=entries)])[0]
    assert not result.successful and reason in result.reason, result.reason
    assert dynamics.get_parameter('locked_joints').value == ['camera_pan=0.6']
    assert dynamics.model is model and 'model not loaded' not in dynamics.last_error
    result = dynamics.set_parameters([Parameter('locked_joints',
                                                value=['grip_finger_joint1=0.04'])])[0]
    assert result.successful
    assert dynamics._source_model.locked_joints['grip_finger_joint1'] == 0.04


def test_a_model_source_that_a_set_one_overrides_is_refused(ros, urdf):
    dynamics = make_dynamics(ros, urdf)
    result = dynamics.set_parameters([Parameter('model', value='puma560')])[0]
    assert not result.successful
    assert 'model: robot_description is set and takes precedence' in result.reason
    assert dynamics.get_parameter('model').value == ''
    result = dynamics.set_parameters_atomically([Parameter('model', value='puma560'),
                                                 Parameter('robot_description', value='')])
    assert result.successful, result.reason


def test_what_the_loader_says_reaches_the_node_log(ros, monkeypatch):
    """A mimic of a chain joint locked at its default: the reason is logged, not only the lock."""
    from rclpy.impl.rcutils_logger import RcutilsLogger
    from urdf_trees import tree_urdf
    logged = []
    original = RcutilsLogger.warning
    monkeypatch.setattr(RcutilsLogger, 'warning',
                        lambda self, message, **kw: (logged.append(message),
                                                     original(self, message, **kw))[1])
    urdf = tree_urdf(5, [('j', 'revolute', 'b', 'a'),
                         ('k', 'revolute', 'a', 'c', (-1.0, 1.0), ('j', 2.0, 0.1))],
                     name='mimic_note')
    make_dynamics(ros, urdf)
    assert any("'k' mimics chain joint 'j' and is locked at its default instead" in line
               for line in logged), logged
