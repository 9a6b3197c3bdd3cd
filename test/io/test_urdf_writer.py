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
"""Issue 22.9: written URDFs are escaped XML that the loader and Pinocchio read back."""

import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.io.urdf_writer import comment_text, model_to_urdf
from robots import pinocchio_configuration, random_model, random_state

NAMES = ['R&D "arm"', "j&1 <x> 'y'", 'link]]>--', 'tab\there', 'new\nline', 'ünï ☃']


def hostile_names(model):
    n = model.dof
    return model.replace(
        name='R&D "arm" <!-- -->', base_link='base & <co>',
        joint_names=[f'{NAMES[k % len(NAMES)]}#{k}' for k in range(n)],
        link_names=[f'{NAMES[(k + 1) % len(NAMES)]}@{k}' for k in range(n)],
        tip_link='tool "0"')


@pytest.fixture(params=[3, 6])
def model(request):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        base = random_model(np.random.default_rng(request.param), request.param,
                            friction=True, rotor=True)
    return hostile_names(base)


def reload(text):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.RobotModel.from_urdf(text)


def test_names_and_values_read_back(model):
    text = model_to_urdf(model, comment='identified from run--2.csv and run---3.csv -')
    ET.fromstring(text.encode())                 # well-formed
    back = reload(text)
    for field in ('name', 'joint_names', 'link_names', 'base_link', 'joint_types'):
        assert getattr(back, field) == getattr(model, field), field
    assert back.tip_link in (model.tip_link, model.tip_link + '_tool')
    for field in ('axis', 'placement_translation', 'placement_rotation', 'mass', 'com',
                  'inertia', 'viscous_friction', 'coulomb_friction', 'rotor_inertia',
                  'gear_ratio', 'tip_translation', 'tip_rotation'):
        assert np.allclose(getattr(back, field), getattr(model, field), rtol=0,
                           atol=1e-12), field


def test_pinocchio_reads_the_escaped_urdf_and_agrees(model):
    pm = pin.buildModelFromXML(model.to_urdf())
    assert [pm.names[k] for k in range(1, pm.njoints)] == list(model.joint_names)
    rigid = model.without_joint_effects()
    q, qd, qdd = random_state(np.random.default_rng(7), model.dof)
    tau = pin.rnea(pm, pm.createData(), pinocchio_configuration(pm, q), qd, qdd)
    expected = rd.inverse_dynamics(rigid, q, qd, qdd)
    assert np.abs(tau - expected).max() <= 1e-10 * max(1.0, np.abs(expected).max())


@pytest.mark.parametrize('text', ['run--2.csv', '--', '-', 'a-', '---x---', '<!-- x -->'])
def test_comments_never_end_early(text):
    inner = comment_text(text)
    assert '--' not in inner and not inner.endswith('-')
    parsed = ET.fromstring(f'<r><!--{inner}--></r>', parser=ET.XMLParser(
        target=ET.TreeBuilder(insert_comments=True)))
    assert parsed[0].text == inner


def test_characters_xml_cannot_hold_are_refused_naming_the_field(model):
    bad = model.replace(joint_names=['ok\x01'] + list(model.joint_names[1:]))
    with pytest.raises(rd.ModelError, match=r"joint name 'ok\\x01' contains the character "
                                            r"'\\x01' at 2, which XML cannot hold"):
        bad.to_urdf()


def test_info_reads_a_written_urdf_with_such_names(model, tmp_path, capsys):
    path = tmp_path / 'arm.urdf'
    path.write_text(model_to_urdf(model, comment='from run--2.csv'))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        assert cli.main(['info', str(path)]) == 0
    assert 'R&D "arm"' in capsys.readouterr().out
