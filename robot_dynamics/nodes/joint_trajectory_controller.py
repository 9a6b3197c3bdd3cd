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
"""ROS 2 node: a joint trajectory controller with ``control_msgs/FollowJointTrajectory``.

ros2_control's joint_trajectory_controller's semantics (docs/controllers.md: every behaviour
against upstream's), one step of computed-torque control per ``joint_states`` message with the
node's own model. The node converts messages and calls the control layer: the motion a request
commands (:func:`~robot_dynamics.control.goal_lifecycle.judged_motion`), the goal's lifecycle
(:class:`~robot_dynamics.control.goal_lifecycle.GoalLifecycle`), the control step
(:class:`~robot_dynamics.control.model_tracking.ModelTracker`). Without ``control_msgs`` the
node runs the topic paths only and says what is missing.
"""
import functools

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from rclpy.task import Future
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.control import goals, policies
from robot_dynamics.control.goal_lifecycle import ActiveGoal, judged_motion
from robot_dynamics.control.model_tracking import (SETTINGS, ModelTracker, check_model,
                                                   check_settings)
from robot_dynamics.control.tolerances import merge_tolerances
from robot_dynamics.errors import BadInput, PlausibilityError
from robot_dynamics.nodes import parameters
from robot_dynamics.nodes.contact_reaction import ContactReaction
from robot_dynamics.nodes.conversions import (merge_message, stamp_to_nanoseconds,
                                              stamp_to_seconds, trajectory_message,
                                              trajectory_request, vector_to_array)
from robot_dynamics.nodes.model_parameters import (declare_model_parameters,
                                                   model_with_logged_warnings)
from robot_dynamics.control.health import CommandRate, InputAges, ThrottledLog, silence
from robot_dynamics.nodes.node_health import publish_status
from robot_dynamics.nodes.process import guarded_subscription, run
from robot_dynamics.nodes.qos import LATCHED, STEADY
from robot_dynamics.nodes.trajectory_input import TrajectoryInput

try:                                     # the action needs control_msgs; the topic path not
    from robot_dynamics.nodes.goal_server import ControllerState, GoalServer
    CONTROL_MSGS_MISSING = ''
except ImportError as _exc:              # pragma: no cover - depends on the install
    CONTROL_MSGS_MISSING = (f'control_msgs is not installed ({_exc}): no follow_joint_trajectory '
                            'action and no controller_state; install ros-jazzy-control-msgs '
                            '(apt) or ../shared/wheels/ros_control_msgs-*.whl (pip)')

DIAGNOSTICS_PERIOD = 1.0        # s of wall time
JOINT_STATES_FIX = ('nothing is commanded without them: is the driver or simulator publishing '
                    'joint_states here (ros2 topic hz joint_states; check the remapping)?')


class JointTrajectoryController(Node):
    """Tracks FollowJointTrajectory goals and JointTrajectory messages by computed torque."""

    active = property(lambda self: self.lifecycle.active)       # the ActiveGoal running
    state = property(lambda self: self.lifecycle.state)         # (q, qd, now_ns)

    def __init__(self, node_name='joint_trajectory_controller', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_model_parameters(self, at_start_only=True)
        parameters.declare_controller_parameters(self, gains_read_only=True)
        parameters.declare_settings(self, SETTINGS)
        self.model = check_model(model_with_logged_warnings(self))
        self.joint_names = list(self.model.joint_names)
        parameters.declare_trajectory_parameters(self, self.joint_names, policies.POLICIES)
        check_settings(self.joint_names, *(self.get_parameter(name).value
                                           for name in ('kp', 'kd', 'feasibility')))
        self.order = parameters.output_order(self, self.joint_names)
        self.output_names = [self.joint_names[j] for j in self.order]
        self.tracker = ModelTracker(self.model, lambda *end: self.goals.end(*end),
                                    self.get_logger().warning)
        self.lifecycle, self.saturation = self.tracker.lifecycle, self.tracker.saturation
        self.follower = self.lifecycle.follower
        self.log, self.dropped, self.followed = [], 0, 0
        self.last_error = self.last_feasibility = ''
        self._pending = None             # a topic trajectory received before any joint state
        self._log = ThrottledLog(self.get_logger())
        self.inputs = InputAges({'joint_states': JOINT_STATES_FIX})
        self.commands = CommandRate()
        guard = functools.partial(guarded_subscription, self)
        self.create_subscription(JointState, 'joint_states', guard(self._on_joint_state),
                                 qos_profile_sensor_data)
        self.trajectory_inputs = [
            TrajectoryInput(self, JointTrajectory, topic, guard(
                lambda msg, topic=topic: self._on_trajectory(msg, topic)), reject=self._drop)
            for topic in ('desired_trajectory', '~/joint_trajectory')]
        self.pub_command = self.create_publisher(Float64MultiArray, 'effort_commands', 10)
        self.pub_accepted = self.create_publisher(JointTrajectory, '~/accepted_trajectory',
                                                  LATCHED)
        self.pub_diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self.reaction = ContactReaction(self, guard)     # collision_reaction (issue 33)
        for note in parameters.unknown_parameters(self):
            self.get_logger().warning(note)
        self.create_timer(DIAGNOSTICS_PERIOD, guard(self._publish_diagnostics), clock=STEADY)
        self.create_timer(1.0 / self.get_parameter('action_monitor_rate').value,
                          guard(self._monitor), clock=STEADY)
        self.controller_state = self.goals = None
        if CONTROL_MSGS_MISSING:
            self.get_logger().error(CONTROL_MSGS_MISSING)
            return
        self.controller_state = ControllerState(self, self.output_names, self.order)
        self.goals = GoalServer(self, self._log)

    # ------------------------------------------------------------------ inputs
    def _on_joint_state(self, msg):
        """Merge the message by name; run one control step if every joint is fresh."""
        clock_ns = self.get_clock().now().nanoseconds
        timeout = self.get_parameter('stale_timeout').value
        try:
            if not merge_message(self.tracker.merge, msg, clock_ns * 1e-9, timeout,
                                 self.tracker.message_limit,
                                 check=self.tracker.state_bounds.check):
                self.commands.foreign()         # another device's joint states
                return
        except (BadInput, PlausibilityError) as exc:
            self.inputs.note('joint_states')    # received (for /diagnostics), refused
            return self._drop(f'joint_states dropped: {exc}')
        self.inputs.note('joint_states')
        try:
            q, qd, _ = self.tracker.merge.fresh_state(clock_ns * 1e-9, timeout)
        except BadInput as exc:
            return self._drop(f'joint_states: {exc}; nothing commanded')
        now_ns = stamp_to_nanoseconds(msg.header.stamp) or clock_ns
        self.lifecycle.measured(q, qd, now_ns, timeout)
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._on_trajectory(*pending)
        self.control(q, qd, now_ns)

    def _on_trajectory(self, msg, topic):
        """Follow a JointTrajectory from a topic; a running goal goes on, judged on it."""
        if self._stale():                        # taken with the next fresh joint state
            self._pending = (msg, topic)
            return None
        try:
            trajectory, _, _ = self._commanded(trajectory_request(msg))
        except goals.GoalError as exc:
            return self._drop(f'{topic.lstrip("~/")} rejected: {exc}')
        self.lifecycle.follow(trajectory)
        self.followed += 1
        self._publish_accepted(trajectory)

    def _stale(self):
        """Say why there is no current state to start a motion from, or ''."""
        return self.lifecycle.stale(self.get_clock().now().nanoseconds,
                                    self.get_parameter('stale_timeout').value)

    def _commanded(self, request):
        """Return ``(trajectory, scale, report)``: the motion from now, judged by the policy."""
        refusal = self.reaction.refusal()    # stop/comply: nothing starts while in contact
        if refusal:
            raise goals.GoalError(goals.INVALID_GOAL, refusal)
        trajectory, scale, report, note = judged_motion(
            self.model, request, self.joint_names, self.state, parameters.goal_rules(self),
            self.get_parameter('feasibility').value,
            self.get_parameter('feasibility_margin').value)
        self.last_feasibility = '' if report.feasible else report.message()
        if note:
            self.get_logger().warning(note)
        return trajectory, scale, report

    # ------------------------------------------------------------------ control
    def control(self, q, qd, now_ns):
        """Publish ``tau`` of computed-torque control for the desired motion, bounded."""
        n = self.model.dof
        try:
            command, desired, goal = self.tracker.command(
                q, qd, now_ns, parameters.gains(self, 'kp', n), parameters.gains(self, 'kd', n),
                self.get_parameter('use_feedforward').value, self.reaction.step(),
                self.reaction.text)                 # a collision: stop, comply
        except BadInput as exc:
            return self._drop(f'{exc}; nothing published (gains or state absurd?)')
        if self.saturation.last:
            self._log.warning(self.saturation.last)
            self.saturation.last = ''
        self.pub_command.publish(vector_to_array(command[self.order]))
        self.commands.sent()
        if self.get_parameter('record').value:
            self.log.append((now_ns * 1e-9, desired[0], q, command))
        self.tracker.judge(goal, q, qd, desired, now_ns, self.get_parameter('feasibility').value)
        if self.controller_state is not None:
            self.controller_state.publish(now_ns, q, qd, desired, command, self.active)

    def _monitor(self):
        """Act on a cancel, and on joint states gone silent, without waiting for a state."""
        goal = self.active
        cancelled = goal if goal is not None and goal.handle.is_cancel_requested else None
        self.lifecycle.monitor(self.get_clock().now().nanoseconds,
                               self.get_parameter('stale_timeout').value, cancelled)

    # ------------------------------------------------------------------ goals
    def accept_goal(self, handle):
        """Return the installed :class:`ActiveGoal` of a request (goal thread), or raise."""
        stale = self._stale()
        if stale:
            raise goals.GoalError(goals.INVALID_GOAL, f'{stale}: the controller does not know '
                                  'where the arm is, and the motion starts from there')
        request = handle.request
        tolerances = merge_tolerances(
            parameters.default_tolerances(self, self.joint_names), self.joint_names,
            [(t.name, t.position, t.velocity) for t in request.path_tolerance],
            [(t.name, t.position, t.velocity) for t in request.goal_tolerance],
            stamp_to_seconds(request.goal_time_tolerance))
        at_ns = self.state[2]
        trajectory, scale, _ = self._commanded(trajectory_request(request.trajectory))
        goal = self.lifecycle.install(ActiveGoal(handle, trajectory, tolerances, scale, Future()),
                                      at_ns)
        self._publish_accepted(goal.trajectory)
        return goal

    def _publish_accepted(self, trajectory):
        """Latch the motion that will run on ``~/accepted_trajectory`` (model order); log it."""
        self.get_logger().info(f'following a {trajectory.duration:.2f} s motion of '
                               f'{len(trajectory.times)} points')
        if trajectory.start_ns is not None:
            self.pub_accepted.publish(trajectory_message(
                self.joint_names, trajectory.times, trajectory.positions,
                trajectory.velocities, trajectory.accelerations,
                Time(nanoseconds=trajectory.start_ns).to_msg()))

    # ------------------------------------------------------------------ health
    def health(self):
        """Level and message for /diagnostics: never OK while silent (docs/robustness.md)."""
        window = max(DIAGNOSTICS_PERIOD, self.get_parameter('stale_timeout').value)
        silent = silence(self.inputs, self.commands.last, window, 'effort_commands',
                         self.last_error)
        if silent:
            return silent
        starved = self.commands.starved(window)
        if starved:
            return DiagnosticStatus.WARN, starved
        infeasible = self.last_feasibility \
            if self.get_parameter('feasibility').value == 'warn' else ''
        warning, text = self.tracker.status(window, infeasible)
        return (DiagnosticStatus.WARN if warning else DiagnosticStatus.OK), text

    def _publish_diagnostics(self):
        age = self.inputs.age('joint_states')
        values = {'saturated_commands': sum(self.saturation.count.values()),
                  'joint_states_age_s': 'never' if age is None else f'{age:.3f}',
                  'dropped_messages': self.dropped, 'last_error': self.last_error,
                  'last_feasibility': self.last_feasibility,
                  'feasibility': self.get_parameter('feasibility').value,
                  'control_msgs': CONTROL_MSGS_MISSING or 'installed', **self.reaction.values(),
                  **self.commands.values(DIAGNOSTICS_PERIOD)}
        publish_status(self, self.pub_diagnostics, 'controller', self.model.name, self.health(),
                       values)

    def _drop(self, reason):
        self.dropped += 1
        self.last_error = reason[:2000]
        self._log.warning(self.last_error)

    def callback_failed(self, name, exc):
        """Log an exception caught around a callback (the node keeps running)."""
        self.last_error = f'{name} failed: {type(exc).__name__}: {exc}'[:2000]
        self._log.error(self.last_error)

    def destroy_node(self):
        """Abort a running goal (upstream does on deactivate), stop the goal thread, destroy."""
        if self.goals is not None:
            self.lifecycle.shutdown()
            self.goals.close()
        return super().destroy_node()


def main(args=None):
    """Console-script entry point ``joint_trajectory_controller``."""
    run(JointTrajectoryController, args)


if __name__ == '__main__':
    main()
