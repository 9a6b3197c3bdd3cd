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
"""ROS 2 node: publishes the standard smooth test trajectory of a model as a JointTrajectory.

Reliable and transient-local on ``desired_trajectory``, the standard waypoints or a
``trajectory_file``, checked against the URDF limits first (``feasibility``); the rules are
:class:`robot_dynamics.control.published_motion.PublishedMotion`. Parameters and behaviour:
docs/ros.md, "trajectory_publisher".
"""
from rclpy.duration import Duration
from rclpy.node import Node
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.control.published_motion import SETTINGS, PublishedMotion
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.model_parameters import (declare_model_parameters,
                                                   model_with_logged_warnings)
from robot_dynamics.nodes.parameters import declare_settings
from robot_dynamics.nodes.process import guarded_subscription, run
from robot_dynamics.nodes.qos import LATCHED


class TrajectoryPublisher(Node):
    """Publishes :func:`~robot_dynamics.simulation.trajectory.standard_waypoints` for the model."""

    refused = property(lambda self: self.motion.refused)    # why nothing is published, or ''

    def __init__(self, node_name='trajectory_publisher', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_model_parameters(self, at_start_only=True)      # the model is read once
        declare_settings(self, SETTINGS)
        self.motion = PublishedMotion(model_with_logged_warnings(self),
                                      self.get_parameter('feasibility').value,
                                      self.get_parameter('trajectory_file').value)
        self.model = self.motion.model
        self.publisher = self.create_publisher(JointTrajectory, 'desired_trajectory', LATCHED)
        self.start = self.end = None    # the last run published (rclpy Time)
        self.create_timer(0.05, guarded_subscription(self, self._on_timer))

    def waypoints(self):
        """Return ``times, positions, velocities, accelerations`` (file or standard), fitted.

        Checked once against the limits (``feasibility``); None if refused
        (``motion.refused`` says why).
        """
        return self.motion.waypoints(*(self.get_parameter(name).value
                                       for name in ('move_time', 'amplitude', 'moves')),
                                     self.get_logger().warning, self.get_logger().error)

    def _on_timer(self):
        now = self.get_clock().now()
        if not self.motion.due(now.nanoseconds, self.get_parameter('repeat').value) or \
                self.waypoints() is None:
            return                      # not yet (no /clock yet), or refused: said once
        times, positions, velocities, accelerations = self.waypoints()
        start = now + Duration(seconds=self.get_parameter('start_delay').value)
        self.publisher.publish(trajectory_message(self.model.joint_names, times, positions,
                                                  velocities, accelerations, start.to_msg()))
        self.start, self.end = start, start + Duration(seconds=float(times[-1]))
        self.motion.sent(self.end.nanoseconds)
        self.get_logger().info(f'published a {times[-1]:.2f} s trajectory of '
                               f'{len(times)} points')

    def callback_failed(self, name, exc):
        """Log an exception caught around a callback (the node keeps running)."""
        self.get_logger().error(f'{name} failed: {type(exc).__name__}: {exc}',
                                throttle_duration_sec=1.0)


def main(args=None):
    """Console-script entry point ``trajectory_publisher``."""
    run(TrajectoryPublisher, args)


if __name__ == '__main__':
    main()
