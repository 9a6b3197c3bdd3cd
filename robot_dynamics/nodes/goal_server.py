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
"""The parts of the trajectory controller that need control_msgs: its action, its state.

:class:`GoalServer` serves the ``FollowJointTrajectory`` action on a thread of its own
(docs/controllers.md; docs/safety.md, MED 1); :class:`ControllerState` publishes
``~/controller_state`` and the action's feedback.
"""
import threading
import time

import rclpy
from control_msgs.action import FollowJointTrajectory
from control_msgs.msg import JointTrajectoryControllerState
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.action.server import GoalEvent
from rclpy.executors import SingleThreadedExecutor
from rclpy.parameter import Parameter
from trajectory_msgs.msg import JointTrajectoryPoint

from robot_dynamics.control import goals
from robot_dynamics.control.goal_lifecycle import refusal_result
from robot_dynamics.control.trajectory_input import size_refusal
from robot_dynamics.errors import bounded
from robot_dynamics.nodes.process import shut_down

RESULT_TIMEOUT = 30            # s a finished goal's result is kept for a late get_result


class GoalServer:
    """Serve ``~/follow_joint_trajectory`` of ``controller`` from a thread of its own.

    rclpy turns a goal request into Python objects before any code of ours sees it: 12 us per
    point (issue 30). So the action lives on a side node (``<controller>_goals``, same
    namespace, the controller's own action name) spun by its own executor thread: while a goal
    is converted and checked, the controller's thread keeps commanding. Goals of more than
    ``MAX_TRAJECTORY_POINTS`` points or ``MAX_JOINT_NAMES`` names are rejected at once (no
    result kept); results of finished goals are kept ``RESULT_TIMEOUT`` s (rclpy's default is
    900 s), and a finished goal's points are released at once.

    ``controller.accept_goal(handle)`` returns the installed
    :class:`~robot_dynamics.control.goal_lifecycle.ActiveGoal` of a request, its ``done`` a
    :class:`rclpy.task.Future` (or raises :class:`~robot_dynamics.control.goals.GoalError`);
    the controller ends goals with :meth:`end`.
    """

    def __init__(self, controller, log):
        self._controller, self._log = controller, log
        name = controller.resolve_topic_name('~/follow_joint_trajectory')
        self.node = rclpy.create_node(
            f'{controller.get_name()}_goals', namespace=controller.get_namespace(),
            context=controller.context, use_global_arguments=False)
        self._follow_clock(controller)
        self._wake = self.node.create_guard_condition(lambda: None)
        self._executing = 0                  # goals whose execute callback has not returned
        self.rejected = 0                    # goals rejected as too large
        self.action = ActionServer(self.node, FollowJointTrajectory, name,
                                   execute_callback=self._execute, goal_callback=self._screen,
                                   cancel_callback=lambda handle: CancelResponse.ACCEPT,
                                   result_timeout=RESULT_TIMEOUT)
        self._executor = SingleThreadedExecutor(context=controller.context)
        self._executor.add_node(self.node)
        self._thread = threading.Thread(target=self._spin, daemon=True,
                                        name=f'{controller.get_name()} goals')
        self._thread.start()

    def _follow_clock(self, controller):
        """Set the side node's clock from the controller's time source (its ``/clock``).

        A ``/clock`` subscription of its own woke this thread for every message (issue 36;
        docs/latency.md) and ignored the controller's remapping. On simulated time if the
        controller was at start; a later ``use_sim_time`` switch does not move it to wall time
        (the results it keeps would all expire at once). rclpy has no public way to share a
        time source.
        """
        self._time_source = getattr(controller, '_time_source', None)
        sim_time = controller.get_parameter('use_sim_time').value
        if self._time_source is None:           # not an rclpy Node as we know it: as before
            self.node.set_parameters([Parameter('use_sim_time', value=sim_time)])
            return
        clock = self.node.get_clock()
        clock._set_ros_time_is_active(sim_time)
        self._follower = _TimesOnly(clock)
        self._follower.set_ros_time_override(self._time_source._last_time_set)
        self._time_source._associated_clocks.add(self._follower)

    def _spin(self):
        while self.node.context.ok() and not self._closed():
            try:
                self._executor.spin_once(timeout_sec=0.1)
            except Exception as exc:  # noqa: BLE001 - the goal thread must outlive any goal
                if not self.node.context.ok() or self._closed():
                    return
                self._controller.callback_failed('follow_joint_trajectory', exc)

    def _closed(self):
        return getattr(self, '_closing', False)

    def _screen(self, goal):
        """Reject at once what is too large to check (nothing kept), accept the rest."""
        trajectory = goal.trajectory
        refusal = size_refusal(len(trajectory.points), len(trajectory.joint_names))
        if refusal:
            self.rejected += 1
            self._log.warning(f'goal rejected: {refusal}')
            trajectory.points = []                      # release it now
            return GoalResponse.REJECT
        return GoalResponse.ACCEPT

    async def _execute(self, handle):
        """Accept (or refuse with the code and reason), then wait for the motion to end."""
        self._executing += 1
        try:
            return await self._run(handle)
        finally:
            self._executing -= 1

    async def _run(self, handle):
        result = FollowJointTrajectory.Result()
        try:
            goal = self._controller.accept_goal(handle)
        except Exception as exc:  # noqa: BLE001 - a client sees why, the node goes on
            if isinstance(exc, goals.GoalError):
                self._log.warning(f'goal refused ({exc.code}): {exc}')
            else:
                self._controller.callback_failed('follow_joint_trajectory goal', exc)
            handle.abort()
            handle.request.trajectory.points = []
            result.error_code, result.error_string = refusal_result(exc)
            return result
        code, text = await goal.done
        handle.request.trajectory.points = []
        result.error_code, result.error_string = code, bounded(text, 1000)
        return result

    def end(self, goal, how, code, text):
        """End ``goal`` (succeed, abort or canceled) with the Result's code and text."""
        handle = goal.handle
        if how == 'preempted':
            if handle.is_active and not handle.is_cancel_requested:
                handle._update_state(GoalEvent.CANCEL_GOAL)   # rclpy: no public transition
            how = 'canceled'
        if handle.is_active:
            getattr(handle, how)()
        goal.done.set_result((code, text))
        self._wake.trigger()                           # the goal thread resumes _execute

    def close(self):
        """Let ended goals send their results, stop the goal thread, destroy the side node."""
        deadline = time.monotonic() + 2.0
        while self._executing and time.monotonic() < deadline:
            time.sleep(0.01)
        self._closing = True
        self._wake.trigger()
        self._thread.join(timeout=2.0)
        self._executor.remove_node(self.node)
        shut_down(self._executor)           # before the teardown's __del__ (process.shut_down)
        if self._time_source is not None:
            self._time_source._associated_clocks.discard(self._follower)
        self.action.destroy()
        self.node.destroy_node()


class _TimesOnly:
    """Pass the times a time source sets to a clock, not its switches between time kinds."""

    def __init__(self, clock):
        self.clock = clock

    def set_ros_time_override(self, time):
        """Set the clock's simulated time."""
        self.clock.set_ros_time_override(time)

    def _set_ros_time_is_active(self, enabled):
        """Keep the clock's time kind (rclpy calls this when ``use_sim_time`` switches)."""


def _point(positions=(), velocities=(), accelerations=(), effort=()):
    return JointTrajectoryPoint(positions=list(map(float, positions)),
                                velocities=list(map(float, velocities)),
                                accelerations=list(map(float, accelerations)),
                                effort=list(map(float, effort)))


class ControllerState:
    """Publish the controller's state and the running goal's feedback at most at a rate.

    As upstream: ``reference`` the desired state, ``feedback`` the measured one, ``error``
    their difference, ``output`` the command (here efforts: ``output.effort``), in the order of
    the controller's ``joints``; ``speed_scaling_factor`` is ``1 / k`` of a goal slowed by
    ``k``. Published at ``state_publish_rate`` of joint-state time.
    """

    def __init__(self, node, names, order):
        self._node, self._names, self._order = node, list(names), order
        self._publisher = node.create_publisher(JointTrajectoryControllerState,
                                                '~/controller_state', 10)
        self._last_ns = None

    def publish(self, now_ns, q, qd, desired, command, goal):
        """Publish for the state ``q, qd`` (model order) if the period has passed."""
        period = 1e9 / self._node.get_parameter('state_publish_rate').value
        if self._last_ns is not None and 0 <= now_ns - self._last_ns < period:
            return
        self._last_ns = now_ns
        o = self._order
        q_d, qd_d, qdd_d = desired
        state = JointTrajectoryControllerState(joint_names=self._names)
        state.header.stamp.sec, state.header.stamp.nanosec = divmod(now_ns, 10 ** 9)
        state.reference = _point(q_d[o], qd_d[o], qdd_d[o])
        state.feedback = _point(q[o], qd[o])
        state.error = _point((q_d - q)[o], (qd_d - qd)[o])
        state.output = _point(effort=command[o])
        state.speed_scaling_factor = 1.0 / goal.scale if goal is not None else 1.0
        self._publisher.publish(state)
        if goal is not None and goal.handle.is_active:
            feedback = FollowJointTrajectory.Feedback(joint_names=self._names)
            feedback.header = state.header
            feedback.desired, feedback.actual, feedback.error = (
                state.reference, state.feedback, state.error)
            goal.handle.publish_feedback(feedback)
