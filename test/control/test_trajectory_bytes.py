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
"""A trajectory refused from its serialised bytes, and copies passed on once, without ROS.

The bytes are written here by hand, in the CDR layout of a ``trajectory_msgs/JointTrajectory``
(test/nodes/test_trajectory_qos.py checks the same function on rclpy's own serialisation).
"""

import struct

from robot_dynamics.control.trajectory_input import (SeenSamples, oversized_trajectory,
                                                     size_refusal)
from robot_dynamics.model import bounds


def cdr_trajectory(names, points, little=True):
    """Serialise a JointTrajectory with ``points`` empty points (CDR, 4-byte alignment)."""
    order = '<' if little else '>'
    data = bytearray(b'\x00\x01\x00\x00' if little else b'\x00\x00\x00\x00')

    def align():
        data.extend(b'\x00' * ((4 - (len(data) - 4) % 4) % 4))

    def string(text):
        align()
        raw = text.encode() + b'\x00'
        data.extend(struct.pack(order + 'I', len(raw)) + raw)

    data.extend(struct.pack(order + 'iI', 12, 34))          # header.stamp
    string('base')                                          # header.frame_id
    align()
    data.extend(struct.pack(order + 'I', len(names)))
    for name in names:
        string(name)
    align()
    data.extend(struct.pack(order + 'I', points))
    for _ in range(points):    # four empty sequences and time_from_start (sec, nanosec)
        data.extend(struct.pack(order + 'IIIIiI', 0, 0, 0, 0, 1, 0))
    return bytes(data)


def test_the_counts_are_read_from_the_bytes():
    assert oversized_trajectory(cdr_trajectory(['a', 'bb', 'ccc'], 5)) == ''
    many = bounds.MAX_TRAJECTORY_POINTS + 1
    for little in (True, False):
        assert oversized_trajectory(cdr_trajectory(['a'], many, little)) == \
            f'{many} points, more than {bounds.MAX_TRAJECTORY_POINTS}; send it in pieces'
    names = [f'j{k}' for k in range(bounds.MAX_JOINT_NAMES + 1)]
    assert oversized_trajectory(cdr_trajectory(names, 1)) == size_refusal(0, len(names))
    assert 'joint_names, more than' in size_refusal(0, len(names))


def test_counts_the_bytes_cannot_hold_are_left_to_the_deserialiser():
    data = cdr_trajectory(['a'], bounds.MAX_TRAJECTORY_POINTS + 1)
    assert oversized_trajectory(data[:200]) == ''           # truncated: not refused
    assert oversized_trajectory(b'\x00\x01\x00\x00' + b'\xff' * 40) == ''
    assert oversized_trajectory(b'') == ''


def test_a_latched_copy_is_passed_on_once_and_unstamped_samples_always():
    seen = SeenSamples(remembered=2)
    assert seen.first(100, 1) and not seen.first(100, 1)
    assert seen.first(100, 2) and seen.first(100, 3)
    assert seen.first(100, 1)                              # forgotten: only 2 remembered
    assert seen.first(0, 1) and seen.first(0, 1)
