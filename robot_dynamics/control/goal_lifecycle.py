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
"""The goal a trajectory controller runs, and every way it ends, decided without ROS.

:class:`GoalLifecycle` holds a controller's latest state, its desired motion
(:class:`~robot_dynamics.control.tracking.MotionFollower`) and the goal running on it, behind
one lock: the action's goals are accepted on a thread of their own (``nodes/goal_server.py``)
while the controller's thread runs the steps. A new goal preempts the running one; a cancel, an
abort (a tolerance violated, a collision, joint states silent for more than ``stale_timeout``)
brakes the arm to rest where it is, never a step; joint states that come back after a silence
abort the goal and brake too (issue 31). ``end(goal, how, code, text)`` is told each end (the
action server sends the result); ``warn(text)`` each note for the log. A goal's ``handle``
and ``done`` belong to the server: opaque here. Integer nanoseconds of the controller's clock.
"""

from dataclasses import replace
import threading
import time

from robot_dynamics.control.controller_settings import goal_note
from robot_dynamics.control.goals import (INVALID_GOAL, PATH_TOLERANCE_VIOLATED, SUCCESSFUL,
                                          GoalError, commanded_motion)
from robot_dynamics.control.policies import apply_policy
from robot_dynamics.control.tolerances import judge
from robot_dynamics.control.tracking import MotionFollower
from robot_dynamics.errors import bounded

PREEMPTED = 'Current goal cancelled due to new incoming action.'       # upstream's text
VERBS = {'time_optimal': 're-timed to {duration:.4g} s at the limits',
         'scale': 'slowed down {scale:.3g}x from the current state',
         'warn': 'executed anyway (feasibility: warn)'}


class ActiveGoal:
    """The goal being executed: its handle, trajectory, tolerances, slow-down and completion."""

    def __init__(self, handle, trajectory, tolerances, scale, done=None):
        self.handle, self.trajectory, self.tolerances = handle, trajectory, tolerances
        self.scale, self.done = scale, done


def refusal_result(exc, limit=1000):
    """Return the Result's ``(code, text)`` of a goal refused with ``exc`` (any exception).

    A GoalError is the refusal's code and reason; anything else, a goal not understood.
    """
    if isinstance(exc, GoalError):
        return exc.code, bounded(str(exc), limit)
    return INVALID_GOAL, bounded(f'goal not understood: {type(exc).__name__}: {exc}', limit)


def judged_motion(model, request, joint_names, state, rules, policy, margin):
    """Return ``(trajectory, scale, report, note)``: the motion from ``state``, judged.

    ``state``: ``(q, qd, state_ns)``, where the motion starts; ``policy`` and ``margin``: as
    :func:`~robot_dynamics.control.policies.apply_policy`, which raises GoalError for a motion
    refused. ``note``: '' or the warning of a step or a motion beyond the limits executed.
    """
    q, qd, state_ns = state
    motion = commanded_motion(request, joint_names, (q, qd), state_ns, model, rules)
    started = time.monotonic()
    trajectory, scale, report = apply_policy(model, motion, policy, margin)
    note = ''
    if motion.jump or not report.feasible:
        verb = VERBS[policy].format(duration=trajectory.duration, scale=scale)
        note = (f'trajectory {verb}: {motion.jump or report.message()} [judged and timed in '
                f'{(time.monotonic() - started) * 1e3:.0f} ms]')
    return trajectory, scale, report, note


class GoalLifecycle:
    """A controller's state, desired motion and running goal, changed under one lock."""

    def __init__(self, end, warn):
        self._end, self._warn = end, warn
        self.lock = threading.Lock()
        self.follower = MotionFollower()
        self.active = None              # ActiveGoal
        self.state = None               # (q, qd, now_ns)

    def measured(self, q, qd, now_ns, timeout):
        """Take the state ``q, qd`` at ``now_ns``; after a silence, brake where the arm is."""
        with self.lock:
            gap = self.follower.outage(now_ns, timeout)
            if gap is not None:
                note = (f'joint_states resumed after {gap:.3g} s without a command (more than '
                        'stale_timeout): the arm was not controlled and may have moved; holding '
                        'it where it is now')
                if self.active is not None:
                    self.finish(self.active, 'abort', PATH_TOLERANCE_VIOLATED,
                                f'{note}; goal aborted')
                self.follower.stop(q, qd, now_ns)
                self._warn(note)
            self.state = (q, qd, now_ns)

    def stale(self, now_ns, timeout):
        """Say why there is no current state to start a motion from at ``now_ns``, or ''."""
        if self.state is None:
            return 'no joint_states received yet'
        age = (now_ns - self.state[2]) * 1e-9
        if age > timeout:
            clocks = ' (the clock and the states\' stamps differ: use_sim_time?)' \
                if abs(age) > 1e6 else ''
            return f'the last usable joint_states is {age:.3g} s old{clocks}'
        return ''

    def follow(self, trajectory):
        """Follow a topic's motion; a running goal goes on, judged on it."""
        with self.lock:
            self.follower.follow(trajectory)
            if self.active is not None:
                self.active.trajectory = trajectory

    def install(self, goal, judged_ns):
        """Run ``goal`` (judged from the state at ``judged_ns``), preempting the running one.

        The arm was controlled on while the goal was judged: a motion from the state it was
        judged at starts from the state now (the arm holds still), not some 50-100 ms into
        itself (a step of its first 50-100 ms).
        """
        with self.lock:
            if goal.trajectory.start_ns == judged_ns and self.state[2] > judged_ns:
                goal.trajectory = replace(goal.trajectory, start_ns=self.state[2])
            if self.active is not None:
                self.finish(self.active, 'preempted', INVALID_GOAL, PREEMPTED)
            self.active = goal
            self.follower.follow(goal.trajectory)
        return goal

    def finish(self, goal, how, code, text, stop=False):
        """End ``goal`` (the lock held) if it runs; brake the arm to rest if ``stop``."""
        if goal is not self.active:
            return
        self.active = None
        if stop and self.state is not None:
            self.follower.stop(*self.state)
        if how != 'succeed':
            self._warn(f'goal {how}: {text}')
        self._end(goal, how, code, text)

    def step(self, q, qd, now_ns, abort='', hold=False):
        """Return the desired ``(q, qd, qdd)`` and the goal running, for the state now.

        ``abort``: why the running goal ends (a collision: its text); ``hold``: brake and hold.
        """
        with self.lock:
            if abort and self.active is not None:
                self.finish(self.active, 'abort', PATH_TOLERANCE_VIOLATED, abort)
            if hold:
                self.follower.stop(q, qd, now_ns)
            return self.follower.desired(q, qd, now_ns), self.active

    def judge(self, goal, joint_names, q, qd, desired_q, now_ns, policy):
        """End ``goal`` if the state decides it: success, or a tolerance violated (braking)."""
        note = goal_note(policy, goal.scale, goal.trajectory.duration)
        verdict = judge(goal.trajectory, goal.tolerances, joint_names, q, qd, desired_q,
                        now_ns, note)
        if verdict is not None:
            with self.lock:
                self.finish(goal, verdict.how, verdict.code, verdict.text,
                            stop=verdict.how == 'abort')

    def monitor(self, now_ns, timeout, cancelled=None):
        """Act on a cancel of goal ``cancelled``, and on joint states gone silent."""
        with self.lock:
            goal = self.active
            if goal is None or self.state is None:
                return
            if cancelled is goal:
                return self.finish(goal, 'canceled', SUCCESSFUL,
                                   'canceled: braking to rest where the arm is', stop=True)
            gap = self.follower.outage(now_ns, timeout)
            if gap is not None:
                self.finish(goal, 'abort', PATH_TOLERANCE_VIOLATED,
                            f'no usable joint_states for {gap:.3g} s (more than stale_timeout): '
                            'the arm is not controlled; goal aborted')

    def shutdown(self):
        """Abort the running goal: the controller is shutting down (upstream: on deactivate)."""
        with self.lock:
            if self.active is not None:
                self.finish(self.active, 'abort', INVALID_GOAL,
                            'the controller is shutting down')
