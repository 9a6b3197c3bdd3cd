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
"""URDFs as people have them: parts without dynamics never fail a load; size and depth scale.

The snippets imitate what made iCub, Romeo and PR2 (example-robot-data) fail before: a
``<texture>`` without a filename, ROS 1 transmissions, sensors, gazebo tags, calibration and
safety-controller tags. They are written here, not read from description packages.
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import RobotModel, URDFError
from robot_dynamics.errors import ModelWarning
from cost import growth_ratio
from robots import random_state
from urdf_trees import (arm, assert_chain_equals_pinocchio, gripper, load_with_notes,
                        tree_urdf)

EXTRAS = {
    'icub-texture': ('<link name="arm_link1">', '<link name="arm_link1"><visual><geometry><mesh '
                     'filename="package://icub/l1.dae"/></geometry><material name="skin"><color '
                     'rgba="1 0.8 0.7 1"/><texture/></material></visual>'),
    'icub-sensor': ('</robot>', '<sensor name="l_arm_ft" type="force_torque"><parent '
                    'link="arm_link2"/><origin xyz="0 0 0"/><force_torque><frame>child</frame>'
                    '</force_torque></sensor></robot>'),
    'romeo-ros1-transmission': ('</robot>', '<transmission name="t1" type="pr2_mechanism_model/'
                                'SimpleTransmission"><joint name="arm_j1"/><actuator '
                                'name="m1"/><mechanicalReduction>1</mechanicalReduction>'
                                '</transmission></robot>'),
    'pr2-wrist-transmission': ('</robot>', '<transmission type="pr2_mechanism_model/'
                               'WristTransmission" name="wrist"><rightActuator name="r"/>'
                               '<leftActuator name="l"/><flexJoint name="arm_j2" '
                               'mechanicalReduction="-60.17"/><rollJoint name="arm_j3" '
                               'mechanicalReduction="60.17"/></transmission></robot>'),
    'pr2-calibration-safety': ('<axis ', '<calibration rising="0.0"/><safety_controller '
                               'k_position="100" k_velocity="10" soft_lower_limit="-1" '
                               'soft_upper_limit="1"/><axis '),
    'gazebo': ('</robot>', '<gazebo reference="arm_link1"><material>Gazebo/Grey</material>'
               '<sensor type="camera" name="c"><camera><image><width>640</width></image>'
               '</camera></sensor></gazebo><gazebo><plugin name="p" filename="x.so"/>'
               '</gazebo></robot>'),
    'top-level-material': ('</robot>', '<material name="grey"><color rgba="0.5 0.5 0.5 1"/>'
                           '<texture/></material></robot>'),
    'ros2-control': ('</robot>', '<ros2_control name="hw" type="system"><hardware><plugin>'
                     'mock_components/GenericSystem</plugin></hardware><joint name="arm_j1">'
                     '<command_interface name="effort"/></joint></ros2_control></robot>'),
    'mujoco': ('</robot>', '<mujoco><compiler meshdir="meshes" balanceinertia="true" '
               'discardvisual="false"/></mujoco></robot>'),
    'no-robot-name': ('<robot name="tolerant">', '<robot>'),
}


def plain_arm():
    """Build a 3-joint random arm (the reference the decorated copies must equal)."""
    return tree_urdf(5, arm('arm', 'base', 3), name='tolerant')


@pytest.mark.parametrize('case', sorted(EXTRAS))
def test_parts_without_dynamics_never_fail_a_load(case):
    plain = plain_arm()
    old, new = EXTRAS[case]
    assert old in plain
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)       # not even a warning
        model = RobotModel.from_urdf(plain.replace(old, new, 1))
    reference = RobotModel.from_urdf(plain)
    q, qd, qdd = random_state(np.random.default_rng(1), 3)
    assert np.array_equal(rd.inverse_dynamics(model, q, qd, qdd),
                          rd.inverse_dynamics(reference, q, qd, qdd))
    assert model.name == ('robot' if case == 'no-robot-name' else 'tolerant')


def test_mimic_joint_on_the_chain_is_a_coordinate_of_its_own_and_said_so():
    """As Pinocchio and KDL load it (issue 32: it was refused); the note gives the coupling."""
    urdf = tree_urdf(2, [('j', 'revolute', 'b', 'a'),
                         ('k', 'revolute', 'a', 'c', (-1.0, 1.0), ('j', 2.0, 0.1))])
    with pytest.warns(ModelWarning, match=r'URDF <mimic> joint\(s\) on the chain, loaded as '
                                          r'coordinates of their own.*keep k = 2 j \+ 0\.1 in q, '
                                          r'qd and qdd yourself, or choose a tip_link above'):
        model = RobotModel.from_urdf(urdf, tip_link='c')
    assert model.joint_names == ('j', 'k') and not model.locked_joints


def test_mimic_of_a_chain_joint_is_locked_at_its_default_and_said_so():
    urdf = tree_urdf(2, [('j', 'revolute', 'b', 'a'),
                         ('k', 'revolute', 'a', 'c', (-1.0, 1.0), ('j', 2.0, 0.1))])
    with pytest.warns(ModelWarning, match=r"k=0 rad; .* 'k' mimics chain joint 'j' and is "
                                          'locked at its default instead'):
        model = RobotModel.from_urdf(urdf)
    assert model.joint_names == ('j',) and dict(model.locked_joints) == {'k': 0.0}


def test_a_mimic_mid_arm_continues_the_default_chain_as_pinocchio_loads_it():
    """A palletizer: the parallelogram joint mimics the shoulder, a wrist joint lies below it.

    The default chain goes on through the mimic (it used to end there and lock the wrist):
    five coordinates, the note gives the coupling, dynamics = Pinocchio's model to 1e-13. A
    gripper's mimic finger at the end still ends the chain.
    """
    joints = arm('p', 'base', 3) + [
        ('p_parallel', 'revolute', 'p_link3', 'p_link4', (-2.0, 2.0), ('p_j2', -1.0, 0.0)),
        ('p_wrist', 'revolute', 'p_link4', 'p_flange'),
        ('p_flange_tool0', 'fixed', 'p_flange', 'p_tool0')] + gripper('p', 'p_tool0')
    urdf = tree_urdf(8, joints, name='palletizer')
    model, said = load_with_notes(urdf)
    assert model.joint_names == ('p_j1', 'p_j2', 'p_j3', 'p_parallel', 'p_wrist')
    assert sorted(dict(model.locked_joints)) == ['p_finger_joint1', 'p_finger_joint2']
    assert [line for line in said if 'keep p_parallel = -1 p_j2 + 0 in q' in line]
    assert_chain_equals_pinocchio(model, urdf)
    tip = tree_urdf(8, joints[:4], name='ends_in_a_mimic')     # nothing below the mimic
    assert load_with_notes(tip)[0].joint_names == ('p_j1', 'p_j2', 'p_j3')


# ---------------------------------------------------------------------- size and depth
LINK = ('<link name="{name}"><inertial><origin xyz="0 0 0.05" rpy="0.1 0 0"/><mass value="1"/>'
        '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial><visual>'
        '<origin xyz="0 0 0" rpy="0 0 0"/><geometry><mesh filename="package://big/{name}.dae" '
        'scale="1 1 1"/></geometry><material name="grey"><color rgba="0.5 0.5 0.5 1"/>'
        '</material></visual><collision><origin xyz="0 0 0" rpy="0 0 0"/><geometry><mesh '
        'filename="package://big/{name}.stl"/></geometry></collision></link>\n')
JOINT = ('<joint name="j{child}" type="{kind}"><parent link="l{parent}"/><child '
         'link="l{child}"/><origin xyz="0 0 0.1" rpy="0 0 0.2"/><axis xyz="0 1 0"/><limit '
         'lower="-1" upper="1" effort="1" velocity="1"/></joint>\n')


def big_urdf(links, moving_every):
    """``links`` links in a row, every ``moving_every``-th joint revolute, the others fixed."""
    parts = ['<robot name="big"><link name="l0"/>']
    for i in range(1, links + 1):
        kind = 'revolute' if (i - 1) % moving_every == 0 else 'fixed'
        parts += [LINK.format(name=f'l{i}'), JOINT.format(child=i, parent=i - 1, kind=kind)]
    return ''.join(parts) + '</robot>'


def test_five_megabyte_urdf_loads_in_linear_time():
    """10x the links (5 MB) costs under 30x the CPU time: linear, not quadratic (100x).

    The absolute figure (0.41 s for the 5 MB file) is benchmarks/urdf_loading.py's.
    """
    small, large = big_urdf(750, moving_every=10), big_urdf(7500, moving_every=100)
    assert len(large) > 5e6
    model = RobotModel.from_urdf(large)
    assert model.dof == 75 and model.tip_link == 'l7500'
    ratio = growth_ratio(lambda: RobotModel.from_urdf(small),
                         lambda: RobotModel.from_urdf(large), repeats=2)
    assert ratio < 30, ratio


def test_duplicate_name_in_a_large_urdf_is_found_in_linear_time():
    def duplicated(links):
        return big_urdf(links, moving_every=100).replace(f'<link name="l{links - 1}">',
                                                         '<link name="l5">')
    small, large = duplicated(700), duplicated(7000)
    ratio = growth_ratio(lambda: _load_error(small), lambda: _load_error(large), repeats=2)
    assert ratio < 30, ratio


def _load_error(text):
    with pytest.raises(URDFError, match=r"duplicate link or joint names \['l5'\]"):
        RobotModel.from_urdf(text)


def test_twenty_thousand_fixed_links_in_a_row_load_without_recursion():
    n = 20000
    parts = ['<robot name="deep"><link name="l0"/>', LINK.format(name='l1'),
             JOINT.format(child=1, parent=0, kind='revolute')]
    for i in range(2, n + 1):
        parts.append(f'<link name="l{i}"><inertial><mass value="0.001"/><inertia ixx="0" '
                     'iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link><joint '
                     f'name="j{i}" type="fixed"><parent link="l{i - 1}"/><child link="l{i}"/>'
                     '<origin xyz="0.001 0 0"/></joint>')
    model = RobotModel.from_urdf(''.join(parts) + '</robot>')
    assert model.dof == 1 and model.tip_link == f'l{n}'
    assert model.tip_translation == pytest.approx([(n - 1) * 0.001, 0, 0])
    assert model.mass[0] == pytest.approx(1 + (n - 1) * 0.001)
    # l1's centre of mass is 0.05 m along z; the point masses sit at 0.001 k m along x,
    # k = 1 … n-1.
    first_moment = [0.001 * 0.001 * (n - 1) * n / 2, 0, 0.05]
    assert np.allclose(model.com[0] * model.mass[0], first_moment, rtol=1e-12, atol=1e-15)
