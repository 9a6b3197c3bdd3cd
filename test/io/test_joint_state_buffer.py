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
"""The joint_state_recorder's buffer, without rclpy (io/joint_state_buffer.py)."""

import numpy as np
import pytest

from robot_dynamics.io.joint_state_buffer import SKIPPED, JointStateBuffer
from robot_dynamics.io.recordings import read_recording, write_bag


def test_samples_with_positions_and_efforts_become_a_recording(tmp_path):
    buffer = JointStateBuffer()
    assert buffer.add(0.5, ['a', 'b'], [0.0, 0.0], [], [0.0, 0.0], start_after=1.0)
    for k in range(20):
        assert buffer.add(1.0 + 1e-3 * k, ['a', 'b'], [0.1 * k, -0.1 * k], [],
                          [float(k), 2.0 * k]) == ''
    assert buffer.add(2.0, ['a', 'b'], [0.0, 0.0], [], []) == SKIPPED      # no effort
    assert buffer.complete(0.018) and not buffer.complete(0.02) and not buffer.complete(0.0)
    path = write_bag(tmp_path / 'bag', buffer.recording(), storage='sqlite3')
    back = read_recording(path)
    assert back.joint_names == ('a', 'b') and back.velocity is None
    assert np.allclose(back.effort[:, 1], 2.0 * np.arange(20))
    assert np.allclose(back.t, 1.0 + 1e-3 * np.arange(20))


def test_only_the_first_samples_joints_are_kept_and_an_empty_buffer_is_refused():
    buffer = JointStateBuffer()
    with pytest.raises(ValueError, match='no joint_states received'):
        buffer.recording()
    buffer.add(0.0, ['a'], [1.0], [0.5], [2.0])
    buffer.add(0.1, ['g'], [9.0], [9.0], [9.0])            # another device's message
    buffer.add(0.2, ['a'], [3.0], [0.7], [4.0])
    recording = buffer.recording()
    assert recording.position[:, 0].tolist() == [1.0, 3.0]
    assert recording.velocity[:, 0].tolist() == [0.5, 0.7]


def test_a_grippers_message_first_does_not_drop_the_arm():
    # Was: the first message's joints kept: a gripper's first message left only its finger
    # (every arm sample silently dropped); the arm's joints in another order were dropped too.
    buffer = JointStateBuffer()
    buffer.add(0.0, ['finger'], [0.01], [], [1.0])
    buffer.add(0.01, ['a', 'b'], [1.0, 2.0], [], [3.0, 4.0])
    buffer.add(0.015, ['finger'], [0.02], [], [1.0])
    buffer.add(0.02, ['b', 'a'], [2.5, 1.5], [], [4.5, 3.5])
    recording = buffer.recording()
    assert recording.joint_names == ('a', 'b')
    assert recording.position.tolist() == [[1.0, 2.0], [1.5, 2.5]]
    assert recording.effort.tolist() == [[3.0, 4.0], [3.5, 4.5]]
