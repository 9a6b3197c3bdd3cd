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
"""

import numpy as np
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.nodes.common import descriptor, parameter_value, run
from robot_dynamics.nodes.conversions import (BadMessage, array_to_matrix, array_to_vector,
                                              joint_state_to_arrays, stamp_to_nanoseconds,
                                              vector_to_array)
from robot_dynamics.nodes.dynamics_node import LATCHED
from robot_dynamics.nodes.trajectory_sampling import DesiredTrajectory


class ComputedTorqueController(Node):
    """Tracks a JointTrajectory with feed-forward plus mass-matrix-scaled PD feedback."""

    def __init__(self, node_name='computed_torque_controller', **kwargs):
        super().__init__(node_name, **kwargs)
        self.declare_parameter('joints', Parameter.Type.STRING_ARRAY, descriptor(
            'joint order of the command and of the dynamics outputs; unset: the order of the '
            'first joint_states message', read_only=True))
        self.declare_parameter('kp', [100.0], descriptor(
            'proportional gains, 1/s^2 (one value for all joints, or one per joint)'))
        self.declare_parameter('kd', [20.0], descriptor(
            'derivative gains, 1/s (one value for all joints, or one per joint)'))
        self.declare_parameter('use_feedforward', True, descriptor(
            'add the feed-forward torques of the dynamics node'))
        self.declare_parameter('record', False, descriptor(
            'keep (t, q_d, q, tau) in memory for plotting (bringup)', read_only=True))
        self.joint_names = parameter_value(self, 'joints')
        self.trajectory = None
        self._pending_trajectory = None
        self.feedforward = None
        self.mass = None
        self.hold = None
        self.state = None
        self.log = []
        self.dropped = 0
        self.create_subscription(JointTrajectory, 'desired_trajectory', self._on_trajectory,
                                 LATCHED)
        self.create_subscription(JointState, 'joint_states', self._on_joint_state,
                                 qos_profile_sensor_data)
        self.create_subscription(Float64MultiArray, 'feedforward_torques', self._on_feedforward,
                                 10)
        self.create_subscription(Float64MultiArray, 'mass_matrix', self._on_mass, 10)
        self.pub_command = self.create_publisher(Float64MultiArray, 'effort_commands', 10)

    def _gains(self, name):
        values = np.asarray(self.get_parameter(name).value, dtype=float)
        return np.broadcast_to(values, (len(self.joint_names),)) if values.size == 1 else values

    def _on_trajectory(self, msg):
        self._pending_trajectory = msg
        if self.joint_names:
            self._accept_trajectory()

    def _accept_trajectory(self):
        try:
            self.trajectory = DesiredTrajectory.from_message(
                self._pending_trajectory, self.joint_names, self.get_clock().now().nanoseconds)
        except BadMessage as exc:
            self._drop(f'desired_trajectory rejected: {exc}')

    def _on_feedforward(self, msg):
        if self.joint_names:
            try:
                self.feedforward = array_to_vector(msg, len(self.joint_names))
            except BadMessage as exc:
                self._drop(f'feedforward_torques dropped: {exc}')

    def _on_mass(self, msg):
        """Run one control step: M is the dynamics node's last output for a state."""
        if not self.joint_names or self.state is None:
            return
        try:
            self.mass = array_to_matrix(msg, len(self.joint_names))
        except BadMessage as exc:
            return self._drop(f'mass_matrix dropped: {exc}')
        self.control()

    def _on_joint_state(self, msg):
        if not self.joint_names:
            self.joint_names = list(msg.name)
            if self._pending_trajectory is not None:
                self._accept_trajectory()
        try:
            q, qd, _ = joint_state_to_arrays(msg, self.joint_names)
        except BadMessage as exc:
            return self._drop(f'joint_states dropped: {exc}')
        stamp_ns = stamp_to_nanoseconds(msg.header.stamp)
        self.state = (q, qd, stamp_ns or self.get_clock().now().nanoseconds)

    def control(self):
        """Publish ``tau = tau_ff + M(q) (Kp e + Kd ė)`` for the latest state (Craig 10.41)."""
        use_feedforward = self.get_parameter('use_feedforward').value
        if use_feedforward and self.feedforward is None:
            return  # waiting for the dynamics node
        q, qd, now_ns = self.state
        if self.trajectory is not None:
            q_d, qd_d, _ = self.trajectory.sample(now_ns)
        else:
            if self.hold is None:
                self.hold = q.copy()
            q_d, qd_d = self.hold, np.zeros_like(q)
        feedback = self._gains('kp') * (q_d - q) + self._gains('kd') * (qd_d - qd)
        tau = self.mass @ feedback
        if use_feedforward:
            tau = tau + self.feedforward
        self.pub_command.publish(vector_to_array(tau))
        if self.get_parameter('record').value:
            self.log.append((now_ns * 1e-9, q_d, q, tau))

    def _drop(self, reason):
        self.dropped += 1
        self.get_logger().warning(reason, throttle_duration_sec=1.0)


def main(args=None):
    """Console-script entry point ``computed_torque_controller``."""
    run(ComputedTorqueController, args)


if __name__ == '__main__':
    main()
