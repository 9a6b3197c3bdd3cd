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
"""Issues 30 and 31 in the simulated graph under the real ``launch``: upstream's behaviours.

Each test is a row of docs/controllers.md's table (the trajectory controller against
ros2_control's joint_trajectory_controller), or a target of the issues: no stamp makes the
arm rush; after a 30 s joint-state outage no command is saturated and no joint is driven
fast. The graph and the client: test_trajectory_action.py.
"""

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from rcl_interfaces.msg import Parameter as ParameterMessage, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from std_srvs.srv import Trigger
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from nodes.test_trajectory_action import (FJT, control_msgs_tolerance, goal_to,  # noqa: F401
                                          graph_fixture, trajectory)
import robot_dynamics as rd

UR5 = rd.load_model('ur5')
NAMES = list(UR5.joint_names)


def speeds_while(client, action):
    """Run ``action()``; return the joint speeds (S, n) measured meanwhile and after 1 s."""
    first = len(client.states)
    result = action()
    client.catch_up()
    rows = [dict(zip(s.name, s.velocity)) for s in client.states[first:]]
    return result, np.array([[row[name] for name in NAMES] for row in rows])


def stamped(goal, seconds):
    """Set ``goal``'s header.stamp to ``seconds`` of simulated time."""
    goal.trajectory.header.stamp.sec, goal.trajectory.header.stamp.nanosec = divmod(
        int(seconds * 1e9), 10 ** 9)
    return goal


def test_no_stamp_makes_the_arm_rush(graph):
    """Issue 30, HIGH 1: a 2 s goal stamped 1.9 s ago drove the arm at 1.9-3.0 rad/s."""
    client = graph('ur5', 'reject')
    start = client.position(NAMES)
    target = start + 0.3
    planned = 0.3 / 2.0                       # the straight line's speed, rad/s
    past = stamped(FJT.Goal(trajectory=trajectory(NAMES, [(2.0, target)], velocities=False)),
                   client.sim_time() - 1.0)      # 1 s of slack for a loaded machine's transit
    at_once = FJT.Goal(trajectory=trajectory(NAMES, [(0.0, target)], velocities=False))
    for goal, words in ((past, '(header.stamp '),
                        (at_once, 'first point, at time_from_start 0')):
        (status, result, _), speeds = speeds_while(client, lambda: client.run(goal))
        assert status == GoalStatus.STATUS_ABORTED, result.error_string
        assert result.error_code == FJT.Result.INVALID_GOAL
        assert words in result.error_string and 'step the arm' in result.error_string
        assert np.abs(speeds).max() < 0.05, 'refused: the arm must not have moved'
    honest = FJT.Goal(trajectory=trajectory(NAMES, [(2.0, target)], velocities=False))
    (status, result, _), speeds = speeds_while(client, lambda: client.run(honest))
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    assert np.abs(speeds).max() <= 1.5 * planned, np.abs(speeds).max()


def test_positions_only_goals_are_judged_on_the_motion_commanded(graph):
    """Issue 31.8: 1.4 rad in 0.5 s of positions only SUCCEEDED at 100 % of two limits."""
    client = graph('ur5', 'reject')
    goal = FJT.Goal(trajectory=trajectory(NAMES, [(0.5, client.position(NAMES) + 1.4)],
                                          velocities=False))
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_ABORTED and result.error_code == FJT.Result.INVALID_GOAL
    assert 'infeasible: joint' in result.error_string and 'slowed by' in result.error_string


def test_a_last_point_that_moves_is_refused_unless_allowed(graph):
    """Issue 31.3: upstream's allow_nonzero_velocity_at_trajectory_end, default false."""
    model = UR5
    for policy, expected in (('reject', GoalStatus.STATUS_ABORTED),
                             ('upstream_switches', GoalStatus.STATUS_SUCCEEDED)):
        client = graph('ur5', policy)
        goal = goal_to(model, 0.05, 1.0)
        goal.trajectory.points[-1].velocities = [0.01] * model.dof
        status, result, _ = client.run(goal)
        assert status == expected, result.error_string
        if expected == GoalStatus.STATUS_ABORTED:
            assert 'allow_nonzero_velocity_at_trajectory_end' in result.error_string


def test_the_joint_trajectory_topic_is_followed_and_leaves_a_goal_alone(graph):
    """Issues 31.4 and 31.5: ~/joint_trajectory exists; it replaces a goal's motion only."""
    client = graph('ur5', 'reject')
    topic = client.node.create_publisher(
        JointTrajectory, f'/{client.namespace}/joint_trajectory_controller/joint_trajectory', 10)
    assert client.ros.spin_until(lambda: topic.get_subscription_count() > 0, 30)
    start = client.position(NAMES)
    handle = client.send(FJT.Goal(trajectory=trajectory(NAMES, [(4.0, start - 0.3)])))
    assert handle.accepted
    begin = client.sim_time()
    client.ros.spin_until(lambda: client.sim_time() > begin + 0.5, 60)
    target = client.position(NAMES) + 0.1
    topic.publish(trajectory(NAMES, [(1.0, target)]))
    status, result = client.result(handle)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string   # not CANCELED
    assert np.abs(client.position(NAMES) - target).max() <= 0.01      # the topic's target
    assert client.sim_time() < begin + 3.5, 'judged on the new motion, not the goal\'s 4 s'


def test_a_future_stamp_moves_at_once_to_reach_the_first_point_on_time(graph):
    """Issue 31.6: a stamp in the future held the arm until the stamp, then started."""
    client = graph('ur5', 'reject')
    start, now = client.position(NAMES), client.sim_time()
    # the stamp 2 s ahead: a goal taking up to 1 s in transit on a loaded machine still has
    # most of its approach to make before the stamp
    goal = stamped(FJT.Goal(trajectory=trajectory(NAMES, [(1.0, start + 0.2)])), now + 2.0)
    handle = client.send(goal)
    assert handle.accepted
    assert client.ros.spin_until(lambda: client.sim_time() > now + 1.9, 60)
    assert np.abs(client.position(NAMES) - start).max() > 0.03, 'it waited for the stamp'
    status, result = client.result(handle)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string


def test_goal_time_tolerance_zero_means_no_limit(graph):
    """Issue 31.7: goal_time_tolerance 0 aborted 5 ms after the end; upstream: no limit."""
    client = graph('ur5', 'upstream_switches')           # goal_time_tolerance: 0.0
    goal = goal_to(UR5, 0.05, 0.5)
    goal.goal_tolerance = [control_msgs_tolerance(name, 1e-9) for name in NAMES]
    # The simulated arm tracks its exact model to below 1e-9: a second commander that drops
    # the efforts now and then keeps it from the goal tolerance.
    jolt = client.node.create_publisher(JointState,
                                        f'/{client.namespace}/simulation_node/joint_commands', 10)
    client.node.create_timer(0.02, lambda: jolt.publish(JointState(name=NAMES,
                                                                   effort=[0.0] * 6)))
    handle = client.send(goal)
    begin = client.sim_time()
    assert client.ros.spin_until(lambda: client.sim_time() > begin + 3.0, 60)
    status = handle.get_result_async()
    assert not status.done(), 'the goal ended although goal_time_tolerance is 0 (no limit)'
    cancel = handle.cancel_goal_async()
    assert client.ros.spin_until(cancel.done, 30)
    assert client.result(handle)[0] == GoalStatus.STATUS_CANCELED


def set_simulator_lockstep(client, value):
    """Switch the simulator's lockstep (set_controller_parameter's way)."""
    set_controller_parameter(client, 'lockstep', value, node='simulation_node')


def set_controller_parameter(client, name, value, node='joint_trajectory_controller'):
    """Set a bool parameter of this graph's controller through its service."""
    service = client.node.create_client(
        SetParameters, f'/{client.namespace}/{node}/set_parameters')
    assert service.wait_for_service(timeout_sec=30)
    request = SetParameters.Request(parameters=[ParameterMessage(
        name=name, value=ParameterValue(type=ParameterType.PARAMETER_BOOL, bool_value=value))])
    assert all(r.successful for r in client.ros.call(service, request, timeout=30).results)


@pytest.mark.parametrize('moving', [False, True])
def test_a_joint_state_outage_resumes_without_a_step(graph, moving):
    """Issue 31.1: no command saturated, no joint driven fast on resume.

    After 30 s without usable joint states the old hold point was driven to at -897.7 N m
    (clipped to 150).
    """
    client = graph('ur5', 'reject')
    assert client.ros.call(client.reset, Trigger.Request(), timeout=30).success    # at home
    client.catch_up()
    hold = np.array([0.0, -1.0, 1.0, 0.0, 0.0, 0.0])
    status, result, _ = client.run(FJT.Goal(trajectory=trajectory(NAMES, [(3.0, hold)])))
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    commands = []
    client.node.create_subscription(Float64MultiArray,
                                    f'/{client.namespace}/simulation_node/effort_commands',
                                    lambda msg: commands.append(np.array(msg.data)), 100)
    set_simulator_lockstep(client, False)     # the simulator steps on without commands
    try:
        handle = client.send(goal_to(UR5, 0.3, 20.0)) if moving else None
        begin = client.sim_time()
        client.ros.spin_until(lambda: client.sim_time() > begin + 0.5, 60)
        set_controller_parameter(client, 'use_sim_time', False)   # wall clock: states stale
        outage = client.sim_time()
        assert client.ros.spin_until(lambda: client.sim_time() > outage + 30.0, 600)
        if moving:
            status, result = client.result(handle)
            assert status == GoalStatus.STATUS_ABORTED
            assert 'joint_states' in result.error_string, result.error_string
        first = len(commands)
        set_controller_parameter(client, 'use_sim_time', True)
        assert client.ros.spin_until(lambda: len(commands) > first, 60), 'no commands'
        resumed, fallen = client.sim_time(), client.position(NAMES)
        _, speeds = speeds_while(client, lambda: client.ros.spin_until(
            lambda: client.sim_time() > resumed + 2.0, 60))
    finally:
        set_controller_parameter(client, 'use_sim_time', True)
        set_simulator_lockstep(client, True)
    after = np.array(commands[first:])
    assert np.all(np.abs(after) < UR5.effort_limit), np.abs(after).max(axis=0)
    assert np.abs(speeds).max() <= max(0.5, 1.05 * np.abs(speeds[0]).max())
    # Braked to rest where it was (5 rad/s²: at most v² / 2a on the way), not driven back.
    assert np.abs(speeds[-1]).max() < 0.05
    travel = np.abs(speeds[0]).max() ** 2 / (2 * 5.0) + 0.1       # + this process's lag
    assert np.abs(client.position(NAMES) - fallen).max() <= travel, (fallen, travel)


def test_a_goal_under_time_optimal_runs_at_the_limits_without_saturating(graph):
    """Issue 34 in the graph: re-timed along its path, tracked with no command saturated."""
    client = graph('ur5', 'time_optimal')
    start = client.position(NAMES)
    goal = FJT.Goal(trajectory=trajectory(NAMES, [(0.3, start + 0.7)]))   # 223 of 150 N m
    accepted = []
    client.node.create_subscription(
        JointTrajectory, f'/{client.namespace}/joint_trajectory_controller/accepted_trajectory',
        accepted.append, 10)
    first = len(client.states)
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    assert 'retimed to' in result.error_string and 'at the limits' in result.error_string
    assert client.ros.spin_until(lambda: accepted, 30)
    end = accepted[-1].points[-1].time_from_start
    assert 0.3 < end.sec + 1e-9 * end.nanosec < 1.39 * 0.3    # faster than uniform scaling
    efforts = np.array([s.effort for s in client.states[first:]])
    assert np.all(np.abs(efforts) < 0.99 * UR5.effort_limit), np.abs(efforts).max(axis=0)
    assert np.abs(client.position(NAMES) - (start + 0.7)).max() <= 0.01
