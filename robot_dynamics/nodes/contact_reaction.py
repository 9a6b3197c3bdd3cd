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
"""A controller's ``collision_reaction``: the dynamics node's verdict to the reaction logic.

A part the controllers hold (``self.reaction = ContactReaction(node, guard)``): it declares the
parameters, subscribes to the dynamics node's ``~/collision`` and ``~/external_torques`` (why
the controllers run no observer of their own: docs/contacts.md, "The controllers' reaction")
and logs; the logic is :class:`robot_dynamics.control.reaction_inputs.ReactionInputs`.
"""

from sensor_msgs.msg import JointState
from std_msgs.msg import Bool, Float64MultiArray

from robot_dynamics.control.reaction_inputs import ReactionInputs
from robot_dynamics.control.reactions import REACTIONS
from robot_dynamics.nodes.parameters import descriptor
from robot_dynamics.nodes.qos import LATCHED


class ContactReaction(ReactionInputs):
    """Collision verdicts in, :class:`~robot_dynamics.control.reactions.Reaction` out."""

    def __init__(self, node, guard, gravity=False):
        """Declare ``node``'s reaction parameters and subscribe to the verdicts.

        ``gravity``: also read the dynamics node's ``~/gravity_torques`` (a controller without
        a model: the torque of the hold and of ``comply``), kept in :attr:`gravity`.
        """
        node.declare_parameter('collision_reaction', 'stop', descriptor(
            'what to do when the dynamics node reports a collision: stop (abort the goal, '
            'hold position with gravity compensation), comply (gravity compensation only while '
            'in contact), none', read_only=True, additional=f'one of {list(REACTIONS)}'))
        node.declare_parameter('collision_topic', 'dynamics_node/collision', descriptor(
            "the dynamics node's ~/collision (std_msgs/Bool, latched)", read_only=True))
        node.declare_parameter('external_torques_topic', 'dynamics_node/external_torques',
                               descriptor("the dynamics node's ~/external_torques (named in "
                                          'the abort reason)', read_only=True))
        super().__init__(node.get_parameter('collision_reaction').value)
        self.node = node
        node.create_subscription(Bool, node.get_parameter('collision_topic').value,
                                 guard(self._on_collision), LATCHED)
        node.create_subscription(JointState, node.get_parameter('external_torques_topic').value,
                                 guard(self._on_torques), 10)
        if gravity:
            node.declare_parameter('gravity_torques_topic', 'dynamics_node/gravity_torques',
                                   descriptor("the dynamics node's ~/gravity_torques (the hold "
                                              'after a collision)', read_only=True))
            node.create_subscription(Float64MultiArray,
                                     node.get_parameter('gravity_torques_topic').value,
                                     guard(self._on_gravity), 10)

    def _on_collision(self, msg):
        self.in_contact = bool(msg.data)

    def _on_gravity(self, msg):
        self.take_gravity(msg.data)

    def _on_torques(self, msg):
        self.take_torques(msg.name, msg.effort)

    def step(self):
        """Return this control step's reaction; at an onset, log its reason."""
        reaction = super().step()
        if reaction.onset:
            self.node.get_logger().warning(self.text)
        return reaction
