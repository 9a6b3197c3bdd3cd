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
"""What is checked is what will be commanded (issue 30, HIGH 1; issue 31, items 6 and 8).

The attack: a 2 s goal of +0.7 rad on every UR5 joint stamped 1.9 s in the past was accepted
and drove the arm at 1.9-3.0 rad/s with 150 N m on two joints, while the same motion sent
honestly in 0.02 s was refused: the check looked at the waypoints on their own timeline, not
at the motion from where the arm is, at the moment of acceptance.
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.analysis import feasibility
from robot_dynamics.control import goals, policies
from robot_dynamics.control.goals import GoalRules, TrajectoryRequest, commanded_motion
from robot_dynamics.model import bounds
from robot_dynamics.simulation.trajectory import (BLEND, parabolic_blends, sample_waypoints,
                                                  sample_waypoints_many)
from robots import pinocchio_configuration, quiet_bundled

UR5 = quiet_bundled('ur5')
PIN = pin.buildModelFromXML(UR5.without_joint_effects().to_urdf())
PIN_DATA = PIN.createData()
NAMES = tuple(UR5.joint_names)
HOME = np.array([0.0, -1.0, 1.0, 0.0, 0.0, 0.0])
REST = np.zeros(6)
NOW = 100 * 10 ** 9
SECOND = 10 ** 9


def request(times, positions, stamp_ns=0, velocities=None, accelerations=None, names=NAMES):
    return TrajectoryRequest(tuple(names), np.array(times, dtype=float),
                             np.array(positions, dtype=float), velocities, accelerations,
                             stamp_ns)


def dense(trajectory, rate=1000.0):
    """Sample the motion at ``rate`` Hz over its duration: t, q, qd, qdd."""
    t = np.arange(0.0, trajectory.duration + 1e-12, 1.0 / rate)
    return (t, *sample_waypoints_many(trajectory.times, trajectory.positions,
                                      trajectory.velocities, trajectory.accelerations, t))


def within_limits(model, trajectory):
    """Dense 1 kHz samples: speed and torque (Pinocchio's RNEA + the model's friction)."""
    _, q, qd, qdd = dense(trajectory)
    for row in range(0, len(q), 7):
        tau = pin.rnea(PIN, PIN_DATA, pinocchio_configuration(PIN, q[row]), qd[row], qdd[row]) \
            + rd.friction_torques(model, qd[row])
        np.testing.assert_allclose(tau, rd.inverse_dynamics(model, q[row], qd[row], qdd[row]),
                                   rtol=0, atol=1e-9)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    return np.abs(qd).max(axis=0) / model.velocity_limit, np.abs(tau).max(axis=0) / \
        model.effort_limit


def test_a_past_stamp_cannot_bypass_the_check():
    target = HOME + 0.7
    honest = commanded_motion(request([2.0], [target]), NAMES, (HOME, REST), NOW, UR5)
    trajectory, scale, report = policies.apply_policy(UR5, honest, 'reject', 0.05)
    assert scale == 1.0 and report.feasible and not honest.jump
    planned = 0.7 / 2.0                                     # straight line: 0.35 rad/s
    speed, _ = within_limits(UR5, trajectory)
    assert np.max(speed * UR5.velocity_limit) <= planned / (1 - BLEND) + 1e-12 < 1.5 * planned
    with pytest.raises(goals.GoalError, match='would need') as packed:
        policies.apply_policy(UR5, commanded_motion(request([0.02], [target]), NAMES,
                                                    (HOME, REST), NOW, UR5), 'reject', 0.05)
    assert packed.value.code == goals.INVALID_GOAL
    for ago in (1.9, 1.0, 0.1):
        stamped = commanded_motion(request([2.0], [target], NOW - int(ago * SECOND)), NAMES,
                                   (HOME, REST), NOW, UR5)
        assert f'header.stamp {ago:g} s ago' in stamped.jump
        with pytest.raises(goals.GoalError, match='rush or step the arm') as caught:
            policies.apply_policy(UR5, stamped, 'reject', 0.05)
        assert caught.value.code == goals.INVALID_GOAL and 'stamp 0' in str(caught.value)
    fresh = commanded_motion(request([2.0], [target], NOW - 5 * 10 ** 6), NAMES, (HOME, REST),
                             NOW, UR5)                      # 5 ms of delivery: 1.75 mrad
    assert not fresh.jump and fresh.trajectory.duration == pytest.approx(1.995, abs=1e-12)


def test_under_scale_a_past_stamp_is_retimed_from_the_current_state():
    moving = np.array([0.2, -0.1, 0.0, 0.3, 0.0, 0.0])
    stamped = commanded_motion(request([2.0], [HOME + 0.7], NOW - int(1.9 * SECOND)), NAMES,
                               (HOME, moving), NOW, UR5)
    trajectory, scale, report = policies.apply_policy(UR5, stamped, 'scale', 0.05)
    assert not report.feasible and scale > 1
    np.testing.assert_array_equal(trajectory.positions[0], HOME)       # from where it is
    np.testing.assert_array_equal(trajectory.velocities[0], moving)    # at the speed it has
    speed, effort = within_limits(UR5, trajectory)
    assert speed.max() <= 1.0 and effort.max() <= 1.0
    np.testing.assert_allclose(trajectory.positions[-1], HOME + 0.7, rtol=0, atol=1e-15)


def test_one_point_at_time_zero_is_a_hold_or_a_step():
    far = commanded_motion(request([0.0], [HOME + 0.7]), NAMES, (HOME, REST), NOW, UR5)
    assert 'at time_from_start 0' in far.jump and 'shoulder_pan_joint is 0.7' in far.jump
    for policy in ('reject', 'warn'):
        with pytest.raises(goals.GoalError, match='step the arm'):
            policies.apply_policy(UR5, far, policy, 0.05)
    trajectory, _, _ = policies.apply_policy(UR5, far, 'scale', 0.05)
    speed, effort = within_limits(UR5, trajectory)
    assert speed.max() <= 1.0 + 1e-12 and effort.max() <= 1.0
    near = commanded_motion(request([0.0], [HOME + 0.005]), NAMES, (HOME, REST), NOW, UR5)
    assert not near.jump and near.trajectory.times.size == 1
    np.testing.assert_array_equal(near.trajectory.sample(NOW + SECOND)[0], HOME + 0.005)
    moveit = commanded_motion(request([0.0, 1.0], [HOME, HOME + 0.2]), NAMES, (HOME, REST),
                              NOW, UR5)          # a first point at the start state, at 0
    assert not moveit.jump and moveit.skipped == 1 and moveit.trajectory.duration == 1.0


def test_a_future_stamp_moves_at_once_to_reach_the_first_point_at_its_time():
    """Upstream: from receipt, reach the first point at stamp + its time_from_start."""
    motion = commanded_motion(request([0.5, 1.5], [HOME + 0.1, HOME + 0.2], NOW + SECOND),
                              NAMES, (HOME, REST), NOW, UR5)
    assert motion.trajectory.start_ns == NOW and not motion.jump
    knots = motion.trajectory
    np.testing.assert_allclose(knots.times[[0, -1]], [0.0, 2.5])
    assert np.any(np.abs(knots.sample(NOW + SECOND // 2)[0] - HOME) > 1e-3)   # moving
    np.testing.assert_allclose(knots.sample(NOW + int(2.5 * SECOND))[0], HOME + 0.2)


def test_positions_only_are_lines_with_parabolic_blends():
    """Craig §7.3 against the closed form of one rest-to-rest segment; through-lines elsewhere."""
    T, delta = 2.0, 0.7
    times, positions, velocities = parabolic_blends([0.0, T], [[0.0], [delta]], [0.0])
    b = BLEND * T
    v = delta / (T - b)                                     # eq. 7.25 with both blends
    t = np.linspace(0.0, T, 2001)
    q, qd, qdd = sample_waypoints_many(times, positions, velocities, None, t)
    a = v / b
    closed = np.where(t < b, a * t ** 2 / 2, np.where(t > T - b, delta - a * (T - t) ** 2 / 2,
                                                      v * b / 2 + v * (t - b)))
    np.testing.assert_allclose(q[:, 0], closed, rtol=0, atol=1e-14)
    assert np.abs(qd).max() == pytest.approx(v, rel=1e-12)
    assert np.abs(qdd).max() == pytest.approx(a, rel=1e-12)
    via = [[0.0, 0.0], [0.4, -0.2], [0.5, 0.3], [0.1, 0.3]]
    when = [0.0, 1.0, 1.5, 3.0]
    times, positions, velocities = parabolic_blends(when, via, [0.1, 0.0])
    np.testing.assert_array_equal(positions[[0, -1]], np.array(via)[[0, -1]])
    np.testing.assert_array_equal(velocities[[0, -1]], [[0.1, 0.0], [0.0, 0.0]])
    middle = sample_waypoints(times, positions, velocities, None, 1.25)
    np.testing.assert_allclose(middle[0], [0.45, 0.05], atol=1e-14)   # on the line 1 -> 2
    np.testing.assert_allclose(middle[1], [0.2, 1.0], atol=1e-14)


def test_positions_only_goals_are_judged_on_what_is_commanded():
    """Issue 31.8: 1.4 rad in 0.5 s of positions only SUCCEEDED with two joints at 100 %."""
    motion = commanded_motion(request([0.5], [HOME + 1.4]), NAMES, (HOME, REST), NOW, UR5)
    with pytest.raises(goals.GoalError, match='would move at 3.733 rad/s'):
        policies.apply_policy(UR5, motion, 'reject', 0.05)


@pytest.mark.parametrize('rules, ok', [(GoalRules(), False),
                                       (GoalRules(allow_partial_joints_goal=True), True)])
def test_partial_goals_follow_upstream(rules, ok):
    partial = request([1.0], [[0.2]], names=NAMES[2:3])
    if ok:
        motion = commanded_motion(partial, NAMES, (HOME, REST), NOW, UR5, rules)
        expected = HOME.copy()
        expected[2] = 0.2
        np.testing.assert_array_equal(motion.trajectory.positions[-1], expected)
        return
    with pytest.raises(goals.GoalError, match='allow_partial_joints_goal') as caught:
        commanded_motion(partial, NAMES, (HOME, REST), NOW, UR5, rules)
    assert caught.value.code == goals.INVALID_JOINTS


def test_a_last_point_that_moves_follows_upstream():
    moving = request([1.0], [HOME + 0.1], velocities=np.full((1, 6), 0.05))
    with pytest.raises(goals.GoalError, match='allow_nonzero_velocity_at_trajectory_end'):
        commanded_motion(moving, NAMES, (HOME, REST), NOW, UR5)
    allowed = GoalRules(allow_nonzero_velocity_at_trajectory_end=True)
    assert commanded_motion(moving, NAMES, (HOME, REST), NOW, UR5, allowed).trajectory


def test_request_bounds_and_messages():
    count = bounds.MAX_TRAJECTORY_POINTS
    times = 0.01 * np.arange(1, count + 1)
    positions = HOME + np.linspace(0.0, 0.5, count)[:, None]
    full = commanded_motion(request(times, positions), NAMES, (HOME, REST), NOW, UR5)
    assert full.trajectory.times.size == 2 * count    # the first point, 10 ms ahead where the
    assert full.skipped == 1                          # arm is, joins the state; 2 knots each
    policies.apply_policy(UR5, full, 'reject', 0.05)          # 10,000 points are allowed
    with pytest.raises(goals.GoalError, match='10001 points, more than 10000'):
        TrajectoryRequest.from_points(NAMES, np.arange(count + 1.0), [[0.0] * 6] * (count + 1),
                                      [[]] * (count + 1), [[]] * (count + 1))
    huge = request([1.0], [HOME], velocities=np.full((1, 6), 1e308))
    with pytest.raises(goals.GoalError, match=r"points\[0\].velocities of joint "
                       r"'shoulder_pan_joint' is 1e\+308: beyond the plausible 4.71"):
        commanded_motion(huge, NAMES, (HOME, REST), NOW, UR5)
    with pytest.raises(goals.GoalError, match=r'got \[-1e-09\]'):
        commanded_motion(request([-1e-9], [HOME]), NAMES, (HOME, REST), NOW, UR5)
    with pytest.raises(goals.GoalError, match='accelerations given without velocities'):
        commanded_motion(request([1.0], [HOME], accelerations=np.zeros((1, 6))), NAMES,
                         (HOME, REST), NOW, UR5)


def test_a_one_megabyte_name_is_quoted_short():
    with pytest.raises(goals.GoalError) as caught:
        commanded_motion(request([1.0], [[0.0]], names=['x' * 10 ** 6]), NAMES, (HOME, REST),
                         NOW, UR5)
    assert len(str(caught.value)) < 2000 and '1000000 characters' in str(caught.value)


def test_however_stamped_no_accepted_goal_rushes_or_exceeds_a_limit():
    """The target of issue 30 on random goals, stamps and states under the default policy."""
    rng = np.random.default_rng(30)
    accepted = 0
    for _ in range(60):
        q = HOME + rng.uniform(-0.3, 0.3, 6)
        target = np.clip(q + rng.uniform(-1.0, 1.0, 6), UR5.lower_limit, UR5.upper_limit)
        duration = rng.uniform(0.05, 3.0)
        stamp = 0 if rng.random() < 0.3 else NOW + int(rng.uniform(-3.0, 1.0) * SECOND)
        try:
            motion = commanded_motion(request([duration], [target], stamp), NAMES, (q, REST),
                                      NOW, UR5)
            trajectory, _, _ = policies.apply_policy(UR5, motion, 'reject', 0.05)
        except goals.GoalError:
            continue
        accepted += 1
        planned = np.abs(target - q).max() / duration
        speed, effort = within_limits(UR5, trajectory)
        assert effort.max() <= 1.0 and speed.max() <= 1.0
        assert np.max(speed * UR5.velocity_limit) <= 1.5 * planned + 1e-9
    assert accepted >= 10


def test_feasibility_scale_keeps_the_measured_velocity_and_fits():
    motion = commanded_motion(request([0.3], [HOME + 0.7], velocities=np.zeros((1, 6)),
                                      accelerations=np.zeros((1, 6))), NAMES,
                              (HOME, np.full(6, 0.5)), NOW, UR5)
    k = feasibility.check_trajectory(UR5, motion.trajectory.times, motion.trajectory.positions,
                                     motion.trajectory.velocities,
                                     motion.trajectory.accelerations).scale
    trajectory, scale, _ = policies.apply_policy(UR5, motion, 'scale', 0.05)
    assert scale >= k
    np.testing.assert_array_equal(trajectory.velocities[0], np.full(6, 0.5))
    speed, effort = within_limits(UR5, trajectory)
    assert speed.max() <= 1.0 and effort.max() <= 1.0
