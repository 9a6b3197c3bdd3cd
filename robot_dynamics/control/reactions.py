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
"""What a controller does when the arm is in contact: the ``collision_reaction`` policies.

Plain logic, no ROS: :class:`CollisionReaction` takes, once per control step, whether the arm
is in contact (True, False, or None: not judged) and returns a :class:`Reaction`, what the
controller must do at this step:

- ``stop`` (the default, a cobot's "stop category 1": Haddadin et al., IEEE T-RO 2017,
  §VII): at the onset of a contact, **abort** the active goal (PATH_TOLERANCE_VIOLATED, the
  reason from :func:`abort_text`) and **hold** the arm where it is (brake to rest and keep it
  there under the tracking law with gravity compensation); the hold stays after the contact
  ends: a new goal starts the arm again;
- ``comply``: while in contact command **gravity compensation only** (``τ = G(q)``: the arm
  gives way to the push and floats); at the onset the goal is aborted, at the release the arm
  is held where it is then (never pulled back to where it was);
- ``none``: nothing (the contact is reported, the motion goes on).

A sample not judged (``None``: no efforts, no thresholds) changes nothing: it is neither a
contact nor the end of one.
"""

from dataclasses import dataclass

REACTIONS = ('stop', 'comply', 'none')


@dataclass(frozen=True)
class Reaction:
    """What to do at one control step.

    ``abort``: end the active goal now (PATH_TOLERANCE_VIOLATED); ``hold``: brake to rest and
    hold where the arm is now; ``gravity_only``: command ``G(q)`` alone at this step instead of
    the tracking torque; ``onset``: the contact began at this step.
    """

    abort: bool = False
    hold: bool = False
    gravity_only: bool = False
    onset: bool = False


NOTHING = Reaction()


def check_reaction(name):
    """Return ``name`` if it is a reaction; raise ``ValueError`` naming the choices."""
    if name not in REACTIONS:
        raise ValueError(f'collision_reaction: {name!r}; use one of {list(REACTIONS)} (stop: '
                         'abort the goal and hold; comply: gravity compensation only while in '
                         'contact; none: report only)')
    return name


class CollisionReaction:
    """Edge-triggered reaction to a contact stream (module docstring)."""

    def __init__(self, policy='stop'):
        """React by ``policy`` ('stop', 'comply' or 'none')."""
        self.policy = check_reaction(policy)
        self.in_contact = False
        self.contacts = 0           # onsets seen

    def update(self, in_contact):
        """Take this step's verdict (True, False, None: unknown); return the :class:`Reaction`."""
        if in_contact is None:
            return self._during() if self.in_contact else NOTHING
        onset = bool(in_contact) and not self.in_contact
        release = not in_contact and self.in_contact
        self.in_contact = bool(in_contact)
        if onset:
            self.contacts += 1
        if self.policy == 'none':
            return Reaction(onset=onset)
        if onset:
            return Reaction(abort=True, hold=True, gravity_only=self.policy == 'comply',
                            onset=True)
        if release:
            return Reaction(hold=self.policy == 'comply')
        return self._during() if self.in_contact else NOTHING

    def _during(self):
        return Reaction(gravity_only=self.policy == 'comply')

    def command(self, reaction, tracking, gravity):
        """Return the command: ``gravity`` if ``reaction.gravity_only``, else ``tracking``."""
        return gravity if reaction.gravity_only else tracking


def abort_text(policy, joint, torque, ratio=None):
    """Return a goal's abort reason: the joint, its estimated external torque, the reaction."""
    how = {'stop': 'stopped and holding position (gravity compensated)',
           'comply': 'complying: gravity compensation only while in contact'}.get(policy, policy)
    times = '' if ratio is None or ratio != ratio else f', {ratio:.2g} x its threshold'
    name = joint or 'unknown joint'
    value = '' if torque is None or torque != torque else f' {torque:+.3g} N m'
    return (f'collision detected at {name} (estimated external torque{value}{times}): {how} '
            f'(collision_reaction: {policy})')
