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
"""The controllers' joint-state inputs: matched and merged by name, stale per joint (D10).

Both controllers take ``joint_states`` through ``nodes/joint_state_merge.py``, as the dynamics
node does: an arm whose joints come from two drivers (two partial messages) is controlled,
a message of another device is ignored, and while one driver's joints are stale nothing is
commanded. Computed-torque commands are checked against the control law evaluated here
(closed form for the hand-fed controller, the library's inverse dynamics for the one with a
model).
"""

import math

import numpy as np
import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from rclpy.parameter import Parameter
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

import robot_dynamics as rd
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
from ros_graph import (arm3_model_fixture, arm3_urdf_fixture,  # noqa: F401 (fixtures)
                       ControllerRig)

TOL = 1e-12


def test_controller_matches_joint_states_by_name_and_ignores_other_devices(ros):
    rig = ControllerRig(ros, kp=[10.0], kd=[0.0], use_feedforward=False)
    order = ['a', 'b', 'c']
    rig.output_names.publish(JointState(name=order, effort=[0.0] * 3))
    assert ros.spin_until(lambda: rig.controller.joint_names == order)
    target = np.array([0.1, 0.2, 0.3])
    mass = np.diag([1.0, 2.0, 3.0])
    rig.step(['gripper_left', 'gripper_right'], [0.01, 0.01], mass)   # another device first
    assert ros.spin_until(lambda: rig.controller.ignored >= 1) and not rig.commands
    held_at(rig, order, target)
    q = {'a': 0.0, 'b': -0.1, 'c': 0.5}
    rig.step(['c', 'b', 'a'], [q['c'], q['b'], q['a']], mass)          # reversed order
    assert ros.spin_until(lambda: rig.commands)
    expected = mass @ (10.0 * (target - np.array([q[name] for name in order])))
    np.testing.assert_allclose(rig.commands[-1], expected, rtol=0, atol=1e-12)


def test_controller_gains_validated(ros):
    with pytest.raises(ValueError, match='kp: gains must be finite'):
        ControllerRig(ros, kp=[math.nan])
    rig = ControllerRig(ros, joints=['a', 'b', 'c'])
    for name, value, reason in (('kp', [1.0, 2.0], 'kp: 2 values'), ('kd', [-1.0], '>= 0'),
                                ('kp', [1.0, math.inf, 1.0], 'finite')):
        result = rig.controller.set_parameters([Parameter(name, value=value)])[0]
        assert not result.successful and reason in result.reason, result.reason
    result = rig.controller.set_parameters([Parameter('kp', value=[1.0, 2.0, 3.0])])[0]
    assert result.successful


def test_controller_learnt_order_refuses_gains_of_the_wrong_length(ros):
    rig = ControllerRig(ros, kp=[1.0, 2.0])
    rig.output_names.publish(JointState(name=['a', 'b', 'c'], effort=[0.0] * 3))
    assert ros.spin_until(lambda: 'cannot control joints' in rig.controller.last_error)
    assert rig.controller.joint_names is None
    rig.step(['a', 'b', 'c'], [0.0] * 3, np.eye(3))
    assert not rig.commands


def test_computed_torque_follows_a_new_order_of_the_dynamics_node(ros):
    """``joints`` unset: the order is the dynamics node's, also after it changes; set: refused."""
    rig = ControllerRig(ros, kp=[10.0, 20.0, 30.0], kd=[0.0], use_feedforward=False)
    target = {'a': 0.1, 'b': 0.2, 'c': 0.3}
    learnt(rig, ['c', 'a', 'b'], np.array([target[name] for name in 'cab']))
    order = ['a', 'b', 'c']                                     # the dynamics node's new order
    rig.output_names.publish(JointState(name=order, effort=[0.0] * 3))
    assert ros.spin_until(lambda: rig.controller.joint_names == order)
    rig.step(order, [target[name] for name in order], np.eye(3))   # re-read at the arm's state
    assert ros.spin_until(lambda: rig.controller.follower.following)
    rig.commands.clear()
    ros.spin_for(0.01)
    q = {'a': 0.0, 'b': -0.1, 'c': 0.5}
    rig.step(['c', 'b', 'a'], [q['c'], q['b'], q['a']], np.eye(3))
    assert ros.spin_until(lambda: rig.commands)
    error = np.array([target[name] - q[name] for name in order])  # the same trajectory, re-read
    np.testing.assert_allclose(rig.commands[-1], np.array([10.0, 20.0, 30.0]) * error,
                               rtol=0, atol=TOL)
    fixed = ControllerRig(ros, joints=['a', 'b', 'c'])
    fixed.output_names.publish(JointState(name=['c', 'a', 'b'], effort=[0.0] * 3))
    assert ros.spin_until(lambda: 'set the same `joints` on both' in fixed.controller.last_error)
    assert fixed.controller.joint_names == ['a', 'b', 'c']


def learnt(rig, order, target):
    """Teach ``rig``'s controller the joint order and to hold ``target`` (:func:`held_at`)."""
    rig.output_names.publish(JointState(name=order, effort=[0.0] * len(order)))
    assert rig.ros.spin_until(lambda: rig.controller.joint_names == order)
    held_at(rig, order, target)


def held_at(rig, order, target):
    """A one-point trajectory at ``target`` and the arm there: it holds ``target``.

    (A point at time 0 away from the arm would be a step: refused, control/goals.py.) The
    commands of that first step are cleared; the arm then moves away by hand, and each
    command is ``M (Kp (target - q))``.
    """
    rig.trajectory.publish(trajectory_message(order, [0.0], [target]))
    rig.step(order, target, np.eye(len(order)))
    assert rig.ros.spin_until(lambda: rig.controller.follower.following)
    rig.ros.spin_until(lambda: rig.commands)
    rig.commands.clear()
    rig.ros.spin_for(0.01)               # a later stamp: the hand moves are plausible speeds


def test_computed_torque_merges_two_partial_messages(ros):
    """Joints a, b from one driver and c from another: one command, M (Kp e) exactly."""
    rig = ControllerRig(ros, kp=[10.0], kd=[0.0], use_feedforward=False, stale_timeout=2.0)
    order = ['a', 'b', 'c']
    rig.output_names.publish(JointState(name=order, effort=[0.0] * 3))
    assert ros.spin_until(lambda: rig.controller.joint_names == order)
    mass = np.array([[2.0, 0.1, 0.0], [0.1, 1.5, 0.2], [0.0, 0.2, 1.0]])
    rig.step(['b', 'a'], [-0.1, 0.0], mass)                     # c not received yet
    assert not rig.commands and rig.controller.ignored == 0
    rig.step(['c'], [0.5], mass)                                # the other driver
    assert ros.spin_until(lambda: rig.commands)                 # holds the merged state
    target = np.array([0.0, -0.1, 0.5])
    np.testing.assert_allclose(rig.commands[-1], np.zeros(3), rtol=0, atol=TOL)
    rig.step(['a'], [0.05], mass)                               # a moves, b and c kept
    assert ros.spin_until(lambda: len(rig.commands) == 2)
    expected = mass @ (10.0 * (target - np.array([0.05, -0.1, 0.5])))
    np.testing.assert_allclose(rig.commands[-1], expected, rtol=0, atol=TOL)
    assert all(np.isfinite(command).all() for command in rig.commands)


def test_computed_torque_commands_nothing_while_a_half_is_stale(ros):
    rig = ControllerRig(ros, kp=[10.0], kd=[0.0], use_feedforward=False, stale_timeout=1.0)
    learnt(rig, ['a', 'b', 'c'], np.zeros(3))
    rig.step(['c'], [0.5], np.eye(3))                           # sent once, then stops
    rig.step(['a', 'b'], [0.1, 0.2], np.eye(3))
    assert ros.spin_until(lambda: rig.commands)
    ros.spin_for(1.1)                                           # c is now > 1.1 s old
    sent, dropped = len(rig.commands), rig.controller.dropped
    rig.step(['a', 'b'], [0.1, 0.2], np.eye(3))
    assert ros.spin_until(lambda: rig.controller.dropped > dropped)
    assert len(rig.commands) == sent
    assert "joints ['c'] are stale" in rig.controller.last_error, rig.controller.last_error
    assert 'nothing commanded' in rig.controller.last_error
    rig.step(['c'], [0.5], np.eye(3))                           # it comes back
    assert ros.spin_until(lambda: len(rig.commands) > sent)
    # Nothing was commanded for longer than stale_timeout: the arm is held where it is now,
    # not driven back to the old hold point (issue 31): zero error, zero command.
    np.testing.assert_allclose(rig.commands[-1], np.zeros(3), rtol=0, atol=TOL)
    assert 'resumed after' in rig.controller.last_error


class TrajectoryRig:
    """A joint trajectory controller on the 3-joint arm, its joint states sent by hand."""

    def __init__(self, ros, urdf, **parameters):
        self.ros = ros
        overrides = [Parameter('robot_description', value=urdf)]
        overrides += [Parameter(k, value=v) for k, v in parameters.items()]
        self.controller = ros.add(JointTrajectoryController(namespace=ros.namespace,
                                                            parameter_overrides=overrides))
        node = ros.node('rig')
        self.node = node
        self.joint_states = node.create_publisher(JointState, 'joint_states',
                                                  rclpy.qos.qos_profile_sensor_data)
        self.commands = []
        node.create_subscription(Float64MultiArray, 'effort_commands',
                                 lambda msg: self.commands.append(np.array(msg.data)), 10)
        assert ros.spin_until(lambda: self.joint_states.get_subscription_count() > 0
                              and self.controller.pub_command.get_subscription_count() > 0)

    def send(self, names, q, qd):
        """Publish one JointState stamped now, then let the controller run."""
        msg = JointState(name=list(names), position=[float(v) for v in q],
                         velocity=[float(v) for v in qd])
        msg.header.stamp = self.node.get_clock().now().to_msg()
        self.joint_states.publish(msg)
        self.ros.spin_for(0.05)


def hold_torques(model, q, qd):
    """Return the law holding the first ``q`` (Kd = 20): ``ID(q, q̇, -Kd q̇) - F(q̇) + F(0)``."""
    zero = np.zeros(model.dof)
    return rd.inverse_dynamics(model, q, qd, -20.0 * qd) - rd.friction_torques(model, qd) \
        + rd.friction_torques(model, zero)


def test_trajectory_controller_merges_two_partial_messages(ros, arm3_urdf, arm3_model):
    rig = TrajectoryRig(ros, arm3_urdf)
    names = list(arm3_model.joint_names)
    q, qd = np.array([0.3, -0.5, 0.2]), np.array([0.0, 0.0, 0.0])
    rig.send(names[:2], q[:2], qd[:2])                          # the arm's driver
    assert not rig.commands
    assert ros.spin_until(lambda: 'missing joints' in rig.controller.last_error)
    rig.send(names[2:], q[2:], qd[2:])                          # the wrist's driver
    assert ros.spin_until(lambda: rig.commands)
    command = rig.commands[-1]
    assert command.shape == (3,) and np.isfinite(command).all()
    expected = hold_torques(arm3_model, q, qd)
    np.testing.assert_allclose(command, expected, rtol=0,
                               atol=TOL * max(1.0, abs(expected).max()))
    rig.send(names[:1], q[:1], [0.1])                           # joint 1 moves: v from it
    assert ros.spin_until(lambda: len(rig.commands) == 2)
    expected = hold_torques(arm3_model, q, np.array([0.1, 0.0, 0.0]))
    np.testing.assert_allclose(rig.commands[-1], expected, rtol=0,
                               atol=TOL * max(1.0, abs(expected).max()))


def test_trajectory_controller_commands_nothing_while_a_half_is_stale(ros, arm3_urdf,
                                                                      arm3_model):
    rig = TrajectoryRig(ros, arm3_urdf, stale_timeout=1.0)
    names, q = list(arm3_model.joint_names), np.array([0.3, -0.5, 0.2])
    rig.send(names[2:], q[2:], [0.0])                           # sent once, then stops
    rig.send(names[:2], q[:2], [0.0, 0.0])
    assert ros.spin_until(lambda: rig.commands)
    ros.spin_for(1.1)                                           # joint 3 is > 1.1 s old
    sent = len(rig.commands)
    rig.send(names[:2], q[:2], [0.0, 0.0])
    assert ros.spin_until(lambda: 'are stale' in rig.controller.last_error)
    assert f"joints ['{names[2]}'] are stale" in rig.controller.last_error
    assert len(rig.commands) == sent
    rig.send(names[2:], q[2:], [0.0])                           # back: commands again
    assert ros.spin_until(lambda: len(rig.commands) > sent)
    assert np.isfinite(rig.commands[-1]).all()


@pytest.mark.parametrize('offset, reason', [(None, 'negative stamp'), (1000, 'in the future')])
def test_trajectory_controller_refuses_the_stamps_the_dynamics_node_refuses(
        ros, arm3_urdf, arm3_model, offset, reason):
    rig = TrajectoryRig(ros, arm3_urdf)
    msg = JointState(name=list(arm3_model.joint_names), position=[0.0] * 3)
    now = rig.node.get_clock().now().nanoseconds // 10 ** 9
    msg.header.stamp.sec = -5 if offset is None else now + offset
    rig.joint_states.publish(msg)
    assert ros.spin_until(lambda: rig.controller.dropped)
    assert reason in rig.controller.last_error, rig.controller.last_error
    assert not rig.commands


def test_trajectory_controller_refuses_an_absurd_position_by_its_field(
        ros, arm3_urdf, arm3_model):
    """Trial 2: 1e300 reached the control law; the drop reason was an exception text."""
    rig = TrajectoryRig(ros, arm3_urdf)
    names = list(arm3_model.joint_names)
    rig.send(names, [0.0, 1e300, 0.0], [0.0] * 3)
    assert ros.spin_until(lambda: rig.controller.dropped)
    said = rig.controller.last_error
    assert said.startswith(f"joint_states dropped: joint state position of '{names[1]}' is "
                           '1e+300, outside the joint limits'), said
    assert not rig.commands


def test_trajectory_controller_refuses_a_spoofed_jump_and_follows_a_reset(ros):
    """Trial 2: spoofed [0.3]*6 states between the simulator's drove the UR5 to its stops."""
    from robot_dynamics.model.bundled import data_path
    with open(data_path('urdf/ur5.urdf')) as f:
        rig = TrajectoryRig(ros, f.read())
    names, zero = list(rig.controller.model.joint_names), [0.0] * 6
    rig.send(names, zero, zero)
    assert ros.spin_until(lambda: rig.commands)
    msg = JointState(name=names, position=[0.3] * 6)   # 0.3 rad, stamped 1 ms later
    msg.header.stamp = Time(nanoseconds=rig.controller.state[2] + 10 ** 6).to_msg()
    rig.joint_states.publish(msg)
    assert ros.spin_until(lambda: rig.controller.dropped)
    assert rig.controller.last_error.startswith(
        f'joint_states dropped: position[{names[0]}] jumps 0.3 in 0.001 s'), \
        rig.controller.last_error
    assert rig.controller.state[0].tolist() == zero
    for _ in range(3):          # 0.3 rad stamped >= 50 ms later: plausible (0.47), taken
        rig.send(names, [0.3] * 6, zero)
    assert rig.controller.state[0].tolist() == [0.3] * 6


def test_computed_torque_refuses_a_far_first_point_and_absurd_positions(ros):
    """Trial 2: one waypoint 2 rad away at 1 ms was a step of the desired position."""
    rig = ControllerRig(ros, kp=[10.0], kd=[0.0], use_feedforward=False)
    order = ['a', 'b']
    rig.output_names.publish(JointState(name=order, effort=[0.0] * 2))
    assert ros.spin_until(lambda: rig.controller.joint_names == order)
    rig.trajectory.publish(trajectory_message(order, [0.001], [[2.0, 0.0]]))
    ros.spin_for(0.2)
    assert not rig.controller.follower.following and not rig.controller.dropped  # a state
    rig.step(order, [0.0, 0.0], np.eye(2))
    assert ros.spin_until(lambda: rig.controller.dropped)
    assert "trajectory velocity of 'a' reaches 2.67e+03" in rig.controller.last_error
    assert not rig.controller.follower.following
    rig.step(order, [0.0, 1e300], np.eye(2))
    assert 'position[b] = 1e+300, beyond the plausible 10000 of any joint' \
        in rig.controller.last_error
    assert all(np.abs(c).max() < 1e-12 for c in rig.commands)    # holds 0: no step
