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
"""Files written like public robot descriptions: Pinocchio loads them, so does the package (#32).

Each file (``test/urdf_public_styles.py``: UR5e, FR3, iiwa, Gen3 with a Robotiq gripper, Jaco2,
an ABB, Baxter, PR2, Fetch, Stretch; numbers written as ``+.5``, ``5.``, ``-0.0``, ``%.17e``,
padded) is loaded by Pinocchio and by the package, and the chain equals Pinocchio's model of
the whole file with the other joints locked where the package locked them (ID, M, G to 1e-13
of the largest entry, gravity, tool pose: :func:`urdf_trees.assert_chain_equals_pinocchio`).

Red-team findings, each refused before though Pinocchio loads the file: a floating or planar
joint above the arm (``world`` → floating → ``base_link``: now the chain starts below it); a
``<transmission>`` whose reduction is empty or unexpanded (``<mechanicalReduction/>``,
``${ratio}``; Pinocchio never reads it: now a note unless a rotor inertia is at stake); a
``<mimic joint=""/>`` (urdfdom reads it as a master the file does not have). A space after
an inertial's number (``<mass value="2.5 "/>``) is read as written, but urdfdom zeroes the
link there (an error on its console only): now a ``ModelWarning`` says so.
"""

import re
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from urdf_public_styles import (abb_irb, fr3, gen3_robotiq, iiwa14, jaco2, restyle, two_arms,
                                ur5e, Writer)
from urdf_trees import assert_chain_equals_pinocchio, oracle_dynamics, reduced_oracle


def mobile(kind):
    """Build Fetch (wheels, torso lift, head, arm, fingers) or Stretch (a prismatic chain)."""
    w = Writer(9 if kind == 'fetch' else 10)
    w.link('base_link', 70.1)
    for side, y in (('r', '-0.187795'), ('l', '0.187795')):
        w.link(f'{side}_wheel_link', 4.3)
        w.joint(f'{side}_wheel_joint', 'continuous', 'base_link', f'{side}_wheel_link',
                f'0.0012914 {y} 0.055325', axis='0 1 0', limit='effort="8.85" velocity="17.4"')
    if kind == 'stretch':
        w.link('link_mast', 1.8)
        w.joint('joint_mast', 'fixed', 'base_link', 'link_mast', '-0.067 0.135 0.0284',
                '1.5708 0 0.0094')
        w.link('link_lift', 0.8)
        w.joint('joint_lift', 'prismatic', 'link_mast', 'link_lift', '-0.037 0.1833 0',
                '-1.5708 1.5615 0', limit='effort="100" lower="0.0" upper="1.1" velocity="1"')
        w.link('link_arm_l4', 0.07)
        w.joint('joint_arm_l4', 'fixed', 'link_lift', 'link_arm_l4', '-0.25 0 0',
                '1.5708 0 -1.5708')
        last = w.chain([f'joint_arm_l{k}' for k in (3, 2, 1, 0)], 'link_arm_l4', ['prismatic'] * 4,
                       ['0 0 0.013'] * 4, ['0 0 0'] * 4, ['0 0 1'] * 4, [0.25, 0.2, 0.15, 0.1],
                       'effort="100" lower="0.0" upper="0.13" velocity="1.0"')
        w.link('link_wrist_yaw', 0.04)
        w.joint('joint_wrist_yaw', 'revolute', last, 'link_wrist_yaw', '0.083 -0.03 0',
                '1.5708 4.7124 0', '0 0 -1', 'effort="100" lower="-1.75" upper="4.0" velocity="1"')
        w.link('link_head_pan', 0.1)
        w.joint('joint_head_pan', 'revolute', 'link_mast', 'link_head_pan', '0.14 1.33 0.05')
        return w.text('stretch')
    w.link('torso_lift_link', 10.8)
    w.joint('torso_lift_joint', 'prismatic', 'base_link', 'torso_lift_link', '-0.086875 0 0.37743',
            extra='    <dynamics damping="100.0"/>\n')
    w.chain(['head_pan', 'head_tilt'], 'torso_lift_link', ['revolute'] * 2,
            ['0.053125 0 0.603001', '0.14253 0 0.057999'], ['0 0 0'] * 2, ['0 0 1', '0 1 0'],
            [2.27, 0.92])
    names = ['shoulder_pan', 'shoulder_lift', 'upperarm_roll', 'elbow_flex', 'forearm_roll',
             'wrist_flex', 'wrist_roll']
    last = w.chain(names, 'torso_lift_link', ['revolute', 'revolute', 'continuous'] * 2
                   + ['continuous'], ['0.119525 0 0.34858'] + ['0.117 0 0.06'] * 6,
                   ['0 0 0'] * 7, ['0 0 1', '0 1 0', '1 0 0'] * 2 + ['1 0 0'],
                   [2.5, 2.2, 1.9, 1.6, 1.3, 1.0, 0.7])
    w.link('gripper_link', 1.58)
    w.joint('gripper_axis', 'fixed', last, 'gripper_link', '0.16645 0 0')
    for side, axis in (('r', '0 1 0'), ('l', '0 -1 0')):
        w.link(f'{side}_gripper_finger_link', 0.0798)
        w.joint(f'{side}_gripper_finger_joint', 'prismatic', 'gripper_link',
                f'{side}_gripper_finger_link', axis=axis,
                limit='lower="0" upper="0.05" effort="60" velocity="0.05"')
    return w.text('fetch')


def mobile_base(kind, rpy='0 0 0'):
    """Build an arm on a base that moves in ``odom``: a ``floating`` or ``planar`` joint."""
    w = Writer(11)
    w.link('odom')
    w.joint('odom_joint', kind, 'odom', 'base_link', '0.5 -0.2 0.1', rpy)
    w.link('base_link', 20.0)
    w.chain([f'arm_{k}' for k in range(1, 5)], 'base_link', ['revolute'] * 4,
            ['0 0 0.3', '0 0.1 0', '0.4 0 0', '0.3 0 0'],
            ['0 0 0', '1.5708 0 0', '0 0 0', '0 0 0.5'],
            ['0 0 1', '0 0 1', '0 0 1', '0 1 0'], [3.0, 2.0, 1.2, 0.6])
    return w.text('mobile_arm')


def load(text, **options):
    """Load; return the model and its ModelWarning lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(text, **options)
    return model, [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]


# name → (text, dof, tip, number of locked joints); friction off where <dynamics> carry it
FILES = {
    'ur5e': (ur5e, 6, 'tool0', 0), 'fr3': (fr3, 7, 'fr3_hand_tcp', 2),
    'fr3-no-hand': (lambda: fr3(hand=False), 7, 'fr3_link8', 0),
    'iiwa14': (iiwa14, 7, 'iiwa_link_ee', 0), 'jaco2': (jaco2, 6, 'j2n6s300_end_effector', 6),
    'gen3-robotiq': (gen3_robotiq, 7, 'end_effector_link', 6),
    'abb-irb': (abb_irb, 6, 'tool0', 0), 'fetch': (lambda: mobile('fetch'), 8, 'gripper_link', 4),
    'stretch': (lambda: mobile('stretch'), 6, 'link_wrist_yaw', 0),
}


@pytest.mark.parametrize('name', FILES)
def test_public_style_files_load_and_their_chains_equal_pinocchios(name):
    build, dof, tip, locked = FILES[name]
    text = build()
    pin.buildModelFromXML(text)                              # the peer loads it
    model, _ = load(text, urdf_friction=False)
    assert (model.dof, model.tip_link, len(model.locked_joints)) == (dof, tip, locked)
    assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('base', ['base', 'base_link', 'base_link_inertia'])
def test_urs_base_frames_each_give_the_same_arm_as_pinocchio(base):
    model, _ = load(ur5e(), base_link=base)
    assert model.dof == 6 and model.tip_link == 'tool0'
    assert_chain_equals_pinocchio(model, ur5e())


@pytest.mark.parametrize('kind, tips', [('baxter', ['left_gripper', 'right_gripper']),
                                        ('pr2', ['left_gripper', 'right_gripper'])])
def test_two_armed_robots_ask_for_the_tip_then_agree(kind, tips):
    text = two_arms(kind)
    pin.buildModelFromXML(text)
    with pytest.raises(rd.URDFError, match=re.escape(f'candidate tips {tips!r}')):
        load(text)
    for side in ('left', 'right'):
        model, said = load(text, tip_link=f'{side}_gripper', urdf_friction=False)
        assert model.dof == 7 + (kind == 'pr2')      # PR2: the torso lift first
        assert {f'{side}_l_finger_joint', f'{side}_r_finger_joint'} <= set(model.locked_joints)
        assert len(model.locked_joints) == (2 if kind == 'baxter' else 12)
        assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('style', ['sci', 'plus', 'short', 'negative-zero', 'spaces'])
@pytest.mark.parametrize('build', [ur5e, fr3, gen3_robotiq])
def test_numbers_written_any_way_urdfdom_reads_them_change_nothing(build, style):
    text = restyle(build(), style)
    assert text != build()
    pin.buildModelFromXML(text)
    model, _ = load(text, urdf_friction=False)
    assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('markup', [
    lambda t: t.replace('"', "'"),                                      # single quotes
    lambda t: t.replace('><', '><!-- a comment -->\n<'),
    lambda t: t.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="UTF-8" '
                        'standalone="no"?>\n<?xml-model href="urdf.xsd"?>'),
    lambda t: t.replace('</link>', '<![CDATA[ <not markup> ]]></link>'),
    lambda t: t.replace('fr3_', 'panda/arm.').replace(
        '<robot name="fr3"', '<robot name="fr3" version="1.0"'),
])
def test_markup_and_names_urdfdom_reads_change_nothing(markup):
    text = markup(fr3())
    pin.buildModelFromXML(text)
    model, _ = load(text, urdf_friction=False)
    assert model.dof == 7
    assert_chain_equals_pinocchio(model, text)


# ---------------------------------------------------------------------- red-team findings
@pytest.mark.parametrize('kind', ['floating', 'planar'])
@pytest.mark.parametrize('rpy', ['0 0 0', '0.3 -0.2 1.0'])
def test_a_floating_or_planar_base_above_the_arm_starts_the_chain_below_it(kind, rpy):
    """Was: "joint 'odom_joint' is 'floating' … base_link='base_link'", a refusal."""
    text = mobile_base(kind, rpy)
    full = pin.buildModelFromXML(text)
    assert full.names[1] == 'odom_joint'
    model, said = load(text)
    assert model.base_link == 'base_link' and model.dof == 4 and not model.locked_joints
    assert any(f"'odom_joint' ({kind}) above the arm" in line for line in said), said
    reduced = reduced_oracle(text, list(model.joint_names), {'odom_joint': 0.0})
    q, qd, qdd = np.random.default_rng(5).uniform(-1.5, 1.5, (3, 4))
    tau, M, g, gravity = oracle_dynamics(reduced, q, qd, qdd, 'base_link')
    np.testing.assert_allclose(model.gravity, gravity, rtol=0, atol=1e-14)
    for ours, theirs in ((rd.inverse_dynamics(model, q, qd, qdd), tau),
                         (rd.mass_matrix(model, q), M), (rd.gravity_torques(model, q), g)):
        assert np.abs(ours - theirs).max() <= 1e-13 * np.abs(theirs).max()
    with pytest.raises(rd.URDFError, match=f"'odom_joint' is '{kind}'.*base_link='base_link'"):
        load(text, base_link='odom')                       # asked for: still the hint


@pytest.mark.parametrize('reduction', ['', '${reduction}', 'nan', '1/50'])
def test_an_unreadable_reduction_is_a_note_unless_a_rotor_inertia_is_at_stake(reduction):
    """Was: "transmission[@name='t2'] mechanicalReduction: '' is not a number", a refusal."""
    transmission = ('<transmission name="t2"><type>transmission_interface/SimpleTransmission'
                    '</type><joint name="iiwa_joint_2"><hardwareInterface>hardware_interface/'
                    'EffortJointInterface</hardwareInterface></joint><actuator name="m2">'
                    f'<mechanicalReduction>{reduction}</mechanicalReduction></actuator>'
                    '</transmission>\n</robot>')
    text = iiwa14().replace('</robot>', transmission).replace(
        '<mechanicalReduction>1</mechanicalReduction>', '<mechanicalReduction>100'
        '</mechanicalReduction>')
    pin.buildModelFromXML(text)
    model, said = load(text, urdf_friction=False)
    assert list(model.gear_ratio) == [100.0] * 7         # iiwa_tran_2 drives joint 2 too
    assert any("transmission[@name='t2'] mechanicalReduction" in line and 'ignored' in line
               for line in said), said
    assert_chain_equals_pinocchio(model, text)
    rotor = text.replace(f'>{reduction}</mechanicalReduction>', f'>{reduction}'
                         '</mechanicalReduction><rotorInertia>1e-4</rotorInertia>')
    with pytest.raises(rd.URDFError, match=r"transmission\[@name='t2'\] mechanicalReduction"):
        load(rotor)


def test_an_exporters_every_unreadable_reduction_is_one_line():
    """As in pybullet's xArm: a placeholder in each transmission was one note for each."""
    text = iiwa14()
    count = text.count('<mechanicalReduction>1</mechanicalReduction>')
    text = text.replace('<mechanicalReduction>1</mechanicalReduction>',
                        '<mechanicalReduction>reduction</mechanicalReduction>')
    model, said = load(text, urdf_friction=False)
    lines = [line for line in said if 'mechanicalReduction' in line]
    assert count == 7 and list(model.gear_ratio) == [1.0] * 7
    assert len(lines) == 1 and f'the same in {count - 1} more' in lines[0], said
    assert lines[0].count('transmission[@name=') == count, lines[0]


def test_a_mimic_naming_no_joint_is_a_finger_of_its_own():
    """Was: "mimic: attribute joint is required"; urdfdom reads ``joint=""`` as a name."""
    text = fr3().replace('<mimic joint="fr3_finger_joint1"/>', '<mimic joint=""/>')
    pin.buildModelFromXML(text)
    model, said = load(text, urdf_friction=False)
    assert model.locked_joints == {'fr3_finger_joint1': 0.0, 'fr3_finger_joint2': 0.0}
    assert_chain_equals_pinocchio(model, text)
    model, said = load(text, tip_link='fr3_rightfinger', urdf_friction=False)
    assert model.dof == 8 and any('<mimic> joint(s) on the chain' in line for line in said)
    assert_chain_equals_pinocchio(model, text)


@pytest.mark.parametrize('before, after, lost', [
    ('<mass value="0.54"/>', '<mass value="0.54 "/>', 'mass and inertia'),
    ('<inertia ixx="', '<inertia ixx=" ', None),                 # urdfdom reads it too
])
def test_a_space_after_an_inertials_number_is_read_as_written_and_said(before, after, lost):
    """Pinocchio's urdfdom refuses ``"0.54 "`` and zeroes the link (an error on its console)."""
    text = fr3(hand=False)
    spaced = text.replace(before, after)
    model, said = load(spaced, urdf_friction=False)
    notes = [line for line in said if 'a space after the number' in line]
    if lost is None:
        assert not notes
    else:
        assert len(notes) == 1 and f'zero {lost}' in notes[0] and "'fr3_link7'" in notes[0]
    assert_chain_equals_pinocchio(model, text)      # the file without the space


def test_an_inertial_without_inertia_is_a_point_mass_as_urdfdom_reads_it():
    """Was refused ("has no <inertia>"); urdfdom keeps the mass and origin, no rotation."""
    text = re.sub(r'<inertia [^>]*/>', '', fr3(hand=False))
    assert '<inertia ' not in text and '<mass ' in text
    model, said = load(text, urdf_friction=False)
    notes = [line for line in said if 'has no <inertia>: loaded as a point mass' in line]
    assert any("'fr3_link7'" in line for line in notes), said
    assert_chain_equals_pinocchio(model, text)
    with pytest.raises(rd.URDFError, match=r"inertial/mass: <mass value=\"\"/> is required"):
        rd.RobotModel.from_urdf(re.sub(r'<mass [^>]*/>', '', fr3(hand=False)))


@pytest.mark.parametrize('tail, loads', [
    ('<robot name="second"><link name="x"/></robot>', True),    # two files pasted together
    ('\r\n<gazebo reference="fr3_link7"><material>Gray</material></gazebo>\r\n', True),
    ('<!-- end -->\n<gazebo/>', True),
    ('junk', False),                                              # TinyXML refuses text too
    ('<gazebo>', False)])                                         # not well formed
def test_elements_after_the_root_are_ignored_with_a_warning_as_urdfdom_reads_it(tail, loads):
    """Was "junk after document element"; urdfdom takes the first ``<robot>`` TinyXML parsed."""
    text = fr3(hand=False)
    pasted = text.replace('</robot>', '</robot>' + tail)
    assert pasted != text
    try:
        pin.buildModelFromXML(pasted)
        pinocchio_loads = True
    except (RuntimeError, ValueError):
        pinocchio_loads = False
    assert pinocchio_loads == loads
    if not loads:
        with pytest.raises(rd.URDFError, match=r'malformed URDF|DOCTYPE'):
            rd.RobotModel.from_urdf(pasted)
        return
    model, said = load(pasted, urdf_friction=False)
    assert [line for line in said if line.startswith('URDF has elements after the root '
                                                     'element, from line')]
    assert_chain_equals_pinocchio(model, text)


def test_a_declaration_after_the_root_is_refused_as_any_declaration():
    """Refuse it: TinyXML (Pinocchio) accepts it there, this loader no DOCTYPE (security)."""
    with pytest.raises(rd.URDFError, match='DOCTYPE or ENTITY declaration, which is refused'):
        rd.RobotModel.from_urdf(fr3(hand=False).replace('</robot>', '</robot><!DOCTYPE x>'))
