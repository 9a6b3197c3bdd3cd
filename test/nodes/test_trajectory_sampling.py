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
"""When a desired trajectory starts: its stamp, its receipt, or the first clock time."""

import numpy as np
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Time

from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.trajectory_sampling import DesiredTrajectory

NAMES = ['a', 'b']
POSITIONS = np.array([[0.0, 1.0], [2.0, -1.0]])          # at 0 s and at 1 s


def message(stamp=None):
    return trajectory_message(NAMES, [0.0, 1.0], POSITIONS, stamp=stamp)


def test_a_stamp_is_the_start_and_a_zero_stamp_is_the_receipt():
    stamped = DesiredTrajectory.from_message(message(Time(sec=5, nanosec=7)), NAMES, 9)
    assert stamped.start_ns == 5_000_000_007
    on_receipt = DesiredTrajectory.from_message(message(), NAMES, 9)
    assert on_receipt.start_ns == 9 and on_receipt.started(20) is on_receipt


def test_before_the_clock_begins_the_start_waits_for_it():
    waiting = DesiredTrajectory.from_message(message(), NAMES, 0)     # clock still at 0
    assert waiting.start_ns is None and waiting.started(0) is waiting
    np.testing.assert_array_equal(waiting.sample(0)[0], POSITIONS[0])   # held at the start
    begun = waiting.started(1_700_000_000 * 10 ** 9)
    assert begun.start_ns == 1_700_000_000 * 10 ** 9
    np.testing.assert_array_equal(begun.sample(begun.start_ns)[0], POSITIONS[0])
    np.testing.assert_allclose(begun.sample(begun.start_ns + 10 ** 9)[0], POSITIONS[1])
    np.testing.assert_allclose(begun.sample(begun.start_ns + 5 * 10 ** 8)[0], [1.0, 0.0])
