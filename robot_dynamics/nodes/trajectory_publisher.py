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

The waypoints come from :func:`robot_dynamics.simulation.trajectory.standard_waypoints`
(rest-to-rest quintic moves within the joint limits) with positions, velocities and accelerations,
or, with ``trajectory_file``, from a JointTrajectory YAML file (the form ``ros2 topic pub`` reads
and ``robot-dynamics excite`` writes; read once at start, joints matched by name).
The message is published reliable and transient-local on ``desired_trajectory``, stamped
``start_delay`` seconds in the future; with ``repeat`` it is published again after each run.

Before publishing, the motion's torque and speed are checked against the model's URDF limits
(:mod:`robot_dynamics.analysis.feasibility`); ``feasibility`` says what to do with one that
does not fit: ``scale`` (default: slow it down by the smallest factor that fits and say so),
``reject`` (publish nothing; ERROR with the facts) or ``warn`` (publish it anyway; WARN).
"""

from rclpy.duration import Duration
from rclpy.node import Node
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.analysis import feasibility
from robot_dynamics.io.trajectory_yaml import read_joint_trajectory_yaml
from robot_dynamics.nodes.model_parameters import (declare_model_parameters,
                                                   model_with_logged_warnings)
from robot_dynamics.nodes.parameters import descriptor
from robot_dynamics.nodes.process import guarded_subscription, run
from robot_dynamics.nodes.qos import LATCHED
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.simulation.trajectory import standard_waypoints


class TrajectoryPublisher(Node):
    """Publishes :func:`~robot_dynamics.simulation.trajectory.standard_waypoints` for the model."""

    def __init__(self, node_name='trajectory_publisher', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_model_parameters(self, at_start_only=True)      # the model is read once
        self.declare_parameter('move_time', 1.0, descriptor(
            'duration of each point-to-point move, s', low=0.01, high=3600.0))
        self.declare_parameter('amplitude', 0.5, descriptor(
            'largest excursion from home per joint, rad or m', low=0.0, high=10.0))
        self.declare_parameter('moves', 4, descriptor('number of moves', low=1, high=1000,
                                                      integer=True))
        self.declare_parameter('start_delay', 0.5, descriptor(
            'seconds between publication and the trajectory start', low=0.0, high=3600.0))
        self.declare_parameter('repeat', False, descriptor('publish again after each run'))
        self.declare_parameter('trajectory_file', '', descriptor(
            'JointTrajectory YAML to publish instead of the standard trajectory',
            read_only=True))
        self.declare_parameter('feasibility', 'scale', descriptor(
            'a motion beyond the URDF effort or velocity limits: scale (slow it down to fit), '
            'reject (publish nothing) or warn (publish it anyway)', read_only=True))
        if self.get_parameter('feasibility').value not in ('scale', 'reject', 'warn'):
            raise ValueError(f"feasibility: {self.get_parameter('feasibility').value!r}; use "
                             'scale, reject or warn')
        self.refused = ''               # why the motion was not published (reject)
        self._checked = None
        self.model = model_with_logged_warnings(self)
        if self.model is None:
            raise ValueError('trajectory_publisher needs a model: set robot_description, '
                             'urdf_file, dh_file or model')
        self._file = self._read_file(self.get_parameter('trajectory_file').value)
        self.publisher = self.create_publisher(
            JointTrajectory, 'desired_trajectory', LATCHED)
        self.end = None
        self.create_timer(0.05, guarded_subscription(self, self._on_timer))

    def _read_file(self, path):
        """Read ``trajectory_file`` once; its columns in the model's joint order."""
        if not path:
            return None
        names, times, *arrays = read_joint_trajectory_yaml(path)
        if sorted(names) != sorted(self.model.joint_names):
            raise ValueError(f'trajectory_file {path}: joint_names {names} must be the '
                             f'model\'s joints {list(self.model.joint_names)}')
        order = [names.index(name) for name in self.model.joint_names]
        return (times,) + tuple(None if a is None else a[:, order] for a in arrays)

    def waypoints(self):
        """Return ``times, positions, velocities, accelerations`` (file or standard), fitted.

        Checked once against the limits (``feasibility``); None if refused (``refused`` says
        why).
        """
        if self._checked is None:
            self._checked = self._fitted(self._file if self._file is not None else
                                         standard_waypoints(
                                             self.model, self.get_parameter('move_time').value,
                                             self.get_parameter('amplitude').value,
                                             self.get_parameter('moves').value))
        return self._checked if not self.refused else None

    def _fitted(self, waypoints):
        """Apply the ``feasibility`` policy to ``waypoints``; log what was done."""
        report = feasibility.check_trajectory(self.model, *waypoints)
        if report.feasible:
            return waypoints
        policy = self.get_parameter('feasibility').value
        if policy == 'scale' and report.scale is not None:
            self.get_logger().warning(f'trajectory slowed down to fit the limits: '
                                      f'{report.message()}')
            return feasibility.scaled_waypoints(*waypoints, report.scale)
        if policy == 'warn':
            self.get_logger().warning(f'trajectory beyond the limits, published anyway '
                                      f'(feasibility: warn): {report.message()}')
            return waypoints
        self.refused = f'trajectory refused: {report.message()}'
        self.get_logger().error(self.refused)
        return waypoints

    def _on_timer(self):
        now = self.get_clock().now()
        if now.nanoseconds == 0:
            return                      # use_sim_time and no /clock yet
        if self.end is not None and (not self.get_parameter('repeat').value or now < self.end):
            return
        if self.waypoints() is None:
            return                      # refused: said once, at the check
        times, positions, velocities, accelerations = self.waypoints()
        start = now + Duration(seconds=self.get_parameter('start_delay').value)
        self.publisher.publish(trajectory_message(self.model.joint_names, times, positions,
                                                  velocities, accelerations, start.to_msg()))
        self.start = start
        self.end = start + Duration(seconds=float(times[-1]))
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
