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
"""Patterns found loading real public descriptions against Pinocchio (issue 32's sweep).

Each file here is written for the test, imitating what the public files do:

- the tool frame named ``end_effector_link`` (Kinova's kortex output, OpenManipulator) or
  ``tool_frame``, where the fixed links below the wrist branch (cameras, a gripper's base):
  it was put on the last moving link with a "no tool frame" warning;
- a moving joint named like its child link (SO-100/SO-101's ``gripper``, Quanser QArm's
  ``YAW``): Pinocchio's ``buildReducedModel`` cannot tell the two frames apart, so the oracle
  renames such links;
- a kinematics-only description (ROS-Industrial's support packages as MATLAB ships them: no
  ``<inertial>`` at all): one warning line, not one a link.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from urdf_public_styles import Writer
from urdf_trees import assert_chain_equals_pinocchio, load_with_notes

ARM = dict(xyz=['0 0 0.15', '0 0.005 -0.13', '0 -0.41 0', '0 0.21 -0.006', '0 0 -0.106',
                '0 0.106 0'],
           rpy=['3.1416 0 0', '1.5708 0 0', '3.1416 0 0', '1.5708 0 0', '-1.5708 0 0',
                '1.5708 0 0'],
           axes=['0 0 1'] * 6, masses=[1.38, 1.26, 0.93, 0.68, 0.68, 0.5])


def wrist_with_frames(tool, masses=True):
    """Build a 6-joint arm whose wrist carries ``tool``, cameras and a two-finger gripper."""
    w = Writer(21)
    w.link('world')
    w.joint('base_joint', 'fixed', 'world', 'base_link')
    w.link('base_link', 1.7 if masses else None)
    last = w.chain([f'arm{k}' for k in range(1, 7)], 'base_link', ['revolute'] * 6,
                   ARM['xyz'], ARM['rpy'], ARM['axes'],
                   ARM['masses'] if masses else [None] * 6)
    w.link(tool)
    w.joint('end_effector', 'fixed', last, tool, '0 0 -0.0615', '3.14159 0 3.14159')
    for frame in ('camera_link', 'camera_depth_frame', 'gripper_base'):
        w.link(frame, 0.23 if frame == 'gripper_base' and masses else None)
        w.joint(f'{frame}_joint', 'fixed', tool, frame, '0 0.056 -0.003')
    for side, sign in (('left', ''), ('right', '-')):
        w.link(f'{side}_finger', 0.01 if masses else None)
        w.joint(f'{side}_finger_joint', 'revolute', 'gripper_base', f'{side}_finger',
                f'0 {sign}0.03 0.055', axis='1 0 0',
                limit='lower="0" upper="0.7" effort="10" velocity="2"',
                extra='' if side == 'left' else
                '    <mimic joint="left_finger_joint" multiplier="1" offset="0"/>\n')
    return w.text('wrist_frames')


@pytest.mark.parametrize('tool', ['end_effector_link', 'tool_frame', 'tcp_link', 'flange'])
def test_a_tool_frame_named_with_link_or_frame_is_found_where_the_fixed_links_branch(tool):
    text = wrist_with_frames(tool)
    model, notes = load_with_notes(text)
    assert model.tip_link == tool and model.dof == 6
    assert not any('tool frame' in note for note in notes), notes
    assert 'named like a tool frame, where the fixed links branch' in model.chain_choice
    assert_chain_equals_pinocchio(model, text)


def test_an_unnamed_branching_wrist_still_says_so():
    text = wrist_with_frames('mount_plate')           # no tool name: the last moving link
    model, notes = load_with_notes(text)
    assert model.tip_link == 'arm6_link'
    assert any("tool frame 'arm6_link': the last moving link itself" in note
               and 'or one of them + _link or _frame' in note for note in notes), notes


def qarm(joint_on_jaw=False):
    """Build a 4-joint arm whose joints are named like their child links (``YAW`` → ``YAW``)."""
    w = Writer(22)
    w.link('world')
    w.joint('world_base_joint', 'fixed', 'world', 'base_link')
    w.link('base_link', 3.9)
    parent = 'base_link'
    for name, xyz, rpy, mass in (('YAW', '0 0 0', '0 0 0', 0.70),
                                 ('BICEP', '0 0 0.14', '-1.5708 0 0', 0.71),
                                 ('FOREARM', '0.05 -0.35 0', '0 0 -1.43', 0.43),
                                 ('WRIST', '0.034 0.236 0', '-1.5708 0 -0.14', 0.03)):
        w.link(name, mass)
        w.joint(name, 'revolute', parent, name, xyz, rpy,
                limit='lower="-1.4" upper="1.4" effort="0" velocity="0"')
        parent = name
    if joint_on_jaw:
        w.link('jaw', 0.02)
        w.joint('jaw', 'revolute', parent, 'jaw', '0.02 0 0.02', axis='0 1 0',
                limit='lower="-0.2" upper="1.7" effort="10" velocity="1"')
    return w.text('QARM')


@pytest.mark.parametrize('jaw', [False, True])
def test_joints_named_like_their_links_agree_with_pinocchio(jaw):
    text = qarm(jaw)
    full = pin.buildModelFromXML(text)
    with pytest.raises(ValueError, match='Several frames match'):   # why the oracle renames
        pin.buildReducedModel(full, [1], pin.neutral(full))
    model, _ = load_with_notes(text)
    assert model.dof == 4 + jaw and model.tip_link == ('jaw' if jaw else 'WRIST')
    assert_chain_equals_pinocchio(model, text)
    if jaw:                                            # the jaw locked: the name it gives
        arm, _ = load_with_notes(text, tip_link='WRIST')
        assert arm.dof == 4 and dict(arm.locked_joints) == {'jaw': 0.0}
        assert_chain_equals_pinocchio(arm, text)


def test_a_kinematics_only_description_says_so_in_one_line():
    text = wrist_with_frames('tool0', masses=False)
    model, notes = load_with_notes(text)
    bare = [note for note in notes if 'no <inertial>' in note or 'has an <inertial>' in note]
    assert len(bare) == 1, notes
    assert bare[0].startswith('no moving link has an <inertial> (arm1_link, arm2_link, arm3_link, '
                              'arm4_link, arm5_link, arm6_link): a kinematics-only description')
    assert not model.mass.any()
    q = np.linspace(-1, 1, 6)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        assert not rd.inverse_dynamics(model, q, q, q).any()
    assert_chain_equals_pinocchio(model, text)


def test_some_links_without_inertial_share_one_line():
    text = wrist_with_frames('tool0')
    for name in ('arm2_link', 'arm5_link'):            # drop two links' inertials
        start = text.index(f'<link name="{name}">')
        text = text[:start] + f'<link name="{name}"/>' + text[text.index('</link>', start) + 7:]
    model, notes = load_with_notes(text)
    assert [note for note in notes if 'no <inertial>' in note] == [
        "moving links 'arm2_link' (child of joint 'arm2_joint'), 'arm5_link' (child of joint "
        "'arm5_joint') have no <inertial>: loaded massless (URDF specification); add <inertial> "
        'with <mass> and <inertia> where a link has mass']
    assert_chain_equals_pinocchio(model, text)


def test_a_file_without_a_moving_joint_says_so():
    """Onshape's export of a single part: Pinocchio builds an empty model; a chain needs one."""
    text = ('<robot name="onshape"><link name="as_1112_-_m3,5(2)"><inertial><mass value="0"/>'
            '<inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>'
            '<link name="plate"/><joint name="fix" type="fixed"><parent link="as_1112_-_m3,5(2)"/>'
            '<child link="plate"/></joint></robot>')
    assert pin.buildModelFromXML(text).nq == 0
    with pytest.raises(rd.URDFError, match=r'the URDF has no moving joint \(2 link\(s\), 1 fixed '
                       r'joint\(s\)\): nothing moves, and a model needs at least one revolute'):
        rd.RobotModel.from_urdf(text)
