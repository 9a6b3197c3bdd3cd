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
"""The dynamics node's feasibility policies on desired_trajectory (control/goals.py rules).

The library's rules without ROS: test/control/test_goals.py and test_policies.py; the action,
in another process under ``launch``: test_trajectory_action.py.
"""

import numpy as np
import pytest
from diagnostic_msgs.msg import DiagnosticStatus
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.analysis import feasibility
from robot_dynamics.control import goals
from robot_dynamics.nodes.conversions import (stamp_to_nanoseconds, trajectory_message,
                                              trajectory_request)
from robot_dynamics.nodes.dynamics_node import LATCHED
from robots import quiet_bundled
from ros_graph import bundled, dropped_with

UR5 = quiet_bundled('ur5')
NAMES = list(UR5.joint_names)
FAST = ([0.0, 0.3], np.array([np.zeros(6), np.full(6, 0.7)]))     # 223 N m of 150 at joint 2


def message(names, times, positions, stamp_sec=0):
    """Return a JointTrajectory of positions only."""
    msg = trajectory_message(names, times, positions)
    msg.header.stamp.sec = stamp_sec
    return msg


# ---------------------------------------------------------------------- the dynamics node
def fast_message():
    """Return the infeasible UR5 motion as a trajectory message (positions only: linear)."""
    zeros = np.zeros((2, 6))
    return trajectory_message(NAMES, FAST[0], FAST[1], zeros, zeros)


def at_rest(ros, **parameters):
    """Return the UR5's dynamics node and probe, a joint state at 0: motions start there."""
    dynamics, probe = bundled(ros, 'ur5', **parameters)
    probe.send_state(NAMES, np.zeros(6))
    assert probe.wait_outputs()
    return dynamics, probe


def test_dynamics_node_rejects_an_infeasible_trajectory_by_default(ros):
    dynamics, probe = at_rest(ros)
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(fast_message()),
                 'joint shoulder_lift_joint would need 223.1 N m')
    assert 'slowed by 1.39x it fits' in dynamics.last_error and dynamics._trajectory is None


def test_dynamics_node_scales_and_latches_the_slowed_trajectory(ros):
    dynamics, probe = at_rest(ros, feasibility='scale')
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
        trajectory_request(msg)
    assert caught.value.code == goals.INVALID_GOAL
    msg = JointTrajectory(joint_names=[f'j{i}' for i in range(5000)], points=[point])
    with pytest.raises(goals.GoalError, match='5000 joint_names') as caught:
        trajectory_request(msg)
    assert caught.value.code == goals.INVALID_JOINTS


def test_one_far_waypoint_is_reached_from_the_current_state_by_every_node(ros):
    """Trial 2: [2.0]*6 at 1 ms was held from the start by the dynamics node (a 2 rad step).

    Every node reads it the same way (control.goals.commanded_motion): from the current state,
    a blend into a line at 2,667 rad/s: refused.
    """
    far = message(NAMES, [0.001], [np.full(6, 2.0)])
    dynamics, probe = bundled(ros, 'ur5')
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    probe.trajectory.publish(far)                 # before any state: kept until the first
    ros.spin_for(0.3)
    assert dynamics.dropped == 0 and dynamics._pending_trajectory is not None
    dropped_with(ros, dynamics, lambda: probe.send_state(NAMES, np.zeros(6)),
                 "desired_trajectory rejected: trajectory velocity of 'shoulder_pan_joint' "
                 'is 2.67e+03, beyond the plausible 4.71')
    ros.spin_for(0.2)
    assert not accepted and dynamics._trajectory is None
    slow = message(NAMES, [2.0], [np.full(6, 0.2)])   # the same rule, a plausible motion
    probe.trajectory.publish(slow)
    assert ros.spin_until(lambda: accepted)
    t = [stamp_to_nanoseconds(p.time_from_start) * 1e-9 for p in accepted[-1].points]
    np.testing.assert_allclose(t, [0.0, 0.5, 1.5, 2.0])   # from the state, blends of 0.5 s
    np.testing.assert_array_equal(accepted[-1].points[0].positions, np.zeros(6))


def test_a_motion_kept_for_the_first_state_is_judged_on_arrival(ros):
    """CI: the simulator came 2.7 s late; the motion, fresh on arrival, was refused as ended.

    A motion that starts from the current state waits for the first joint state. Its age is
    judged when it arrives; if it has ended by the time the state comes, it holds its last
    point when the arm is there (test/control/test_policies.py), and is refused as a step
    when the arm is elsewhere.
    """
    dynamics, probe = bundled(ros, 'ur5')
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    now = dynamics.get_clock().now().nanoseconds
    target = np.full(6, 0.1)

    def motion(end):
        msg = message(NAMES, [1.0], [end], stamp_sec=now // 10 ** 9)   # fresh: ends in 1 s
        msg.header.stamp.nanosec = now % 10 ** 9
        return msg
    probe.trajectory.publish(motion(target))
    assert ros.spin_until(lambda: dynamics._pending_trajectory is not None)
    assert ros.spin_until(                      # the motion ends before any joint state comes
        lambda: dynamics.get_clock().now().nanoseconds > now + 1.1e9)
    dropped_with(ros, dynamics, lambda: probe.send_state(NAMES, np.zeros(6)),
                 'desired_trajectory rejected: by now the trajectory has ended, and joint '
                 'shoulder_pan_joint is 0.1 from where it puts the arm')
    assert not accepted and dynamics._trajectory is None
    old = message(NAMES, [1.0], [target], stamp_sec=now // 10 ** 9 - 5)    # old on arrival
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(old),
                 'desired_trajectory rejected: header.stamp')


def test_a_stamp_in_the_past_cannot_rush_the_arm(ros):
    """Issue 30, HIGH 1, on the topic path: stamped 1.9 s ago, a 2 s motion was accepted.

    Packed into 0.1 s it was refused; now both are, and the honest 2 s motion runs.
    """
    dynamics, probe = at_rest(ros)
    now = dynamics.get_clock().now().nanoseconds
    stamped = message(NAMES, [2.0], [np.full(6, 0.7)], stamp_sec=(now - 19 * 10 ** 8) // 10 ** 9)
    stamped.header.stamp.nanosec = (now - 19 * 10 ** 8) % 10 ** 9
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(stamped),
                 'desired_trajectory rejected: by now the trajectory is 1.')
    assert dynamics._trajectory is None
    honest = message(NAMES, [2.0], [np.full(6, 0.7)])
    probe.trajectory.publish(honest)
    assert ros.spin_until(lambda: dynamics._trajectory is not None)
    assert dynamics._trajectory.duration == pytest.approx(2.0)
