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
"""ROS 2 node: records ``joint_states`` (positions, velocities, efforts) into a rosbag2.

A recorder for identification where ``ros2 bag`` is not installed: it keeps the messages in
memory (:class:`~robot_dynamics.io.joint_state_buffer.JointStateBuffer`) and writes them with
the pure-Python ``rosbags`` library when it stops; its parameters: docs/ros.md,
"joint_state_recorder".
"""

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState

from robot_dynamics.io.joint_state_buffer import SKIPPED, JointStateBuffer
from robot_dynamics.io.recordings import write_bag
from robot_dynamics.nodes.conversions import stamp_to_seconds
from robot_dynamics.nodes.parameters import descriptor
from robot_dynamics.nodes.process import make_executor, shut_down, spin


class JointStateRecorder(Node):
    """Collects ``joint_states`` and writes them as a bag (see the module docstring)."""

    def __init__(self, node_name='joint_state_recorder', **kwargs):
        super().__init__(node_name, **kwargs)
        self.declare_parameter('output', 'joint_states_bag', descriptor(
            'bag directory to write (must not exist)', read_only=True))
        self.declare_parameter('storage', 'mcap', descriptor(
            'rosbag2 storage: mcap or sqlite3', read_only=True))
        self.declare_parameter('duration', 0.0, descriptor(
            'seconds of message time to record (0: until shutdown)', low=0.0, high=1e6))
        self.declare_parameter('start_after', 0.0, descriptor(
            'message time (s) before which messages are skipped', low=0.0, high=1e9))
        if self.get_parameter('storage').value not in ('mcap', 'sqlite3'):
            raise ValueError('storage: use mcap or sqlite3')
        self.buffer = JointStateBuffer()
        self.written = None
        self.create_subscription(JointState, 'joint_states', self._on_joint_state,
                                 qos_profile_sensor_data)

    def _on_joint_state(self, msg):
        if self.written is not None:
            return
        skipped = self.buffer.add(stamp_to_seconds(msg.header.stamp), msg.name, msg.position,
                                  msg.velocity, msg.effort,
                                  self.get_parameter('start_after').value)
        if skipped == SKIPPED:
            self.get_logger().warning(skipped, throttle_duration_sec=1.0)
        elif self.buffer.complete(self.get_parameter('duration').value):
            self.write()

    def write(self):
        """Write the bag once; return its path."""
        if self.written is None:
            self.written = write_bag(self.get_parameter('output').value,
                                     self.buffer.recording(),
                                     storage=self.get_parameter('storage').value)
            self.get_logger().info(f'wrote {len(self.buffer.rows)} joint states to '
                                   f'{self.written}')
        return self.written


def main(args=None):
    """Console-script entry point ``joint_state_recorder``: spin, write the bag on the way out."""
    rclpy.init(args=args)
    node, executor = None, None
    try:
        node = JointStateRecorder()
        executor = make_executor()
        spin(node, executor)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        shut_down(executor)
        if node is not None:
            if node.buffer.rows:
                node.write()
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
