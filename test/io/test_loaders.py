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
"""Model validation, the URDF loader and the DH loader: behaviour and every documented error."""

import math
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import DHError, ModelError, RobotModel, URDFError
from robot_dynamics.model import ModelWarning
from robot_dynamics.io.friction_yaml import friction_yaml
from robot_dynamics.io.urdf_writer import model_to_urdf
from robots import (joint, link, pinocchio_configuration, quiet_model_from_urdf, random_model,
                    random_state, robot)


def arm_with_fixed_links():
    """Build: base -fixed- mount -rev- l1 -fixed- sensor(+mass) ; l1 -prism- l2 -fixed- tool."""
    return robot(
        '<link name="world"/>', link('mount', m=5.0),
        joint('world_to_mount', 'world', 'mount', 'fixed', xyz='0.1 0.2 0.3', rpy='0.1 0 0.3'),
        link('l1'), joint('j1', 'mount', 'l1', xyz='0 0 0.2', rpy='0 0.4 0', axis='0 1 0',
                          extra='<limit lower="-2" upper="2" effort="50" velocity="3"/>'
                                '<dynamics damping="0.7" friction="0.2"/>'),
        link('sensor', m=0.5, c='0 0.05 0'),
        joint('l1_to_sensor', 'l1', 'sensor', 'fixed', xyz='0.05 0 0', rpy='0.3 0.2 0.1'),
        link('l2', m=2.0), joint('j2', 'l1', 'l2', 'prismatic', xyz='0.3 0 0', axis='1 0 0'),
        link('l3', m=1.0), joint('j3', 'l2', 'l3', 'continuous', xyz='0 0 0.1', axis='0 0 1',
                                 extra=''),
        '<link name="tool"/>', joint('to_tool', 'l3', 'tool', 'fixed', xyz='0 0 0.15'))


# ---------------------------------------------------------------------- model validation
def test_model_is_immutable():
    model = random_model(np.random.default_rng(0), 3)
    with pytest.raises(ValueError):
        model.mass[0] = 3.0
    with pytest.raises(AttributeError):
        model.gravity = np.zeros(3)
    changed = model.with_gravity([0, 0, -1.62])
    assert np.array_equal(changed.gravity, [0, 0, -1.62])
    assert np.array_equal(model.gravity, [0, 0, -9.81])


def model_fields(**changes):
    """Fields of a valid two-joint model, with changes."""
    fields = dict(joint_types=['revolute', 'prismatic'], axis=[[0, 0, 1], [1, 0, 0]],
                  placement_rotation=[np.eye(3)] * 2, placement_translation=np.zeros((2, 3)),
                  mass=[1.0, 1.0], com=np.zeros((2, 3)), inertia=[np.eye(3) * 0.1] * 2)
    fields.update(changes)
    return fields


@pytest.mark.parametrize('changes, message', [
    (dict(joint_types=['revolute', 'spherical']), r"joint_types\[1\]: unknown joint type"),
    (dict(axis=[[0, 0, 0], [1, 0, 0]]), r"axis of joint 'joint1' has zero length"),
    (dict(mass=[1.0, -2.0]), r"mass of link 'link2' is -2.0"),
    (dict(inertia=[np.diag([1.0, -1.0, 1.0]), np.eye(3)]), 'not positive semi-definite'),
    (dict(inertia=[np.array([[1, 0.5, 0], [0, 1, 0], [0, 0, 1.0]]), np.eye(3)]),
     'not symmetric'),
    (dict(placement_rotation=[np.diag([1.0, 1.0, -1.0]), np.eye(3)]), 'not a proper rotation'),
    (dict(mass=[1.0, np.nan]), 'mass: contains NaN'),
    (dict(com=np.zeros((3, 3))), r'com: expected shape \(2, 3\)'),
    (dict(joint_types=[]), 'no moving joint'),
    (dict(lower_limit=[1.0, 0.0], upper_limit=[0.0, 1.0]), 'lower_limit > upper_limit'),
    (dict(joint_names=['a', 'a']), 'not unique'),
    (dict(viscous_friction=[-1.0, 0.0]), 'viscous_friction must be >= 0'),
])
def test_invalid_model_is_a_clear_error(changes, message):
    with pytest.raises(ModelError, match=message):
        RobotModel(**model_fields(**changes))


def test_triangle_inequality_and_massless_links_warn():
    with pytest.warns(ModelWarning, match='triangle inequality'):
        model = RobotModel(**model_fields(inertia=[np.diag([0.0, 0.35, 0.0]), np.eye(3)]))
    assert any('triangle' in w for w in model.warnings)
    with pytest.warns(ModelWarning, match='massless moving links: link1'):
        RobotModel(**model_fields(mass=[0.0, 1.0]))


def test_payload_merges_with_parallel_axis_theorem():
    rng = np.random.default_rng(4)
    model = random_model(rng, 3, prismatic_fraction=0.0)
    heavy = model.with_payload(2.0, com=[0.0, 0.0, 0.1], inertia=[0.01, 0.01, 0.02, 0, 0, 0])
    assert heavy.mass[-1] == pytest.approx(model.mass[-1] + 2.0)
    # A payload is a rigid body fixed to the tool: equal to a model with an extra fixed link.
    urdf = model.to_urdf().replace('</robot>', (
        '<link name="payload"><inertial><origin xyz="0 0 0.1"/><mass value="2.0"/>'
        '<inertia ixx="0.01" iyy="0.01" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>'
        f'<joint name="payload_fix" type="fixed"><parent link="{model.tip_link}"/>'
        '<child link="payload"/></joint></robot>'))
    reference = RobotModel.from_urdf(urdf, tip_link='payload')
    q, qd, qdd = random_state(rng, 3)
    assert np.allclose(rd.inverse_dynamics(heavy, q, qd, qdd),
                       rd.inverse_dynamics(reference, q, qd, qdd), atol=1e-11)
    with pytest.raises(ModelError, match='payload mass'):
        model.with_payload(-1.0)


def test_replace_rejects_unknown_fields():
    model = random_model(np.random.default_rng(0), 2)
    with pytest.raises(ModelError, match="unknown RobotModel field"):
        model.replace(masses=[1, 2])


# ---------------------------------------------------------------------- URDF loader
def test_fixed_joints_merge_like_pinocchio():
    text = arm_with_fixed_links()
    model = RobotModel.from_urdf(text)
    assert model.joint_names == ('j1', 'j2', 'j3')
    assert model.joint_types == ('revolute', 'prismatic', 'revolute')
    assert model.base_link == 'world' and model.tip_link == 'tool'
    assert model.viscous_friction[0] == 0.7 and model.coulomb_friction[0] == 0.2
    assert model.lower_limit[0] == -2 and model.effort_limit[0] == 50
    assert model.lower_limit[2] == -math.inf and model.upper_limit[2] == math.inf
    assert model.mass[0] == pytest.approx(1.5)                       # l1 + sensor
    pin_model = pin.buildModelFromXML(text)
    data = pin_model.createData()
    rng = np.random.default_rng(8)
    rigid = model.without_joint_effects()
    for _ in range(5):
        q, qd, qdd = random_state(rng, 3)
        config = pinocchio_configuration(pin_model, q)
        assert np.allclose(rd.inverse_dynamics(rigid, q, qd, qdd),
                           pin.rnea(pin_model, data, config, qd, qdd), atol=1e-10)
        pin.framesForwardKinematics(pin_model, data, config)
        tool = data.oMf[pin_model.getFrameId('tool')]
        T = rd.tip_pose(model, q)
        assert np.allclose(T[:3, :3], tool.rotation, atol=1e-12)
        assert np.allclose(T[:3, 3], tool.translation, atol=1e-12)


def test_subchain_selection_and_leaves():
    text = robot('<link name="base"/>', link('a'), joint('ja', 'base', 'a'), link('b'),
                 joint('jb', 'a', 'b'), link('c'), joint('jc', 'a', 'c'))
    with pytest.raises(URDFError, match=r"candidate tips \['b', 'c'\]; pass tip_link"):
        RobotModel.from_urdf(text)
    with pytest.warns(ModelWarning, match=r'locked 1 side-branch joint\(s\).*: jb=0 rad'):
        model = RobotModel.from_urdf(text, tip_link='c')
    assert model.joint_names == ('ja', 'jc') and dict(model.locked_joints) == {'jb': 0.0}
    assert RobotModel.from_urdf(text, base_link='a', tip_link='b').joint_names == ('jb',)
    with pytest.raises(URDFError, match="no path from base_link 'b' to tip_link 'c'"):
        RobotModel.from_urdf(text, base_link='b', tip_link='c')
    with pytest.raises(URDFError, match="unknown link 'zz'"):
        RobotModel.from_urdf(text, tip_link='zz')


def test_transmissions_give_gear_ratio_and_rotor_inertia():
    text = robot('<link name="base"/>', link('a'), joint('ja', 'base', 'a'),
                 '<transmission name="t"><type>transmission_interface/SimpleTransmission</type>'
                 '<joint name="ja"><hardwareInterface>EffortJointInterface</hardwareInterface>'
                 '</joint><actuator name="m"><mechanicalReduction>50</mechanicalReduction>'
                 '<rotorInertia>2e-4</rotorInertia></actuator></transmission>')
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)          # the extension tag is known
        model = RobotModel.from_urdf(text)
    assert model.gear_ratio[0] == 50 and model.rotor_inertia[0] == 2e-4
    assert model.reflected_inertia[0] == pytest.approx(0.5)


def test_file_path_and_text_load_the_same(tmp_path):
    path = tmp_path / 'arm.urdf'
    path.write_text(arm_with_fixed_links())
    from_file, from_text = RobotModel.from_urdf(str(path)), RobotModel.from_urdf(path.read_text())
    assert np.array_equal(from_file.inertia, from_text.inertia)


def test_model_to_urdf_round_trip():
    rng = np.random.default_rng(9)
    model = random_model(rng, 6, friction=True, rotor=True)
    back = RobotModel.from_urdf(model.to_urdf())
    q, qd, qdd = random_state(rng, 6)
    assert np.allclose(rd.inverse_dynamics(model, q, qd, qdd),
                       rd.inverse_dynamics(back, q, qd, qdd), atol=1e-10)


@pytest.mark.parametrize('text, message', [
    ('<robot name="x"><link name="a"', 'malformed URDF'),
    ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><robot name="x"/>',
     'DOCTYPE or ENTITY declaration'),
    ('<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><robot name="&e;"/>',
     'DOCTYPE or ENTITY'),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', 'floating', extra='')),
     "joint 'j' is 'floating'"),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', 'planar', extra='')),
     "joint 'j' is 'planar'"),
    (robot('<link name="b"/>', link('a', m=-1.0), joint('j', 'b', 'a')), 'negative mass'),
    (robot('<link name="b"/>', link('a', m='nan'), joint('j', 'b', 'a')), 'not finite'),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', xyz='0 nan 0')),
     'origin xyz contains NaN'),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', axis='0 0 0')),
     r"joint 'j': <axis xyz> must be three finite numbers, not all zero"),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'zz')), "names unknown link 'zz'"),
    (robot('<link name="b"/>', link('a'), link('c'), joint('j', 'b', 'a'),
           joint('k', 'c', 'a')), 'kinematic loop'),
    (robot(link('a'), link('c'), joint('j', 'c', 'a'), joint('k', 'a', 'c')), 'cycle'),
    (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', 'fixed')), 'no moving joint'),
    (robot('<link name="b"/>', link('a', ixx=-1.0), joint('j', 'b', 'a')),
     'not positive semi-definite'),
    ('/nonexistent/robot.urdf', "URDF file '/nonexistent/robot.urdf' not found"),
])
def test_urdf_errors_name_the_element_and_fix(text, message):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        with pytest.raises(ModelError, match=message):
            RobotModel.from_urdf(text)


def test_massless_moving_link_warns():
    text = robot('<link name="b"/>', link('a', m=0.0, ixx=0, iyy=0, izz=0.1, ixy=0),
                 joint('j', 'b', 'a'))
    with pytest.warns(ModelWarning, match='massless moving links: a'):
        RobotModel.from_urdf(text)


# ---------------------------------------------------------------------- DH loader
def dh_standard(a, alpha, d, theta):
    """Paul's distal DH matrix Rz(θ) Tz(d) Tx(a) Rx(α)."""
    ca, sa, ct, st = math.cos(alpha), math.sin(alpha), math.cos(theta), math.sin(theta)
    return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                     [0, sa, ca, d], [0, 0, 0, 1]])


def dh_modified(a, alpha, d, theta):
    """Craig's proximal DH matrix Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i) (Craig 3.6)."""
    ca, sa, ct, st = math.cos(alpha), math.sin(alpha), math.cos(theta), math.sin(theta)
    return np.array([[ct, -st, 0, a], [st * ca, ct * ca, -sa, -sa * d],
                     [st * sa, ct * sa, ca, ca * d], [0, 0, 0, 1]])


TABLE = [  # (type, a, alpha, d, theta/offset)
    ('revolute', 0.1, 1.2, 0.3, 0.2),
    ('prismatic', 0.4, -0.7, 0.1, 0.5),
    ('revolute', 0.0, 1.5707963267948966, 0.2, -0.3),
    ('revolute', 0.25, 0.0, 0.0, 0.0),
]


def dh_document(convention):
    """Build a mixed DH table as a dict (the joint constant goes to offset/theta)."""
    links = []
    for kind, a, alpha, d, constant in TABLE:
        entry = {'type': kind, 'a': a, 'alpha': alpha, 'd': d, 'mass': 1.5,
                 'com': [0.05, -0.02, 0.1], 'inertia': [0.02, 0.03, 0.025, 0.001, 0.002, -0.001]}
        if kind == 'revolute':
            entry['offset'] = constant
        else:
            entry['theta'] = constant
        links.append(entry)
    return {'convention': convention, 'links': links}


@pytest.mark.parametrize('convention, matrix', [('standard', dh_standard),
                                                ('modified', dh_modified)])
def test_dh_kinematics_follow_the_convention(convention, matrix):
    model = RobotModel.from_dh(dh_document(convention))
    q = np.array([0.3, 0.2, -1.1, 0.7])
    T = np.eye(4)
    for (kind, a, alpha, d, constant), qi in zip(TABLE, q):
        if kind == 'revolute':
            T = T @ matrix(a, alpha, d, qi + constant)
        else:
            T = T @ matrix(a, alpha, d + qi, constant)
    assert np.allclose(rd.tip_pose(model, q), T, atol=1e-12)


@pytest.mark.parametrize('convention, matrix', [('standard', dh_standard),
                                                ('modified', dh_modified)])
def test_dh_inertial_data_live_in_the_link_frame(convention, matrix):
    """Potential energy from the DH link frames' com positions equals the model's."""
    document = dh_document(convention)
    model = RobotModel.from_dh(document)
    q = np.array([0.1, 0.3, 0.5, -0.4])
    T, energy = np.eye(4), 0.0
    for (kind, a, alpha, d, constant), qi, entry in zip(TABLE, q, document['links']):
        T = T @ (matrix(a, alpha, d, qi + constant) if kind == 'revolute'
                 else matrix(a, alpha, d + qi, constant))
        com = T[:3, :3] @ np.array(entry['com']) + T[:3, 3]
        energy += entry['mass'] * 9.81 * com[2]
    assert rd.potential_energy(model, q) == pytest.approx(energy, abs=1e-12)


def test_dh_yaml_text_path_and_dict_agree(tmp_path):
    import yaml
    document = dh_document('modified')
    text = yaml.safe_dump(document)
    path = tmp_path / 'arm.yaml'
    path.write_text(text)
    models = [RobotModel.from_dh(x) for x in (document, text, str(path))]
    assert all(np.array_equal(m.inertia, models[0].inertia) for m in models)


def test_dh_angles_as_pi_strings():
    model = RobotModel.from_dh({'convention': 'standard',
                                'links': [{'a': 0, 'alpha': '-pi/2', 'd': 0, 'mass': 1}]})
    assert np.allclose(model.tip_rotation, [[1, 0, 0], [0, 0, 1], [0, -1, 0]])


@pytest.mark.parametrize('document, message', [
    ({'convention': 'sideways', 'links': [{'a': 0, 'alpha': 0, 'd': 0}]},
     'convention: must be "standard"'),
    ({'links': [{'a': 0, 'alpha': 0, 'd': 0}]}, 'convention: must be'),
    ({'convention': 'standard', 'links': []}, 'links: expected a non-empty list'),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0}]},
     r"links\[0\]: missing field 'd'"),
    ({'convention': 'standard', 'links': [{'a': 'x', 'alpha': 0, 'd': 0}]},
     r"links\[0\].a: expected a number, got 'x'"),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0, 'mas': 1}]},
     r"links\[0\]: unknown field\(s\) \['mas'\]"),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0, 'com': [0, 0]}]},
     r'links\[0\].com: expected a list of 3 numbers'),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0, 'inertia': [1, 2]}]},
     r'links\[0\].inertia'),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0, 'type': 'ball'}]},
     r'links\[0\].type: must be "revolute" or "prismatic"'),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0, 'type': 'prismatic'}]},
     r"missing field 'theta'"),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': 0}], 'gravity': [0, 9.8]},
     'gravity: expected a list of 3'),
    ({'convention': 'standard', 'links': [{'a': 0, 'alpha': 0, 'd': float('nan')}]},
     'must be finite'),
    ({'convention': 'standard', 'lnks': []}, r"unknown top-level field\(s\) \['lnks'\]"),
    ('- just\n- a list\n', 'must be a mapping'),
    ('missing_file.yaml', "DH file 'missing_file.yaml' not found"),
])
def test_dh_errors_name_the_field_and_fix(document, message):
    with pytest.raises(DHError, match=message):
        RobotModel.from_dh(document)


def test_to_urdf_says_which_gravity_it_cannot_carry():
    """URDF has no gravity: a model's own goes in a comment with the call that restores it."""
    model = random_model(np.random.default_rng(41), 3).with_gravity([0.5, -1.0, -9.7])
    text = model.to_urdf()
    assert ('<!-- gravity [0.5, -1.0, -9.7] m/s^2 in the base frame: URDF has no gravity; load '
            'with RobotModel.from_urdf(..., gravity=[0.5, -1.0, -9.7]) -->') in text
    again = RobotModel.from_urdf(text, gravity=[0.5, -1.0, -9.7])
    q = np.array([0.3, -0.4, 0.5])
    assert np.allclose(rd.gravity_torques(again, q), rd.gravity_torques(model, q),
                       rtol=1e-12, atol=1e-12)
    assert 'gravity' not in model.with_gravity([0.0, 0.0, -9.81]).to_urdf()


def test_to_urdf_says_which_friction_it_cannot_carry_and_the_sidecar_restores_it():
    """Trial 3: to_urdf() dropped the offset and Stribeck terms without a word (0.092 N m)."""
    model = random_model(np.random.default_rng(43), 3, friction=True).replace(
        friction_offset=[0.3, 0.0, 0.0], stribeck_friction=[0.0, 0.0, 0.4],
        stribeck_velocity=[0.1, 0.1, 0.1])
    with pytest.warns(ModelWarning, match=r"friction law \(offset, asymmetry, smoothing, "
                      r"Stribeck\) of joints \['joint1', 'joint3'\] is not written; save it "
                      r'with robot_dynamics.io.friction_yaml.friction_yaml\(model\)'):
        text = model.to_urdf()
    q, qd = np.array([0.3, -0.4, 0.5]), np.array([0.05, -0.2, 0.02])
    back = quiet_model_from_urdf(text).with_friction(friction_yaml(model))
    assert np.allclose(rd.inverse_dynamics(back, q, qd, np.zeros(3)),
                       rd.inverse_dynamics(model, q, qd, np.zeros(3)), rtol=1e-12, atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)      # the CLI names its sidecar: no warning
        model_to_urdf(model, sidecar='arm.friction.yaml')
        random_model(np.random.default_rng(43), 3, friction=True).to_urdf()
