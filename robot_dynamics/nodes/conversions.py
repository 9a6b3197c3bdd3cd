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

Every ``*_to_arrays`` function raises :class:`BadInput` with a short reason when a message
cannot be used; the nodes drop such messages, count them and log a throttled warning.
"""

import struct

import numpy as np
from std_msgs.msg import Float64MultiArray, MultiArrayDimension

from robot_dynamics.control.goals import INVALID_GOAL, GoalError, TrajectoryRequest
from robot_dynamics.control.joint_states import merge_reading
from robot_dynamics.model import bounds
from robot_dynamics.errors import BadInput


def stamp_to_seconds(stamp):
    """``builtin_interfaces/Time`` or ``Duration`` → float seconds."""
    return stamp.sec + stamp.nanosec * 1e-9


def stamp_to_nanoseconds(stamp):
    """``builtin_interfaces/Time`` → integer nanoseconds (exact)."""
    return stamp.sec * 10 ** 9 + stamp.nanosec


def _field(msg, name, count):
    values = np.asarray(getattr(msg, name), dtype=float)
    if values.size not in (0, count):
        raise BadInput(f'{name} has {values.size} entries for {count} names')
    return values if values.size else None


def joint_state_to_arrays(msg, joint_names, need_velocity=False):
    """``sensor_msgs/JointState`` → ``q, qd, effort`` (n,) in ``joint_names`` order, by name.

    Extra joints in the message are ignored; a missing joint, a position/velocity/effort
    array whose length differs from ``name``, a repeated name or NaN/inf raise
    :class:`BadInput`. Absent velocities are zero unless ``need_velocity``; absent efforts
    are returned as None.
    """
    names = list(msg.name)
    if len(set(names)) != len(names):
        raise BadInput('repeated joint names')
    index = {name: i for i, name in enumerate(names)}
    missing = [name for name in joint_names if name not in index]
    if missing:
        raise BadInput(f'missing joints {missing}')
    positions = _field(msg, 'position', len(names))
    velocities = _field(msg, 'velocity', len(names))
    efforts = _field(msg, 'effort', len(names))
    if positions is None:
        raise BadInput('no positions')
    if velocities is None and need_velocity:
        raise BadInput('no velocities')
    order = [index[name] for name in joint_names]
    q = positions[order]
    qd = np.zeros_like(q) if velocities is None else velocities[order]
    effort = None if efforts is None else efforts[order]
    for label, values in (('position', q), ('velocity', qd), ('effort', effort)):
        if values is not None and not np.isfinite(values).all():
            raise BadInput(f'{label} contains NaN or inf')
    return q, qd, effort


def joint_efforts_by_name(msg, joint_names):
    """Efforts of a ``sensor_msgs/JointState`` command (n,) by name; unnamed joints get 0."""
    names = list(msg.name)
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise BadInput(f'repeated joint names {repeated}; name each joint once')
    efforts = np.asarray(msg.effort, dtype=float)
    if efforts.size != len(names):
        raise BadInput(f'effort has {efforts.size} entries for {len(names)} names')
    known = [name for name in names if name in joint_names]
    if not known:
        raise BadInput(f'none of the joints {names} is in the model {list(joint_names)}')
    if not np.all(np.isfinite(efforts)):
        raise BadInput('effort contains NaN or inf')
    command = np.zeros(len(joint_names))
    for name, value in zip(names, efforts):
        if name in joint_names:
            command[list(joint_names).index(name)] = value
    return command


def array_to_vector(msg, size):
    """``std_msgs/Float64MultiArray`` → (size,) array; wrong length or NaN raise BadInput."""
    values = np.asarray(msg.data, dtype=float)
    if values.size != size:
        raise BadInput(f'{values.size} values for {size} joints')
    if not np.all(np.isfinite(values)):
        raise BadInput('values contain NaN or inf')
    return values


def array_to_matrix(msg, size):
    """Convert a row-major ``Float64MultiArray`` (:func:`matrix_to_array`) to (size, size)."""
    values = np.asarray(msg.data, dtype=float)
    if values.size != size * size:
        raise BadInput(f'{values.size} values for a {size}x{size} matrix')
    if not np.all(np.isfinite(values)):
        raise BadInput('values contain NaN or inf')
    return values.reshape(size, size)


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
    """``trajectory_msgs/JointTrajectory`` → :class:`~robot_dynamics.control.goals.
    TrajectoryRequest`; the point count is checked before any point is read."""
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

    Columns are reordered to ``joint_names`` by name; every model joint must be present.
    Velocities/accelerations are None unless every point gives them.
    """
    names = list(msg.joint_names)
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise BadInput(f'trajectory repeats joint names {repeated}; name each joint once')
    missing = [name for name in joint_names if name not in names]
    if missing:
        raise BadInput(f'trajectory lacks joints {missing}')
    if not msg.points:
        raise BadInput('trajectory has no points')
    order = [names.index(name) for name in joint_names]
    times = np.array([stamp_to_seconds(p.time_from_start) for p in msg.points])
    columns = {}
    for field in ('positions', 'velocities', 'accelerations'):
        rows = [np.asarray(getattr(p, field), dtype=float) for p in msg.points]
        if all(row.size == len(names) for row in rows):
            columns[field] = np.array(rows)[:, order]
        elif field == 'positions' or any(row.size for row in rows):
            raise BadInput(f'every point needs {len(names)} {field} (or none, for velocities '
                           'and accelerations)')
        else:
            columns[field] = None
    from robot_dynamics.simulation.trajectory import check_waypoints
    try:
        return check_waypoints(times, columns['positions'], columns['velocities'],
                               columns['accelerations'])
    except ValueError as exc:
        raise BadInput(str(exc)) from None


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


def serialized_name_count(data):
    """Return the number of names in a serialised ``sensor_msgs/JointState``, or None.

    Reads the CDR bytes (encapsulation, ``header.stamp``, ``header.frame_id``, then the length
    of ``name``) in microseconds, where deserialising a message of a million names takes
    about 2 s. None when the bytes cannot be read that way or the count cannot fit in them
    (each name takes at least 5 bytes): the message is then left to the deserialiser.
    """
    try:
        order = '<' if data[1] & 1 else '>'           # little-endian encapsulations are odd
        frame_id = struct.unpack_from(order + 'I', data, 4 + 8)[0]
        position = 4 + ((8 + 4 + frame_id + 3) & ~3)  # 4-byte alignment after encapsulation
        names = struct.unpack_from(order + 'I', data, position)[0]
    except (IndexError, struct.error):
        return None
    return names if 5 * names <= len(data) - position - 4 else None
