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

Serves ``~/follow_joint_trajectory`` with the semantics of ros2_control's
joint_trajectory_controller (goal checks and error codes in :mod:`trajectory_goals
<robot_dynamics.nodes.trajectory_goals>`, tolerances, cancel → hold, preemption) and follows
``desired_trajectory`` (topic path) too. Each ``joint_states`` message runs one step of
computed-torque control with the node's own model (Craig §10.5)::

    tau = ID(q, q̇, q̈_d + Kp e + Kd ė) - F(q̇) + F(q̇_d)
        = M(q)(q̈_d + Kp e + Kd ė) + V(q, q̇) + G(q) + F(q̇_d)

with the desired motion from the spline interpolation of the waypoints. Friction is
compensated at the desired velocity, not the measured one: the Coulomb term's sign(q̇) at
a measured velocity near zero switches from step to step (the PUMA 560's 26 N m on joint 1),
which made the demo's RMS tracking error 5x larger (3.3e-3 vs 0.62e-3 rad, joint 1). Commands go to
``effort_commands`` (Float64MultiArray, model joint order), checked and saturated at the URDF
effort limits (:mod:`command_bounds <robot_dynamics.nodes.command_bounds>`). Before any motion
its torque and speed are checked (``feasibility``: reject, warn or scale). Without
``control_msgs`` the node runs the topic path only and says what is missing.

``joint_states`` messages are merged by name (:mod:`joint_state_merge
<robot_dynamics.nodes.joint_state_merge>`, as in the dynamics node): several drivers may
publish parts of the robot; a message with a model joint runs a control step once every joint
has been received and none is older than ``stale_timeout`` (each joint on its own age),
else nothing is commanded and the reason is counted.
"""

import functools
import time

import numpy as np
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from rclpy.task import Future
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

import robot_dynamics as rd
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.nodes import trajectory_goals as goals
from robot_dynamics.nodes.command_bounds import Saturation
from robot_dynamics.nodes.model_parameters import (declare_model_parameters,
                                                   model_with_logged_warnings)
from robot_dynamics.nodes.node_health import InputAges, ThrottledLog, publish_status, silence
from robot_dynamics.nodes.parameters import descriptor
from robot_dynamics.nodes.process import guarded_subscription, run
from robot_dynamics.nodes.qos import STEADY
from robot_dynamics.nodes.trajectory_input import TrajectoryInput
from robot_dynamics.nodes.controller_parameters import (check_gains, declare_controller_parameters,
                                                        gains)
from robot_dynamics.nodes.conversions import BadMessage, stamp_to_nanoseconds, vector_to_array
from robot_dynamics.nodes.joint_state_merge import (JointStateMerge, merge_message,
                                                    message_joint_limit)

try:                                     # the action needs control_msgs; the topic path not
    from control_msgs.action import FollowJointTrajectory
    from control_msgs.msg import JointTrajectoryControllerState
    from rclpy.action import ActionServer, CancelResponse, GoalResponse
    from rclpy.action.server import GoalEvent
    CONTROL_MSGS_MISSING = ''
except ImportError as _exc:              # pragma: no cover - depends on the install
    FollowJointTrajectory = JointTrajectoryControllerState = None
    CONTROL_MSGS_MISSING = (f'control_msgs is not installed ({_exc}): no follow_joint_trajectory '
                            'action and no controller_state; install ros-jazzy-control-msgs '
                            '(apt) or ../shared/wheels/ros_control_msgs-*.whl (pip)')


DIAGNOSTICS_PERIOD = 1.0        # s of wall time
JOINT_STATES_FIX = ('nothing is commanded without them: is the driver or simulator publishing '
                    'joint_states here (ros2 topic hz joint_states; check the remapping)?')


class ActiveGoal:
    """The goal being executed: its handle, trajectory, tolerances and completion future."""

    def __init__(self, handle, trajectory, tolerances, scale):
        self.handle, self.trajectory, self.tolerances = handle, trajectory, tolerances
        self.scale = scale
        self.done = Future()


class JointTrajectoryController(Node):
    """Tracks FollowJointTrajectory goals and JointTrajectory messages by computed torque."""

    def __init__(self, node_name='joint_trajectory_controller', **kwargs):
        super().__init__(node_name, **kwargs)
        self._declare_parameters()
        self.model = model_with_logged_warnings(self)
        if self.model is None:
            raise ValueError('joint_trajectory_controller needs a model: set '
                             'robot_description, urdf_file, dh_file or model')
        self.joint_names = list(self.model.joint_names)
        for name in ('kp', 'kd'):
            check_gains(name, self.get_parameter(name).value, self.joint_names)
        policy = self.get_parameter('feasibility').value
        if policy not in goals.POLICIES:
            raise ValueError(f'feasibility: {policy!r}; use one of {goals.POLICIES}')
        self.saturation = Saturation(self.joint_names, self.model.effort_limit)
        self._merge = JointStateMerge.for_model(self.model)    # refuses implausible jumps
        self._state_bounds = bounds.StateBounds(self.model)
        self._message_limit = message_joint_limit(self.model)
        self.trajectory = None         # DesiredTrajectory being followed (goal or topic)
        self.active = None             # ActiveGoal
        self.hold = None               # (n,) position held when there is no trajectory
        self.state = None              # (q, qd, now_ns)
        self.log = []
        self.dropped = 0
        self.followed = 0              # trajectories taken from the topic
        self.last_error = ''
        self.last_feasibility = ''
        self._last_state_publish = None
        self._pending = None           # a topic trajectory received before any joint state
        self._log = ThrottledLog(self.get_logger())
        self.inputs = InputAges({'joint_states': JOINT_STATES_FIX})
        self._last_command = None      # monotonic time of the last effort command published
        guard = functools.partial(guarded_subscription, self)
        self.create_subscription(JointState, 'joint_states', guard(self._on_joint_state),
                                 qos_profile_sensor_data)
        self.trajectory_input = TrajectoryInput(self, JointTrajectory, 'desired_trajectory',
                                                guard(self._on_trajectory), reject=self._drop)
        self.pub_command = self.create_publisher(Float64MultiArray, 'effort_commands', 10)
        self.pub_diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self.create_timer(DIAGNOSTICS_PERIOD, guard(self._publish_diagnostics), clock=STEADY)
        self.pub_state = self.action = None
        if CONTROL_MSGS_MISSING:
            self.get_logger().error(CONTROL_MSGS_MISSING)
            return
        self.pub_state = self.create_publisher(JointTrajectoryControllerState,
                                               '~/controller_state', 10)
        self.action = ActionServer(self, FollowJointTrajectory, '~/follow_joint_trajectory',
                                   execute_callback=self._execute,
                                   goal_callback=lambda goal: GoalResponse.ACCEPT,
                                   cancel_callback=lambda handle: CancelResponse.ACCEPT)

    def _declare_parameters(self):
        declare_model_parameters(self, at_start_only=True)
        declare_controller_parameters(self, gains_read_only=True)
        self.declare_parameter('use_feedforward', True, descriptor(
            'false: tau = M(q)(Kp e + Kd de) only (no model terms), for comparison'))
        self.declare_parameter('feasibility', 'reject', descriptor(
            'what to do with a trajectory that needs more torque or speed than the URDF '
            'limits: reject, warn (execute, WARN on /diagnostics) or scale (slow it down by '
            'the smallest factor that fits)', read_only=True))
        self.declare_parameter('feasibility_margin', 0.05, descriptor(
            'fraction of each effort limit kept in reserve by scale', low=0.0, high=0.5))
        self.declare_parameter('path_tolerance', 0.0, descriptor(
            'default position tolerance along the path, rad or m (0: not checked)',
            low=0.0, high=100.0))
        self.declare_parameter('goal_tolerance', 0.01, descriptor(
            'default position tolerance at the end, rad or m (0: not checked)',
            low=0.0, high=100.0))
        self.declare_parameter('stopped_velocity_tolerance', 0.05, descriptor(
            'default velocity tolerance at the end, rad/s or m/s (0: not checked)',
            low=0.0, high=100.0))
        self.declare_parameter('goal_time_tolerance', 1.0, descriptor(
            'default time after the end to reach the goal tolerance, s', low=0.0,
            high=3600.0))
        self.declare_parameter('state_publish_rate', 20.0, descriptor(
            'rate of ~/controller_state and of the action feedback, Hz', low=0.1,
            high=1000.0))

    # ------------------------------------------------------------------ inputs
    def _on_trajectory(self, msg):
        """Follow a JointTrajectory from the topic (all joints, checked like a goal)."""
        if self.state is None:                   # taken with the first joint state
            self._pending = msg
            return None
        q, qd, now_ns = self.state
        try:
            trajectory = goals.goal_trajectory(msg, self.model, (q, qd),
                                               self.get_clock().now().nanoseconds or now_ns)
            trajectory, scale, report = self._feasible(trajectory)
        except goals.GoalError as exc:
            return self._drop(f'desired_trajectory rejected: {exc}')
        self._preempt()
        self.trajectory = trajectory
        self.followed += 1

    def _on_joint_state(self, msg):
        """Merge the message by name; run one control step if every joint is fresh."""
        now_ns = self.get_clock().now().nanoseconds
        timeout = self.get_parameter('stale_timeout').value
        try:
            if not merge_message(self._merge, msg, now_ns * 1e-9, timeout,
                                 self._message_limit, check=self._state_bounds.check):
                return                          # another device's joint states
        except (BadMessage, PlausibilityError) as exc:
            self.inputs.note('joint_states')    # received (for /diagnostics), refused
            return self._drop(f'joint_states dropped: {exc}')
        self.inputs.note('joint_states')
        try:
            q, qd, _ = self._merge.fresh_state(now_ns * 1e-9, timeout)
        except BadMessage as exc:
            return self._drop(f'joint_states: {exc}; nothing commanded')
        now_ns = stamp_to_nanoseconds(msg.header.stamp) or now_ns
        self.state = (q, qd, now_ns)
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._on_trajectory(pending)
        self.control(q, qd, now_ns)

    # ------------------------------------------------------------------ control
    def _desired(self, q, now_ns):
        """Return ``q_d, q̇_d, q̈_d`` (n,) at ``now_ns``: the trajectory, else the hold."""
        if self.trajectory is not None:
            self.trajectory = self.trajectory.started(now_ns)
            return self.trajectory.sample(now_ns)
        if self.hold is None:
            self.hold = q.copy()
        zero = np.zeros_like(q)
        return self.hold, zero, zero.copy()

    def control(self, q, qd, now_ns):
        """Publish ``tau = ID(q, q̇, q̈_d + Kp e + Kd ė)``, bounded; then monitor the goal."""
        if self.active is not None and self.active.handle.is_cancel_requested:
            self._finish(self.active, 'canceled', goals.SUCCESSFUL, 'canceled: holding', q)
        q_d, qd_d, qdd_d = self._desired(q, now_ns)
        with np.errstate(all='ignore'):         # checked: nothing non-finite goes out
            n = self.model.dof
            feedback = gains(self, 'kp', n) * (q_d - q) + gains(self, 'kd', n) * (qd_d - qd)
            if self.get_parameter('use_feedforward').value:     # friction at q̇_d: see above
                tau = rd.inverse_dynamics(self.model, q, qd, qdd_d + feedback) \
                    - rd.friction_torques(self.model, qd) + rd.friction_torques(self.model, qd_d)
            else:
                tau = rd.mass_matrix(self.model, q) @ feedback
        try:
            command = self.saturation.apply(tau)
        except BadMessage as exc:
            return self._drop(f'{exc}; nothing published (gains or state absurd?)')
        if self.saturation.last:
            self._log.warning(self.saturation.last)
            self.saturation.last = ''
        self.pub_command.publish(vector_to_array(command))
        self._last_command = time.monotonic()
        if self.get_parameter('record').value:
            self.log.append((now_ns * 1e-9, q_d, q, command))
        self._monitor(q, qd, q_d, qd_d, now_ns)
        self._publish_state(q, qd, q_d, qd_d, qdd_d, command, now_ns)

    def _monitor(self, q, qd, q_d, qd_d, now_ns):
        """Path tolerance during the motion, goal tolerance after it (upstream semantics)."""
        goal = self.active
        if goal is None or goal.trajectory.start_ns is None:
            return
        t = goal.trajectory.elapsed(now_ns)
        end = goal.trajectory.times[-1]
        tol = goal.tolerances
        error = np.abs(q_d - q)
        if t < end:
            bad = np.flatnonzero(error > tol.path_position)
            if bad.size:
                j = bad[0]
                self._finish(goal, 'abort', goals.PATH_TOLERANCE_VIOLATED,
                             f'joint {self.joint_names[j]} is {error[j]:.4g} from the path at '
                             f't = {t:.3f} s; path tolerance {tol.path_position[j]:.4g}', q)
            return
        reached = np.all(error <= tol.goal_position) and \
            np.all(np.abs(qd) <= tol.goal_velocity)
        if reached:
            note = '' if goal.scale == 1.0 else f'slowed by {goal.scale:.3g}x to fit the limits'
            self._finish(goal, 'succeed', goals.SUCCESSFUL, note)
        elif t > end + tol.goal_time:
            j = int(np.argmax(error - tol.goal_position))
            self._finish(goal, 'abort', goals.GOAL_TOLERANCE_VIOLATED,
                         f'joint {self.joint_names[j]} is {error[j]:.4g} from the goal '
                         f'{t - end:.3f} s after the end; goal tolerance '
                         f'{tol.goal_position[j]:.4g}, goal_time_tolerance {tol.goal_time} s')

    # ------------------------------------------------------------------ action
    async def _execute(self, handle):
        """Validate, check the feasibility, preempt, then wait for the motion to finish."""
        result = FollowJointTrajectory.Result()
        try:
            goal = self._accept_goal(handle)
        except goals.GoalError as exc:
            handle.abort()
            result.error_code, result.error_string = exc.code, str(exc)[:1000]
            self.get_logger().warning(f'goal refused ({exc.code}): {exc}')
            return result
        except Exception as exc:  # noqa: BLE001 - a client sees why, the node goes on
            self.callback_failed('follow_joint_trajectory goal', exc)
            handle.abort()
            result.error_code = goals.INVALID_GOAL
            result.error_string = f'goal not understood: {type(exc).__name__}: {exc}'[:1000]
            return result
        self._preempt()
        self.active, self.trajectory = goal, goal.trajectory
        code, text = await goal.done
        result.error_code, result.error_string = code, text
        return result

    def _accept_goal(self, handle):
        """Return the :class:`ActiveGoal` of a request; raise GoalError if it is refused."""
        if self.state is None:
            raise goals.GoalError(goals.INVALID_GOAL, 'no joint_states received yet: the '
                                  'controller does not know where the arm is')
        request = handle.request
        q, qd, now_ns = self.state
        defaults = goals.Tolerances(
            *(np.where(np.full(self.model.dof, value) > 0, value, np.inf) for value in (
                self.get_parameter(name).value for name in (
                    'path_tolerance', 'goal_tolerance', 'stopped_velocity_tolerance'))),
            goal_time=self.get_parameter('goal_time_tolerance').value)
        tolerances = goals.tolerances(request, self.model, defaults)
        trajectory = goals.goal_trajectory(request.trajectory, self.model, (q, qd),
                                           self.get_clock().now().nanoseconds or now_ns)
        trajectory, scale, _ = self._feasible(trajectory)
        return ActiveGoal(handle, trajectory, tolerances, scale)

    def _feasible(self, trajectory):
        """Apply the ``feasibility`` policy (raises GoalError on reject); log what it did."""
        started = time.monotonic()
        trajectory, scale, report = goals.apply_policy(
            self.model, trajectory, self.get_parameter('feasibility').value,
            self.get_parameter('feasibility_margin').value)
        took = time.monotonic() - started
        self.last_feasibility = ''
        if not report.feasible:
            self.last_feasibility = report.message()
            verb = 'slowed down' if scale > 1 else 'executed anyway (feasibility: warn)'
            self.get_logger().warning(f'trajectory {verb}: {report.message()} '
                                      f'[checked {report.times.size} samples in '
                                      f'{took * 1e3:.0f} ms]')
        return trajectory, scale, report

    def _preempt(self):
        """Cancel the running goal as upstream does when a new one takes over."""
        if self.active is not None:
            handle = self.active.handle
            if handle.is_active and not handle.is_cancel_requested:
                handle._update_state(GoalEvent.CANCEL_GOAL)   # rclpy: no public transition
            self._finish(self.active, 'canceled', goals.INVALID_GOAL,
                         'Current goal cancelled due to new incoming action.')

    def _finish(self, goal, how, code, text, hold_at=None):
        """End ``goal`` (succeed, abort or canceled) and hold ``hold_at`` or the end point."""
        if goal is not self.active:
            return
        if goal.handle.is_active:
            getattr(goal.handle, how)()
        self.active = None
        if self.trajectory is goal.trajectory:
            self.trajectory = None
            self.hold = (goal.trajectory.positions[-1].copy() if hold_at is None
                         else np.array(hold_at, dtype=float))
        if how != 'succeed':
            self.get_logger().warning(f'goal {how}: {text}')
        goal.done.set_result((code, text))

    # ------------------------------------------------------------------ outputs
    def _publish_state(self, q, qd, q_d, qd_d, qdd_d, command, now_ns):
        """Publish ~/controller_state and the goal's feedback at ``state_publish_rate``."""
        period = 1e9 / self.get_parameter('state_publish_rate').value
        if self.pub_state is None or (self._last_state_publish is not None and
                                      0 <= now_ns - self._last_state_publish < period):
            return
        self._last_state_publish = now_ns

        def point(positions, velocities, accelerations=None, effort=None):
            return JointTrajectoryPoint(
                positions=list(map(float, positions)), velocities=list(map(float, velocities)),
                accelerations=[] if accelerations is None else list(map(float, accelerations)),
                effort=[] if effort is None else list(map(float, effort)))
        state = JointTrajectoryControllerState(joint_names=self.joint_names)
        state.header.stamp.sec, state.header.stamp.nanosec = divmod(now_ns, 10 ** 9)
        state.reference = point(q_d, qd_d, qdd_d)
        state.feedback = point(q, qd)
        state.error = point(q_d - q, qd_d - qd)
        state.output = point(q, qd, effort=command)
        goal = self.active
        state.speed_scaling_factor = 1.0 / goal.scale if goal is not None else 1.0
        self.pub_state.publish(state)
        if goal is not None and goal.handle.is_active:
            feedback = FollowJointTrajectory.Feedback(joint_names=self.joint_names)
            feedback.header = state.header
            feedback.desired, feedback.actual, feedback.error = (
                state.reference, state.feedback, state.error)
            goal.handle.publish_feedback(feedback)

    def health(self):
        """Level and message for /diagnostics: never OK while silent (docs/robustness.md).

        WARN: no joint_states within the window (their age and the fix); ERROR: joint states
        arrive but no effort command went out in the window (the last error says why); WARN:
        commands saturated within the window (clears when saturation stops), or an infeasible
        trajectory running under ``feasibility: warn``; OK: following or holding.
        """
        window = max(DIAGNOSTICS_PERIOD, self.get_parameter('stale_timeout').value)
        silent = silence(self.inputs, self._last_command, window, 'effort_commands',
                         self.last_error)
        if silent:
            return silent
        saturated = self.saturation.recent(window)
        if saturated:
            return DiagnosticStatus.WARN, (f'commands saturated at the effort limits in the '
                                           f'last {window:.1f} s: {saturated}')
        if self.trajectory is not None and self.last_feasibility and \
                self.get_parameter('feasibility').value == 'warn':       # while it runs
            return DiagnosticStatus.WARN, f'infeasible trajectory executed: ' \
                                          f'{self.last_feasibility}'
        return DiagnosticStatus.OK, 'following' if self.trajectory else 'holding'

    def _publish_diagnostics(self):
        age = self.inputs.age('joint_states')
        values = {'saturated_commands': sum(self.saturation.count.values()),
                  'joint_states_age_s': 'never' if age is None else f'{age:.3f}',
                  'dropped_messages': self.dropped, 'last_error': self.last_error,
                  'last_feasibility': self.last_feasibility,
                  'feasibility': self.get_parameter('feasibility').value,
                  'control_msgs': CONTROL_MSGS_MISSING or 'installed'}
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


def main(args=None):
    """Console-script entry point ``joint_trajectory_controller``."""
    run(JointTrajectoryController, args)


if __name__ == '__main__':
    main()
