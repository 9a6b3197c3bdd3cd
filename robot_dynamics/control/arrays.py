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
"""Joint-space arrays from the fields of a message, checked and put in model order by name.

The nodes pass a message's fields (names, positions, efforts, a ``Float64MultiArray``'s data,
a trajectory's points); these return arrays or raise :class:`~robot_dynamics.errors.BadInput`
with a short reason (the nodes drop such messages, count them and log a throttled warning).
Plain sequences and bytes: no ROS here.
"""

import numpy as np

from robot_dynamics.errors import BadInput
from robot_dynamics.simulation.trajectory import check_waypoints


def _field(values, name, count):
    values = np.asarray(values, dtype=float)
    if values.size not in (0, count):
        raise BadInput(f'{name} has {values.size} entries for {count} names')
    return values if values.size else None


def joint_arrays(names, position, velocity, effort, joint_names, need_velocity=False):
    """Return a joint state's ``q, qd, effort`` (n,) in ``joint_names`` order, by name.

    Extra joints are ignored; a missing joint, a position/velocity/effort array whose length
    differs from ``names``, a repeated name or NaN/inf raise :class:`BadInput`. Absent
    velocities are zero unless ``need_velocity``; absent efforts are returned as None.
    """
    names = list(names)
    if len(set(names)) != len(names):
        raise BadInput('repeated joint names')
    index = {name: i for i, name in enumerate(names)}
    missing = [name for name in joint_names if name not in index]
    if missing:
        raise BadInput(f'missing joints {missing}')
    positions = _field(position, 'position', len(names))
    velocities = _field(velocity, 'velocity', len(names))
    efforts = _field(effort, 'effort', len(names))
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


def efforts_by_name(names, effort, joint_names):
    """Efforts of a command (n,) in ``joint_names`` order, by name; unnamed joints get 0."""
    names = list(names)
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise BadInput(f'repeated joint names {repeated}; name each joint once')
    efforts = np.asarray(effort, dtype=float)
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


def checked_vector(data, size):
    """Return a flat array's data as (size,); a wrong length or NaN raise BadInput."""
    values = np.asarray(data, dtype=float)
    if values.size != size:
        raise BadInput(f'{values.size} values for {size} joints')
    if not np.all(np.isfinite(values)):
        raise BadInput('values contain NaN or inf')
    return values


def checked_matrix(data, size):
    """Row-major data of a matrix → (size, size); a wrong length or NaN raise BadInput."""
    values = np.asarray(data, dtype=float)
    if values.size != size * size:
        raise BadInput(f'{values.size} values for a {size}x{size} matrix')
    if not np.all(np.isfinite(values)):
        raise BadInput('values contain NaN or inf')
    return values.reshape(size, size)


def waypoint_arrays(names, times, points, joint_names):
    """Return a trajectory's ``times, positions, velocities, accelerations``, checked.

    ``points``: ``{'positions': rows, 'velocities': rows, 'accelerations': rows}``, one row per
    point in the order of ``names``. Columns are reordered to ``joint_names`` by name; every
    model joint must be present. Velocities/accelerations are None unless every point gives
    them.
    """
    names = list(names)
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise BadInput(f'trajectory repeats joint names {repeated}; name each joint once')
    missing = [name for name in joint_names if name not in names]
    if missing:
        raise BadInput(f'trajectory lacks joints {missing}')
    if not len(times):
        raise BadInput('trajectory has no points')
    order = [names.index(name) for name in joint_names]
    columns = {}
    for field in ('positions', 'velocities', 'accelerations'):
        rows = [np.asarray(row, dtype=float) for row in points[field]]
        if all(row.size == len(names) for row in rows):
            columns[field] = np.array(rows)[:, order]
        elif field == 'positions' or any(row.size for row in rows):
            raise BadInput(f'every point needs {len(names)} {field} (or none, for velocities '
                           'and accelerations)')
        else:
            columns[field] = None
    try:
        return check_waypoints(np.asarray(times, dtype=float), columns['positions'],
                               columns['velocities'], columns['accelerations'])
    except ValueError as exc:
        raise BadInput(str(exc)) from None
