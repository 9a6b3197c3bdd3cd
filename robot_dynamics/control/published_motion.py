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
"""The motion a trajectory publisher sends: its waypoints, fitted to the limits, and when.

The waypoints are the standard test motion
(:func:`~robot_dynamics.simulation.trajectory.standard_waypoints`) or a JointTrajectory YAML
file's (:func:`file_waypoints`, its columns in the model's joint order), checked once against
the model's effort and velocity limits (:func:`fitted`,
:func:`robot_dynamics.analysis.feasibility.check_trajectory`): ``scale`` slows a motion beyond
them down by the smallest factor that fits, ``warn`` sends it anyway, ``reject`` sends
nothing. :class:`PublishedMotion` holds them and says when to send them (again, with
``repeat``, once the last run has ended). Each ``(times, positions, velocities,
accelerations)``; integer nanoseconds of the publisher's clock; no ROS here.
"""

from robot_dynamics.analysis import feasibility
from robot_dynamics.control.controller_settings import Setting
from robot_dynamics.io.trajectory_yaml import read_joint_trajectory_yaml
from robot_dynamics.simulation.trajectory import standard_waypoints

PUBLISHER_POLICIES = ('scale', 'reject', 'warn')
SETTINGS = (
    Setting('move_time', 1.0, 'duration of each point-to-point move, s', 0.01, 3600.0),
    Setting('amplitude', 0.5, 'largest excursion from home per joint, rad or m', 0.0, 10.0),
    Setting('moves', 4, 'number of moves', 1, 1000, integer=True),
    Setting('start_delay', 0.5, 'seconds between publication and the trajectory start', 0.0,
            3600.0),
    Setting('repeat', False, 'publish again after each run'),
    Setting('trajectory_file', '', 'JointTrajectory YAML to publish instead of the standard '
            'trajectory', read_only=True),
    Setting('feasibility', 'scale', 'a motion beyond the URDF effort or velocity limits: scale '
            '(slow it down to fit), reject (publish nothing) or warn (publish it anyway)',
            read_only=True))


def check_policy(policy):
    """Raise ValueError unless ``policy`` is one of :data:`PUBLISHER_POLICIES`."""
    if policy not in PUBLISHER_POLICIES:
        raise ValueError(f'feasibility: {policy!r}; use scale, reject or warn')


def file_waypoints(path, joint_names):
    """Read a JointTrajectory YAML file's waypoints, its columns in ``joint_names``' order."""
    names, times, *arrays = read_joint_trajectory_yaml(path)
    if sorted(names) != sorted(joint_names):
        raise ValueError(f'trajectory_file {path}: joint_names {names} must be the '
                         f'model\'s joints {list(joint_names)}')
    order = [names.index(name) for name in joint_names]
    return (times,) + tuple(None if a is None else a[:, order] for a in arrays)


def fitted(model, waypoints, policy):
    """Return ``(waypoints, warning, refusal)``: ``waypoints`` under ``policy``.

    ``warning``: '' or what was done to a motion beyond the limits (scaled, sent anyway);
    ``refusal``: '' or why it is not sent (``reject``, or a motion no scale fits).
    """
    report = feasibility.check_trajectory(model, *waypoints)
    if report.feasible:
        return waypoints, '', ''
    if policy == 'scale' and report.scale is not None:
        return (feasibility.scaled_waypoints(*waypoints, report.scale),
                f'trajectory slowed down to fit the limits: {report.message()}', '')
    if policy == 'warn':
        return waypoints, (f'trajectory beyond the limits, published anyway (feasibility: '
                           f'warn): {report.message()}'), ''
    return waypoints, '', f'trajectory refused: {report.message()}'


class PublishedMotion:
    """A publisher's motion for ``model``: checked once under ``policy``, and its runs."""

    def __init__(self, model, policy, path=''):
        if model is None:
            raise ValueError('trajectory_publisher needs a model: set robot_description, '
                             'urdf_file, dh_file or model')
        check_policy(policy)
        self.model, self.policy = model, policy
        self.file = file_waypoints(path, model.joint_names) if path else None  # read once
        self.refused = ''           # why the motion is not sent (reject)
        self.end_ns = None          # when the last run sent ends
        self._checked = None

    def waypoints(self, move_time, amplitude, moves, warn, error):
        """Return the file's waypoints, else the standard ones, fitted; None if refused.

        Checked once: ``warn(text)`` and ``error(text)`` are told what was done then.
        """
        if self._checked is None:
            self._checked, warning, self.refused = fitted(
                self.model, self.file if self.file is not None else standard_waypoints(
                    self.model, move_time, amplitude, moves), self.policy)
            if warning:
                warn(warning)
            if self.refused:
                error(self.refused)
        return None if self.refused else self._checked

    def due(self, now_ns, repeat):
        """Tell whether to send the motion at ``now_ns`` (0: a clock not begun, never)."""
        return now_ns != 0 and (self.end_ns is None or repeat and now_ns >= self.end_ns)

    def sent(self, end_ns):
        """Note a run sent that ends at ``end_ns``."""
        self.end_ns = end_ns
