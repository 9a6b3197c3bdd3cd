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
"""Feasibility policies, upstream's tolerances and error codes, nodes without a model."""

import re

import numpy as np
import pytest

from robot_dynamics.analysis import feasibility
from robot_dynamics.control import goals, policies
from robot_dynamics.control.goals import GoalRules, TrajectoryRequest, commanded_motion
from robot_dynamics.control.tolerances import SUCCESS, Tolerances, judge, merge_tolerances
from robot_dynamics.control.trajectory import DesiredTrajectory
from robots import quiet_bundled

UR5 = quiet_bundled('ur5')
NAMES = tuple(UR5.joint_names)
REST = np.zeros(6)
FAST = ([0.0, 0.3], np.array([np.zeros(6), np.full(6, 0.7)]))     # 223 N m of 150 at joint 2
SECOND = 10 ** 9


def request(times, positions, stamp_ns=0, velocities=None, accelerations=None, names=NAMES):
    return TrajectoryRequest(tuple(names), np.array(times, dtype=float),
                             np.array(positions, dtype=float), velocities, accelerations,
                             stamp_ns)


@pytest.mark.parametrize('names, points, code, words', [
    ([], [(1.0, [])], goals.INVALID_JOINTS, 'empty'),
    (['nope'], [(1.0, [0.0])], goals.INVALID_JOINTS, "unknown joints ['nope']"),
    (NAMES[:1] * 2, [(1.0, [0.0, 0.0])], goals.INVALID_JOINTS, 'repeat'),
    (NAMES[:2], [(1.0, [0.0])], goals.INVALID_GOAL, 'sizes [1]'),
    (NAMES[:1], [(1.0, [np.nan])], goals.INVALID_GOAL, 'NaN'),
    (NAMES[:1], [(1.0, [0.0]), (1.0, [0.1])], goals.INVALID_GOAL, 'increase strictly'),
    (NAMES[2:3], [(1.0, [4.0])], goals.INVALID_GOAL, 'outside its limits'),
])
def test_bad_goals_get_the_upstream_codes(names, points, code, words):
    rules = GoalRules(allow_partial_joints_goal=True)
    with pytest.raises(goals.GoalError, match=re.escape(words)) as caught:
        built = TrajectoryRequest.from_points(names, [t for t, _ in points],
                                              [p for _, p in points], [[]] * len(points),
                                              [[]] * len(points))
        commanded_motion(built, NAMES, (REST, REST), 10 * SECOND, UR5, rules)
    assert caught.value.code == code
    with pytest.raises(goals.GoalError, match='no points'):
        TrajectoryRequest.from_points(NAMES, [], [], [], [])


def test_old_stamp_is_old_header_timestamp_unless_a_late_reader_holds_it():
    ended = request([1.0], [np.full(6, 0.1)], stamp_ns=3 * SECOND)      # ended at 4 s
    with pytest.raises(goals.GoalError) as caught:
        commanded_motion(ended, NAMES, (REST, REST), 5 * SECOND, UR5)
    assert caught.value.code == goals.OLD_HEADER_TIMESTAMP
    there = commanded_motion(ended, NAMES, (np.full(6, 0.1), REST), 5 * SECOND, UR5,
                             ended_ok=True)                  # a latched motion, read late
    assert not there.jump
    np.testing.assert_array_equal(there.trajectory.sample(6 * SECOND)[0], np.full(6, 0.1))
    away = commanded_motion(ended, NAMES, (REST, REST), 5 * SECOND, UR5, ended_ok=True)
    assert 'has ended' in away.jump
    with pytest.raises(goals.GoalError, match='step the arm'):
        policies.check_motion(away, NAMES)


@pytest.mark.parametrize('end, stamp_ahead, words', [
    (1e9, 0.0, 'longer than MAX_DURATION = 3600 s'),
    (1.0, 1e5, 'ahead of the clock, more than MAX_START_DELAY = 300 s'),
])
def test_absurd_durations_and_start_delays_are_refused(end, stamp_ahead, words):
    """Trial 2: a goal lasting 1e9 s, or stamped to start in 27 h, was accepted."""
    now_ns = 1000 * SECOND
    far = request([end], [REST], stamp_ns=int((1000 + stamp_ahead) * SECOND))
    with pytest.raises(goals.GoalError, match=re.escape(words)) as caught:
        commanded_motion(far, NAMES, (REST, REST), now_ns, UR5)
    assert caught.value.code == goals.INVALID_GOAL
    at_bound = request([goals.MAX_DURATION], [REST],
                       stamp_ns=int((1000 + goals.MAX_START_DELAY) * SECOND))
    motion = commanded_motion(at_bound, NAMES, (REST, REST), now_ns, UR5)
    assert motion.trajectory.duration == goals.MAX_START_DELAY + goals.MAX_DURATION


def test_policies_on_an_infeasible_motion():
    zeros = np.zeros((2, 6))
    motion = commanded_motion(request(*FAST, velocities=zeros, accelerations=zeros), NAMES,
                              (REST, REST), SECOND, UR5)
    k = feasibility.check_trajectory(UR5, *FAST, zeros, zeros).scale
    with pytest.raises(goals.GoalError, match='slowed by') as caught:
        policies.apply_policy(UR5, motion, 'reject', 0.05)
    assert caught.value.code == goals.INVALID_GOAL
    same, scale, report = policies.apply_policy(UR5, motion, 'warn', 0.05)
    assert same is motion.trajectory and scale == 1.0 and not report.feasible
    slowed, scale, _ = policies.apply_policy(UR5, motion, 'scale', 0.05)
    assert scale == pytest.approx(k, rel=1e-12)            # from rest: exactly Hollerbach's
    np.testing.assert_allclose(slowed.times, k * motion.trajectory.times, rtol=1e-15)


def test_gravity_beyond_a_limit_is_refused_under_scale():
    weak = UR5.replace(effort_limit=np.array([150.0, 10.0, 150.0, 28.0, 28.0, 28.0]))
    motion = commanded_motion(request([2.0], [np.full(6, 0.1)]), NAMES, (REST, REST), SECOND,
                              weak)
    with pytest.raises(goals.GoalError, match='no time scaling helps'):
        policies.apply_policy(weak, motion, 'scale', 0.05)


def test_a_node_without_a_model_bounds_the_motion_by_any_joint():
    rules = GoalRules(allow_partial_joints_goal=True)
    far = commanded_motion(request([0.001], [[2.0, 0.0]], names=['a', 'b']), ['a', 'b'],
                           (np.zeros(2), np.zeros(2)), SECOND, None, rules)
    with pytest.raises(goals.GoalError, match="velocity of 'a' reaches 2.67e\\+03 between t "
                       '= 0 s and 0.00025 s .* beyond the plausible 1e\\+03'):
        policies.check_motion(far, ['a', 'b'])
    policies.check_motion(commanded_motion(request([1.0], [[2.0, 0.0]], names=['a', 'b']),
                                           ['a', 'b'], (np.zeros(2), np.zeros(2)), 1, None,
                                           rules), ['a', 'b'])
    with pytest.raises(goals.NeedsState, match='no joint_states received yet'):
        commanded_motion(request([1.0], [[2.0, 0.0]], names=['a', 'b']), ['a', 'b'], None, 1)


def test_tolerances_zero_default_minus_one_unchecked_positive_replaces():
    defaults = Tolerances.defaults(6, 0.1, 0.01, 0.05, 1.0)
    merged = merge_tolerances(defaults, NAMES, path=[(NAMES[0], -1.0, 0.0),
                                                     (NAMES[1], 0.0, 0.0),
                                                     (NAMES[2], 0.3, 0.0)],
                              goal=[(NAMES[3], 0.02, -1.0)], goal_time=0.0)
    np.testing.assert_array_equal(merged.path_position, [np.inf, 0.1, 0.3, 0.1, 0.1, 0.1])
    assert merged.goal_position[3] == 0.02 and merged.goal_velocity[3] == np.inf
    assert merged.goal_time == 1.0
    with pytest.raises(goals.GoalError) as caught:
        merge_tolerances(defaults, NAMES, goal=[('other', 0.0, 0.0)])
    assert caught.value.code == goals.INVALID_JOINTS


def test_goal_time_zero_waits_as_long_as_it_takes():
    """Issue 31.7: a goal_time of 0 aborted 5 ms after the end; upstream: no limit."""
    motion = DesiredTrajectory(0, np.array([0.0, 1.0]), np.array([REST, np.full(6, 0.1)]))
    off = np.full(6, 0.05)                                   # 0.05 from the goal, at rest
    forever = Tolerances.defaults(6, 0.0, 0.01, 0.05, 0.0)
    assert judge(motion, forever, NAMES, off, REST, np.full(6, 0.1), 3600 * SECOND) is None
    limited = Tolerances.defaults(6, 0.0, 0.01, 0.05, 0.3)
    verdict = judge(motion, limited, NAMES, off, REST, np.full(6, 0.1), int(1.31 * SECOND))
    assert verdict.code == goals.GOAL_TOLERANCE_VIOLATED
    assert 'goal_time_tolerance 0.3 s' in verdict.text
    done = judge(motion, limited, NAMES, np.full(6, 0.1), REST, np.full(6, 0.1),
                 int(1.1 * SECOND), 'slowed by 1.2x')
    assert (done.code, done.text) == (goals.SUCCESSFUL, f'{SUCCESS} (slowed by 1.2x)')
    path = Tolerances.defaults(6, 0.02, 0.01, 0.05, 0.0)
    strayed = judge(motion, path, NAMES, np.full(6, 0.03), REST, REST, SECOND // 2)
    assert strayed.code == goals.PATH_TOLERANCE_VIOLATED and 'from the path' in strayed.text


def test_time_optimal_retimes_along_the_path_within_the_limits_faster_than_scaling():
    """Issue 34 in the graph's policy: the infeasible motion re-timed at the limits."""
    zeros = np.zeros((2, 6))
    motion = commanded_motion(request(*FAST, velocities=zeros, accelerations=zeros), NAMES,
                              (REST, REST), SECOND, UR5)
    scaled, k, _ = policies.apply_policy(UR5, motion, 'scale', 0.05)
    fastest, ratio, report = policies.apply_policy(UR5, motion, 'time_optimal', 0.05)
    assert not report.feasible and fastest.duration == pytest.approx(ratio * 0.3, rel=1e-12)
    assert fastest.duration < scaled.duration                   # as fast as the limits allow
    np.testing.assert_allclose(fastest.positions[[0, -1]], FAST[1], atol=1e-9)
    check = policies.check(UR5, fastest, 0.0)                   # every 1 kHz sample and
    assert check.feasible, check.message()                      # between them, the quintic
    assert np.abs(check.torques).max(axis=0).max() <= UR5.effort_limit.max()
    weak = UR5.replace(effort_limit=np.array([150.0, 10.0, 150.0, 28.0, 28.0, 28.0]))
    with pytest.raises(goals.GoalError, match='no timing of this path fits the limits'):
        held = commanded_motion(request([2.0], [np.full(6, 0.1)]), NAMES, (REST, REST), SECOND,
                                weak)
        policies.apply_policy(weak, held, 'time_optimal', 0.05)
