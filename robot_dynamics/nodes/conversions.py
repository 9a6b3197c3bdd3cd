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
"""Message ↔ array conversions shared by the nodes (no dynamics here).

Every message-to-array function raises :class:`BadInput` with a short reason when a message
cannot be used (the checks are :mod:`robot_dynamics.control.arrays`); the nodes drop such
messages, count them and log a throttled warning.
"""

import numpy as np
from std_msgs.msg import Float64MultiArray, MultiArrayDimension

from robot_dynamics.control.arrays import (
    checked_matrix, checked_vector, efforts_by_name, joint_arrays, waypoint_arrays)
from robot_dynamics.control.cdr import serialized_name_count  # noqa: F401 - re-exported
from robot_dynamics.control.goals import INVALID_GOAL, GoalError, TrajectoryRequest
from robot_dynamics.control.joint_states import merge_reading
from robot_dynamics.model import bounds
from robot_dynamics.errors import BadInput  # noqa: F401 - the nodes import it from here


def stamp_to_seconds(stamp):
    """``builtin_interfaces/Time`` or ``Duration`` → float seconds."""
    return stamp.sec + stamp.nanosec * 1e-9


def stamp_to_nanoseconds(stamp):
    """``builtin_interfaces/Time`` → integer nanoseconds (exact)."""
    return stamp.sec * 10 ** 9 + stamp.nanosec


def joint_state_to_arrays(msg, joint_names, need_velocity=False):
    """``sensor_msgs/JointState`` → ``q, qd, effort`` in ``joint_names`` order (joint_arrays)."""
    return joint_arrays(msg.name, msg.position, msg.velocity, msg.effort, joint_names,
                        need_velocity)


def joint_efforts_by_name(msg, joint_names):
    """Efforts of a ``sensor_msgs/JointState`` command (n,) by name; unnamed joints get 0."""
    return efforts_by_name(msg.name, msg.effort, joint_names)


def array_to_vector(msg, size):
    """``std_msgs/Float64MultiArray`` → (size,) array; wrong length or NaN raise BadInput."""
    return checked_vector(msg.data, size)


def array_to_matrix(msg, size):
    """Convert a row-major ``Float64MultiArray`` (:func:`matrix_to_array`) to (size, size)."""
    return checked_matrix(msg.data, size)


def vector_to_array(values):
    """(n,) array → ``std_msgs/Float64MultiArray`` with one dimension labelled ``joints``."""
    values = np.asarray(values, dtype=float).reshape(-1)
    msg = Float64MultiArray()
    msg.layout.dim = [MultiArrayDimension(label='joints', size=values.size, stride=values.size)]
    msg.data = values.tolist()
    return msg


def matrix_to_array(matrix):
    """(n, n) array → row-major ``Float64MultiArray``: dim[0] rows (stride n*n), dim[1] cols.

    Element ``(i, j)`` is ``data[layout.data_offset + i * dim[1].stride + j]``.
    """
    matrix = np.asarray(matrix, dtype=float)
    rows, cols = matrix.shape
    msg = Float64MultiArray()
    msg.layout.dim = [MultiArrayDimension(label='rows', size=rows, stride=rows * cols),
                      MultiArrayDimension(label='cols', size=cols, stride=cols)]
    msg.data = matrix.reshape(-1).tolist()
    return msg


def joint_state_message(joint_names, stamp, position=None, velocity=None, effort=None):
    """Build a ``sensor_msgs/JointState``; absent fields stay empty."""
    from sensor_msgs.msg import JointState
    msg = JointState()
    msg.header.stamp = stamp
    msg.name = list(joint_names)
    for field, values in (('position', position), ('velocity', velocity), ('effort', effort)):
        if values is not None:
            setattr(msg, field, np.asarray(values, dtype=float).tolist())
    return msg


def matrix_rows_message(joint_names, matrix, stamp):
    """(n, n) joint-space matrix → stamped, named rows: ``trajectory_msgs/JointTrajectory``.

    ``header.stamp`` = ``stamp``, ``joint_names`` = the row and column order, ``points[i]
    .positions`` = row ``i`` (``time_from_start`` zero): the only stamped message of the
    common interfaces that holds an n×n matrix with its joint names.
    """
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    msg = JointTrajectory()
    msg.header.stamp = stamp
    msg.joint_names = list(joint_names)
    msg.points = [JointTrajectoryPoint(positions=row) for row in
                  np.asarray(matrix, dtype=float).tolist()]
    return msg


def trajectory_request(msg):
    """Convert a ``trajectory_msgs/JointTrajectory`` to a ``TrajectoryRequest``.

    The point count is checked before any point is read (control/goals.py has the rest).
    """
    points = msg.points
    if len(points) > bounds.MAX_TRAJECTORY_POINTS:
        raise GoalError(INVALID_GOAL, f'trajectory has {len(points)} points, more than '
                        f'{bounds.MAX_TRAJECTORY_POINTS}; send it in pieces')
    return TrajectoryRequest.from_points(
        msg.joint_names, [stamp_to_seconds(p.time_from_start) for p in points],
        [p.positions for p in points], [p.velocities for p in points],
        [p.accelerations for p in points], stamp_to_nanoseconds(msg.header.stamp))


def trajectory_to_arrays(msg, joint_names):
    """``trajectory_msgs/JointTrajectory`` → ``times, positions, velocities, accelerations``.

    :func:`~robot_dynamics.control.arrays.waypoint_arrays` reorders and checks them.
    """
    points = {field: [getattr(p, field) for p in msg.points]
              for field in ('positions', 'velocities', 'accelerations')}
    return waypoint_arrays(msg.joint_names, [stamp_to_seconds(p.time_from_start)
                                             for p in msg.points], points, joint_names)


def trajectory_message(joint_names, times, positions, velocities=None, accelerations=None,
                       stamp=None):
    """Arrays → ``trajectory_msgs/JointTrajectory`` (times are seconds from ``stamp``)."""
    from builtin_interfaces.msg import Duration
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
    msg = JointTrajectory()
    if stamp is not None:
        msg.header.stamp = stamp
    msg.joint_names = list(joint_names)
    for k, t in enumerate(times):
        point = JointTrajectoryPoint()
        point.positions = np.asarray(positions[k], dtype=float).tolist()
        if velocities is not None:
            point.velocities = np.asarray(velocities[k], dtype=float).tolist()
        if accelerations is not None:
            point.accelerations = np.asarray(accelerations[k], dtype=float).tolist()
        seconds, nanoseconds = divmod(int(round(t * 1e9)), 10 ** 9)
        point.time_from_start = Duration(sec=seconds, nanosec=nanoseconds)
        msg.points.append(point)
    return msg


def merge_message(merged, msg, now, timeout, limit, check=None):
    """Merge a ``sensor_msgs/JointState`` into a ``JointStateMerge`` (``merge_reading``)."""
    return merge_reading(merged, msg.name, msg.position, msg.velocity, msg.effort,
                         stamp_to_seconds(msg.header.stamp), now, timeout, limit, check)
