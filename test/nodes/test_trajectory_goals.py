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
"""Goal checks and tolerances (nodes/trajectory_goals.py); the dynamics node's policies.

The action itself, in another process under ``launch``: test_trajectory_action.py.
"""

import re

import numpy as np
import pytest
from diagnostic_msgs.msg import DiagnosticStatus
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.analysis import feasibility
from robot_dynamics.nodes import trajectory_goals as goals
from robot_dynamics.nodes.conversions import stamp_to_nanoseconds, trajectory_message
from robot_dynamics.nodes.dynamics_node import LATCHED
from robots import quiet_bundled
from ros_graph import bundled, dropped_with

control_msgs = pytest.importorskip('control_msgs.msg', reason='control_msgs not installed')
UR5 = quiet_bundled('ur5')
NAMES = list(UR5.joint_names)
FAST = ([0.0, 0.3], np.array([np.zeros(6), np.full(6, 0.7)]))     # 223 N m of 150 at joint 2


def message(names, times, positions, stamp_sec=0):
    """Return a JointTrajectory of positions only."""
    msg = trajectory_message(names, times, positions)
    msg.header.stamp.sec = stamp_sec
    return msg


def test_partial_goal_holds_the_rest_and_starts_from_the_current_state():
    q, qd = np.linspace(-0.3, 0.3, 6), np.full(6, 0.01)
    trajectory = goals.goal_trajectory(message(NAMES[2:3], [1.0], [[0.5]]), UR5, (q, qd),
                                       now_ns=5 * 10 ** 9)
    np.testing.assert_array_equal(trajectory.times, [0.0, 1.0])
    np.testing.assert_array_equal(trajectory.positions[0], q)            # from where it is
    expected = q.copy()
    expected[2] = 0.5
    np.testing.assert_array_equal(trajectory.positions[1], expected)     # others held
    assert trajectory.start_ns == 5 * 10 ** 9                            # stamp 0: on receipt


@pytest.mark.parametrize('names, points, code, words', [
    ([], [(1.0, [])], goals.INVALID_JOINTS, 'empty'),
    (['nope'], [(1.0, [0.0])], goals.INVALID_JOINTS, "unknown joints ['nope']"),
    (NAMES[:1] * 2, [(1.0, [0.0, 0.0])], goals.INVALID_JOINTS, 'repeat'),
    (NAMES[:1], [], goals.INVALID_GOAL, 'no points'),
    (NAMES[:2], [(1.0, [0.0])], goals.INVALID_GOAL, 'sizes [1]'),
    (NAMES[:1], [(1.0, [np.nan])], goals.INVALID_GOAL, 'NaN'),
    (NAMES[:1], [(1.0, [0.0]), (1.0, [0.1])], goals.INVALID_GOAL, 'increase strictly'),
    (NAMES[2:3], [(1.0, [4.0])], goals.INVALID_GOAL, 'outside its limits'),
])
def test_bad_goals_get_the_upstream_codes(names, points, code, words):
    msg = JointTrajectory(joint_names=names)
    if points:
        msg = message(names, [t for t, _ in points], [p for _, p in points])
    with pytest.raises(goals.GoalError, match=re.escape(words)) as caught:
        goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)), now_ns=10 ** 10)
    assert caught.value.code == code


def test_old_stamp_is_old_header_timestamp():
    msg = message(NAMES, [1.0], [np.zeros(6)], stamp_sec=3)     # ended at 4 s
    with pytest.raises(goals.GoalError) as caught:
        goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)), now_ns=5 * 10 ** 9)
    assert caught.value.code == goals.OLD_HEADER_TIMESTAMP
    trajectory = goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)),
                                       now_ns=35 * 10 ** 8)        # still running: taken
    assert trajectory.start_ns == 3 * 10 ** 9


def test_tolerances_zero_default_minus_one_unchecked_positive_replaces():
    defaults = goals.Tolerances(np.full(6, 0.1), np.full(6, 0.01), np.full(6, 0.05), 1.0)
    JointTolerance = control_msgs.JointTolerance
    goal = type('Goal', (), {})()
    goal.path_tolerance = [JointTolerance(name=NAMES[0], position=-1.0),
                           JointTolerance(name=NAMES[1], position=0.0),
                           JointTolerance(name=NAMES[2], position=0.3)]
    goal.goal_tolerance = [JointTolerance(name=NAMES[3], position=0.02, velocity=-1.0)]
    goal.goal_time_tolerance = type('D', (), {'sec': 0, 'nanosec': 0})()
    merged = goals.tolerances(goal, UR5, defaults)
    np.testing.assert_array_equal(merged.path_position, [np.inf, 0.1, 0.3, 0.1, 0.1, 0.1])
    assert merged.goal_position[3] == 0.02 and merged.goal_velocity[3] == np.inf
    assert merged.goal_time == 1.0
    goal.goal_tolerance = [JointTolerance(name='other')]
    with pytest.raises(goals.GoalError) as caught:
        goals.tolerances(goal, UR5, defaults)
    assert caught.value.code == goals.INVALID_JOINTS


def test_policies_on_an_infeasible_motion():
    rest = np.zeros((1, 6))
    trajectory = goals.goal_trajectory(trajectory_message(NAMES, [0.3], [FAST[1][1]], rest,
                                                          rest), UR5,
                                       (np.zeros(6), np.zeros(6)), now_ns=1)
    k = feasibility.check_trajectory(UR5, *FAST, np.zeros((2, 6)), np.zeros((2, 6))).scale
    with pytest.raises(goals.GoalError, match='slowed by') as caught:
        goals.apply_policy(UR5, trajectory, 'reject', 0.05)
    assert caught.value.code == goals.INVALID_GOAL
    same, scale, report = goals.apply_policy(UR5, trajectory, 'warn', 0.05)
    assert same is trajectory and scale == 1.0 and not report.feasible
    slowed, scale, _ = goals.apply_policy(UR5, trajectory, 'scale', 0.05)
    assert scale == pytest.approx(k, rel=1e-12)
    np.testing.assert_allclose(slowed.times, k * trajectory.times, rtol=1e-15)


def test_gravity_beyond_a_limit_is_refused_under_scale():
    weak = UR5.replace(effort_limit=np.array([150.0, 10.0, 150.0, 28.0, 28.0, 28.0]))
    trajectory = goals.goal_trajectory(message(NAMES, [2.0], [np.full(6, 0.1)]), weak,
                                       (np.zeros(6), np.zeros(6)), now_ns=1)
    with pytest.raises(goals.GoalError, match='no time scaling helps'):
        goals.apply_policy(weak, trajectory, 'scale', 0.05)


# ---------------------------------------------------------------------- the dynamics node
def fast_message():
    """Return the infeasible UR5 motion as a trajectory message (positions only: linear)."""
    zeros = np.zeros((2, 6))
    return trajectory_message(NAMES, FAST[0], FAST[1], zeros, zeros)


def test_dynamics_node_rejects_an_infeasible_trajectory_by_default(ros):
    dynamics, probe = bundled(ros, 'ur5')
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(fast_message()),
                 'joint shoulder_lift_joint would need 223.1 N m')
    assert 'slowed by 1.39x it fits' in dynamics.last_error and dynamics._trajectory is None


def test_dynamics_node_scales_and_latches_the_slowed_trajectory(ros):
    dynamics, probe = bundled(ros, 'ur5', feasibility='scale')
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    probe.trajectory.publish(fast_message())
    assert ros.spin_until(lambda: accepted)
    k = feasibility.check_trajectory(UR5, *FAST, np.zeros((2, 6)), np.zeros((2, 6))).scale
    last = accepted[-1].points[-1].time_from_start
    assert stamp_to_nanoseconds(last) * 1e-9 == pytest.approx(0.3 * k, abs=1e-9)
    probe.send_state(NAMES, np.zeros(6))
    assert probe.wait_outputs()
    level, text = dynamics.health()
    assert level == DiagnosticStatus.WARN and 'scale' in text and 'would need' in text


def test_oversized_goals_are_refused_before_conversion():
    from robot_dynamics.model import bounds
    msg = JointTrajectory(joint_names=NAMES)
    point = trajectory_message(NAMES, [1.0], [np.zeros(6)]).points[0]
    msg.points = [point] * (bounds.MAX_TRAJECTORY_POINTS + 1)
    with pytest.raises(goals.GoalError, match='send it in pieces') as caught:
        goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)), now_ns=1)
    assert caught.value.code == goals.INVALID_GOAL
    msg = JointTrajectory(joint_names=[f'j{i}' for i in range(5000)])
    with pytest.raises(goals.GoalError, match='5000 joint_names') as caught:
        goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)), now_ns=1)
    assert caught.value.code == goals.INVALID_JOINTS


def test_one_far_waypoint_is_reached_from_the_current_state_by_every_node(ros):
    """Trial 2: [2.0]*6 at 1 ms was held from the start by the dynamics node (a 2 rad step).

    The joint trajectory controller refused it (2000 rad/s from the current state); now the
    dynamics node reads it the same way (trajectory_goals.timed_trajectory) and refuses it.
    """
    far = message(NAMES, [0.001], [np.full(6, 2.0)])
    with pytest.raises(goals.GoalError, match="velocity of 'shoulder_pan_joint' reaches"):
        goals.apply_policy(UR5, goals.goal_trajectory(far, UR5, (np.zeros(6), np.zeros(6)),
                                                      10 ** 9), 'reject', 0.05)
    dynamics, probe = bundled(ros, 'ur5')
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    probe.trajectory.publish(far)                 # before any state: kept until the first
    ros.spin_for(0.3)
    assert dynamics.dropped == 0 and dynamics._pending_trajectory is not None
    dropped_with(ros, dynamics, lambda: probe.send_state(NAMES, np.zeros(6)),
                 "desired_trajectory rejected: trajectory velocity of 'shoulder_pan_joint' "
                 'reaches 2e+03 between t = 0 s and 0.001 s')   # linear: 2 rad in 1 ms
    ros.spin_for(0.2)
    assert not accepted and dynamics._trajectory is None
    slow = message(NAMES, [2.0], [np.full(6, 0.2)])   # the same rule, a plausible motion
    probe.trajectory.publish(slow)
    assert ros.spin_until(lambda: accepted)
    t = [stamp_to_nanoseconds(p.time_from_start) * 1e-9 for p in accepted[-1].points]
    assert t == [0.0, 2.0]                        # from the current state at 0
    np.testing.assert_array_equal(accepted[-1].points[0].positions, np.zeros(6))


def test_a_motion_kept_for_the_first_state_is_judged_on_arrival(ros):
    """CI: the simulator came 2.7 s late; the motion, fresh on arrival, was refused as ended.

    A motion that starts from the current state waits for the first joint state. Its age is
    judged when it arrives; if it has ended by the time the state comes, it is held at its
    last point (as the controllers hold a latched motion that ended), not refused.
    """
    dynamics, probe = bundled(ros, 'ur5')
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    now = dynamics.get_clock().now().nanoseconds
    target = np.full(6, 0.1)
    motion = message(NAMES, [1.0], [target], stamp_sec=now // 10 ** 9)    # fresh: ends in 1 s
    motion.header.stamp.nanosec = now % 10 ** 9
    probe.trajectory.publish(motion)
    assert ros.spin_until(lambda: dynamics._pending_trajectory is not None)
    assert ros.spin_until(                      # the motion ends before any joint state comes
        lambda: dynamics.get_clock().now().nanoseconds > now + 1.1e9)
    probe.send_state(NAMES, np.zeros(6))
    assert ros.spin_until(lambda: accepted), 'the motion was not taken'
    assert dynamics.dropped == 0 and dynamics._trajectory is not None
    np.testing.assert_array_equal(accepted[-1].points[-1].positions, target)
    assert stamp_to_nanoseconds(accepted[-1].header.stamp) == now
    old = message(NAMES, [1.0], [target], stamp_sec=now // 10 ** 9 - 5)    # old on arrival
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(old),
                 'desired_trajectory rejected: header.stamp')


@pytest.mark.parametrize('end, stamp_ahead, words', [
    (1e9, 0.0, 'longer than MAX_DURATION = 3600 s'),
    (1.0, 1e5, 'ahead of the clock, more than MAX_START_DELAY = 300 s'),
])
def test_absurd_durations_and_start_delays_are_refused(end, stamp_ahead, words):
    """Trial 2: a goal lasting 1e9 s, or stamped to start in 27 h, was accepted."""
    now_ns = 1000 * 10 ** 9
    msg = message(NAMES, [end], [np.zeros(6)], stamp_sec=int(1000 + stamp_ahead))
    with pytest.raises(goals.GoalError, match=re.escape(words)) as caught:
        goals.goal_trajectory(msg, UR5, (np.zeros(6), np.zeros(6)), now_ns=now_ns)
    assert caught.value.code == goals.INVALID_GOAL
    at_bound = message(NAMES, [goals.MAX_DURATION], [np.zeros(6)],
                       stamp_sec=int(1000 + goals.MAX_START_DELAY))
    assert goals.goal_trajectory(at_bound, UR5, (np.zeros(6), np.zeros(6)), now_ns).start_ns \
        == (1000 + goals.MAX_START_DELAY) * 10 ** 9


def test_a_node_without_a_model_bounds_the_motion_by_any_joint():
    far = goals.timed_trajectory(message(['a', 'b'], [0.001], [[2.0, 0.0]]), ['a', 'b'],
                                 (np.zeros(2), np.zeros(2)), 10 ** 9)
    with pytest.raises(goals.GoalError, match="velocity of 'a' reaches 2e\\+03 between t "
                       '= 0 s and 0.001 s .* beyond the plausible 1e\\+03'):
        goals.check_motion(far, ['a', 'b'])
    goals.check_motion(goals.timed_trajectory(message(['a', 'b'], [1.0], [[2.0, 0.0]]),
                                              ['a', 'b'], (np.zeros(2), np.zeros(2)), 1), ['a'])
    with pytest.raises(goals.NeedsState, match='no joint_states received yet'):
        goals.timed_trajectory(message(['a', 'b'], [1.0], [[2.0, 0.0]]), ['a', 'b'], None, 1)


def test_a_latched_trajectory_that_ended_is_held_by_a_late_controller():
    """The computed_torque_controller reads accepted_trajectory (ended_ok): holds its end."""
    msg = message(NAMES, [0.0], [np.full(6, 0.1)], stamp_sec=3)    # ended at 3 s
    with pytest.raises(goals.GoalError) as caught:
        goals.timed_trajectory(msg, NAMES, None, 5 * 10 ** 9)
    assert caught.value.code == goals.OLD_HEADER_TIMESTAMP
    held = goals.timed_trajectory(msg, NAMES, None, 5 * 10 ** 9, ended_ok=True)
    np.testing.assert_array_equal(held.sample(5 * 10 ** 9)[0], np.full(6, 0.1))
