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
"""Real robots' files from a new user's chair (issue 32): mounted bases and gravity.

A URDF's root is upright (z up): Pinocchio puts gravity along its -z. A ``base_link`` below
the root (a ceiling or wall mount under ``world``, a dual-arm robot's tilted arm mount, a
torso lift, MoveIt's ``base_link`` → ``tool0`` group) is turned by the joints above it; the
loader used to give it ``[0, 0, -9.81]`` in its own frame, so a ceiling-mounted arm's gravity
torques had the wrong sign, silently. Now: the root's gravity turned by those joints at 0
(exact through fixed and prismatic joints). A ``base_link`` fixed beside the chain
(ROS-Industrial's ``base`` frame) was refused ("no path"); it is the base frame of the chain
from where it is fixed. Each chain here equals Pinocchio's model of the whole file (other
joints locked where the package locked them, those above the base at 0): inverse dynamics,
mass matrix, gravity torques to 1e-13 of their largest entry and the tool pose to 1e-13 m.
"""

import re

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from urdf_trees import (arm, assert_chain_equals_pinocchio, load_with_notes, oracle_dynamics,
                        oracle_tip_pose, reduced_oracle, tree_urdf)

TOLERANCE = 1e-13


def mounted_arm(rpy, seed=1):
    """Build an arm below ``world`` → ``base_link`` (fixed, turned by ``rpy``), ending in tool0."""
    text = tree_urdf(seed, arm('arm', 'base_link', 4) + [
        ('tool0_joint', 'fixed', 'arm_link4', 'tool0')], 'mounted', massless=('tool0',))
    mount = ('<link name="world"/><joint name="world_joint" type="fixed"><parent link="world"/>'
             '<child link="base_link"/><origin xyz="0 0 2.5" rpy="' + rpy + '"/></joint>')
    return text.replace('</robot>', mount + '</robot>')


@pytest.mark.parametrize('mount, gravity', [
    ('3.141592653589793 0 0', [0.0, 0.0, 9.81]),                        # ceiling
    ('0 1.5707963267948966 0', [9.81, 0.0, 0.0]),                       # wall
    ('0.3 -0.7 2.0', None)])                                            # tilted
def test_a_base_turned_below_the_root_by_fixed_joints_gets_the_roots_gravity(mount, gravity):
    text = mounted_arm(mount)
    pin.buildModelFromXML(text)
    model, said = load_with_notes(text, base_link='base_link')
    assert (model.base_link, model.tip_link, model.dof) == ('base_link', 'tool0', 4)
    if gravity is not None:
        np.testing.assert_allclose(model.gravity, gravity, rtol=0, atol=1e-14)
    assert_chain_equals_pinocchio(model, text)
    notes = [line for line in said if line.startswith('gravity [')]
    assert len(notes) == 1 and "base_link 'base_link'" in notes[0] and \
        "(world_joint) turn it from the root 'world'" in notes[0] and 'gravity=' in notes[0]
    assert load_with_notes(text)[0].base_link == 'world'              # the root: as before
    np.testing.assert_array_equal(load_with_notes(text)[0].gravity, [0.0, 0.0, -9.81])
    given = load_with_notes(text, base_link='base_link', gravity=[0, 0, -9.81])[0]
    np.testing.assert_array_equal(given.gravity, [0.0, 0.0, -9.81])   # the user's word wins


@pytest.mark.parametrize('mount', ['0 0 0.7', '0 0 3.141592653589793', '0 0 0'])
def test_a_base_turned_about_z_only_keeps_the_default_and_says_nothing(mount):
    text = mounted_arm(mount)
    model, said = load_with_notes(text, base_link='base_link')
    np.testing.assert_array_equal(model.gravity, [0.0, 0.0, -9.81])
    assert not [line for line in said if line.startswith('gravity [')]
    assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('rpy', ['0.4 0 0', '0 0 0'])
def test_a_base_below_a_revolute_joint_gets_gravity_with_that_joint_at_zero(rpy):
    """Its orientation depends on the joint above it: gravity with that joint at 0, said.

    As in Pinocchio's model of the file with the joint locked at 0; a joint whose origin
    does not tilt the base gives the default and no note.
    """
    text = mounted_arm(rpy).replace(
        'type="fixed"><parent link="world"/>', 'type="revolute"><parent link="world"/><axis '
        'xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>')
    model, said = load_with_notes(text, base_link='base_link')
    assert_chain_equals_pinocchio(model, text)
    notes = [line for line in said if line.startswith('gravity [')]
    if rpy == '0 0 0':
        np.testing.assert_array_equal(model.gravity, [0.0, 0.0, -9.81])
        assert not notes
    else:
        assert len(notes) == 1 and "the moving joint(s) above it (world_joint) turn it, here " \
            "at 0, from the root 'world'" in notes[0] and 'for where they are' in notes[0]


@pytest.mark.parametrize('lift', [0.0, 0.2])
def test_a_base_on_a_tilted_torso_lift_gets_the_roots_gravity_at_any_lift(lift):
    """A prismatic joint above the base moves it without turning it: known orientation."""
    text = mounted_arm('0.3 -0.7 2.0').replace(
        'type="fixed"><parent link="world"/>', 'type="prismatic"><parent link="world"/><axis '
        'xyz="0 0 1"/><limit lower="0" upper="0.35" effort="1" velocity="1"/>')
    model, said = load_with_notes(text, base_link='base_link')
    reduced = reduced_oracle(text, list(model.joint_names), {}, others={'world_joint': lift})
    gravity = oracle_dynamics(reduced, *np.zeros((3, 4)), 'base_link')[3]
    np.testing.assert_allclose(model.gravity, gravity, rtol=0, atol=1e-14)
    assert "the fixed and prismatic joints above it (world_joint) turn it" in ' '.join(said)


def test_one_arm_of_a_two_armed_robot_from_its_tilted_mount():
    """Baxter-like: torso, two 7-joint arms on mounts turned about x; base_link = one mount."""
    joints = [('torso_t0', 'fixed', 'base', 'torso'),
              ('left_torso_arm_mount', 'fixed', 'torso', 'left_arm_mount'),
              ('right_torso_arm_mount', 'fixed', 'torso', 'right_arm_mount')]
    joints += arm('left', 'left_arm_mount', 7) + arm('right', 'right_arm_mount', 7)
    text = tree_urdf(21, joints, 'two_arms', massless=('base',))
    model, said = load_with_notes(text, base_link='left_arm_mount', tip_link='left_link7')
    assert model.dof == 7 and not model.locked_joints
    assert_chain_equals_pinocchio(model, text)
    assert "(torso_t0, left_torso_arm_mount) turn it from the root 'base'" in ' '.join(said)


def industrial():
    """ROS-Industrial: world → base_link, ``base`` (the controller's frame) fixed to it."""
    return tree_urdf(5, [('world_joint', 'fixed', 'world', 'base_link'),
                         ('base_link-base', 'fixed', 'base_link', 'base')]
                     + arm('arm', 'base_link', 6) + [
                         ('flange_joint', 'fixed', 'arm_link6', 'flange'),
                         ('tool0_joint', 'fixed', 'flange', 'tool0'),
                         ('ft_joint', 'fixed', 'arm_link6', 'ft_frame')],
                     'industrial', massless=('world', 'base', 'flange', 'tool0', 'ft_frame'))


@pytest.mark.parametrize('options', [{}, {'tip_link': 'flange'},
                                     {'tip_link': 'tool0', 'locked_joints': {'arm_j3': 0.5}}])
def test_a_base_fixed_beside_the_chain_is_its_base_frame(options):
    """``base_link='base'``, a frame fixed to ``base_link``: no longer "no path" (issue 32).

    The chain starts where the base is fixed (``base_link``), its first placement and gravity
    in ``base``'s frame (turned by the seeded fixed joints), as Pinocchio computes them.
    """
    text = industrial()
    model, said = load_with_notes(text, base_link='base', **options)
    assert model.base_link == 'base' and model.tip_link == options.get('tip_link', 'tool0')
    assert model.dof == 6 - len(options.get('locked_joints', {}))
    reduced = reduced_oracle(text, list(model.joint_names), options.get('locked_joints', {}))
    q, qd, qdd = np.random.default_rng(4).uniform(-1.5, 1.5, (3, model.dof))
    tau, M, g, gravity = oracle_dynamics(reduced, q, qd, qdd, 'base')
    np.testing.assert_allclose(model.gravity, gravity, rtol=0, atol=1e-14)
    assert "(world_joint, base_link-base) turn it from the root 'world'" in ' '.join(said)
    for ours, theirs in ((rd.inverse_dynamics(model, q, qd, qdd), tau),
                         (rd.mass_matrix(model, q), M), (rd.gravity_torques(model, q), g)):
        assert np.abs(ours - theirs).max() <= TOLERANCE * np.abs(theirs).max()
    np.testing.assert_allclose(rd.tip_pose(model, q), oracle_tip_pose(
        reduced, q, 'base', model.tip_link), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize('base, tip, message', [
    ('ft_frame', 'flange', "no path from base_link 'ft_frame' to tip_link 'flange'"),
    ('tool0', None, "the chain from 'tool0' to 'tool0' has no moving joint"),
    ('arm_link2', 'arm_link1', "no path from base_link 'arm_link2' to tip_link 'arm_link1'")])
def test_a_base_with_no_moving_joint_to_the_tip_is_still_refused_by_its_name(base, tip, message):
    with pytest.raises(rd.URDFError, match=re.escape(message)):
        load_with_notes(industrial(), base_link=base, tip_link=tip)


def test_the_automatic_choice_names_the_base_frame_fixed_beside_it():
    model, _ = load_with_notes(industrial(), base_link='base')
    assert model.chain_choice.startswith("chain 'base_link' -> 'tool0' chosen automatically")
    assert model.chain_choice.endswith("; base frame 'base', fixed to 'base_link' (the chain "
                                       'starts there)')
