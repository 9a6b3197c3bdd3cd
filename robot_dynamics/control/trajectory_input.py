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
"""What a trajectory input refuses before reading a message: a size too large, a copy seen.

A trajectory of more than ``bounds.MAX_TRAJECTORY_POINTS`` points or ``MAX_JOINT_NAMES``
names is refused from its counts (:func:`size_refusal`), read from the serialised bytes
(:func:`oversized_trajectory`: microseconds, where deserialising 300,000 points in Python held
the executor for seconds). A latched publisher's sample arrives on two subscriptions with the
same source stamp and sequence number: :class:`SeenSamples` passes the first copy only.
"""

import collections
import struct

from robot_dynamics.model import bounds


def size_refusal(points, names):
    """Return why a trajectory of ``points`` points and ``names`` names is refused, or ''."""
    if names > bounds.MAX_JOINT_NAMES:
        return f'{names} joint_names, more than {bounds.MAX_JOINT_NAMES}'
    if points > bounds.MAX_TRAJECTORY_POINTS:
        return f'{points} points, more than {bounds.MAX_TRAJECTORY_POINTS}; send it in pieces'
    return ''


def oversized_trajectory(data):
    """Return why a serialised JointTrajectory (CDR bytes) is too large to deserialise, or ''.

    Reads the counts (encapsulation, header.stamp, header.frame_id, joint_names, then the
    length of points). Counts that the bytes cannot hold (each name takes at least 5 bytes,
    each point 24: four sequence lengths and time_from_start) mean the bytes were not read
    right: they are left to the deserialiser, never refused on a misreading.
    """
    try:
        order = '<' if data[1] & 1 else '>'           # little-endian encapsulations are odd

        def count(position):                          # a uint32 at 4-byte alignment
            position = 4 + ((position - 4 + 3) & ~3)  # alignment counts after the encapsulation
            return struct.unpack_from(order + 'I', data, position)[0], position + 4

        length, position = count(4 + 8)              # frame_id, after stamp sec and nanosec
        names, position = count(position + length)
        if 5 * names > len(data) - position:
            return ''
        if names > bounds.MAX_JOINT_NAMES:
            return size_refusal(0, names)
        for _ in range(names):
            length, position = count(position)
            position += length
        points, position = count(position)
    except (IndexError, struct.error):
        return ''
    if 24 * points > len(data) - position:
        return ''
    return size_refusal(points, 0)


class SeenSamples:
    """Remember the last ``remembered`` samples (source stamp, sequence number) passed on."""

    def __init__(self, remembered=64):
        self._seen = collections.OrderedDict()
        self._remembered = remembered

    def first(self, stamp, sequence):
        """Tell whether this sample is new; an RMW that does not stamp samples: always."""
        if not stamp:
            return True
        if (stamp, sequence) in self._seen:
            return False
        self._seen[stamp, sequence] = None
        if len(self._seen) > self._remembered:
            self._seen.popitem(last=False)
        return True
