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
"""The dynamics node's verdicts as a controller holds them, and what it says about them.

:class:`ReactionInputs` keeps the latest ``~/collision`` verdict, the latest external torques
(by joint name) and, for a controller without a model, the latest gravity torques; once per
control step it returns the :class:`~robot_dynamics.control.reactions.Reaction` and, at an
onset, keeps the reason naming the joint and torque that caused it (the largest ``|τ̂_ext|``).
Plain values: the node part (``robot_dynamics.nodes.contact_reaction``) converts messages.
"""

import numpy as np

from robot_dynamics.control.reactions import CollisionReaction, abort_text, check_reaction

VERDICTS = {None: 'no verdict received', True: 'in contact', False: 'no contact'}


class ReactionInputs:
    """Collision verdicts and external torques in, reactions and their reasons out."""

    def __init__(self, policy):
        self.policy = check_reaction(policy)
        self.logic = CollisionReaction(self.policy)
        self.in_contact = None           # the latest verdict (None: none received)
        self.torques = None              # (names, efforts) of the latest estimate
        self.gravity = None              # G(q) of the latest state, the controller's order
        self.text = ''                   # the last reaction's reason

    def take_torques(self, names, efforts):
        """Keep an estimate of the external torques, if it has one value per name."""
        if len(efforts) == len(names) and len(names):
            self.torques = (list(names), np.asarray(efforts, dtype=float))

    def take_gravity(self, values):
        """Keep the gravity torques, or None if they are not finite."""
        values = np.asarray(values, dtype=float)
        self.gravity = values if np.all(np.isfinite(values)) else None

    def step(self):
        """Return this control step's reaction; at an onset keep its reason in :attr:`text`."""
        reaction = self.logic.update(self.in_contact)
        if reaction.onset:
            self.text = abort_text(self.policy, *self.culprit())
        return reaction

    def refusal(self):
        """Say why a new motion is refused now, or '': the arm is in contact (stop, comply)."""
        if self.policy == 'none' or not self.in_contact:
            return ''
        return (f'the arm is in contact (collision_reaction: {self.policy}; '
                f'{self.text or "the dynamics node reports a collision"}): no new motion '
                'until the dynamics node reports the contact ended')

    def culprit(self):
        """Return the joint of the largest estimated external torque and that torque."""
        if self.torques is None or not np.all(np.isfinite(self.torques[1])):
            return '', float('nan')
        names, efforts = self.torques
        j = int(np.argmax(np.abs(efforts)))
        return names[j], float(efforts[j])

    def values(self):
        """Return the /diagnostics key-values."""
        return {'collision_reaction': self.policy, 'collision': VERDICTS[self.in_contact],
                'collisions': str(self.logic.contacts), 'last_reaction': self.text}
