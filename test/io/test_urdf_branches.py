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
"""Whole-robot URDFs: side branches locked and merged, checked against Pinocchio's reduced model.

The oracle is ``pin.buildReducedModel`` of the full URDF with the same joints locked at the same
positions. Torques, mass matrix and gravity agree to 2e-14 of their size.
"""

import pickle
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import RobotModel, URDFError
from robot_dynamics.errors import ModelWarning
from robots import random_state
from urdf_trees import (arm, arm_with_gripper, gripper, oracle_dynamics, oracle_tip_pose,
                        reduced_oracle, tree_urdf)

SEED = 12


def two_armed_torso(seed=SEED):
    """Build a torso joint carrying two 4-joint arms and a 2-joint head."""
    joints = [('torso_joint', 'revolute', 'base_link', 'torso')]
    joints += arm('left', 'torso', 4) + arm('right', 'torso', 4)
    joints += [('head_pan', 'revolute', 'torso', 'head_link1'),
               ('head_tilt', 'revolute', 'head_link1', 'head_link2')]
    return tree_urdf(seed, joints, 'torso')


def humanoid(seed=SEED):
    """Pelvis: two 5-joint legs, a torso joint, two 4-joint arms (one with a gripper), a head."""
    joints = arm('lleg', 'pelvis', 5) + arm('rleg', 'pelvis', 5)
    joints += [('torso_joint', 'revolute', 'pelvis', 'torso')]
    joints += arm('left', 'torso', 4) + gripper('lg', 'left_link4') + arm('right', 'torso', 4)
    joints += [('head_pan', 'revolute', 'torso', 'head_link1'),
               ('head_tilt', 'continuous', 'head_link1', 'head_link2')]
    return tree_urdf(seed, joints, 'humanoid')


def load(urdf, **kwargs):
    """Load with the locked-joints warning recorded; return the model and the warning texts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        model = RobotModel.from_urdf(urdf, **kwargs)
    return model, [str(w.message) for w in caught if issubclass(w.category, ModelWarning)]


def assert_close(actual, expected, what):
    """2e-14 of the reference's size (measured at most 4.1e-15: torques)."""
    error = np.max(np.abs(np.asarray(actual) - expected))
    assert error <= 2e-14 * np.max(np.abs(expected)), f'{what}: error {error:.3g}'


def assert_matches_pinocchio(model, urdf, others=None, trials=4, seed=0):
    """Torques, mass matrix and gravity of ``model`` against Pinocchio's reduced model."""
    reduced = reduced_oracle(urdf, model.joint_names, dict(model.locked_joints), others)
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        q, qd, qdd = random_state(rng, model.dof)
        tau, M, g, gravity = oracle_dynamics(reduced, q, qd, qdd, model.base_link)
        oriented = model.with_gravity(gravity)
        assert_close(rd.inverse_dynamics(oriented, q, qd, qdd), tau, 'torques')
        assert_close(rd.mass_matrix(oriented, q), M, 'mass matrix')
        assert_close(rd.gravity_torques(oriented, q), g, 'gravity')
        tip = oracle_tip_pose(reduced, q, model.base_link, model.tip_link)
        assert_close(rd.tip_pose(model, q), tip, 'tool frame')


# ---------------------------------------------------------------------- chain choice
def test_arm_with_gripper_chooses_the_arm_and_locks_the_rest():
    urdf = arm_with_gripper()
    model, messages = load(urdf)
    assert model.joint_names == tuple(f'arm_j{i}' for i in range(1, 7))
    assert model.base_link == 'world' and model.tip_link == 'tool0'
    assert dict(model.locked_joints) == {'camera_pan': 0.2, 'grip_finger_joint1': 0.0,
                                         'grip_finger_joint2': 0.0}
    assert 'pedestal_fan' not in model.locked_joints        # on the fixed base: left out
    locked = [m for m in messages if m.startswith('locked ')]
    assert len(locked) == 1 and 'camera_pan=0.2 rad' in locked[0]
    assert 'grip_finger_joint2=0 m (mimic)' in locked[0]
    assert_matches_pinocchio(model, urdf, others={'pedestal_fan': 0.7})


@pytest.mark.parametrize('opening', [0.0, 0.013, 0.04])
@pytest.mark.parametrize('pan', [0.2, 0.55, 1.0])
def test_gripper_locked_at_several_positions(opening, pan):
    urdf = arm_with_gripper()
    model, _ = load(urdf, locked_joints={'grip_finger_joint1': opening, 'camera_pan': pan})
    assert model.locked_joints['grip_finger_joint2'] == opening   # the mimic follows
    assert_matches_pinocchio(model, urdf, trials=2)
    remerged = load(urdf)[0].with_locked_positions({'grip_finger_joint1': opening,
                                                    'camera_pan': pan})
    assert dict(remerged.locked_joints) == dict(model.locked_joints)
    assert_matches_pinocchio(remerged, urdf, trials=2)


def test_mimic_can_be_given_its_own_position():
    urdf = arm_with_gripper()
    model, _ = load(urdf, locked_joints={'grip_finger_joint1': 0.01, 'grip_finger_joint2': 0.03})
    assert dict(model.locked_joints)['grip_finger_joint2'] == 0.03
    assert_matches_pinocchio(model, urdf, trials=2)


def test_two_armed_torso_is_ambiguous_and_lists_candidate_tips():
    with pytest.raises(URDFError, match=r"candidate tips \['left_link4', 'right_link4'\]; "
                                        r"pass tip_link= \(command line: --tip-link\)"):
        RobotModel.from_urdf(two_armed_torso())


@pytest.mark.parametrize('tip', ['left_link4', 'right_link3'])
def test_two_armed_torso_locks_the_other_arm_and_the_head(tip):
    urdf = two_armed_torso()
    given = {'head_pan': 0.4, 'head_tilt': -1.1, 'right_j2': 0.9, 'left_j4': -0.3}
    given = {k: v for k, v in given.items() if not k.startswith(tip.split('_')[0])}
    model, _ = load(urdf, tip_link=tip, locked_joints=given)
    assert model.joint_names[0] == 'torso_joint' and model.tip_link == tip
    assert {k: model.locked_joints[k] for k in given} == given
    assert_matches_pinocchio(model, urdf)


def test_humanoid_from_the_pelvis_merges_arm_gripper_and_head_into_the_torso():
    urdf = humanoid()
    model, _ = load(urdf, base_link='pelvis', tip_link='right_link4',
                    locked_joints={'lg_finger_joint1': 0.03, 'left_j1': 1.2, 'head_tilt': 2.5})
    assert model.joint_names == ('torso_joint', 'right_j1', 'right_j2', 'right_j3', 'right_j4')
    assert not any(name.startswith(('lleg', 'rleg')) for name in model.locked_joints)
    assert_matches_pinocchio(model, urdf, others={'lleg_j2': 0.5, 'rleg_j4': -0.8})


def test_humanoid_from_a_moving_base_link():
    """Base below a moving joint: gravity given in the base frame; the rest is left out."""
    urdf = humanoid()
    model, _ = load(urdf, base_link='torso', tip_link='lg_hand')
    assert model.joint_names == ('left_j1', 'left_j2', 'left_j3', 'left_j4')
    assert set(model.locked_joints) == {'lg_finger_joint1', 'lg_finger_joint2'}
    assert_matches_pinocchio(model, urdf, others={'torso_joint': 0.9, 'right_j1': 0.3,
                                                  'head_pan': -0.4})


def test_automatic_tip_follows_the_longest_moving_branch():
    urdf = humanoid()       # torso 1 + left arm 4 + fingers 1 > legs 5 > right arm 4 > head 2
    model, _ = load(urdf)
    assert model.joint_names == ('torso_joint', 'left_j1', 'left_j2', 'left_j3', 'left_j4')
    assert model.tip_link == 'lg_hand'                   # the fingers tie: a gripper, locked
    assert_matches_pinocchio(model, urdf, others={'rleg_j1': 0.4})
    model, _ = load(urdf, base_link='torso')
    assert model.joint_names[0] == 'left_j1' and model.tip_link == 'lg_hand'


# ---------------------------------------------------------------------- tool frame rule
def tool_tree(*fixed):
    """One moving joint whose child has the fixed links ``fixed`` ((name, parent) pairs)."""
    joints = [('j1', 'revolute', 'base', 'wrist')]
    joints += [(f'{name}_joint', 'fixed', parent, name) for name, parent in fixed]
    return tree_urdf(3, joints, massless=[name for name, _ in fixed])


@pytest.mark.parametrize('fixed, tip', [
    ((('ee_link', 'wrist'), ('flange', 'wrist'), ('tool0', 'flange')), 'tool0'),   # UR
    ((('ee_link', 'wrist'), ('flange', 'wrist')), 'flange'),
    ((('camera', 'wrist'), ('marker', 'wrist')), 'wrist'),
    ((('a', 'wrist'), ('b', 'a')), 'b'),                          # one path: its end
    ((('robot_tcp', 'wrist'), ('tool', 'wrist')), 'robot_tcp'),
])
def test_tool_frame_rule(fixed, tip):
    model = RobotModel.from_urdf(tool_tree(*fixed))
    assert model.tip_link == tip
    explicit = RobotModel.from_urdf(tool_tree(*fixed), tip_link=tip)
    assert np.array_equal(model.tip_translation, explicit.tip_translation)


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize('given, message', [
    ({'arm_j2': 2.5}, r"'arm_j2' = 2.5 is outside its limits \[-2.0, 2.0\]"),   # a chain joint
    ({'nope': 0.1}, r"'nope' is neither a joint of this chain nor a locked one; locked joints "
                    r"are \["),
    ({'grip_finger_joint1': 0.05}, r"outside its limits \[0.0, 0.04\]"),
    ({'camera_pan': float('nan')}, 'not a finite number'),
])
def test_bad_locked_positions_are_clear_errors(given, message):
    with pytest.raises(URDFError, match=message):
        load(arm_with_gripper(), locked_joints=given)


def test_with_locked_positions_rejects_unknown_joints():
    model, _ = load(arm_with_gripper())
    with pytest.raises(rd.ModelError, match="'arm_j1' is not a locked joint"):
        model.with_locked_positions({'arm_j1': 0.3})


def test_a_model_with_locked_joints_pickles_and_stays_read_only():
    model, _ = load(arm_with_gripper())
    back = pickle.loads(pickle.dumps(model))
    assert dict(back.locked_joints) == dict(model.locked_joints)
    moved = back.with_locked_positions({'grip_finger_joint1': 0.02})
    assert moved.locked_joints['grip_finger_joint2'] == 0.02
    with pytest.raises(TypeError):
        model.locked_joints['camera_pan'] = 0.5


def test_remerge_keeps_a_payload():
    urdf = arm_with_gripper()
    model, _ = load(urdf)
    with_payload = model.with_payload(1.5, [0.01, 0.02, 0.1])
    moved = with_payload.with_locked_positions({'grip_finger_joint1': 0.02})
    expected = load(urdf, locked_joints={'grip_finger_joint1': 0.02})[0].with_payload(
        1.5, [0.01, 0.02, 0.1])
    q = np.linspace(-1, 1, model.dof)
    assert_close(rd.gravity_torques(moved, q), rd.gravity_torques(expected, q), 'payload kept')


def test_ten_line_urdf_with_a_heavy_side_branch_closed_form():
    """A 5 kg body 1 m out on a moving side joint: G = -m g cos q about y (was 0 N m)."""
    urdf = ('<robot name="r"><link name="base"/><link name="a"><inertial><mass value="0"/>'
            '<inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            '<link name="b"><inertial><mass value="5"/><inertia ixx="0" iyy="0" izz="0" '
            'ixy="0" ixz="0" iyz="0"/></inertial></link>'
            '<joint name="j" type="continuous"><parent link="base"/><child link="a"/>'
            '<axis xyz="0 1 0"/></joint><joint name="k" type="continuous"><parent link="a"/>'
            '<child link="b"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint></robot>')
    model, _ = load(urdf, tip_link='a')
    assert dict(model.locked_joints) == {'k': 0.0}
    for q in (0.0, 0.7):
        assert rd.gravity_torques(model, [q])[0] == pytest.approx(-5 * 9.81 * np.cos(q),
                                                                  rel=1e-12)


def test_the_locked_joints_note_appears_only_for_joints_locked_by_default():
    _, notes = load(arm_with_gripper())
    assert any('locked' in note and 'camera_pan' in note for note in notes)
    _, notes = load(arm_with_gripper(), locked_joints={'grip_finger_joint1': 0.01,
                                                       'camera_pan': 0.5})
    assert not any('side-branch' in note for note in notes), notes


def test_model_warnings_point_at_the_callers_line():
    """The warning's location is this file, not the library's internals (once per call site)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        RobotModel.from_urdf(arm_with_gripper())
        RobotModel.from_urdf(arm_with_gripper(), locked_joints={'camera_pan': 0.7})
    assert caught and {w.filename for w in caught} == {__file__}
