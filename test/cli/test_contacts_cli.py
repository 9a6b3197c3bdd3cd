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
"""``robot-dynamics contacts`` and the thresholds ``identify`` writes next to its model."""

import json
import os
import shutil

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts import CollisionThresholds
from robot_dynamics.io.recordings import write_csv
from cli_helpers import assert_png, read_csv, run
import contact_runs

ONSET, JOINT, SIZE = 9.0, 1, 6.0          # a 6 N m step on panda_joint2 at 9 s


@pytest.fixture(scope='module')
def files(tmp_path_factory):
    """Write an arm URDF (viscous + Coulomb friction, rotors) and a 12 s recording of it.

    A step of external torque at 9 s (CSV: t, q_*, qd_*, tau_*).
    """
    folder = tmp_path_factory.mktemp('contacts')
    panda = rd.load_model('panda')
    arm = panda.replace(viscous_friction=np.full(7, 0.5), coulomb_friction=np.full(7, 0.4),
                        rotor_inertia=np.full(7, 0.1), gear_ratio=np.ones(7))
    urdf = folder / 'arm.urdf'
    urdf.write_text(arm.to_urdf())
    with pytest.warns(rd.ModelWarning, match='friction included in every torque'):
        truth = rd.load_model(str(urdf))
    motion = contact_runs.Motion.random(truth, seed=5)
    run_ = contact_runs.simulate(truth, motion, 12.0, contact=(ONSET, JOINT, SIZE), warmup=0.0)
    recording = write_csv(folder / 'run.csv', contact_runs.record(run_, truth, seed=3))
    return folder, str(urdf), str(recording)


def test_learn_detect_and_write(files, capsys):
    folder, urdf, recording = files
    prefix = folder / 'out' / 'session'
    code, out, err = run(capsys, 'contacts', urdf, recording, '--learn', '0:8', '-o', prefix)
    assert code == 0, err
    assert 'contact events: 1 ' in out
    table = out.splitlines()
    start = next(i for i, line in enumerate(table) if line.split()[:2] == ['joint', 'a'])
    assert [len(line) for line in table[start:start + 8]] == [len(table[start])] * 8  # aligned
    assert table[start].index(' a') < len('  panda_joint1 ') + 9    # no blank 24-wide column
    assert table[start + 8].strip().startswith('learnt: ') and 'max r/T: ' in table[start + 8]
    event = next(line for line in out.splitlines() if line.startswith('  9.0'))
    assert 'joints panda_joint2' in event and 'peak +6' in event
    assert float(event.split()[0]) - ONSET < 0.05
    header, table = read_csv(f'{prefix}.csv')
    assert header[:2] == ['t', 'tau_ext_panda_joint1'] and header[-1] == 'contact'
    assert header[8] == 'threshold_panda_joint1'
    contact = table[:, -1] > 0
    assert contact.any() and np.all(table[contact, 0] >= ONSET)
    assert_png(f'{prefix}.png')
    learnt = CollisionThresholds.read(f'{prefix}.contacts.yaml')
    assert learnt.joint_names == rd.load_model(urdf).joint_names
    assert f'wrote {prefix}.contacts.yaml' in out


def test_thresholds_from_a_file_beside_the_model_and_json(files, capsys, tmp_path):
    folder, urdf, recording = files
    run(capsys, 'contacts', urdf, recording, '--learn', '0:8', '-o', tmp_path / 'a',
        '--no-plot')
    beside = tmp_path / 'arm.urdf'
    shutil.copy(urdf, beside)
    shutil.copy(tmp_path / 'a.contacts.yaml', tmp_path / 'arm.contacts.yaml')
    code, out, err = run(capsys, 'contacts', beside, recording, '--no-plot', '--json',
                         '-o', tmp_path / 'b', '--link', 'panda_link4')
    assert code == 0, err
    report = json.loads(out)
    assert report['thresholds_from'] == str(tmp_path / 'arm.contacts.yaml')
    assert len(report['events']) == 1
    event = report['events'][0]
    assert event['peak_joint'] == 'panda_joint2' and 0 <= event['start'] - ONSET < 0.05
    assert len(event['wrench']) == 6 and event['wrench_observable'] is False
    assert report['max_ratio'][JOINT] > 5 and report['gain'] == [50.0] * 7
    assert not os.path.exists(tmp_path / 'b.png')


def test_problems_with_the_recording_are_said(files, capsys, tmp_path):
    folder, urdf, recording = files
    lines = open(recording).read().splitlines()
    header = lines[0].split(',')
    broken = [lines[0]] + lines[1:]
    row = broken[50].split(',')
    row[header.index('tau_panda_joint3')] = 'nan'
    broken[50] = ','.join(row)
    broken[100], broken[101] = broken[101], broken[100]         # time goes back once
    path = tmp_path / 'broken.csv'
    path.write_text('\n'.join(broken) + '\n')
    code, out, err = run(capsys, 'contacts', urdf, path, '--learn', '0:8', '--no-plot', '-o',
                         tmp_path / 'c')
    assert code == 0, err
    assert '1 row(s) with NaN/inf position or effort dropped: no estimate there' in err
    assert 'the time goes backwards at row 101' in err
    assert 'contact events: 1 ' in out


@pytest.mark.parametrize('argv, message', [
    ([], 'no collision thresholds: give --thresholds FILE'),
    (['--learn', '20:30'], '--learn 20:30: no samples in 20 - 30 s'),
    (['--learn', '8'], "--learn: '8'; give START:END"),
    (['--thresholds', 'none.contacts.yaml'], 'none.contacts.yaml: no such file'),
    (['--gain', '80'], '--gain: only with --learn; thresholds hold for the gain'),
    (['--learn', '0:8', '--gain', '0'], 'gain: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] 1/s; every '
                                        'gain must be a finite number > 0'),
    (['--learn', '0:8', '--safety', '0.5'], 'safety: 0.5; give a factor >= 1'),
])
def test_errors_name_the_fix(files, capsys, tmp_path, argv, message):
    _, urdf, recording = files
    code, out, err = run(capsys, 'contacts', urdf, recording, '-o', tmp_path / 'd', *argv)
    assert code == 2 and out == '' and message in err, err


def test_never_writes_over_its_inputs_or_an_existing_file(files, capsys, tmp_path):
    _, urdf, recording = files
    copy = tmp_path / 'run.csv'
    shutil.copy(recording, copy)
    before = copy.read_bytes()
    code, out, err = run(capsys, 'contacts', urdf, copy, '--learn', '0:8', '-o',
                         tmp_path / 'run')
    assert code == 2 and f'output {tmp_path / "run.csv"} is the recording' in err
    assert 'give another output path' in err and copy.read_bytes() == before
    (tmp_path / 'old.csv').write_text('keep me')
    code, _, err = run(capsys, 'contacts', urdf, copy, '--learn', '0:8', '-o', tmp_path / 'old')
    assert code == 2 and 'exists; give another file with -o/--plot, or --force' in err
    assert (tmp_path / 'old.csv').read_text() == 'keep me'
    code, _, err = run(capsys, 'contacts', urdf, copy, '--learn', '0:8', '-o', tmp_path / 'old',
                       '--force', '--no-plot')
    assert code == 0, err


def test_missing_efforts_are_an_error(files, capsys, tmp_path):
    _, urdf, recording = files
    lines = open(recording).read().splitlines()
    column = lines[0].split(',').index('tau_panda_joint5')
    rows = [','.join(v if k != column else 'nan' for k, v in enumerate(line.split(',')))
            for line in lines[1:]]
    path = tmp_path / 'no_effort.csv'
    path.write_text('\n'.join([lines[0]] + rows) + '\n')
    code, _, err = run(capsys, 'contacts', urdf, path, '--learn', '0:8', '-o', tmp_path / 'e')
    assert code == 2
    assert "no effort recorded for joints ['panda_joint5']" in err


def test_identify_writes_thresholds_the_contacts_command_reads(tmp_path, capsys):
    """Check identify → arm.contacts.yaml beside arm.urdf; contacts finds it, with friction."""
    truth, nominal = contact_runs.truth_model(), contact_runs.nominal_model()
    motion = contact_runs.Motion.random(nominal, seed=6)
    learn = contact_runs.simulate(truth, motion, 30.0, warmup=0.0)
    data = write_csv(tmp_path / 'learn.csv', contact_runs.record(learn, nominal, every=10))
    code, out, err = run(capsys, 'identify', 'panda', data, '-o', tmp_path / 'arm.urdf',
                         '--no-plot')
    assert code == 0, err
    assert f'wrote {tmp_path / "arm.contacts.yaml"}' in out
    touched = contact_runs.simulate(truth, motion, 3.0, contact=(32.0, 3, -7.0), start=30.0,
                                    warmup=0.0)
    session = write_csv(tmp_path / 'session.csv',
                        contact_runs.record(touched, nominal, seed=4, every=10))
    friction = tmp_path / 'arm.friction.yaml'
    extra = ['--friction', friction] if friction.exists() else []
    code, out, err = run(capsys, 'contacts', tmp_path / 'arm.urdf', session, '--no-plot',
                         '-o', tmp_path / 'check', *extra)
    assert code == 0, err
    assert f'thresholds: {tmp_path / "arm.contacts.yaml"}' in out
    assert 'learnt for another model' not in err
    assert 'contact events: 1 ' in out and 'panda_joint4' in out
    if extra:                                     # the sidecar left out: the model differs
        _, _, err = run(capsys, 'contacts', tmp_path / 'arm.urdf', session, '--no-plot',
                        '-o', tmp_path / 'check2')
        assert 'learnt for another model' in err and '--friction' in err
