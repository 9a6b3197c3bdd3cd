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
"""The CDR reader and writer of the 1 kHz path against rclpy's own (de)serialiser.

rclpy is the oracle: every message :func:`read_joint_state` reads must read as
``deserialize_message`` reads it, a message it cannot read exactly must give None (the node
then deserialises), and the bytes :class:`Float64ArrayBytes` writes must deserialise to the
message ``vector_to_array`` / ``matrix_to_array`` build.
"""

import numpy as np
import pytest

import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Time  # noqa: E402
from rclpy.serialization import deserialize_message, serialize_message  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import Float64MultiArray  # noqa: E402

from robot_dynamics.control.cdr import Float64ArrayBytes, read_joint_state  # noqa: E402
from robot_dynamics.nodes.conversions import matrix_to_array, vector_to_array  # noqa: E402

NAMES = ['panda_joint1', 'j', 'épaule', 'a' * 17, '', 'joint with spaces', '肘']


def random_joint_state(rng):
    """Return a JointState: random names, frame, stamp and fields (some empty, some not finite)."""
    msg = JointState()
    msg.header.stamp = Time(sec=int(rng.integers(-2**31, 2**31)),
                            nanosec=int(rng.integers(0, 10**9)))
    msg.header.frame_id = 'f' * int(rng.integers(0, 9))
    count = int(rng.integers(0, 8))
    msg.name = [NAMES[k] + str(i) for i, k in enumerate(rng.integers(0, len(NAMES), count))]
    for field in ('position', 'velocity', 'effort'):
        values = rng.normal(size=count) * 10.0 ** rng.integers(-300, 300, count)
        values[rng.random(count) < 0.1] = rng.choice([np.nan, np.inf, -np.inf, -0.0])
        setattr(msg, field, values.tolist() if rng.random() < 0.7 else [])
    return msg


def assert_read_as_rclpy(reading, data):
    msg = deserialize_message(data, JointState)
    assert reading.header.stamp == msg.header.stamp
    assert reading.header.frame_id == msg.header.frame_id
    assert reading.name == list(msg.name)
    for field in ('position', 'velocity', 'effort'):
        ours, theirs = getattr(reading, field), np.asarray(getattr(msg, field))
        assert ours.dtype == np.float64 and ours.shape == theirs.shape
        assert ours.tobytes() == theirs.tobytes()       # bitwise: NaN, -0.0 and inf too


def test_joint_states_read_as_rclpy_reads_them():
    rng = np.random.default_rng(7)
    for _ in range(400):
        data = serialize_message(random_joint_state(rng))
        reading = read_joint_state(data, Time)
        assert reading is not None
        assert_read_as_rclpy(reading, data)


def test_repeated_names_are_read_again_where_they_are():
    """The names kept from the last message match at any offset, and only equal bytes do."""
    rng = np.random.default_rng(9)
    for names in ([], ['a'], ['panda_joint1', 'panda_joint2'], ['b', 'c', 'd']):
        for frame in ('', 'x', 'base', 'base_link'):             # names start elsewhere
            for _ in range(3):
                msg = random_joint_state(rng)
                msg.header.frame_id, msg.name = frame, names
                for field in ('position', 'velocity', 'effort'):
                    setattr(msg, field, rng.normal(size=len(names)).tolist())
                data = serialize_message(msg)
                assert_read_as_rclpy(read_joint_state(data, Time), data)


def test_cut_bytes_are_never_misread():
    """Every prefix of a message reads as None or as the whole message (rmw pads the end)."""
    rng = np.random.default_rng(8)
    for _ in range(20):
        data = serialize_message(random_joint_state(rng))
        misread = [cut for cut in range(len(data)) if read_joint_state(data[:cut], Time)
                   is not None and read_joint_state(data[:cut], Time).name !=
                   read_joint_state(data, Time).name]
        assert not misread
        for cut in range(len(data)):
            reading = read_joint_state(data[:cut], Time)
            if reading is not None:
                assert_read_as_rclpy(reading, data)
    assert read_joint_state(data[:8], Time) is None


def test_damaged_bytes_read_as_rclpy_reads_them_or_not_at_all():
    """Bytes changed at random: a reading equals rclpy's; where rclpy fails, there is none."""
    rng = np.random.default_rng(10)
    msg = JointState(name=['j1', 'joint_2', 'x'], position=[1.0, 2.0, 3.0],
                     velocity=[4.0, 5.0, 6.0])
    msg.header.frame_id = 'base'
    intact, read = serialize_message(msg), 0
    for _ in range(3000):
        data = bytearray(intact)
        for at in rng.integers(0, len(data), rng.integers(1, 4)):
            data[at] = rng.integers(0, 256)        # NULs in names, counts, lengths, values
        data = bytes(data[:rng.integers(0, len(data))] if rng.random() < 0.2 else data)
        reading = read_joint_state(data, Time)
        if reading is not None:
            assert_read_as_rclpy(reading, data)       # raises if rclpy cannot read it
            read += 1
    assert read > 500
    embedded = bytearray(serialize_message(JointState(name=['abc'], position=[1.0])))
    embedded[4 + 25] = 0                        # 'abc' (length at 20, text at 24) → 'a\0c'
    reading = read_joint_state(bytes(embedded), Time)
    assert reading.name == ['a']
    assert_read_as_rclpy(reading, bytes(embedded))


def test_what_it_cannot_read_exactly_is_left_to_the_deserialiser():
    msg = JointState(name=['a', 'b'], position=[1.0, 2.0])
    data = bytearray(serialize_message(msg))
    big_endian = bytes([0, 0]) + bytes(data[2:])
    assert read_joint_state(big_endian, Time) is None
    xcdr2 = bytes([0, 7]) + bytes(data[2:])
    assert read_joint_state(xcdr2, Time) is None
    no_nul = bytearray(data)
    no_nul[4 + 25] = ord('x')                   # name[0]: length at 20, 'a' at 24, NUL at 25
    assert read_joint_state(bytes(no_nul), Time) is None
    not_utf8 = bytearray(data)
    not_utf8[4 + 24] = 0xff                     # name[0]'s one character
    assert read_joint_state(bytes(not_utf8), Time) is None
    huge = bytearray(data)
    huge[4 + 36:4 + 40] = (10**6).to_bytes(4, 'little')    # position's count
    assert read_joint_state(bytes(huge), Time) is None


@pytest.mark.parametrize('count', range(9))
def test_vectors_written_as_the_message_rclpy_serialises(count):
    values = np.random.default_rng(count).normal(size=count) * 1e3
    data = Float64ArrayBytes.for_output('gravity_torques', count).message(values)
    assert deserialize_message(data, Float64MultiArray) == vector_to_array(values)


@pytest.mark.parametrize('size', range(1, 9))
def test_matrices_written_as_the_message_rclpy_serialises(size):
    matrix = np.random.default_rng(size).normal(size=(size, size))
    writer = Float64ArrayBytes.for_output('mass_matrix', size)
    assert deserialize_message(writer.message(matrix), Float64MultiArray) == \
        matrix_to_array(matrix)
    with pytest.raises(ValueError, match='values for a layout'):
        writer.message(matrix[:-1])
