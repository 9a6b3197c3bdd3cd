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
"""The collision reactions: what the controller does at each step of a contact stream."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control.reactions import (CollisionReaction, Reaction, abort_text,
                                              check_reaction)

# no contact, unknown, onset, in contact, unknown in contact, release, no contact
STREAM = [False, None, True, True, None, False, False]


def reactions(policy):
    """Return the reactions of ``policy`` over STREAM as (abort, hold, gravity_only) tuples."""
    reaction = CollisionReaction(policy)
    return [(r.abort, r.hold, r.gravity_only) for r in map(reaction.update, STREAM)]


def test_stop_aborts_and_holds_once_at_the_onset():
    """Stop: abort and hold at the onset only; tracking (the hold) throughout."""
    assert reactions('stop') == [(False, False, False), (False, False, False),
                                 (True, True, False), (False, False, False),
                                 (False, False, False), (False, False, False),
                                 (False, False, False)]


def test_comply_floats_while_in_contact_and_holds_at_the_release():
    """Comply: abort at the onset; gravity only while in contact (unknown too); hold at release."""
    assert reactions('comply') == [(False, False, False), (False, False, False),
                                   (True, True, True), (False, False, True),
                                   (False, False, True), (False, True, False),
                                   (False, False, False)]


def test_none_does_nothing_but_counts():
    """None: no action ever; the onsets are still counted and flagged."""
    reaction = CollisionReaction('none')
    out = [reaction.update(x) for x in STREAM + [True]]
    assert not any(r.abort or r.hold or r.gravity_only for r in out)
    assert [r.onset for r in out] == [False, False, True, False, False, False, False, True]
    assert reaction.contacts == 2


def test_unknown_is_never_an_onset_nor_a_release():
    """A stream of unknowns from the start does nothing; unknown inside a contact keeps it."""
    reaction = CollisionReaction('stop')
    assert [reaction.update(None) for _ in range(3)] == [Reaction()] * 3
    assert not reaction.in_contact


def test_gravity_only_commands_the_models_gravity_exactly():
    """The comply command is G(q) itself (not G plus feedback), the tracking torque otherwise."""
    model = rd.load_model('panda')
    q = np.array([0.1, -0.5, 0.2, -2.0, 0.3, 1.5, 0.4])
    gravity = rd.gravity_torques(model, q)
    tracking = gravity + 3.0
    reaction = CollisionReaction('comply')
    during = reaction.update(True)
    assert np.array_equal(reaction.command(during, tracking, gravity), gravity)
    after = reaction.update(False)
    assert np.array_equal(reaction.command(after, tracking, gravity), tracking)


def test_abort_text_names_the_joint_and_torque_and_bad_policies_are_refused():
    """The goal's reason names the joint, the signed torque, the ratio and the reaction."""
    text = abort_text('stop', 'panda_joint4', -7.25, 3.1)
    assert 'panda_joint4' in text and '-7.25 N m' in text and '3.1 x' in text
    assert 'holding' in text and 'stop' in text
    assert 'unknown joint' in abort_text('comply', '', float('nan'))
    with pytest.raises(ValueError, match='stop'):
        check_reaction('halt')
    with pytest.raises(ValueError, match='collision_reaction'):
        CollisionReaction('Stop')
