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
"""A trajectory controller's goals, without ROS: preempt, cancel, abort, silence (issue 35)."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control import goals
from robot_dynamics.control.goal_lifecycle import (ActiveGoal, GoalLifecycle, judged_motion,
                                                   refusal_result)
from robot_dynamics.control.goals import GoalRules, TrajectoryRequest
from robot_dynamics.control.model_tracking import ModelTracker, check_model, check_settings
from robot_dynamics.control.reactions import Reaction
from robot_dynamics.control.tolerances import Tolerances
from robot_dynamics.control.trajectory import DesiredTrajectory
from robots import quiet_bundled

SECOND = 10 ** 9
NOW = 10 * SECOND
REST = np.zeros(2)


class Recorder:
    """The action server's side: each end of a goal, each warning."""

    def __init__(self):
        self.ends, self.warnings = [], []

    def end(self, goal, how, code, text):
        self.ends.append((goal, how, code, text))


def lifecycle():
    recorder = Recorder()
    return GoalLifecycle(recorder.end, recorder.warnings.append), recorder


def moving_goal(name='g', start_ns=NOW):
    """Return a goal moving joint 1 from 0 to 1 rad in 1 s (tolerances: none checked)."""
    trajectory = DesiredTrajectory(start_ns, np.array([0.0, 1.0]),
                                   np.array([[0.0, 0.0], [1.0, 0.0]]), np.zeros((2, 2)))
    return ActiveGoal(name, trajectory, Tolerances.defaults(2, 0, 0, 0, 0), 1.0)


def test_a_new_goal_preempts_the_running_one_with_upstreams_words():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    first = life.install(moving_goal('first'), NOW)
    second = life.install(moving_goal('second'), NOW)
    assert life.active is second
    assert recorder.ends == [(first, 'preempted', goals.INVALID_GOAL,
                              'Current goal cancelled due to new incoming action.')]
    assert recorder.warnings == ['goal preempted: Current goal cancelled due to new incoming '
                                 'action.']


def test_a_goal_judged_while_the_arm_was_controlled_starts_from_the_state_now():
    life, _ = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    judged_at = NOW
    life.measured(REST, REST, NOW + 60 * 10 ** 6, 0.5)      # 60 ms of control while judged
    goal = life.install(moving_goal(start_ns=judged_at), judged_at)
    assert goal.trajectory.start_ns == NOW + 60 * 10 ** 6
    desired, _ = life.step(REST, REST, NOW + 60 * 10 ** 6)
    np.testing.assert_array_equal(desired[0], REST)         # its first point: no step


def test_a_cancel_brakes_to_rest_where_the_arm_is():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    goal = life.install(moving_goal(), NOW)
    q, qd = np.array([0.5, 0.0]), np.array([1.0, 0.0])
    life.measured(q, qd, NOW + SECOND // 2, 0.5)
    life.monitor(NOW + SECOND // 2, 0.5, cancelled=None)
    assert life.active is goal                              # no cancel: it goes on
    life.monitor(NOW + SECOND // 2, 0.5, cancelled=goal)
    assert life.active is None and recorder.ends[-1][1:3] == ('canceled', goals.SUCCESSFUL)
    assert not life.follower.following
    desired, _ = life.step(q, qd, NOW + SECOND // 2)
    np.testing.assert_array_equal(desired[0], q)            # braking from here,
    np.testing.assert_array_equal(desired[1], qd)           # from its velocity
    later, _ = life.step(q, qd, NOW + 2 * SECOND)
    np.testing.assert_allclose(later[0], [0.5 + 1.0 * 0.2 / 2, 0.0])   # 5 rad/s²: 0.2 s
    np.testing.assert_array_equal(later[1], REST)


def test_joint_states_back_after_a_silence_abort_the_goal_and_hold_there():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    goal = life.install(moving_goal(), NOW)
    life.step(REST, REST, NOW)
    q = np.array([0.3, -0.1])
    life.measured(q, REST, NOW + 2 * SECOND, 0.5)           # 2 s without a command
    assert recorder.ends[0][:3] == (goal, 'abort', goals.PATH_TOLERANCE_VIOLATED)
    assert 'resumed after 2 s' in recorder.ends[0][3]
    assert any('holding it where it is now' in w for w in recorder.warnings)
    desired, active = life.step(q, REST, NOW + 2 * SECOND)
    assert active is None
    np.testing.assert_array_equal(desired[0], q)            # not back to where it was


def test_silent_joint_states_abort_the_goal_from_the_monitor():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    life.install(moving_goal(), NOW)
    life.step(REST, REST, NOW)
    life.monitor(NOW + SECOND // 4, 0.5)
    assert life.active is not None
    life.monitor(NOW + SECOND, 0.5)
    assert life.active is None and 'no usable joint_states for 1 s' in recorder.ends[0][3]


def test_a_collision_aborts_and_a_shutdown_aborts():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    goal = life.install(moving_goal(), NOW)
    _, active = life.step(REST, REST, NOW, abort='contact on j1', hold=True)
    assert active is None and recorder.ends[0] == (goal, 'abort',
                                                   goals.PATH_TOLERANCE_VIOLATED, 'contact on j1')
    goal = life.install(moving_goal(), NOW)
    life.shutdown()
    assert recorder.ends[-1] == (goal, 'abort', goals.INVALID_GOAL,
                                 'the controller is shutting down')


def test_stale_says_why_there_is_no_state_to_start_from():
    life, _ = lifecycle()
    assert life.stale(NOW, 0.5) == 'no joint_states received yet'
    life.measured(REST, REST, NOW, 0.5)
    assert life.stale(NOW + SECOND // 4, 0.5) == ''
    assert life.stale(NOW + SECOND, 0.5) == 'the last usable joint_states is 1 s old'
    assert 'use_sim_time' in life.stale(NOW + 10 ** 7 * SECOND, 0.5)


def test_a_goal_succeeds_with_the_note_of_its_slow_down():
    life, recorder = lifecycle()
    life.measured(REST, REST, NOW, 0.5)
    goal = moving_goal()
    goal.scale = 2.0
    life.install(goal, NOW)
    end = NOW + 2 * SECOND                                  # past the end, on the goal
    life.judge(goal, ['j1', 'j2'], np.array([1.0, 0.0]), REST, np.array([1.0, 0.0]), end,
               'scale')
    assert recorder.ends[0][1:3] == ('succeed', goals.SUCCESSFUL)
    assert 'slowed by 2x to fit the limits' in recorder.ends[0][3]


def test_judged_motion_says_what_a_policy_did():
    model = quiet_bundled('ur5')
    names = model.joint_names
    home = np.array([0.0, -1.0, 1.0, 0.0, 0.0, 0.0])
    request = TrajectoryRequest(names, [0.05], [home + 0.7])      # far too fast
    state = (home, np.zeros(6), NOW)
    with pytest.raises(goals.GoalError, match='would need'):
        judged_motion(model, request, names, state, GoalRules(), 'reject', 0.05)
    trajectory, scale, report, note = judged_motion(model, request, names, state, GoalRules(),
                                                    'scale', 0.05)
    assert scale > 1 and not report.feasible
    assert note.startswith(f'trajectory slowed down {scale:.3g}x from the current state: ')
    calm = TrajectoryRequest(names, [5.0], [home + 0.1])
    assert judged_motion(model, calm, names, state, GoalRules(), 'reject', 0.05)[3] == ''


def test_the_tracker_holds_the_first_state_with_the_gravity_torque():
    model = quiet_bundled('ur5')
    recorder = Recorder()
    tracker = ModelTracker(check_model(model), recorder.end, recorder.warnings.append)
    q = np.linspace(-0.3, 0.3, 6)
    tracker.lifecycle.measured(q, np.zeros(6), NOW, 0.5)
    command, desired, goal = tracker.command(q, np.zeros(6), NOW, np.full(6, 100.0),
                                             np.full(6, 20.0))
    np.testing.assert_allclose(command, rd.gravity_torques(model, q), rtol=0, atol=1e-9)
    assert goal is None and tracker.status(1.0) == (False, 'holding')
    floating, _, _ = tracker.command(q + 0.1, np.zeros(6), NOW, np.full(6, 100.0),
                                     np.full(6, 20.0), reaction=Reaction(gravity_only=True))
    np.testing.assert_allclose(floating, rd.gravity_torques(model, q + 0.1), rtol=0,
                               atol=1e-9)
    with pytest.raises(ValueError, match='needs a model'):
        check_model(None)
    with pytest.raises(ValueError, match="feasibility: 'fast'"):
        check_settings(model.joint_names, [1.0], [1.0], 'fast')


def test_a_refused_goal_gets_its_code_and_reason_or_not_understood():
    code, text = refusal_result(goals.GoalError(goals.INVALID_JOINTS, 'unknown joints'))
    assert (code, text) == (goals.INVALID_JOINTS, 'unknown joints')
    code, text = refusal_result(KeyError('x' * 5000))
    assert code == goals.INVALID_GOAL and text.startswith("goal not understood: KeyError: 'xxx")
    assert len(text) <= 1000 + 100                        # bounded, with a note of the cut
