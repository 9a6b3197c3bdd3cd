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

``tau = tau_ff + M(q) (Kp e + Kd ė)`` with ``e = q_d - q`` (Craig §10.5, eq. 10.41 with the
model terms supplied by dynamics_node: ``tau_ff = ID(q_d, qd_d, qdd_d)`` on
``feedforward_torques`` and ``M(q)`` on ``mass_matrix``). With ``use_feedforward`` false the
command is ``M(q) (Kp e + Kd ė)`` only, for comparison. Commands go to ``effort_commands``
(a Float64MultiArray in ``joints`` order, like a JointGroupEffortController).

One control step runs per ``mass_matrix`` message, the last output the dynamics node publishes
for a joint state, so that the command uses the model terms of the latest measured state.

Joint order: ``joints`` when set, else the order of the dynamics node's outputs, learnt from
its named copy ``feedforward_joint_states`` (the Float64MultiArray outputs carry no names).
``joint_states`` messages are merged by name (:mod:`joint_state_merge
<robot_dynamics.control.joint_states>`, as in the dynamics node): a message may carry some
joints only (an arm's driver and a wrist's), one without a controlled joint (a gripper's) is
ignored; no command goes out until every joint has been received, nor while any joint's last
stamp is older than ``stale_timeout`` (each joint on its own age).

Bounded commands (:mod:`~robot_dynamics.control.command_bounds`): a feed-forward that is not
finite or beyond 1e6, a mass matrix that is not symmetric positive definite, and a command
beyond 1e6 are refused (nothing published, throttled WARN); ``effort_limits`` (one per joint,
empty: none) saturates the command, with a throttled WARN. The
:mod:`joint_trajectory_controller <robot_dynamics.nodes.joint_trajectory_controller>` has the
model and saturates at its URDF limits.
"""

import functools
import time

import numpy as np
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.errors import bounded
from robot_dynamics.model import bounds
from robot_dynamics.control.command_bounds import Saturation, check_mass_matrix, check_vector
from robot_dynamics.nodes.controller_parameters import (check_gains, declare_controller_parameters,
                                                        gains)
from robot_dynamics.nodes.contact_reaction import ContactReaction
from robot_dynamics.nodes.node_health import InputAges, ThrottledLog, publish_status, silence
from robot_dynamics.nodes.parameters import declare_array, descriptor, parameter_value
from robot_dynamics.nodes.process import guarded_parameters, guarded_subscription, run
from robot_dynamics.nodes.qos import STEADY
from robot_dynamics.nodes.trajectory_input import TrajectoryInput
from robot_dynamics.nodes.conversions import (BadInput, array_to_matrix, array_to_vector,
                                              merge_message, stamp_to_nanoseconds,
                                              trajectory_request, vector_to_array)
from robot_dynamics.control.joint_states import JointStateMerge, name_limit
from robot_dynamics.control import goals
from robot_dynamics.control.policies import check_motion
from robot_dynamics.control.tracking import MotionFollower

DIAGNOSTICS_PERIOD = 1.0        # s of wall time
FIXES = {
    'feedforward_joint_states': 'the joint order is unknown: set `joints`, or start the dynamics '
                                'node (it publishes its order there while subscribed)',
    'joint_states': 'is the driver or simulator publishing joint_states here (ros2 topic hz '
                    'joint_states; check the remapping)?',
    'mass_matrix': 'is the dynamics node running on the same joint_states and remapped to this '
                   "controller's mass_matrix (ros2 topic hz mass_matrix)?",
    'feedforward_torques': 'is the dynamics node running and remapped to this controller\'s '
                           'feedforward_torques (or set use_feedforward false)?'}


class ComputedTorqueController(Node):
    """Tracks a JointTrajectory with feed-forward plus mass-matrix-scaled PD feedback."""

    def __init__(self, node_name='computed_torque_controller', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_array(self, 'joints', Parameter.Type.STRING_ARRAY,
                      'joint order of the command and of the dynamics outputs; empty: the order '
                      "of the dynamics node's outputs (feedforward_joint_states)", read_only=True)
        declare_controller_parameters(self)
        self.declare_parameter('use_feedforward', True, descriptor(
            'add the feed-forward torques of the dynamics node'))
        self.declare_parameter('effort_limits', [0.0], descriptor(
            'saturate the command at these efforts, N m or N (one per joint; [0.0]: none)',
            read_only=True))
        self.joint_names = parameter_value(self, 'joints') or None
        for name in ('kp', 'kd'):
            check_gains(name, self.get_parameter(name).value, self.joint_names)
        self.follower = MotionFollower()    # the trajectory followed, else a hold
        self._pending_trajectory = None
        self._trajectory_message = None     # the message the followed motion was read from
        self.feedforward = None
        self.mass = None
        self.state = None           # (q, qd, time of the latest message in ns, joint names)
        self._merge = None          # JointStateMerge of the controlled joints
        self.log = []
        self.dropped = 0
        self.ignored = 0            # joint_states messages without the controlled joints
        self.last_error = ''
        self._last_drop = None      # monotonic times of the last drop and the last command
        self._last_command = None
        self.inputs = InputAges(FIXES)
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
        if parameter_value(self, 'joints'):
            return self._drop(f'the dynamics node publishes joints {names}, the controller '
                              f'expects {self.joint_names}: set the same `joints` on both')
        if not names or len(set(names)) != len(names):
            return self._drop(f'feedforward_joint_states: unusable names {names}')
        try:
            for name in ('kp', 'kd'):
                check_gains(name, self.get_parameter(name).value, names)
        except ValueError as exc:
            return self._drop(f'cannot control joints {names}: {exc}')
        self._control_joints(names)

    def _control_joints(self, names):
        """Control ``names`` in this order: what was read in another order is read again."""
        self.joint_names = names
        self.state = self._merge = self.feedforward = self.mass = None
        self._bound = None
        if self.follower.following and self._pending_trajectory is None:
            self._pending_trajectory = self._trajectory_message
        self.follower = MotionFollower()
        self.get_logger().info(bounded(f'controlling joints {names} (order of the dynamics node)'))
        if self._pending_trajectory is not None:
            self._accept_trajectory()

    def _on_trajectory(self, msg):
        self._pending_trajectory = msg
        if self.joint_names:
            self._accept_trajectory()

    def _accept_trajectory(self):
        """Read the pending trajectory as the other nodes do (control.goals), without a model.

        The motion goes from the current state (kept pending until a joint state is known)
        through the points ahead; a step is refused, and the motion is bounded by the
        plausible speed and acceleration of any joint
        (:func:`~robot_dynamics.control.policies.check_motion`).
        """
        stale = self.state is None or self.state[3] != self.joint_names or \
            self._now() - self.state[2] * 1e-9 > self.get_parameter('stale_timeout').value
        current = None if stale else self.state[:2]
        try:
            at = self.get_clock().now().nanoseconds if current is None else self.state[2]
            motion = goals.commanded_motion(
                trajectory_request(self._pending_trajectory), self.joint_names, current, at, None,
                goals.GoalRules(allow_partial_joints_goal=True, join_in_transit=True),
                ended_ok=True)                    # latched; joined from its own state
            check_motion(motion, self.joint_names)
        except goals.NeedsState:
            return                        # taken with the first complete joint state
        except goals.GoalError as exc:
            self._drop(f'desired_trajectory rejected: {exc}')
        else:
            self.follower.follow(motion.trajectory)
            self._trajectory_message = self._pending_trajectory
        self._pending_trajectory = None

    def _on_feedforward(self, msg):
        self.inputs.note('feedforward_torques')
        if self.joint_names:
            try:
                self.feedforward = check_vector('feedforward_torques', array_to_vector(
                    msg, len(self.joint_names)))
            except BadInput as exc:
                self.feedforward = None
                self._drop(f'feedforward_torques dropped: {exc}')

    def _on_mass(self, msg):
        """Run one control step: M is the dynamics node's last output for a state."""
        self.inputs.note('mass_matrix')
        if not self.joint_names or self.state is None or self.state[3] != self.joint_names:
            return
        try:
            self.mass = check_mass_matrix(array_to_matrix(msg, len(self.joint_names)))
            self._merge.fresh_state(self._now(), self.get_parameter('stale_timeout').value)
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
        if self._merge is None or self._merge.joint_names != tuple(self.joint_names):
            self._merge = JointStateMerge.unmodelled(self.joint_names)    # refuses jumps
        now = self.get_clock().now().nanoseconds
        try:
            updated = merge_message(self._merge, msg, now * 1e-9,
                                    self.get_parameter('stale_timeout').value,
                                    name_limit(len(self.joint_names)),
                                    check=self._plausible_positions)
        except BadInput as exc:
            self.inputs.note('joint_states')    # received (for /diagnostics), refused
            return self._drop(f'joint_states dropped: {exc}')
        if not updated:
            self.ignored += 1            # another device's joint states (a gripper, say)
            return
        self.inputs.note('joint_states')
        merged = self._merge.state()
        if merged is not None:
            q, qd, _ = merged
            self.state = (q, qd, stamp_to_nanoseconds(msg.header.stamp) or now,
                          self.joint_names)
            if self._pending_trajectory is not None:
                self._accept_trajectory()

    def _plausible_positions(self, q):
        """Refuse positions no joint reaches (no model here: ``bounds.MAX_POSITION``)."""
        bound = bounds.MAX_POSITION['revolute']
        bad = np.flatnonzero(~(np.abs(q) <= bound))
        if bad.size:
            raise BadInput(f'position[{self.joint_names[bad[0]]}] = {q[bad[0]]:.6g}, beyond '
                           f'the plausible {bound:g} of any joint; publish positions in rad '
                           'or m')

    def control(self):
        """Publish ``tau = tau_ff + M(q) (Kp e + Kd ė)`` for the latest state (Craig 10.41)."""
        use_feedforward = self.get_parameter('use_feedforward').value
        if use_feedforward and self.feedforward is None:
            return  # waiting for the dynamics node
        q, qd, now_ns, _ = self.state
        gap = self.follower.outage(now_ns, self.get_parameter('stale_timeout').value)
        if gap is not None:          # nothing was commanded meanwhile: hold where it is now
            self.follower.stop(q, qd, now_ns)
            self._drop(f'joint_states resumed after {gap:.3g} s without a command: the motion '
                       'is dropped and the arm held where it is (issue 31)')
        reaction = self.reaction.step()
        if reaction.hold:                    # a collision: brake to rest and hold here
            self.follower.stop(q, qd, now_ns)
        # after a collision the hold is gravity-compensated (the feed-forward is the dynamics
        # node's desired motion, which goes on); comply: gravity only while in contact
        gravity = self.reaction.gravity if self.reaction.logic.contacts else None
        gravity = gravity if gravity is not None and len(gravity) == len(q) else None
        q_d, qd_d, _ = self.follower.desired(q, qd, now_ns)
        with np.errstate(all='ignore'):      # checked below: nothing non-finite goes out
            n = len(self.joint_names)
            feedback = gains(self, 'kp', n) * (q_d - q) + gains(self, 'kd', n) * (qd_d - qd)
            tau = self.mass @ feedback
            if use_feedforward:
                tau = tau + (gravity if gravity is not None and not self.follower.following
                             else self.feedforward)
            if reaction.gravity_only and gravity is not None:
                tau = gravity
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
            self.log.append((now_ns * 1e-9, q_d, q, tau))

    def _saturation(self):
        """Return the command bound: ``effort_limits`` where given (> 0), else none."""
        if getattr(self, '_bound', None) is None:
            limits = np.asarray(self.get_parameter('effort_limits').value, dtype=float)
            limits = np.broadcast_to(limits, (len(self.joint_names),)) if limits.size == 1 \
                else limits
            self._bound = Saturation(self.joint_names, np.where(limits > 0, limits, np.inf))
        return self._bound

    def health(self):
        """Level and message for /diagnostics: never OK while silent (docs/robustness.md).

        WARN: an input silent for the window (``joint_states``, ``mass_matrix``, and
        ``feedforward_torques`` with ``use_feedforward``; ``feedforward_joint_states`` until
        the joint order is known), naming it, its age and the fix; ERROR: inputs arrive but no
        command went out in the window; WARN: commands saturated or a message dropped within
        the window (both clear when they stop); OK: controlling.
        """
        window = max(DIAGNOSTICS_PERIOD, self.get_parameter('stale_timeout').value)
        names = ['joint_states', 'mass_matrix'] + (
            ['feedforward_torques'] if self.get_parameter('use_feedforward').value else [])
        if not self.joint_names:
            names.insert(0, 'feedforward_joint_states')
        silent = silence(self.inputs, self._last_command, window, 'effort_commands',
                         self.last_error, names)
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
