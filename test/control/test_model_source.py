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
"""A node's model from its parameter values, without rclpy (control/model_source.py).

The log of model notes (issue 32.6): the demo used to open with five WARN lines about the
bundled PUMA 560, each documented in docs/models.md. A bundled model's notes as shipped are now
one INFO line pointing to ``robot-dynamics check``; the same notes of a user's own file, and
any note a load option adds, stay one WARN line each. Each is logged once per process.
"""

import pathlib

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control import model_source
from robot_dynamics.control.model_source import (check_model_source, joint_order,
                                                 model_from_values, model_with_notes,
                                                 with_overrides)
from robot_dynamics.model.bundled import bundled_notes


@pytest.fixture
def logged(monkeypatch):
    """Give a function that loads a model twice as a node does and returns its log lines."""
    monkeypatch.setattr(model_source, 'LOGGED_MODEL_NOTES', set())

    def load(**values):
        lines = []
        for _ in range(2):
            _, infos, warnings = model_with_notes(values)
            lines += [('INFO', line) for line in infos] + [('WARN', line) for line in warnings]
        return lines
    return load


def test_the_bundled_puma_is_one_info_line(logged):
    lines = logged(model='puma560')
    assert lines == [('INFO', "model 'puma560': 5 known note(s) of the bundled model, "
                              'documented in docs/models.md; `robot-dynamics check puma560` '
                              'lists them')]


def test_the_same_file_as_the_users_own_is_a_warning_a_line(logged, tmp_path):
    path = tmp_path / 'my_puma.urdf'
    path.write_text(pathlib.Path(rd.data_path('urdf/puma560.urdf')).read_text())
    lines = logged(urdf_file=str(path))
    assert [level for level, _ in lines] == ['WARN'] * 5
    assert sorted(text for _, text in lines) == sorted(f"model 'puma560': {note}"
                                                       for note in bundled_notes('puma560'))


def test_a_note_that_an_option_adds_stays_a_warning(logged):
    lines = logged(model='puma560', urdf_friction=False)
    assert lines[0][0] == 'INFO' and '4 known note(s)' in lines[0][1]
    assert len(lines) == 2 and lines[1][0] == 'WARN' and \
        'URDF <dynamics> friction left out (urdf_friction off)' in lines[1][1]


def test_the_first_source_set_wins_and_a_lower_one_is_refused():
    urdf = pathlib.Path(rd.data_path('urdf/ur5.urdf')).read_text()
    chosen = model_from_values({'robot_description': urdf, 'model': 'puma560'})
    assert chosen.joint_names == rd.load_model('ur5').joint_names
    assert model_from_values({}) is None                       # wait for the topic
    with pytest.raises(ValueError, match="model: robot_description is set and takes"):
        check_model_source({'model': 'ur5'}, {'robot_description': urdf, 'model': 'ur5'})
    with pytest.raises(ValueError, match=r'\(urdf_file is read-only'):
        check_model_source({'model': 'ur5'}, {'urdf_file': 'a.urdf', 'model': 'ur5'})
    check_model_source({'model': 'ur5'}, {'robot_description': '', 'model': 'ur5'})
    with pytest.raises(ValueError, match='not a bundled model'):
        model_from_values({'model': '/etc/passwd'})


def test_overrides_and_joint_order():
    model = rd.load_model('ur5')
    changed = with_overrides(model, {'gravity': [0.0, 0.0, -1.62], 'viscous_friction': [],
                                     'rotor_inertia': [0.1] * model.dof})
    assert np.allclose(changed.gravity, [0.0, 0.0, -1.62])
    assert np.allclose(changed.rotor_inertia, 0.1)
    assert np.array_equal(changed.viscous_friction, model.viscous_friction)    # empty: kept
    with pytest.raises(ValueError, match='gravity'):
        with_overrides(model, {'gravity': [0.0, 0.0, -1000.0]})
    names = list(reversed(model.joint_names))
    assert joint_order(model, names)[0] == names
    assert list(joint_order(model, names)[1]) == list(range(model.dof))[::-1]
    with pytest.raises(ValueError, match='must list each model joint once'):
        joint_order(model, names[:-1])
