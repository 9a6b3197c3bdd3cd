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
"""``trajectory_msgs/JointTrajectory`` as YAML: the form ``ros2 topic pub`` reads.

The document holds the message's fields (``header`` is left to the publisher)::

    joint_names: [joint1, joint2]
    points:
    - positions: [0.0, 0.1]
      velocities: [0.0, 0.0]
      accelerations: [0.0, 0.0]
      time_from_start: {sec: 0, nanosec: 0}

so ``ros2 topic pub --once TOPIC trajectory_msgs/msg/JointTrajectory "$(cat FILE)"`` sends
it, and the trajectory publisher node loads it with its ``trajectory_file`` parameter.
Comment lines (``#``) may describe it. Reading checks every field and names the bad one.
"""

import numpy as np

from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text

MAX_BYTES = 64 * 1024 * 1024


class TrajectoryFileError(ValueError):
    """A JointTrajectory YAML file is malformed: the message names the field and the fix."""


def joint_trajectory_yaml(joint_names, times, positions, velocities=None, accelerations=None,
                          comment=''):
    """Return YAML text of a JointTrajectory (times in s from the start, arrays (K, n))."""
    lines = [f'# {line}' if line else '#' for line in comment.splitlines()]
    lines.append('joint_names: [' + ', '.join(str(name) for name in joint_names) + ']')
    lines.append('points:')
    for k, t in enumerate(times):
        sec, nanosec = divmod(int(round(float(t) * 1e9)), 10 ** 9)
        lines.append('- positions: ' + _row(positions[k]))
        if velocities is not None:
            lines.append('  velocities: ' + _row(velocities[k]))
        if accelerations is not None:
            lines.append('  accelerations: ' + _row(accelerations[k]))
        lines.append(f'  time_from_start: {{sec: {sec}, nanosec: {nanosec}}}')
    return '\n'.join(lines) + '\n'


def _row(values):
    return '[' + ', '.join(repr(float(v)) for v in values) + ']'


def read_joint_trajectory_yaml(path):
    """Read a JointTrajectory YAML file: names, times (K,), positions (K, n) and more.

    Returns ``(joint_names, times, positions, velocities, accelerations)``; velocities and
    accelerations are None unless every point has them.
    """
    text = read_yaml_text(path, str(path), TrajectoryFileError, MAX_BYTES)
    document = load_yaml(text, str(path), TrajectoryFileError, MAX_BYTES)
    if not isinstance(document, dict) or not isinstance(document.get('points'), list) \
            or not isinstance(document.get('joint_names'), list):
        raise TrajectoryFileError(f'{path}: expected a JointTrajectory mapping with '
                                  '`joint_names` (list) and `points` (list)')
    names = [_name(path, k, name) for k, name in enumerate(document['joint_names'])]
    if not document['points']:
        raise TrajectoryFileError(f'{path}: points: empty; give at least one point')
    times, arrays = [], {'positions': [], 'velocities': [], 'accelerations': []}
    for k, point in enumerate(document['points']):
        if not isinstance(point, dict):
            raise TrajectoryFileError(f'{path}: points[{k}]: expected a mapping')
        times.append(_time(path, k, point.get('time_from_start')))
        for key, rows in arrays.items():
            if point.get(key):
                rows.append(_vector(path, f'points[{k}].{key}', point[key], len(names)))
    times = np.array(times)
    if np.any(np.diff(times) <= 0):
        raise TrajectoryFileError(f'{path}: time_from_start must increase strictly from '
                                  'point to point')
    if len(arrays['positions']) != len(times):
        raise TrajectoryFileError(f'{path}: every point needs positions')
    out = [np.array(rows) if len(rows) == len(times) else None for rows in arrays.values()]
    return (names, times) + tuple(out)


def _name(path, k, value):
    """Return a joint name: a string (or a number, as YAML may read one); nothing nested."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TrajectoryFileError(f'{path}: joint_names[{k}]: expected a string, got a '
                                  f'{type(value).__name__}')
    return str(value)


def _time(path, k, value):
    if not isinstance(value, dict):
        raise TrajectoryFileError(f'{path}: points[{k}].time_from_start: expected '
                                  '{sec: S, nanosec: NS}')
    try:
        return int(value.get('sec', 0)) + 1e-9 * int(value.get('nanosec', 0))
    except (TypeError, ValueError):
        raise TrajectoryFileError(f'{path}: points[{k}].time_from_start: sec and nanosec '
                                  'must be integers') from None


def _vector(path, field, value, n):
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TrajectoryFileError(f'{path}: {field}: expected {n} numbers') from None
    if array.shape != (n,) or not np.all(np.isfinite(array)):
        raise TrajectoryFileError(f'{path}: {field}: expected {n} finite numbers (one per '
                                  f'joint_names entry), got {value!r}'[:300])
    return array
