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
"""A controller joins another node's accepted motion from its own state (issue 35).

The computed_torque_controller reads the dynamics node's accepted motion, which begins at that
node's state. While the message was in transit the arm moved on (in CI a falling arm moved
0.15 rad): judged against the hold tolerance alone, the motion was a step, refused. The arm's
own motion over the message's age explains such a gap; a larger one is still a step.
"""

import numpy as np
import pytest

from robot_dynamics.control import goals
from robot_dynamics.control.goals import GoalRules, TrajectoryRequest, commanded_motion
from robot_dynamics.control.policies import check_motion

NAMES = ('a', 'b', 'c')
SECOND = 10 ** 9
T_DYNAMICS = 50 * SECOND            # the dynamics node's state: the accepted motion's stamp
TRANSIT = 0.1                       # s until the controller's own state
TARGET = np.array([0.2, -0.4, 0.1])
CONTROLLER = GoalRules(allow_partial_joints_goal=True, join_in_transit=True)
BEFORE = GoalRules(allow_partial_joints_goal=True)      # the rules before the change


def accepted_motion(q, qd):
    """Return the dynamics node's accepted motion to TARGET in 3 s, from its state ``q, qd``.

    As it publishes it: the motion it commands from its state, stamped at that state's time.
    """
    request = TrajectoryRequest(NAMES, [3.0], [TARGET])          # stamp 0: on receipt
    trajectory = commanded_motion(request, NAMES, (q, qd), T_DYNAMICS).trajectory
    return TrajectoryRequest(NAMES, trajectory.times, trajectory.positions,
                             trajectory.velocities, trajectory.accelerations,
                             trajectory.start_ns)


def falling(q0, v0, a, t):
    """Position and velocity of an arm accelerating at ``a`` from ``q0, v0`` after ``t`` s."""
    return q0 + v0 * t + 0.5 * a * t ** 2, v0 + a * t


Q0 = np.array([0.0, -1.0, 0.5])
V0 = np.array([0.0, 0.3, 0.0])      # joint b falls, accelerating
A = np.array([0.0, 4.0, 0.0])


def test_a_falling_arm_joins_the_motion_from_its_own_state():
    request = accepted_motion(Q0, V0)
    q, qd = falling(Q0, V0, A, TRANSIT)
    now = T_DYNAMICS + int(TRANSIT * SECOND)
    assert abs(q[1] - Q0[1]) == pytest.approx(0.05)        # moved 5x the hold tolerance
    before = commanded_motion(request, NAMES, (q, qd), now, rules=BEFORE, ended_ok=True)
    assert before.jump                                      # the limitation: refused as a step
    with pytest.raises(goals.GoalError, match='step'):
        check_motion(before, NAMES)
    motion = commanded_motion(request, NAMES, (q, qd), now, rules=CONTROLLER, ended_ok=True)
    assert motion.jump == ''
    check_motion(motion, NAMES)                             # plausible: accepted
    trajectory = motion.trajectory
    assert trajectory.start_ns == now                       # re-anchored at its own state
    np.testing.assert_array_equal(trajectory.positions[0], q)
    np.testing.assert_array_equal(trajectory.velocities[0], qd)
    desired = trajectory.sample(now)                        # no step in the desired motion
    np.testing.assert_allclose(desired[0], q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(desired[1], qd, rtol=0, atol=1e-12)
    end_ns = trajectory.start_ns + round(trajectory.duration * SECOND)
    assert end_ns == T_DYNAMICS + 3 * SECOND                # the same end, at the same time
    np.testing.assert_allclose(trajectory.positions[-1], TARGET, rtol=0, atol=1e-12)


def test_a_gap_larger_than_the_transit_explains_is_still_a_step():
    request = accepted_motion(Q0, V0)
    q, qd = falling(Q0, V0, A, TRANSIT)
    q = q + np.array([0.0, 0.1, 0.0])      # 0.1 rad more than 0.7 rad/s for 0.1 s explains
    motion = commanded_motion(request, NAMES, (q, qd), T_DYNAMICS + int(TRANSIT * SECOND),
                              rules=CONTROLLER, ended_ok=True)
    assert 'joint b' in motion.jump
    with pytest.raises(goals.GoalError, match='step'):
        check_motion(motion, NAMES)


def test_at_rest_the_transit_explains_nothing():
    request = accepted_motion(Q0, np.zeros(3))
    q = Q0 + np.array([0.0, 0.02, 0.0])     # twice the hold tolerance, the arm still
    motion = commanded_motion(request, NAMES, (q, np.zeros(3)),
                              T_DYNAMICS + int(TRANSIT * SECOND), rules=CONTROLLER,
                              ended_ok=True)
    assert 'joint b' in motion.jump


def test_a_motion_that_has_moved_on_is_not_joined_by_a_still_arm():
    """First point at the arm, stamped 1.9 s ago: joining it now would rush the arm.

    The arm never began it: it starts now, whole (the 2 s it was judged in, never 0.1 s).
    Away from both its first point and its plan, the arm is a step still.
    """
    request = TrajectoryRequest(NAMES, [0.0, 2.0], [Q0, Q0 + 0.7],
                                stamp_ns=T_DYNAMICS - int(1.9 * SECOND))
    assert 'is 1.9 s in' in commanded_motion(request, NAMES, (Q0, np.zeros(3)), T_DYNAMICS,
                                             rules=BEFORE, ended_ok=True).jump
    motion = commanded_motion(request, NAMES, (Q0, np.zeros(3)), T_DYNAMICS,
                              rules=CONTROLLER, ended_ok=True)
    assert motion.jump == '' and motion.trajectory.start_ns == T_DYNAMICS
    assert motion.trajectory.duration == pytest.approx(2.0)
    away = commanded_motion(request, NAMES, (Q0 + 0.02, np.zeros(3)), T_DYNAMICS,
                            rules=CONTROLLER, ended_ok=True)
    assert 'is 1.9 s in' in away.jump


def test_a_motion_read_late_by_a_still_arm_starts_late_whole():
    """The recovery test's restart (CI, loaded): read 0.97 s late, the arm still at rest.

    The restarted dynamics node began the motion back to the hold posture at its first state;
    the controller discovered it 0.97 s later, the arm resting meanwhile on joint b's stop. The
    plan had gone on 0.049 rad: refused as a step, the arm stayed 0.18 rad off for good. Now
    it starts then, from the arm's state: the very motion judged, 0.97 s late.
    """
    stop = np.array([0.0, -0.785, 0.4])
    request = accepted_motion(stop, np.array([0.004, 0.0, -0.01]))
    q, qd = stop + np.array([0.002, 0.0, -0.003]), np.array([0.0, 0.0, 0.02])
    now = T_DYNAMICS + int(0.97 * SECOND)
    assert commanded_motion(request, NAMES, (q, qd), now, rules=BEFORE, ended_ok=True).jump
    motion = commanded_motion(request, NAMES, (q, qd), now, rules=CONTROLLER, ended_ok=True)
    assert motion.jump == ''
    check_motion(motion, NAMES)
    trajectory = motion.trajectory
    assert trajectory.start_ns == now
    np.testing.assert_array_equal(trajectory.times, request.times)       # the whole motion
    np.testing.assert_array_equal(trajectory.positions[1:], request.positions[1:])
    np.testing.assert_array_equal(trajectory.velocities[1:], request.velocities[1:])
    desired = trajectory.sample(now)                        # from the arm's state: no step
    np.testing.assert_allclose(desired[0], q, rtol=0, atol=1e-12)
    np.testing.assert_allclose(desired[1], qd, rtol=0, atol=1e-12)
    assert abs(trajectory.sample(now + 3 * SECOND)[0] - TARGET).max() < 1e-12


def test_a_motion_whose_plan_has_ended_never_sets_a_still_arm_moving():
    """A controller started 5 s after a 3 s motion was accepted: a step, held, not begun."""
    request = accepted_motion(Q0, np.zeros(3))
    late = commanded_motion(request, NAMES, (Q0, np.zeros(3)), T_DYNAMICS + 2 * SECOND,
                            rules=CONTROLLER, ended_ok=True)
    assert late.jump == '' and late.trajectory.start_ns == T_DYNAMICS + 2 * SECOND
    ended = commanded_motion(request, NAMES, (Q0, np.zeros(3)), T_DYNAMICS + 5 * SECOND,
                             rules=CONTROLLER, ended_ok=True)
    assert 'joint' in ended.jump


@pytest.mark.parametrize('offset, velocity', [(0.02, 0.0), (0.0, 0.2)])
def test_an_arm_off_the_first_point_does_not_start_late(offset, velocity):
    """Off its position by twice the hold tolerance, or moving at 0.2 rad/s: a step still."""
    request = accepted_motion(Q0, np.zeros(3))
    q, qd = Q0 + np.array([0.0, offset, 0.0]), np.array([0.0, velocity, 0.0])
    motion = commanded_motion(request, NAMES, (q, qd), T_DYNAMICS + int(0.97 * SECOND),
                              rules=CONTROLLER, ended_ok=True)
    assert 'joint b' in motion.jump


def test_the_arm_on_the_motion_still_follows_the_motion_itself():
    """Within the hold tolerance nothing changes: the very motion the dynamics node runs."""
    request = accepted_motion(Q0, np.zeros(3))
    now = T_DYNAMICS + int(0.02 * SECOND)
    for rules in (BEFORE, CONTROLLER):
        motion = commanded_motion(request, NAMES, (Q0, np.zeros(3)), now, rules=rules,
                                  ended_ok=True)
        assert motion.jump == '' and motion.trajectory.start_ns == T_DYNAMICS
        np.testing.assert_array_equal(motion.trajectory.positions, request.positions)
