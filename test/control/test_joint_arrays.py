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
"""Joint-space arrays from a message's fields, without rclpy (control/arrays.py)."""

import struct

import numpy as np
import pytest

from robot_dynamics.control.arrays import (checked_matrix, checked_vector, efforts_by_name,
                                           joint_arrays, waypoint_arrays)
from robot_dynamics.control.cdr import serialized_name_count
from robot_dynamics.errors import BadInput


def test_joint_arrays_by_name_in_the_requested_order():
    q, qd, effort = joint_arrays(['b', 'x', 'a'], [2.0, 9.0, 1.0], [0.2, 9.0, 0.1], [],
                                 ['a', 'b'])
    assert q.tolist() == [1.0, 2.0] and qd.tolist() == [0.1, 0.2] and effort is None
    assert joint_arrays(['a'], [1.0], [], [3.0], ['a'])[1].tolist() == [0.0]
    for fields, reason in (((['a', 'a'], [1.0, 1.0], [], []), 'repeated'),
                           ((['b'], [1.0], [], []), r"missing joints \['a'\]"),
                           ((['a'], [1.0, 2.0], [], []), 'position has 2 entries for 1'),
                           ((['a'], [], [], []), 'no positions'),
                           ((['a'], [np.nan], [], []), 'position contains NaN')):
        with pytest.raises(BadInput, match=reason):
            joint_arrays(*fields, ['a'])
    with pytest.raises(BadInput, match='no velocities'):
        joint_arrays(['a'], [1.0], [], [], ['a'], need_velocity=True)


def test_efforts_by_name_fill_the_unnamed_joints_with_zero():
    assert efforts_by_name(['c', 'a'], [3.0, 1.0], ['a', 'b', 'c']).tolist() == [1.0, 0.0, 3.0]
    with pytest.raises(BadInput, match='none of the joints'):
        efforts_by_name(['z'], [1.0], ['a'])
    with pytest.raises(BadInput, match='effort has 1 entries for 2 names'):
        efforts_by_name(['a', 'b'], [1.0], ['a', 'b'])


def test_vectors_and_matrices_are_checked():
    assert checked_matrix(range(9), 3)[2, 1] == 7.0          # row-major
    with pytest.raises(BadInput, match='8 values for a 3x3 matrix'):
        checked_matrix(range(8), 3)
    with pytest.raises(BadInput, match='NaN or inf'):
        checked_vector([1.0, np.inf], 2)


def test_waypoints_reordered_by_name_and_checked():
    points = {'positions': [[0, 1], [2, 3]], 'velocities': [[], []], 'accelerations': [[], []]}
    times, p, v, a = waypoint_arrays(['a', 'b'], [0.0, 1.5], points, ['b', 'a'])
    assert p.tolist() == [[1.0, 0.0], [3.0, 2.0]] and v is None and a is None
    assert times.tolist() == [0.0, 1.5]
    with pytest.raises(BadInput, match='every point needs 2 velocities'):
        waypoint_arrays(['a', 'b'], [0.0, 1.5], {**points, 'velocities': [[0, 0], []]}, ['a'])
    with pytest.raises(BadInput, match='no points'):
        waypoint_arrays(['a'], [], {'positions': []}, ['a'])


def cdr_joint_state(names, frame_id=''):
    """Serialise the start of a little-endian CDR ``sensor_msgs/JointState`` by hand."""
    def string(text):
        data = text.encode() + b'\0'
        return struct.pack('<I', len(data)) + data
    head = b'\x00\x01\x00\x00' + struct.pack('<iI', 12, 34) + string(frame_id)
    head += b'\0' * (-(len(head) - 4) % 4)              # align after the encapsulation
    body = b''
    for name in names:
        body += string(name) + b'\0' * (-len(string(name)) % 4)
    return head + struct.pack('<I', len(names)) + body


@pytest.mark.parametrize('count', [0, 1, 7, 300])
def test_the_name_count_read_from_the_bytes(count):
    data = cdr_joint_state([f'j{k}' * (k % 3 + 1) for k in range(count)], 'base' * (count % 4))
    assert serialized_name_count(data) == count
    assert serialized_name_count(b'\x00\x01') is None
    assert serialized_name_count(b'\x00\x01\x00\x00' + b'\xff' * 16) is None   # cannot fit
