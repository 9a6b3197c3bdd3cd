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
"""A node's log of model notes: a bundled model's known ones in one INFO line (issue 32.6).

The demo used to open with five WARN lines about the bundled PUMA 560, each documented in
docs/models.md. A bundled model's notes as shipped are now one INFO line pointing to
``robot-dynamics check``; the same notes of a user's own file, and any note a load option
adds, stay one WARN line each. Each is logged once per process.
"""

import pathlib

import pytest
from rclpy.parameter import Parameter

import robot_dynamics as rd
from robot_dynamics.model.bundled import bundled_notes
from robot_dynamics.nodes import model_parameters
from ros_graph import LogLines


@pytest.fixture
def logged(ros, monkeypatch):
    """Give a function that loads a model as a node does and returns the lines it wrote."""
    monkeypatch.setattr(model_parameters, '_LOGGED_MODEL_NOTES', set())
    recorder = LogLines()

    def load(name, **parameters):
        node = ros.node(name, parameter_overrides=[Parameter(key, value=value)
                                                   for key, value in parameters.items()])
        model_parameters.declare_model_parameters(node)
        monkeypatch.setattr(node, 'get_logger', lambda: recorder)
        for _ in range(2):
            model_parameters.model_with_logged_warnings(node)
        return list(zip(recorder.levels, recorder.lines))
    return load


def test_the_bundled_puma_is_one_info_line(logged):
    lines = logged('bundled', model='puma560')
    assert lines == [('INFO', "model 'puma560': 5 known note(s) of the bundled model, "
                              'documented in docs/models.md; `robot-dynamics check puma560` '
                              'lists them')]


def test_the_same_file_as_the_users_own_is_a_warning_a_line(logged, tmp_path):
    path = tmp_path / 'my_puma.urdf'
    path.write_text(pathlib.Path(rd.data_path('urdf/puma560.urdf')).read_text())
    lines = logged('users', urdf_file=str(path))
    assert [level for level, _ in lines] == ['WARN'] * 5
    assert sorted(text for _, text in lines) == sorted(f"model 'puma560': {note}"
                                                       for note in bundled_notes('puma560'))


def test_a_note_that_an_option_adds_stays_a_warning(logged):
    lines = logged('option', model='puma560', urdf_friction=False)
    assert lines[0][0] == 'INFO' and '4 known note(s)' in lines[0][1]
    assert len(lines) == 2 and lines[1][0] == 'WARN' and \
        'URDF <dynamics> friction left out (urdf_friction off)' in lines[1][1]
