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

A recorder for identification where ``ros2 bag`` is not installed: it keeps every
``sensor_msgs/JointState`` in memory (arrays, by joint name) and writes them with the
pure-Python ``rosbags`` library when it stops (``duration`` seconds of message time after the
first message, or on shutdown). Parameters: ``output`` (bag directory, must not exist),
``storage`` (``mcap`` or ``sqlite3``), ``duration`` (0: until shutdown), ``start_after``
(message time to skip first, s).
"""

import numpy as np
import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState

from robot_dynamics.io.recordings import Recording, write_bag
from robot_dynamics.nodes.parameters import descriptor
from robot_dynamics.nodes.process import make_executor, spin


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
        self.rows = []
        self.written = None
        self.create_subscription(JointState, 'joint_states', self._on_joint_state,
                                 qos_profile_sensor_data)

    def _on_joint_state(self, msg):
        if self.written is not None:
            return
        stamp = msg.header.stamp.sec + 1e-9 * msg.header.stamp.nanosec
        if stamp < self.get_parameter('start_after').value:
            return
        if len(msg.position) != len(msg.name) or len(msg.effort) != len(msg.name):
            self.get_logger().warning('joint_states without a position and an effort per '
                                      'joint skipped', throttle_duration_sec=1.0)
            return
        self.rows.append((stamp, tuple(msg.name), tuple(msg.position),
                          tuple(msg.velocity), tuple(msg.effort)))
        duration = self.get_parameter('duration').value
        if duration and stamp - self.rows[0][0] >= duration:
            self.write()

    def recording(self):
        """Return the messages so far as a :class:`~robot_dynamics.io.recordings.Recording`."""
        if not self.rows:
            raise ValueError('joint_state_recorder: no joint_states received')
        names = self.rows[0][1]
        rows = [row for row in self.rows if row[1] == names]
        velocity = np.array([row[3] for row in rows]) if all(
            len(row[3]) == len(names) for row in rows) else None
        return Recording(names, np.array([row[0] for row in rows]),
                         np.array([row[2] for row in rows]), np.array([row[4] for row in rows]),
                         velocity, 'joint_state_recorder')

    def write(self):
        """Write the bag once; return its path."""
        if self.written is None:
            self.written = write_bag(self.get_parameter('output').value, self.recording(),
                                     storage=self.get_parameter('storage').value)
            self.get_logger().info(f'wrote {len(self.rows)} joint states to {self.written}')
        return self.written


def main(args=None):
    """Console-script entry point ``joint_state_recorder``: spin, write the bag on the way out."""
    rclpy.init(args=args)
    node = None
    try:
        node = JointStateRecorder()
        spin(node, make_executor())
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            if node.rows:
                node.write()
            node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
