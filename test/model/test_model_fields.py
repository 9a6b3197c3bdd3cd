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
"""Checks that run on all fields at once raise what one check per field raises, in order.

``model/fields.py`` checks every field for NaN/inf in two calls and field by field only on a
failure; ``io/locked.py`` converts many bodies' inertias in stacked products, and the URDF
loader builds many links' rotations and inertials at once. They must give what the
field-by-field and body-by-body forms give: the same first error, the same bits.
"""

from dataclasses import fields
import pathlib
import warnings

import numpy as np
import pytest

from robot_dynamics import BUNDLED_MODELS, data_path, RobotModel
from robot_dynamics.errors import ModelError, ModelWarning
from robot_dynamics.io.urdf import urdf_fields
from robot_dynamics.io.locked import centroidal_form, centroidal_forms, origin_form, origin_forms
from robots import random_inertia

ONE_JOINT = dict(joint_types=['revolute'], axis=[[0.0, 0.0, 1.0]],
                 placement_rotation=[np.eye(3)], placement_translation=[[0.0, 0.0, 0.1]],
                 mass=[1.0], com=[[0.0, 0.0, 0.05]], inertia=[np.eye(3) * 0.01])


def test_an_earlier_fields_nan_is_reported_before_a_later_fields_shape():
    bad_shape = dict(ONE_JOINT, com=[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    with pytest.raises(ModelError, match=r'^com: expected shape \(1, 3\), got \(2, 3\)'):
        RobotModel(**bad_shape)
    with pytest.raises(ModelError, match='^placement_translation: contains NaN or inf'):
        RobotModel(**dict(bad_shape, placement_translation=[[np.nan, 0.0, 0.0]]))
    with pytest.raises(ModelError, match='^axis: contains NaN or inf'):      # the first of two
        RobotModel(**dict(ONE_JOINT, axis=[[np.inf, 0.0, 1.0]], mass=[np.nan]))
    with pytest.raises(ModelError, match='^upper_limit: contains NaN'):
        RobotModel(**dict(ONE_JOINT, upper_limit=[np.nan], tip_translation=[np.inf, 0, 0]))
    with pytest.raises(ModelError, match='^tip_translation: contains NaN or inf'):
        RobotModel(**dict(ONE_JOINT, upper_limit=[np.inf], tip_translation=[np.inf, 0, 0]))


def test_a_zero_velocity_or_effort_limit_still_reads_as_none():
    model = RobotModel(**dict(ONE_JOINT, velocity_limit=[0.0], effort_limit=[5.0]))
    assert model.velocity_limit.tolist() == [np.inf] and model.effort_limit.tolist() == [5.0]
    assert not model.velocity_limit.flags.writeable and not model.gravity.flags.writeable


def test_stacked_inertia_forms_are_bit_for_bit_the_one_body_forms():
    rng = np.random.default_rng(7)
    bodies = []
    for k in range(200):
        mass = 0.0 if k % 17 == 0 else float(rng.uniform(1e-3, 30.0))
        com = rng.normal(size=3) * 10.0 ** rng.uniform(-4, 0)
        bodies.append((mass, com, random_inertia(rng, max(mass, 1.0))))
    stacked = origin_forms(bodies)
    for body, (m, h, inertia) in zip(bodies, stacked):
        one = origin_form(*body)
        assert m == one[0] and h.tobytes() == one[1].tobytes()
        assert inertia.tobytes() == one[2].tobytes()
    mass, com, inertia = centroidal_forms(stacked)
    for k, body in enumerate(stacked):
        one = centroidal_form(body)
        assert mass[k] == one[0] and com[k].tobytes() == np.asarray(one[1], float).tobytes()
        assert inertia[k].tobytes() == one[2].tobytes()
    assert (mass[::17] == 0).all() and (com[::17] == 0).all()


@pytest.mark.parametrize('tool', ['', '<link name="tool0"/><joint name="t" type="fixed"><parent '
                                  'link="l2"/><child link="tool0"/><origin xyz="0 0 0.1" '
                                  'rpy="0 1.5 0"/></joint>'])
def test_a_lone_link_loads_its_inertial_as_written(tool):
    """No round trip through the origin form: com and inertia are the URDF's numbers exactly.

    Values like 0.1 and 0.7 do not survive ``(m c) / m`` and ``I + m P(c) - m P(c)`` bit for
    bit; the link of a branch-free body is taken as written (its frame is the body's), also
    when fixed links without an inertial (a tool frame) hang from it.
    """
    link = ('<link name="l{k}"><inertial><origin xyz="0.1 -0.7 0.3"/><mass value="2.9"/>'
            '<inertia ixx="0.11" iyy="0.13" izz="0.17" ixy="0.01" ixz="-0.02" iyz="0.03"/>'
            '</inertial></link>')
    joint = ('<joint name="j{k}" type="revolute"><parent link="l{p}"/><child link="l{k}"/>'
             '<origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>'
             '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    urdf = '<robot name="r"><link name="l0"/>' + ''.join(
        link.format(k=k) + joint.format(k=k, p=k - 1) for k in (1, 2)) + tool + '</robot>'
    model = RobotModel.from_urdf(urdf)
    assert model.tip_link == ('tool0' if tool else 'l2')
    assert model.warnings == ()
    inertia = [[0.11, 0.01, -0.02], [0.01, 0.13, 0.03], [-0.02, 0.03, 0.17]]
    assert np.array_equal(model.mass, [2.9, 2.9])
    assert np.array_equal(model.com, [[0.1, -0.7, 0.3]] * 2)
    assert np.array_equal(model.inertia, [inertia] * 2)


@pytest.mark.parametrize('name', ['panda', 'ur5', 'stanford', 'puma560', 'two_link'])
def test_a_loaded_model_is_the_model_every_check_gives(name):
    """from_urdf leaves out the checks its loader has made: the same model, the same warnings."""
    text = pathlib.Path(data_path(BUNDLED_MODELS[name])).read_text(encoding='utf-8')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        loaded = RobotModel.from_urdf(text)
        checked = RobotModel(**urdf_fields(text), notes=loaded.notes)
    assert list(vars(loaded)) == list(vars(checked))           # the fields, in their order
    assert loaded.warnings == checked.warnings
    for item in fields(RobotModel):
        ours, theirs = getattr(loaded, item.name), getattr(checked, item.name)
        if isinstance(ours, np.ndarray):
            assert ours.tobytes() == theirs.tobytes() and not ours.flags.writeable, item.name
        elif item.name != 'locked_branches':
            assert ours == theirs, item.name


def test_overrides_of_a_loaded_model_take_every_check():
    text = pathlib.Path(data_path(BUNDLED_MODELS['ur5'])).read_text(encoding='utf-8')
    with pytest.raises(ModelError, match='lower_limit > upper_limit'):
        RobotModel.from_urdf(text, lower_limit=[1.0] * 6, upper_limit=[0.0] * 6)
    with pytest.raises(ModelError, match="axis of joint 'shoulder_pan_joint' has zero length"):
        RobotModel.from_urdf(text, axis=[[0.0, 0.0, 0.0]] * 6)
