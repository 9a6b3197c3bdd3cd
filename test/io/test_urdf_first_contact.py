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
"""What a newcomer's first URDFs meet (issue 20.9), against Pinocchio where it loads them.

The URDF specification reads a moving link without ``<inertial>`` as massless: it loads (with a
warning), as Pinocchio loads it. A joint with ``lower == upper`` moves, as in Pinocchio and KDL
(issue 32: SolidWorks writes that on every joint to mean "not set"), with a warning; held fixed
only on request (``locked_joints``). Below a floating root joint the chain starts (issue 32;
it was refused); an unexpanded xacro file is refused with the fix; xacro's output (namespace
declared, macro calls in comments) loads.
"""

import re
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.errors import URDFError
from urdf_trees import oracle_dynamics, reduced_oracle

INERTIAL = ('<inertial><origin xyz="{c} 0 0"/><mass value="{m}"/><inertia ixx="0.01" '
            'iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>')


def arm(middle_inertial=True, middle_limit='lower="-2" upper="2"', root=''):
    """Three revolute joints; the middle link's inertial and joint limits are the variables."""
    links = ['<link name="base_link"/>']
    for k, (m, c) in enumerate(((2.0, 0.1), (1.5, 0.2), (1.0, 0.15)), start=1):
        inertial = INERTIAL.format(m=m, c=c) if k != 2 or middle_inertial else ''
        links.append(f'<link name="l{k}">{inertial}</link>')
    joints = []
    for k, axis in enumerate(('0 0 1', '0 1 0', '0 1 0'), start=1):
        limit = middle_limit if k == 2 else 'lower="-2" upper="2"'
        parent = 'base_link' if k == 1 else f'l{k - 1}'
        joints.append(f'<joint name="j{k}" type="revolute"><parent link="{parent}"/><child '
                      f'link="l{k}"/><origin xyz="0.3 0 0.1"/><axis xyz="{axis}"/>'
                      f'<limit {limit} effort="10" velocity="1"/></joint>')
    return f'<robot name="arm">{root}{"".join(links + joints)}</robot>'


def load(urdf):
    """Load; return the model and its ModelWarning lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(urdf)
    return model, [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]


def agree_with_pinocchio(model, urdf, locked=None):
    """ID, M and G of ``model`` equal Pinocchio's (joints in ``locked`` locked) to 1e-10."""
    chain = list(model.joint_names)
    reduced = reduced_oracle(urdf, chain, locked or {}) if locked else \
        pin.buildModelFromXML(urdf)
    rng = np.random.default_rng(2)
    q, qd, qdd = rng.uniform(-1, 1, (3, model.dof))
    tau, M, g, _ = oracle_dynamics(reduced, q, qd, qdd, 'base_link')
    np.testing.assert_allclose(rd.inverse_dynamics(model, q, qd, qdd), tau, rtol=0, atol=1e-10)
    np.testing.assert_allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-10)
    np.testing.assert_allclose(rd.gravity_torques(model, q), g, rtol=0, atol=1e-10)


def test_a_moving_link_without_inertial_is_massless_with_a_warning():
    urdf = arm(middle_inertial=False)
    model, said = load(urdf)
    assert model.dof == 3 and model.mass[1] == 0.0
    assert any("moving link 'l2' (child of joint 'j2') has no <inertial>: loaded massless"
               in line for line in said), said
    agree_with_pinocchio(model, urdf)


@pytest.mark.parametrize('value', [0.0, 0.7])
def test_a_joint_with_equal_limits_moves_with_a_warning_as_in_pinocchio(value):
    urdf = arm(middle_limit=f'lower="{value}" upper="{value}"')
    model, said = load(urdf)
    assert list(model.joint_names) == ['j1', 'j2', 'j3']
    assert (model.lower_limit[1], model.upper_limit[1]) == (-np.inf, np.inf)
    assert any(f'<limit lower= upper=> equal (zero width) on j2 at {value:g}: loaded moving '
               'with no position limit' in line and f"locked_joints={{'j2': {value:g}}}" in line
               for line in said), said
    agree_with_pinocchio(model, urdf)


def test_inverted_limits_move_with_a_warning_as_in_pinocchio():
    urdf = arm(middle_limit='lower="1.5" upper="-0.5"')
    model, said = load(urdf)
    assert (model.lower_limit[1], model.upper_limit[1]) == (-np.inf, np.inf)
    assert any('inverted (lower > upper) on j2 (lower 1.5, upper -0.5): loaded moving with no '
               'position limit' in line for line in said), said
    agree_with_pinocchio(model, urdf)


@pytest.mark.parametrize('value', [0.0, 0.7])
def test_a_chain_joint_is_held_fixed_where_locked_joints_asks(value):
    urdf = arm(middle_limit=f'lower="{value}" upper="{value}"')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(urdf, locked_joints={'j2': value})
    assert list(model.joint_names) == ['j1', 'j3'] and not model.locked_joints
    agree_with_pinocchio(model, urdf, locked={'j2': value})
    with pytest.raises(URDFError, match=r"'j3' = 2.5 is outside its limits \[-2.0, 2.0\]"):
        rd.RobotModel.from_urdf(urdf, locked_joints={'j3': 2.5})


def test_a_floating_root_joint_starts_the_chain_below_it():
    """Issue 32 (was refused, naming base_link=): Pinocchio loads it; the fixed base is below.

    Pinocchio's model with the floating joint locked at its origin; asked for explicitly, the
    root is still refused with the hint.
    """
    root = ('<link name="world"/><joint name="float" type="floating"><parent link="world"/>'
            '<child link="base_link"/></joint>')
    model, said = load(arm(root=root))
    assert list(model.joint_names) == ['j1', 'j2', 'j3'] and model.base_link == 'base_link'
    assert any("'float' (floating) above the arm" in line and "base_link 'base_link'" in line
               for line in said), said
    agree_with_pinocchio(model, arm(root=root), locked={'float': 0.0})
    with pytest.raises(URDFError, match=r"'floating'.*base_link='base_link' \(command line: "
                                        r'--base-link base_link'):
        rd.RobotModel.from_urdf(arm(root=root), base_link='world')


XACRO = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


@pytest.mark.parametrize('source, what', [
    (f'<robot name="a" {XACRO}><xacro:property name="m" value="1"/></robot>',
     '<xacro:property>'),
    ('<robot name="a">\n<xacro:include filename="arm.xacro"/></robot>',      # undeclared
     '<xacro:include>'),
    ('<robot name="a" xmlns:x="http://ros.org/wiki/xacro"><x:macro name="m"/></robot>',
     '<x:macro>'),                                      # another prefix, old URI
    (f'<robot name="a" {XACRO}><link name="b" xacro:if="1"/></robot>',
     'attribute xacro:if of <link>'),
])
def test_xacro_is_refused_with_the_command_that_expands_it(source, what):
    with pytest.raises(URDFError, match=re.escape(f'URDF contains xacro macros ({what}); expand '
                                                  'it first: xacro robot.urdf.xacro > '
                                                  'robot.urdf')):
        load(source)


def test_a_xacro_value_where_a_number_belongs_names_the_fix():
    text = arm().replace('<mass value="1.5"/>', '<mass value="${m}"/>')
    with pytest.raises(URDFError, match=r"'\$\{m\}' is not a number; this is xacro: expand it "
                                        r'first \(xacro'):
        load(text)


@pytest.mark.parametrize('comment', [
    '<!-- <xacro:arm prefix="left_" parent="torso"/> -->',
    '<!-- generated from <xacro:include filename="$(find arm)/arm.xacro"/> -->',
    '<!-- the old file had <!DOCTYPE robot [<!ENTITY pi "3.14">]> -->',
    '<!-- <!ENTITY m "1.5"> -->',
])
def test_xacro_output_with_its_namespace_and_comments_loads(comment):
    """The output of xacro keeps macro calls in comments and its namespace: it is expanded."""
    plain = arm()
    expanded = plain.replace('<robot name="arm">', f'<?xml version="1.0"?>\n{comment}\n'
                             f'<robot name="arm" {XACRO}>{comment}')
    model, _ = load(expanded)
    reference, _ = load(plain)
    q = np.array([0.3, -0.4, 0.8])
    np.testing.assert_array_equal(rd.mass_matrix(model, q), rd.mass_matrix(reference, q))
    agree_with_pinocchio(model, expanded)


@pytest.mark.parametrize('prefix', ['', '<?xml version="1.0"?>\n'])
def test_a_doctype_is_refused_where_the_parser_meets_it(prefix):
    with pytest.raises(URDFError, match='DOCTYPE or ENTITY declaration'):
        load(prefix + '<!DOCTYPE robot [<!ENTITY m "1.5">]>' + arm().replace('1.5', '&m;'))
    with pytest.raises(URDFError, match='DOCTYPE or ENTITY declaration'):
        load(prefix + '<!doctype robot>' + arm())                 # malformed, still named
