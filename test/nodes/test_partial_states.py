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
"""Partial joint states merged by name, per-joint staleness, stamped outputs, message sizes.

Issue 20.4: a gripper driver publishing only its finger joints on ``joint_states`` made the
dynamics node drop messages. Issue 20.6: outputs carried no stamp of the state they were
computed from. Issue 22.6: a JointState of any size was processed name by name.
"""

import numpy as np
import pytest

import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Duration, Time  # noqa: E402
from rclpy.serialization import serialize_message  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.control.joint_states import (JointStateMerge,  # noqa: E402
                                                 check_message_size, message_joint_limit)
from robot_dynamics.errors import BadInput, PlausibilityError  # noqa: E402
from robot_dynamics.nodes.conversions import serialized_name_count  # noqa: E402
from robots import quiet_model_from_urdf, random_model  # noqa: E402
from ros_graph import (arm3_model_fixture, arm3_urdf_fixture,  # noqa: E402,F401 (fixtures)
                       dropped_with, make_dynamics, Probe, vector)
from urdf_trees import arm_with_gripper, oracle_dynamics, reduced_oracle  # noqa: E402

TOL = 1e-10


def seconds(stamp):
    """``builtin_interfaces/Time`` → s."""
    return stamp.sec + stamp.nanosec * 1e-9


# ---------------------------------------------------------------------- the merge, alone
def test_merge_keeps_the_latest_value_and_stamp_of_each_joint():
    merge = JointStateMerge(['a', 'b', 'c'])
    assert merge.update(['b', 'x'], [2.0, 9.0], [], 10.0) == 1     # 'x': not a model joint
    assert merge.state() is None and merge.missing() == ['a', 'c']
    assert merge.update(['c', 'a'], [3.0, 1.0], [0.3, 0.1], 11.0) == 2
    q, qd, oldest = merge.state()
    np.testing.assert_array_equal(q, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(qd, [0.1, 0.0, 0.3])
    assert oldest == 10.0
    assert merge.stale(10.6, 0.5) == ['b'] and merge.stale(10.4, 0.5) == []
    assert merge.update(['b'], [2.5], [0.2], 12.0) == 1
    assert merge.state()[2] == 11.0 and merge.stale(11.6, 0.5) == ['a', 'c']


@pytest.mark.parametrize('fields, reason', [
    (dict(names=['a', 'a'], positions=[1.0, 1.0], velocities=[]), 'repeated joint names'),
    (dict(names=['a'], positions=[], velocities=[]), 'no positions'),
    (dict(names=['a'], positions=[1.0], velocities=[1.0, 2.0]), 'velocity has 2 entries'),
    (dict(names=['a'], positions=[1.0], velocities=[], efforts=[1.0, 2.0]),
     'effort has 2 entries'),
    (dict(names=['a'], positions=[np.nan], velocities=[]), 'position contains NaN'),
    (dict(names=['b'], positions=[1.0], velocities=[np.inf]), 'velocity contains NaN'),
])
def test_merge_refuses_a_bad_message_and_changes_nothing(fields, reason):
    merge = JointStateMerge(['a', 'b'])
    merge.update(['a', 'b'], [0.5, 0.6], [0.0, 0.0], 1.0)
    with pytest.raises(BadInput, match=reason):
        merge.update(stamp=2.0, **fields)
    np.testing.assert_array_equal(merge.state()[0], [0.5, 0.6])
    assert merge.state()[2] == 1.0


def test_merge_check_sees_the_merged_positions_and_can_refuse():
    seen = []

    def check(q):
        seen.append(q.copy())
        if q[1] > 1.0:
            raise PlausibilityError('b beyond its limit')
    merge = JointStateMerge(['a', 'b'])
    merge.update(['a'], [0.1], [], 1.0, check=check)
    assert not seen                           # incomplete: nothing to check yet
    merge.update(['b'], [0.2], [], 1.0, check=check)
    np.testing.assert_array_equal(seen[-1], [0.1, 0.2])
    with pytest.raises(PlausibilityError):
        merge.update(['b'], [2.0], [], 2.0, check=check)
    np.testing.assert_array_equal(merge.state()[0], [0.1, 0.2])


def test_message_limit_follows_the_model(arm3_model):
    assert message_joint_limit(arm3_model) == 64                       # the floor
    long_arm = random_model(np.random.default_rng(3), 20)
    assert message_joint_limit(long_arm) == 80                    # 4 x the joints
    gripper = quiet_model_from_urdf(arm_with_gripper())           # locked joints count
    assert message_joint_limit(gripper.replace()) == 64


# ---------------------------------------------------------------------- the node
def test_arm_and_gripper_messages_are_merged(ros):
    """The arm's driver and the gripper's publish apart; gravity follows both (Pinocchio)."""
    urdf = arm_with_gripper()
    model = quiet_model_from_urdf(urdf)
    chain = list(model.joint_names)
    dynamics = make_dynamics(ros, urdf, locked_joints_rate=1000.0,
                             locked_joints=['camera_pan=0.6'])
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.array([0.4, -0.3, 0.8, 0.1, -0.6, 0.5])
    probe.send_state(chain[:3], q[:3])                      # half the arm: nothing yet
    assert ros.spin_until(lambda: dynamics.dropped == 1)
    assert 'missing joints' in dynamics.last_error and 'merged by name' in dynamics.last_error
    probe.send_state(['grip_finger_joint1'], [0.03])          # the gripper's own driver
    ros.spin_for(0.05)
    assert dynamics.dropped == 1, dynamics.last_error         # not a bad message
    probe.clear()
    probe.send_state(chain[3:], q[3:])                      # the rest of the arm
    assert probe.wait_outputs()
    reduced = reduced_oracle(urdf, chain, {'grip_finger_joint1': 0.03,
                                           'grip_finger_joint2': 0.03, 'camera_pan': 0.6})
    expected = oracle_dynamics(reduced, q, q * 0, q * 0, 'world')[2]
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][-1]), expected,
                               rtol=0, atol=TOL * abs(expected).max())
    assert dynamics.dropped == 1


def test_each_joint_is_stale_on_its_own_age(ros, arm3_urdf, arm3_model):
    """names[2] sent once, stamped 1 s ago (2 s stale_timeout); the others kept fresh."""
    dynamics = make_dynamics(ros, arm3_urdf, stale_timeout=2.0)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    names = list(arm3_model.joint_names)
    clock = probe.node.get_clock()
    past = clock.now().nanoseconds - 10 ** 9
    once = Time(sec=past // 10 ** 9, nanosec=past % 10 ** 9)   # names[2]'s only stamp
    assert ros.spin_until(lambda: (probe.send_state(names[2:], [0.1], stamp=once),
                                   probe.send_state(names[:2], [0.2, 0.3]),
                                   probe.wait_outputs(timeout=0.05))[-1])
    ros.spin_until(lambda: clock.now().nanoseconds * 1e-9 > seconds(once) + 2.1,
                   timeout=10.0)                           # names[2] is now stale
    probe.clear()
    before = dynamics.dropped
    probe.send_state(names[:2], [0.2, 0.3])                  # fresh, but names[2] is stale
    assert ros.spin_until(lambda: dynamics.dropped > before)
    assert f"joints ['{names[2]}'] are stale" in dynamics.last_error
    assert not any(probe.received.values())
    probe.send_state(names[2:], [0.1])                       # it comes back: outputs again
    assert probe.wait_outputs()


def test_outputs_carry_the_stamp_of_their_input(ros, arm3_urdf, arm3_model):
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    stamped = {'gravity_joint_states': [], 'mass_matrix_stamped': [],
               'feedforward_joint_states': []}
    base = f'{ros.namespace}/dynamics_node'
    probe.node.create_subscription(JointTrajectory, f'{base}/mass_matrix_stamped',
                                   stamped['mass_matrix_stamped'].append, 10)
    for topic in ('gravity_joint_states', 'feedforward_joint_states'):
        probe.node.create_subscription(JointState, f'{base}/{topic}', stamped[topic].append, 10)
    probe.wait_connected(dynamics)
    _, mass_stamped = dynamics.outputs.publishers['mass_matrix']
    assert ros.spin_until(lambda: mass_stamped.get_subscription_count() > 0)
    q = np.array([0.3, -0.2, 0.04])
    trajectory = JointTrajectory(joint_names=list(arm3_model.joint_names), points=[
        JointTrajectoryPoint(positions=list(q), time_from_start=Duration(sec=0)),
        JointTrajectoryPoint(positions=[0.5, -0.4, 0.05], time_from_start=Duration(sec=3))])
    trajectory.header.stamp = probe.node.get_clock().now().to_msg()
    probe.trajectory.publish(trajectory)          # kept for the first state: it starts there
    assert ros.spin_until(lambda: dynamics._pending_trajectory is not None)
    sent = []
    for k in range(3):
        stamp = probe.node.get_clock().now()
        stamp = stamp.__class__(nanoseconds=stamp.nanoseconds - (k + 1) * 10_000_000)   # older
        sent.append(stamp.to_msg())
        probe.send_state(arm3_model.joint_names, q + 0.001 * k, stamp=sent[-1])
        assert ros.spin_until(lambda: all(len(v) > k for v in stamped.values()))
        assert dynamics._trajectory is not None
    for k, msg in enumerate(stamped['gravity_joint_states']):
        assert msg.header.stamp == sent[k]
        np.testing.assert_allclose(msg.effort, rd.gravity_torques(arm3_model, q + 0.001 * k),
                                   rtol=0, atol=TOL)
    for k, msg in enumerate(stamped['mass_matrix_stamped']):
        assert msg.header.stamp == sent[k]
        assert list(msg.joint_names) == list(arm3_model.joint_names)
        rows = np.array([point.positions for point in msg.points])
        np.testing.assert_allclose(rows, rd.mass_matrix(arm3_model, q + 0.001 * k), rtol=0,
                                   atol=TOL)
    sampled = dynamics._trajectory                 # the motion commanded from the state
    for msg in stamped['feedforward_joint_states']:     # stamped with the sample time
        when = msg.header.stamp.sec * 10 ** 9 + msg.header.stamp.nanosec
        assert when > seconds(sent[0]) * 1e9
        expected = rd.inverse_dynamics(arm3_model, *sampled.sample(when))
        np.testing.assert_allclose(msg.effort, expected, rtol=0, atol=TOL)


def test_name_count_read_from_the_bytes():
    for count in (0, 1, 7, 300):
        msg = JointState(name=[f'j{k}' * (k % 3 + 1) for k in range(count)],
                         position=[0.0] * count)
        msg.header.frame_id = 'base' * (count % 4)
        assert serialized_name_count(serialize_message(msg)) == count
    assert serialized_name_count(b'\x00\x01') is None
    assert serialized_name_count(b'\x00\x01\x00\x00' + b'\xff' * 16) is None   # cannot fit


def test_oversized_joint_state_refused_by_its_length(ros, arm3_urdf, arm3_model):
    """Issue 22.6: a million names held the node; the count is refused before any name."""
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    limit = message_joint_limit(dynamics.model)
    names = list(arm3_model.joint_names) + [f'extra_{k}' for k in range(limit)]
    dropped_with(ros, dynamics, lambda: probe.send_state(names, np.zeros(len(names))),
                 f'name has {len(names)} entries, more than {limit}')
    assert 'refused before deserialising' in dynamics.last_error
    with pytest.raises(BadInput, match='velocity has 70 entries, more than 64'):
        check_message_size(['a'], [0.0], [0.0] * 70, [], 64)   # the fields after the names
    fits = list(arm3_model.joint_names) + [f'extra_{k}' for k in range(limit - 3)]
    probe.send_state(fits, np.zeros(len(fits)))
    assert probe.wait_outputs()
