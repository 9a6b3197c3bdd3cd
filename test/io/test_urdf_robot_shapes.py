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
"""Public robots' tree shapes, as a new user's files have them (issue 32): no refusal, = Pinocchio.

The trees of ``ur_description``'s ROS 2 output (``base_link_inertia``, ``ft_frame``, ``base``,
``flange`` → ``tool0``), Franka FR3 with its hand (``hand_tcp``, mimic finger, ``hand_sc``),
Kinova Gen3 (continuous joints), KUKA iiwa, Sawyer (a joint named like its link, a head pan
on the first link, many fixed frames), Fetch and TIAGo (a torso lift, head, wheels, casters,
grippers) and Stretch (a telescoping prismatic arm), with seeded inertias, placements and
axes (``test/urdf_trees.py``). Each is loaded as written and with its numbers respelled the
ways exporters and hands write them (``+1.5E+00``, ``.25``, ``-0``); the chain's inverse
dynamics, mass matrix and gravity equal Pinocchio's model with the other joints locked to
1e-13 of their largest entry, the tool pose to 1e-13 m.
"""

import re

import numpy as np
import pytest

import robot_dynamics as rd
from urdf_trees import arm, assert_chain_equals_pinocchio, load_with_notes, tree_urdf

FINGERS = (0.0, 0.04)


def ur_e_series():
    """ur_description (ROS 2): world, base_link → base_link_inertia, 6 joints, four frames."""
    joints = [('base_joint', 'fixed', 'world', 'base_link'),
              ('base_link-base_link_inertia', 'fixed', 'base_link', 'base_link_inertia')]
    joints += arm('ur', 'base_link_inertia', 6)
    joints += [('wrist_3_link-ft_frame', 'fixed', 'ur_link6', 'ft_frame'),
               ('base_link-base_fixed_joint', 'fixed', 'base_link', 'base'),
               ('wrist_3-flange', 'fixed', 'ur_link6', 'flange'),
               ('flange-tool0', 'fixed', 'flange', 'tool0')]
    return joints, ('world', 'base_link', 'ft_frame', 'base', 'flange', 'tool0')


def franka_fr3():
    """FR3 with its hand: link8, hand, hand_tcp, hand_sc, two fingers (one a mimic)."""
    joints = [('base_joint', 'fixed', 'base', 'fr3_link0')] + arm('fr3', 'fr3_link0', 7)
    joints += [('fr3_joint8', 'fixed', 'fr3_link7', 'fr3_link8'),
               ('fr3_hand_joint', 'fixed', 'fr3_link8', 'fr3_hand'),
               ('fr3_hand_tcp_joint', 'fixed', 'fr3_hand', 'fr3_hand_tcp'),
               ('fr3_hand_sc_joint', 'fixed', 'fr3_hand', 'fr3_hand_sc'),
               ('fr3_finger_joint1', 'prismatic', 'fr3_hand', 'fr3_leftfinger', FINGERS),
               ('fr3_finger_joint2', 'prismatic', 'fr3_hand', 'fr3_rightfinger', FINGERS,
                ('fr3_finger_joint1', 1.0, 0.0))]
    return joints, ('base', 'fr3_link8', 'fr3_hand_tcp', 'fr3_hand_sc')


def kinova_gen3():
    """Gen3: seven joints, the odd ones continuous, end_effector_link → tool_frame."""
    kinds = ['continuous', 'revolute'] * 3 + ['continuous']
    joints = arm('gen3', 'base_link', 7, kinds)
    joints += [('end_effector', 'fixed', 'gen3_link7', 'end_effector_link'),
               ('tool_frame_joint', 'fixed', 'end_effector_link', 'tool_frame')]
    return joints, ('end_effector_link', 'tool_frame')


def kuka_iiwa():
    """iiwa14: world → link_0, seven joints, link_ee."""
    joints = [('world_iiwa_joint', 'fixed', 'world', 'iiwa_link_0')]
    joints += arm('iiwa', 'iiwa_link_0', 7)
    joints += [('iiwa_joint_ee', 'fixed', 'iiwa_link7', 'iiwa_link_ee')]
    return joints, ('world', 'iiwa_link_ee')


def sawyer():
    """Sawyer: a head pan on right_l0, fixed frames everywhere, joints named as their links."""
    joints = [('controller_box_fixed', 'fixed', 'base', 'controller_box'),
              ('right_arm_mount', 'fixed', 'base', 'right_arm_base_link'),
              ('right_j0', 'revolute', 'right_arm_base_link', 'right_l0'),
              ('head_pan', 'revolute', 'right_l0', 'head'),
              ('head_camera', 'fixed', 'head', 'head_camera'),
              ('right_torso_itb', 'fixed', 'right_l0', 'right_torso_itb')]
    link = 'right_l0'
    for i in range(1, 7):
        joints.append((f'right_j{i}', 'revolute', link, f'right_l{i}'))
        link = f'right_l{i}'
    joints += [('right_hand', 'fixed', 'right_l6', 'right_hand'),
               ('right_hand_camera', 'fixed', 'right_l5', 'right_hand_camera'),
               ('right_hand_accelerometer', 'fixed', 'right_hand', 'right_hand_accelerometer'),
               ('right_connector_plate_base', 'fixed', 'right_hand',
                'right_connector_plate_base')]
    return joints, ('base', 'head_camera', 'right_hand_camera', 'right_hand_accelerometer',
                    'right_connector_plate_base')


def mobile(prefix):
    """Fetch- or TIAGo-like: wheels, casters, torso lift, head, 7-joint arm, gripper."""
    joints = [('base_footprint_joint', 'fixed', 'base_footprint', 'base_link')]
    for side in ('left', 'right'):
        joints.append((f'wheel_{side}_joint', 'continuous', 'base_link', f'wheel_{side}'))
        joints += [(f'caster_{side}_1', 'continuous', 'base_link', f'caster_{side}_swivel'),
                   (f'caster_{side}_2', 'continuous', f'caster_{side}_swivel', f'caster_{side}')]
    joints += [('torso_lift_joint', 'prismatic', 'base_link', 'torso_lift_link', (0.0, 0.35)),
               ('bellows_joint', 'prismatic', 'torso_lift_link', 'bellows_link', (0.0, 0.4)),
               ('head_1_joint', 'revolute', 'torso_lift_link', 'head_1_link'),
               ('head_2_joint', 'revolute', 'head_1_link', 'head_2_link'),
               ('head_camera_joint', 'fixed', 'head_2_link', 'head_camera_optical_frame')]
    joints += arm(prefix, 'torso_lift_link', 7, ['revolute', 'revolute', 'continuous'] * 2
                  + ['continuous'])
    joints += [('gripper_axis', 'fixed', f'{prefix}_link7', 'gripper_link'),
               ('l_gripper_finger_joint', 'prismatic', 'gripper_link', 'l_finger', FINGERS),
               ('r_gripper_finger_joint', 'prismatic', 'gripper_link', 'r_finger', FINGERS)]
    return joints, ('base_footprint', 'head_camera_optical_frame')


def stretch():
    """Stretch: mast, lift, four telescoping prismatic arm joints, a wrist, a head."""
    joints = [('joint_mast', 'fixed', 'base_link', 'link_mast'),
              ('joint_right_wheel', 'continuous', 'base_link', 'link_right_wheel'),
              ('joint_lift', 'prismatic', 'link_mast', 'link_lift', (0.0, 1.1)),
              ('joint_arm_l4', 'fixed', 'link_lift', 'link_arm_l4')]
    link = 'link_arm_l4'
    for k in (3, 2, 1, 0):
        joints.append((f'joint_arm_l{k}', 'prismatic', link, f'link_arm_l{k}', (0.0, 0.13)))
        link = f'link_arm_l{k}'
    joints += [('joint_wrist_yaw', 'revolute', link, 'link_wrist_yaw'),
               ('joint_gripper_finger_left', 'revolute', 'link_wrist_yaw', 'finger_left'),
               ('joint_gripper_finger_right', 'revolute', 'link_wrist_yaw', 'finger_right'),
               ('joint_grasp_center', 'fixed', 'link_wrist_yaw', 'link_grasp_center'),
               ('joint_head', 'fixed', 'link_mast', 'link_head'),
               ('joint_head_pan', 'revolute', 'link_head', 'link_head_pan'),
               ('joint_head_tilt', 'revolute', 'link_head_pan', 'link_head_tilt')]
    return joints, ('link_grasp_center',)


# name: (tree, the chain the rules choose: dof, tip, locked joints)
ROBOTS = {
    'ur-e-series': (ur_e_series, (6, 'tool0', 0)),
    'franka-fr3-hand': (franka_fr3, (7, 'fr3_hand_tcp', 2)),
    'kinova-gen3': (kinova_gen3, (7, 'tool_frame', 0)),
    'kuka-iiwa': (kuka_iiwa, (7, 'iiwa_link_ee', 0)),
    'sawyer': (sawyer, (7, 'right_l6', 1)),
    'fetch': (lambda: mobile('fetch'), (8, 'gripper_link', 5)),
    'tiago': (lambda: mobile('arm'), (8, 'gripper_link', 5)),
    'stretch': (stretch, (6, 'link_grasp_center', 2)),
}
# Numbers as exporters and hands write them; urdfdom (Pinocchio's parser) reads each.
SPELLINGS = {
    'as-written': lambda text: text,
    'signed-exponent': lambda text: re.sub(
        r'(?<=["\s])(-?[0-9]+\.[0-9]+(?:e-?[0-9]+)?)(?=["\s])',
        lambda m: f'{float(m.group(1)):+.17E}', text),
    'no-leading-zero': lambda text: re.sub(r'(?<=["\s])(-?)0\.([0-9])', r'\1.\2', text),
    'trailing-point-and-minus-zero': lambda text: re.sub(     # limits: "-2." "2." "-0"
        r'"(-?[0-9]+)\.0"', lambda m: '"-0"' if m.group(1) == '0' else f'"{m.group(1)}."', text),
}


def robot_text(name):
    """Write the URDF of ``ROBOTS[name]`` (seeded)."""
    joints, massless = ROBOTS[name][0]()
    return tree_urdf(len(name), joints, name, massless=massless)


@pytest.mark.parametrize('spelling', SPELLINGS)
@pytest.mark.parametrize('name', ROBOTS)
def test_every_robot_loads_its_chosen_chain_equal_to_pinocchios(name, spelling):
    text = SPELLINGS[spelling](robot_text(name))
    model, _ = load_with_notes(text, urdf_friction=False)
    assert (model.dof, model.tip_link, len(model.locked_joints)) == ROBOTS[name][1]
    assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('name, tip', [
    ('ur-e-series', 'ft_frame'), ('franka-fr3-hand', 'fr3_leftfinger'),
    ('sawyer', 'right_hand'), ('sawyer', 'right_hand_camera'),
    ('fetch', 'head_camera_optical_frame'), ('stretch', 'link_head_tilt')])
def test_a_named_tip_loads_and_equals_pinocchio(name, tip):
    text = robot_text(name)
    model, _ = load_with_notes(text, tip_link=tip)
    assert model.tip_link == tip
    assert_chain_equals_pinocchio(model, text)


def test_the_spellings_change_the_text_not_the_numbers():
    """Each respelling rewrites numbers (so the test reads them) and keeps their values."""
    text = robot_text('franka-fr3-hand')
    for name, spell in SPELLINGS.items():
        if name != 'as-written':
            assert spell(text) != text, name
    numbers = re.compile(r'-?\d*\.?\d+(?:[eE][-+]?\d+)?')
    assert [float(x) for x in numbers.findall(text)] == \
        [float(x) for x in numbers.findall(SPELLINGS['no-leading-zero'](text))]


def test_an_axis_without_xyz_is_the_urdf_default_and_said():
    """``<axis/>``: the specification's 1 0 0; urdfdom reads 0 0 0 (a joint that cannot move).

    The warning names the joint and the fix; the chain equals Pinocchio's model of the file
    with ``<axis xyz="1 0 0"/>`` written (of the file as it is, Pinocchio's has a zero axis).
    """
    text = robot_text('kuka-iiwa')
    first = re.search(r'(<joint name="iiwa_j2".*?)<axis xyz="[^"]*"/>', text)
    bare = text[:first.end(1)] + '<axis/>' + text[first.end():]
    model, said = load_with_notes(bare)
    np.testing.assert_array_equal(model.axis[1], [1.0, 0.0, 0.0])
    assert ["joint 'iiwa_j2': <axis> without xyz read as 1 0 0, the URDF default; urdfdom "
            '(Pinocchio, KDL, robot_state_publisher) reads 0 0 0 there, a joint that does not '
            'move: write <axis xyz="1 0 0"/> (or the real axis)'] == \
        [line for line in said if '<axis>' in line]
    assert_chain_equals_pinocchio(model, bare.replace('<axis/>', '<axis xyz="1 0 0"/>'))


def in_link3(text, old, new):
    """Replace ``old`` by ``new`` once in the chain link ``iiwa_link3`` (its inertial is read)."""
    start = text.index('<link name="iiwa_link3">')
    return text[:start] + text[start:].replace(old, new, 1)


@pytest.mark.parametrize('field, written', [
    ('origin xyz', lambda t: re.sub(r'(<joint name="iiwa_j2".*?<origin xyz=")([^"]*)"',
                                    lambda m: m.group(1) + ','.join(m.group(2).split()) + '"',
                                    t, count=1)),
    ('mass value', lambda t: in_link3(t, '<mass value="', '<mass value="1,')),
    ('inertia ixx', lambda t: in_link3(t, 'ixx="', 'ixx="0,')),
    ('limit upper', lambda t: t.replace('upper="2.0"', 'upper="2,0"', 1))])
def test_a_comma_in_a_number_is_refused_saying_how_urdf_writes_it(field, written):
    """Comma-separated vectors, decimal commas (an exporter in a German locale): refused.

    urdfdom reports each as an error too; the error names the field and says how URDF writes
    numbers (spaces, points).
    """
    text = written(robot_text('kuka-iiwa'))
    assert text != robot_text('kuka-iiwa')
    with pytest.raises(rd.URDFError, match=re.escape(field) + r'.*; URDF separates numbers '
                       r'with spaces and marks decimals with a point \(0\.5, not 0,5'):
        load_with_notes(text)


@pytest.mark.parametrize('tip, dof, mimic', [('fr3_rightfinger', 8, 'fr3_finger_joint2'),
                                             ('fr3_leftfinger', 8, None)])
def test_a_finger_as_tip_loads_its_mimic_joint_as_pinocchio_does(tip, dof, mimic):
    """A finger as ``tip_link``: its ``<mimic>`` joint is a coordinate, as in Pinocchio's model.

    It used to be refused. The other finger, a mimic of a chain joint, is locked.
    """
    text = robot_text('franka-fr3-hand')
    model, said = load_with_notes(text, tip_link=tip)
    assert model.dof == dof and model.joint_names[-1] == (mimic or 'fr3_finger_joint1')
    assert_chain_equals_pinocchio(model, text)
    notes = [line for line in said if line.startswith('URDF <mimic> joint(s) on the chain')]
    assert len(notes) == (1 if mimic else 0)
    if mimic:
        assert 'keep fr3_finger_joint2 = 1 fr3_finger_joint1 + 0 in q, qd and qdd' in notes[0]


@pytest.mark.parametrize('saved', [
    lambda xml: f'String value is: {xml}\n',                          # ros2 param get
    lambda xml: f'data: {xml!r}\n---\n'])                            # ros2 topic echo
def test_a_saved_command_output_is_refused_saying_to_save_the_xml_alone(saved, tmp_path):
    """A robot_description saved from ``ros2 param get``/``topic echo`` with its prefix."""
    path = tmp_path / 'robot.urdf'
    path.write_text(saved(robot_text('ur-e-series')))
    with pytest.raises(rd.URDFError, match=r'malformed URDF: .*; it starts with .* before the '
                       r'first "<": the output of ros2 param get .* Save the XML alone, e\.g\. '
                       r'ros2 param get --hide-type /robot_state_publisher robot_description '
                       r'> robot\.urdf'):
        load_with_notes(str(path))
    with pytest.raises(rd.URDFError) as plain:
        load_with_notes('<robot name="r"><link name="a"></robot>')
    assert 'it starts with' not in str(plain.value)


@pytest.mark.parametrize('lower, upper, noted', [
    ('-165', '165', True), ('-400', '400', True), ('-6.283185307179586', '6.283185307179586',
                                                   False),
    ('-12.566370614359172', '12.566370614359172', False), ('-1e16', '1e16', False)])
def test_limits_that_look_like_degrees_are_named_and_loaded_as_written(lower, upper, noted):
    """An ABB- or Fanuc-style file with degrees: 26 turns no check meets; ±2π, ±4π, 1e16 not."""
    text = robot_text('kuka-iiwa').replace('lower="-2.0" upper="2.0"',
                                           f'lower="{lower}" upper="{upper}"', 1)
    model, said = load_with_notes(text)
    assert model.lower_limit[0] == float(lower) and model.upper_limit[0] == float(upper)
    notes = [line for line in said if 'beyond 2 turns' in line]
    assert notes == ([f'URDF <limit lower= upper=> beyond 2 turns on iiwa_j1 ({float(lower):g} '
                      f'to {float(upper):g}): degrees? URDF limits are radians (165 degrees = '
                      '2.88 rad); loaded as written'] if noted else [])
