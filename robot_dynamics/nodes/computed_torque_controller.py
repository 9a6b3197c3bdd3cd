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
"""ROS 2 node: computed-torque control from the dynamics node's outputs (demo controller).

``tau = tau_ff + M(q) (Kp e + Kd ė)`` (Craig §10.5, eq. 10.41), one step per ``mass_matrix``
message; the law, the joint order, the merged joint states and the motion followed are
:mod:`robot_dynamics.control.computed_torque`, the checks of its inputs
:mod:`~robot_dynamics.control.command_bounds`. Topics, parameters, wiring:
docs/controllers.md, "computed_torque_controller".
"""
import functools
import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.control import goals
from robot_dynamics.control.command_bounds import check_mass_matrix, check_vector
from robot_dynamics.control.controller_settings import check_gains
from robot_dynamics.control.computed_torque import (INPUT_FIXES, SETTINGS, ModelTermsLoop,
                                                    check_positions)
from robot_dynamics.control.joint_states import name_limit
from robot_dynamics.errors import bounded
from robot_dynamics.nodes.contact_reaction import ContactReaction
from robot_dynamics.nodes.conversions import (BadInput, array_to_matrix, array_to_vector,
                                              merge_message, stamp_to_nanoseconds,
                                              trajectory_request, vector_to_array)
from robot_dynamics.control.health import InputAges, ThrottledLog, silence
from robot_dynamics.nodes.node_health import publish_status
from robot_dynamics.nodes.parameters import (declare_array, declare_controller_parameters,
                                             declare_settings, gains, parameter_value)
from robot_dynamics.nodes.process import guarded_parameters, guarded_subscription, run
from robot_dynamics.nodes.qos import STEADY
from robot_dynamics.nodes.trajectory_input import TrajectoryInput

DIAGNOSTICS_PERIOD = 1.0        # s of wall time


class ComputedTorqueController(Node):
    """Tracks a JointTrajectory with feed-forward plus mass-matrix-scaled PD feedback."""

    joint_names = property(lambda self: self.loop.joint_names)
    follower = property(lambda self: self.loop.follower)
    state = property(lambda self: self.loop.state)       # (q, qd, stamp ns, joint names)

    def __init__(self, node_name='computed_torque_controller', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_array(self, 'joints', Parameter.Type.STRING_ARRAY,
                      'joint order of the command and of the dynamics outputs; empty: the order '
                      "of the dynamics node's outputs (feedforward_joint_states)", read_only=True)
        declare_controller_parameters(self)
        declare_settings(self, SETTINGS)
        self.loop = ModelTermsLoop(parameter_value(self, 'joints') or None)
        for name in ('kp', 'kd'):
            check_gains(name, self.get_parameter(name).value, self.joint_names)
        self.log = []
        self.dropped = 0
        self.ignored = 0            # joint_states messages without the controlled joints
        self.last_error = ''
        self._last_drop = None      # monotonic times of the last drop and the last command
        self._last_command = None
        self.inputs = InputAges(INPUT_FIXES)
        self._log = ThrottledLog(self.get_logger())
        self.add_on_set_parameters_callback(guarded_parameters(self, self._validate_parameters))
        guard = functools.partial(guarded_subscription, self)
        self.trajectory_input = TrajectoryInput(self, JointTrajectory, 'desired_trajectory',
                                                guard(self._on_trajectory),
                                                reject=self._drop)
        self.create_subscription(JointState, 'joint_states', guard(self._on_joint_state),
                                 qos_profile_sensor_data)
        self.create_subscription(Float64MultiArray, 'feedforward_torques',
                                 guard(self._on_feedforward), 10)
        self.create_subscription(JointState, 'feedforward_joint_states',
                                 guard(self._on_output_names), 10)
        self.create_subscription(Float64MultiArray, 'mass_matrix', guard(self._on_mass), 10)
        self.pub_command = self.create_publisher(Float64MultiArray, 'effort_commands', 10)
        self.pub_diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self.reaction = ContactReaction(self, guard, gravity=True)   # collision_reaction
        self.create_timer(DIAGNOSTICS_PERIOD, guard(self._publish_diagnostics), clock=STEADY)

    def _validate_parameters(self, parameters):
        for parameter in parameters:
            if parameter.name in ('kp', 'kd'):
                try:
                    check_gains(parameter.name, parameter.value, self.joint_names)
                except ValueError as exc:
                    return SetParametersResult(successful=False, reason=str(exc))
        return SetParametersResult(successful=True)

    def _on_output_names(self, msg):
        """Use the joint order of the dynamics outputs, and its changes, if ``joints`` is unset."""
        self.inputs.note('feedforward_joint_states')
        names = list(msg.name)
        if names == self.joint_names:
            return None
        refusal = self.loop.order_refusal(names, bool(parameter_value(self, 'joints')),
                                          *(self.get_parameter(g).value for g in ('kp', 'kd')))
        if refusal:
            return self._drop(refusal)
        self._control_joints(names)

    def _control_joints(self, names):
        """Control ``names`` in this order: what was read in another order is read again."""
        self.loop.control_joints(names)
        self.get_logger().info(bounded(f'controlling joints {names} (order of the dynamics node)'))
        if self.loop.pending is not None:
            self._accept_trajectory()

    def _on_trajectory(self, msg):
        try:
            self.loop.pending = trajectory_request(msg)
        except goals.GoalError as exc:
            return self._drop(f'desired_trajectory rejected: {exc}')
        if self.joint_names:
            self._accept_trajectory()

    def _accept_trajectory(self):
        """Follow the pending trajectory from the current state (control.computed_torque)."""
        try:
            self.loop.accept(self.get_clock().now().nanoseconds,
                             self.get_parameter('stale_timeout').value)
        except goals.GoalError as exc:
            self._drop(f'desired_trajectory rejected: {exc}')

    def _on_feedforward(self, msg):
        self.inputs.note('feedforward_torques')
        if self.joint_names:
            try:
                self.loop.feedforward = check_vector('feedforward_torques', array_to_vector(
                    msg, len(self.joint_names)))
            except BadInput as exc:
                self.loop.feedforward = None
                self._drop(f'feedforward_torques dropped: {exc}')

    def _on_mass(self, msg):
        """Run one control step: M is the dynamics node's last output for a state."""
        self.inputs.note('mass_matrix')
        if not self.joint_names or self.state is None or self.state[3] != self.joint_names:
            return
        try:
            self.loop.mass = check_mass_matrix(array_to_matrix(msg, len(self.joint_names)))
            self.loop.merge.fresh_state(self._now(), self.get_parameter('stale_timeout').value)
        except BadInput as exc:
            return self._drop(f'{exc}; nothing commanded')
        self.control()

    def _now(self):
        """Return the node's clock in seconds."""
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_joint_state(self, msg):
        """Merge the controlled joints' values by name; keep the state once all are known."""
        if not self.joint_names:
            return                       # joint order not known yet
        now = self.get_clock().now().nanoseconds
        try:
            updated = merge_message(self.loop.merger(), msg, now * 1e-9,
                                    self.get_parameter('stale_timeout').value,
                                    name_limit(len(self.joint_names)),
                                    check=functools.partial(check_positions, self.joint_names))
        except BadInput as exc:
            self.inputs.note('joint_states')    # received (for /diagnostics), refused
            return self._drop(f'joint_states dropped: {exc}')
        if not updated:
            self.ignored += 1            # another device's joint states (a gripper, say)
            return
        self.inputs.note('joint_states')
        if self.loop.measured(stamp_to_nanoseconds(msg.header.stamp) or now) and \
                self.loop.pending is not None:
            self._accept_trajectory()

    def control(self):
        """Publish ``tau = tau_ff + M(q) (Kp e + Kd ė)`` for the latest state (Craig 10.41)."""
        feedforward, n = self.get_parameter('use_feedforward').value, len(self.joint_names)
        if self.loop.waiting(feedforward):
            return                       # waiting for the dynamics node
        reaction = self.reaction.step()  # a collision: hold (with gravity), comply: gravity
        tau, q_d, note = self.loop.torque(
            gains(self, 'kp', n), gains(self, 'kd', n), self.get_parameter('stale_timeout').value,
            feedforward, self.reaction.gravity if self.reaction.logic.contacts else None,
            reaction.hold, reaction.gravity_only)
        if note:
            self._drop(note)
        try:
            tau = self._saturation().apply(tau)
        except BadInput as exc:
            return self._drop(f'{exc} (gains too large?); nothing published')
        if self._saturation().last:
            self._drop(self._saturation().last)
            self._saturation().last = ''
        self.pub_command.publish(vector_to_array(tau))
        self._last_command = time.monotonic()
        if self.get_parameter('record').value:
            self.log.append((self.state[2] * 1e-9, q_d, self.state[0], tau))

    def _saturation(self):
        """Return the command bound: ``effort_limits`` where given (> 0), else none."""
        return self.loop.bound(self.get_parameter('effort_limits').value)

    def health(self):
        """Level and message for /diagnostics: never OK while silent (docs/robustness.md).

        WARN: an input silent for the window (``joint_states``, ``mass_matrix``, and
        ``feedforward_torques`` with ``use_feedforward``; ``feedforward_joint_states`` until
        the joint order is known), naming it, its age and the fix; ERROR: inputs arrive but no
        command went out in the window; WARN: commands saturated or a message dropped within
        the window (both clear when they stop); OK: controlling.
        """
        window = max(DIAGNOSTICS_PERIOD, self.get_parameter('stale_timeout').value)
        silent = silence(self.inputs, self._last_command, window, 'effort_commands',
                         self.last_error,
                         self.loop.watched(self.get_parameter('use_feedforward').value))
        if silent:
            return silent
        saturated = self._saturation().recent(window)
        if saturated:
            return DiagnosticStatus.WARN, (f'commands saturated at effort_limits in the last '
                                           f'{window:.1f} s: {saturated}')
        if self._last_drop is not None and time.monotonic() - self._last_drop <= window:
            return DiagnosticStatus.WARN, self.last_error
        return DiagnosticStatus.OK, 'controlling'

    def _publish_diagnostics(self):
        """Publish :meth:`health` with the counts."""
        saturated = self._saturation().summary() if self.joint_names else {}
        publish_status(self, self.pub_diagnostics, 'controller', '', self.health(), {
            'dropped_messages': self.dropped, 'last_error': self.last_error,
            'saturated_commands': sum(saturated.values()), **self.reaction.values()})

    def _drop(self, reason):
        self.dropped += 1
        self._last_drop = time.monotonic()
        self.last_error = reason
        self._log.warning(reason)

    def callback_failed(self, name, exc):
        """Log an exception caught around a callback (the node keeps running)."""
        self.last_error = f'{name} failed: {type(exc).__name__}: {exc}'
        self._log.error(self.last_error)


def main(args=None):
    """Console-script entry point ``computed_torque_controller``."""
    run(ComputedTorqueController, args)


if __name__ == '__main__':
    main()
