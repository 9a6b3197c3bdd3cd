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
"""No command writes over its own inputs (issue 30, HIGH 2).

Was: ``excite arm.yaml -o arm`` replaced the DH model by the excitation, ``codegen two.urdf -o
two.urdf`` the URDF by Python, both with exit code 0; ``identify --validate v1.urdf --validate
v2.urdf -o v1.urdf --force`` overwrote v1.urdf (only the last ``--validate`` was protected) and
``-o runbag/runbag.mcap`` a bag's own data file. One rule for every command: an output that is,
or resolves to, an input (or lies inside an input folder) is refused, ``--force`` or not.
"""

import os

import numpy as np
import pytest

import robot_dynamics as rd
from cli_helpers import run
from robot_dynamics.cli.common import CLIError, check_outputs, overwrites
from robot_dynamics.io.recordings import Recording, write_bag


@pytest.fixture
def files(tmp_path):
    """Write a DH model, a URDF, odd-named inputs and a small bag; return their bytes."""
    dh = tmp_path / 'arm.yaml'
    dh.write_text(open(rd.data_path('config/two_link_dh.yaml')).read())
    urdf = tmp_path / 'two.urdf'
    urdf.write_text(open(rd.data_path('urdf/two_link.urdf')).read())
    moves = tmp_path / 'moves.csv'
    moves.write_text('waypoints:\n  times: [0, 1]\n  positions: [[0, 0], [0.5, 0.2]]\n')
    friction = tmp_path / 'fr.csv'                      # a friction sidecar, oddly named
    friction.write_text('joints:\n  joint1: {viscous: 0.1, coulomb: 0.2}\n')
    model = rd.load_model('two_link')
    t = np.arange(20) * 0.01
    recording = Recording(model.joint_names, t, np.zeros((20, 2)), np.ones((20, 2)))
    bag = write_bag(tmp_path / 'runbag', recording, storage='mcap')
    inputs = [dh, urdf, moves, friction] + sorted(p for p in (tmp_path / 'runbag').iterdir())
    return tmp_path, {path: path.read_bytes() for path in inputs}, str(bag)


def refused(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == '', (argv, code, err)
    assert len(err.strip().splitlines()) == 1 and 'would destroy the input' in err, err
    assert words in err, (argv, err)


def test_excite_and_codegen_refuse_to_write_over_the_model(files, capsys, monkeypatch):
    folder, before, _ = files
    monkeypatch.chdir(folder)
    refused(capsys, ['excite', 'arm.yaml', '-o', 'arm'], 'output arm.yaml is the model MODEL')
    refused(capsys, ['codegen', 'two.urdf', '-o', 'two.urdf'], 'is the model MODEL')
    os.mkdir('sub')
    refused(capsys, ['codegen', 'two.urdf', '-o', 'sub/../two.urdf'], 'is the model MODEL')
    os.symlink('two.urdf', 'link.py')
    refused(capsys, ['codegen', 'two.urdf', '-o', 'link.py'], 'output link.py is the model')
    os.link('two.urdf', 'hard.py')
    refused(capsys, ['codegen', 'two.urdf', '-o', 'hard.py'], 'output hard.py is the model')
    refused(capsys, ['codegen', 'two_link', '-o', rd.data_path('urdf/two_link.urdf')],
            'is the model MODEL')                          # the installed bundled file
    refused(capsys, ['simulate', 'two.urdf', '--friction', 'fr.csv', '-o', 'fr'],
            'output fr.csv is the friction file --friction')
    refused(capsys, ['trajectory', 'two_link', 'moves.csv', '-o', 'moves'],
            'output moves.csv is the trajectory file')
    assert all(path.read_bytes() == data for path, data in before.items())
    assert not os.path.exists('arm.csv') and not os.path.exists('moves.png')


def test_identify_protects_every_validated_model_and_the_bag_folder(files, capsys,
                                                                    monkeypatch):
    folder, before, bag = files
    monkeypatch.chdir(folder)
    v2 = folder / 'v2.urdf'
    v2.write_text((folder / 'two.urdf').read_text())
    base = ['identify', 'two_link', bag, '--force']
    refused(capsys, base + ['--validate', 'two.urdf', '--validate', 'v2.urdf', '-o',
                            'two.urdf'], 'output two.urdf is the model to validate')
    refused(capsys, base + ['--validate', 'two.urdf,fr.csv', '-o', 'x.urdf', '--plot',
                            'fr.csv'], 'output fr.csv is the friction file to validate')
    inside = os.path.join(bag, 'runbag.mcap')
    assert os.path.exists(inside)
    refused(capsys, base + ['-o', inside], f'output {inside} lies inside the recording')
    refused(capsys, base + ['-o', 'runbag/new.urdf'], 'lies inside the recording')
    assert all(path.read_bytes() == data for path, data in before.items())
    assert sorted(os.listdir(bag)) == ['metadata.yaml', 'runbag.mcap']
    code, _, err = run(capsys, *base, '-o', 'x.urdf', '--plot', './x.urdf')
    assert code == 2 and 'outputs x.urdf and ./x.urdf are the same file' in err


def test_the_rule_resolves_paths_and_creates_only_the_outputs_folders(tmp_path):
    model = tmp_path / 'm.urdf'
    model.write_text('<robot/>')
    (tmp_path / 'bag').mkdir()
    assert overwrites(str(tmp_path / 'x' / '..' / 'm.urdf'), str(model)) == 'is'
    assert overwrites(str(tmp_path / 'bag' / 'a' / 'b.csv'), str(tmp_path / 'bag')) == \
        'lies inside'
    assert overwrites(str(tmp_path / 'bagx.csv'), str(tmp_path / 'bag')) == ''
    assert overwrites(str(tmp_path / 'm.urdf.csv'), str(model)) == ''
    with pytest.raises(CLIError, match='exists; give another file'):
        check_outputs([str(model) + '.x', str(model)], [], force=False)
    assert not os.path.exists(str(model) + '.x')
    check_outputs([str(tmp_path / 'new' / 'deeper' / 'out.csv')], [('model', str(model))])
    assert (tmp_path / 'new' / 'deeper').is_dir()
