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
"""Messages for bad inputs an outside trial met (F9, F18, F19, F20): each names the cause.

F18 a truncated CSV, F19 time going backwards, F20 an empty friction sidecar, F9 ``info``
and the friction sidecar written beside an identified URDF.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.cli import main
from robot_dynamics.errors import ModelError
from robot_dynamics.identification import prepare
from robot_dynamics.io.friction_yaml import read_friction
from robot_dynamics.io.recordings import Recording, RecordingError, read_recording, write_csv


def sine_recording(names, seconds=2.0, rate=1000.0):
    t = np.arange(int(seconds * rate)) / rate
    k = np.arange(1, len(names) + 1)
    return Recording(tuple(names), t, 0.3 * np.sin(np.outer(t, k) + k),
                     np.cos(np.outer(t, k)))


def test_truncated_csv_names_the_cut_line(tmp_path):
    path = write_csv(tmp_path / 'run.csv', sine_recording(['j1', 'j2']))
    text = open(path).read()
    lines = text.splitlines(keepends=True)
    cut = tmp_path / 'cut.csv'
    cut.write_text(''.join(lines[:-1]) + ','.join(lines[-1].split(',')[:2]))   # cut mid-line
    with pytest.raises(RecordingError, match=rf'line {len(lines)} has 2 fields, the header 5 '
                                             r'\(the last line: the file looks truncated'):
        read_recording(cut)
    bad = tmp_path / 'bad.csv'
    bad.write_text(''.join(lines[:3]) + lines[3].replace(',', ',x', 1) + ''.join(lines[4:]))
    with pytest.raises(RecordingError, match=r"line 4: non-numeric value 'x"):
        read_recording(bad)


def test_time_going_backwards_is_reported_with_its_row():
    model = rd.load_model('two_link')
    run = sine_recording(model.joint_names)
    twice = Recording(run.joint_names, np.concatenate([run.t, run.t + 0.0005]),
                      np.vstack([run.position, run.position]),
                      np.vstack([run.effort, run.effort]))
    report = prepare(twice, model).report
    assert report.time_order.startswith('the time goes backwards at row 2001 (t = 0.0005 s '
                                        'after 1.999 s; 1 such row(s))')
    assert report.time_order in report.lines()
    assert prepare(run, model).report.time_order == ''


@pytest.mark.parametrize('content', ['', '# nothing\n'])
def test_empty_friction_sidecar_is_named_and_said_empty(tmp_path, content):
    path = tmp_path / 'arm.friction.yaml'
    path.write_text(content)
    with pytest.raises(ModelError) as caught:
        read_friction(str(path))
    message = str(caught.value)
    assert message.startswith(f'{path}: expected a mapping with "joints: {{name: {{viscous: '
                              '…, coulomb: …}}", it is empty')
    with pytest.raises(ModelError, match='/dev/null: expected a mapping.*it is empty'):
        read_friction('/dev/null')


def test_info_shows_the_friction_law_and_the_sidecar_beside_the_urdf(tmp_path, capsys):
    model = rd.load_model('two_link')
    urdf = tmp_path / 'arm.urdf'
    urdf.write_text(model.to_urdf())
    assert main(['info', str(urdf)]) == 0
    assert 'note:' not in capsys.readouterr().out
    sidecar = tmp_path / 'arm.friction.yaml'
    joint = model.joint_names[0]
    sidecar.write_text(f'joints:\n  {joint}: {{viscous: 0.1, coulomb: 0.2, '
                       'stribeck: 0.05, stribeck_velocity: 0.01}\n')
    assert main(['info', str(urdf)]) == 0
    out = capsys.readouterr().out
    assert f'note: {sidecar} lies beside the model and is not included' in out
    assert 'friction law beyond' not in out
    assert main(['info', str(urdf), '--friction', str(sidecar)]) == 0
    out = capsys.readouterr().out
    assert 'note:' not in out and 'friction law beyond viscous/Coulomb' in out
    row = next(line for line in out.splitlines() if line.startswith(joint)
               and '0.05' in line)
    assert '0.01' in row
