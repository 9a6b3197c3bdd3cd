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
"""The two messages of the 1 kHz path read and written as CDR bytes, without rclpy's converters.

A ``sensor_msgs/JointState`` arrives at the dynamics node as bytes; rclpy's deserialiser
builds the message (a header, a list of strings, three ``array`` objects) in about 35 µs, a
quarter of the node's work per message. :func:`read_joint_state` reads the same fields from the
bytes in a few µs, and returns None for anything it does not read exactly as that deserialiser
would (another encapsulation, a string without its terminator, a length beyond the bytes,
text that is not UTF-8): the node then deserialises as before. :class:`Float64ArrayBytes`
writes a ``std_msgs/Float64MultiArray`` of fixed layout as bytes for ``publish`` (raw).

The encoding is the OMG CDR of ROS 2's rmw (XCDR1): a 4-byte encapsulation header (byte 1:
1 little-endian), then the fields, each aligned to its size counted from after
the header; a string is a uint32 length (its terminating NUL included) and its bytes, a
sequence a uint32 count and its elements (a double aligned to 8 only when there is one).
Plain bytes and numpy: no ROS here.
"""

import struct
from typing import NamedTuple

import numpy as np

LITTLE_ENDIAN = b'\x00\x01\x00\x00'     # the encapsulation this reads and writes


class Header(NamedTuple):
    """A ``header`` read from bytes: ``stamp`` as the caller built it, and ``frame_id``."""

    stamp: object
    frame_id: str


class JointStateReading(NamedTuple):
    """The fields of a ``sensor_msgs/JointState`` that the nodes read, from its bytes."""

    header: Header
    name: list
    position: np.ndarray
    velocity: np.ndarray
    effort: np.ndarray


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


def read_joint_state(data, stamp_type):
    """Return a :class:`JointStateReading` of the bytes ``data``, or None if not read exactly.

    ``stamp_type(sec=, nanosec=)`` builds the header's stamp (``builtin_interfaces/Time`` in a
    node). Little-endian encapsulation only (what rmw writes on every platform ROS 2 ships
    for); the arrays are float64 copies.
    """
    data = bytes(data)
    if data[:4] != LITTLE_ENDIAN:
        return None              # big-endian, XCDR2 or unknown: left to the deserialiser
    try:
        sec, nanosec = _STAMP.unpack_from(data, 4)
        frame_id, at = _string(data, 12)
        names, at = _names(data, at)
        arrays = []
        for _ in range(3):
            values, at = _doubles(data, at)
            arrays.append(values)
    except (ValueError, IndexError, struct.error, UnicodeDecodeError):
        return None
    return JointStateReading(Header(stamp_type(sec=sec, nanosec=nanosec), frame_id), names,
                             *arrays)


_STAMP, _COUNT = struct.Struct('<iI'), struct.Struct('<I')


def _names(data, at):
    """Return the list of strings whose count is at ``at``, and the next offset.

    A publisher sends the same names in every message: the bytes of the last list read are
    kept with it, and bytes equal to them (padding included) are that list again.
    """
    global _last_names
    known, names = _last_names
    if known is not None and data.startswith(known, at):
        return list(names), at + len(known)
    start, count = at, _COUNT.unpack_from(data, at)[0]
    at, names = at + 4, []
    for _ in range(count):
        name, at = _string(data, at)
        names.append(name)
    _last_names = (data[start:at], tuple(names))    # one assignment: safe across threads
    return names, at


_last_names = (None, ())


def _string(data, at):
    """Return the string at ``at`` (4-aligned) and where the next field may start (4-aligned).

    ValueError (or IndexError) when its terminating NUL is not where its length says; text
    after an earlier NUL is not part of it (rclpy reads a C string).
    """
    length = _COUNT.unpack_from(data, at)[0]
    end = at + 4 + length
    if length == 0:
        return '', end
    if data[end - 1] != 0:
        raise ValueError('not a CDR string')
    text = data[at + 4:end - 1]
    if 0 in text:                        # a C string ends at its first NUL, as rclpy reads it
        text = text[:text.index(0)]
    return text.decode('utf-8'), (end + 3) & ~3


def _doubles(data, at):
    """Return the float64 sequence whose count is at ``at`` (a copy) and the next offset."""
    count = _COUNT.unpack_from(data, at)[0]
    at += 4
    if count == 0:
        return np.zeros(0), at
    at += (at - 4) % 8                   # 8-aligned from the end of the encapsulation
    if at + 8 * count > len(data):
        raise ValueError('sequence beyond the bytes')
    return np.frombuffer(data, '<f8', count, at).astype(float), at + 8 * count


class Float64ArrayBytes:
    """A ``std_msgs/Float64MultiArray`` of fixed layout as CDR bytes (little-endian).

    ``dims``: ``(label, size, stride)`` per dimension, ``data_offset`` 0, ``count`` values;
    :meth:`message` returns the bytes for ``values`` (any shape of ``count`` floats).
    """

    def __init__(self, dims, count):
        parts = [struct.pack('<I', len(dims))]
        at = 4
        for label, size, stride in dims:
            text = label.encode() + b'\0'
            pad = -(at + 4 + len(text)) % 4
            parts += [struct.pack('<I', len(text)), text, b'\0' * pad,
                      struct.pack('<II', size, stride)]
            at += 4 + len(text) + pad + 8
        parts.append(struct.pack('<II', 0, count))            # data_offset, data's count
        at += 8
        if count:
            parts.append(b'\0' * (-at % 8))
        self.prefix, self.count = LITTLE_ENDIAN + b''.join(parts), count

    @classmethod
    def for_output(cls, name, joints):
        """Return the writer of the dynamics node's output ``name`` for ``joints`` joints.

        ``mass_matrix``: rows (stride n²) and cols (stride n); a vector: ``joints``.
        """
        if name == 'mass_matrix':
            return cls([('rows', joints, joints * joints), ('cols', joints, joints)],
                       joints * joints)
        return cls([('joints', joints, joints)], joints)

    def message(self, values):
        """Return the serialised message holding ``values`` (row-major), as bytes."""
        values = np.ascontiguousarray(values, dtype='<f8')
        if values.size != self.count:
            raise ValueError(f'{values.size} values for a layout of {self.count}')
        return self.prefix + values.tobytes()
