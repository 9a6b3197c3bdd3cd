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
"""The verdicts a controller reacts to, without rclpy (control/reaction_inputs.py)."""

import numpy as np

from robot_dynamics.control.reaction_inputs import ReactionInputs


def test_the_onset_names_the_joint_of_the_largest_external_torque_and_refuses_new_motion():
    inputs = ReactionInputs('stop')
    assert inputs.values()['collision'] == 'no verdict received' and inputs.refusal() == ''
    inputs.take_torques(['j1', 'j2', 'j3'], [0.5, -4.25, 1.0])
    inputs.take_torques(['j1'], [1.0, 2.0])                     # not one value per name: kept
    inputs.in_contact = True
    reaction = inputs.step()
    assert reaction.onset and reaction.abort and reaction.hold
    assert inputs.text.startswith('collision detected at j2 (estimated external torque '
                                  '-4.25 N m)')
    assert 'the arm is in contact (collision_reaction: stop; collision detected at j2' in \
        inputs.refusal()
    assert not inputs.step().onset                              # once per contact
    inputs.in_contact = False
    assert inputs.refusal() == '' and inputs.values() == {
        'collision_reaction': 'stop', 'collision': 'no contact', 'collisions': '1',
        'last_reaction': inputs.text}


def test_without_torques_the_culprit_is_unknown_and_gravity_must_be_finite():
    inputs = ReactionInputs('none')
    assert inputs.culprit()[0] == '' and np.isnan(inputs.culprit()[1])
    inputs.in_contact = True
    assert inputs.step().onset and 'unknown joint' in inputs.text
    assert inputs.refusal() == ''                               # 'none' refuses nothing
    inputs.take_gravity([1.0, np.inf])
    assert inputs.gravity is None
    inputs.take_gravity([1.0, 2.0])
    assert inputs.gravity.tolist() == [1.0, 2.0]
