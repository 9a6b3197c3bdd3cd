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

from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.qos import QoSPolicyKind
from rclpy.serialization import deserialize_message

from robot_dynamics.control.trajectory_input import SeenSamples, oversized_trajectory
from robot_dynamics.nodes.qos import LATCHED, VOLATILE

__all__ = ['TrajectoryInput', 'oversized_trajectory']


class TrajectoryInput:
    """Subscribe to a trajectory topic from latched and from plain (volatile) publishers.

    A transient-local subscription gets the last message a latched publisher sent before this
    node started, but DDS does not match it with volatile publishers (``ros2 topic pub``, most
    planners); a volatile one matches both but misses what was sent earlier. Both are created,
    taking serialised bytes: only the first copy of a latched sample (it arrives on both) is
    deserialised (:class:`~robot_dynamics.control.trajectory_input.SeenSamples`), and one too
    large is refused from its bytes. rclpy's "incompatible QoS" warning for a volatile
    publisher is false (the volatile subscription receives it): logged at debug level.
    """

    def __init__(self, node, message_type, topic, callback, remembered=64, reject=None):
        self._message_type = message_type
        self._callback = callback
        self._reject = reject           # reject(reason): a trajectory too large to deserialise
        self._seen = SeenSamples(remembered)
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
        if not self._seen.first(info.get('source_timestamp'),
                                info.get('publication_sequence_number')):
            return
        too_large = oversized_trajectory(data) if self._reject is not None else ''
        if too_large:
            return self._reject(f'{self._topic} rejected before deserialising: {too_large}')
        self._callback(deserialize_message(data, self._message_type))
