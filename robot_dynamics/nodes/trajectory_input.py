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
"""Trajectory topics: latched and volatile publishers alike, oversized messages refused unread."""

import collections
import struct

from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.qos import QoSPolicyKind
from rclpy.serialization import deserialize_message

from robot_dynamics.model import bounds
from robot_dynamics.nodes.qos import LATCHED, VOLATILE


class TrajectoryInput:
    """Subscribe to a trajectory topic from latched and from plain (volatile) publishers.

    A transient-local subscription gets the last message a latched publisher sent before this
    node started, but DDS does not match it with volatile publishers (``ros2 topic pub``, most
    planners); a volatile one matches both but misses what was sent earlier. Both are created.
    A latched publisher's sample arrives on both; the copies carry the same writer timestamp
    and sequence number (``MessageInfo``). The subscriptions take the serialized bytes, and
    only the first copy is turned into a message (a 10,000-point trajectory takes 0.3 s to
    deserialise in Python: the second copy costs nothing). A volatile publisher does not
    match the transient-local subscription; rclpy's warning for that ("offering incompatible
    QoS. No messages will be received from it") would be false, since the volatile one
    receives its messages, so it is logged at debug level. Any other incompatibility (a
    best-effort publisher: neither subscription matches) is still a warning.
    """

    def __init__(self, node, message_type, topic, callback, remembered=64, reject=None):
        self._message_type = message_type
        self._callback = callback
        self._reject = reject           # reject(reason): a trajectory too large to deserialise
        self._seen = collections.OrderedDict()      # (source stamp, sequence number) -> None
        self._remembered = remembered
        self._logger = node.get_logger()
        self._topic = topic
        latched_events = SubscriptionEventCallbacks(incompatible_qos=self._incompatible)
        self.subscriptions = [
            node.create_subscription(message_type, topic, self._receive, LATCHED, raw=True,
                                     event_callbacks=latched_events),
            node.create_subscription(message_type, topic, self._receive, VOLATILE, raw=True)]

    def _incompatible(self, event):
        """Log a publisher the transient-local subscription cannot match (see the class)."""
        if event.last_policy_kind == QoSPolicyKind.DURABILITY:
            self._logger.debug(f'a volatile publisher on {self._topic}: received by the '
                               'volatile subscription')
        else:
            self._logger.warning(f'a publisher on {self._topic} offers incompatible QoS '
                                 f'({event.last_policy_kind.name}): publish it reliable')

    def _receive(self, data, info):
        sample = (info.get('source_timestamp'), info.get('publication_sequence_number'))
        if sample[0]:                   # an RMW that does not stamp samples: pass every copy
            if sample in self._seen:
                return
            self._seen[sample] = None
            if len(self._seen) > self._remembered:
                self._seen.popitem(last=False)
        if self._reject is not None:
            too_large = oversized_trajectory(data)
            if too_large:
                return self._reject(f'{self._topic} rejected before deserialising: {too_large}')
        self._callback(deserialize_message(data, self._message_type))


def oversized_trajectory(data):
    """Return why a serialised JointTrajectory is too large to deserialise, or ''.

    Reads the counts from the CDR bytes (encapsulation, header.stamp, header.frame_id,
    joint_names, then the length of points) in microseconds, where deserialising a 300,000-point
    message would hold the executor for seconds before its size could be refused. Counts that
    the bytes cannot hold (each name takes at least 5 bytes, each point 24: four sequence
    lengths and time_from_start) mean the bytes were not read right: they are left to the
    deserialiser, never refused on a misreading.
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
            return f'{names} joint_names, more than {bounds.MAX_JOINT_NAMES}'
        for _ in range(names):
            length, position = count(position)
            position += length
        points, position = count(position)
    except (IndexError, struct.error):
        return ''
    if 24 * points > len(data) - position:
        return ''
    if points > bounds.MAX_TRAJECTORY_POINTS:
        return f'{points} points, more than {bounds.MAX_TRAJECTORY_POINTS}; send it in pieces'
    return ''
