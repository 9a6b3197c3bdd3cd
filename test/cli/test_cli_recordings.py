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
"""``identify`` on hostile recordings: special files, huge headers, time out of order (issue 30).

Was: a FIFO named .csv/.mcap/.db3 blocked forever; a .csv symlink to /dev/zero read until
MemoryError with a traceback (MED 6); a CSV with 1e6 columns printed a 10.9 MB error (MED 2);
time going backwards was reported as "the efforts do not follow the motion" (LOW).
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import robot_dynamics as rd
from cli_helpers import run
from measured_runs import record
from robot_dynamics.errors import MAX_MESSAGE
from robot_dynamics.identification import FourierTrajectory
from robot_dynamics.io.recordings import Recording, write_csv


def identify_process(data, output, timeout=60):
    """Run the installed command line on ``data`` as a user does; return the finished run."""
    script = os.path.join(os.path.dirname(sys.executable), 'robot-dynamics')
    command = [script] if os.path.exists(script) else [sys.executable, '-m', 'robot_dynamics']
    return subprocess.run(command + ['identify', 'two_link', str(data), '-o', str(output)],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize('name', ['run.csv', 'run.mcap', 'run.db3'])
def test_a_fifo_is_refused_at_once(tmp_path, name):
    os.mkfifo(tmp_path / name)
    done = identify_process(tmp_path / name, tmp_path / 'x.urdf')
    assert done.returncode == 2 and 'Traceback' not in done.stderr
    assert f"recording file '{tmp_path / name}' is a FIFO, not a regular file" in done.stderr


def test_a_fifo_inside_a_bag_folder_and_a_device_are_refused(tmp_path):
    bag = tmp_path / 'bag'
    bag.mkdir()
    (bag / 'metadata.yaml').write_text('rosbag2_bagfile_information: {}\n')
    os.mkfifo(bag / 'bag_0.mcap')
    done = identify_process(bag, tmp_path / 'x.urdf')
    assert done.returncode == 2 and 'bag_0.mcap' in done.stderr and 'is a FIFO' in done.stderr
    os.symlink('/dev/zero', tmp_path / 'zero.csv')
    done = identify_process(tmp_path / 'zero.csv', tmp_path / 'x.urdf')
    assert done.returncode == 2 and 'Traceback' not in done.stderr
    assert 'is a device, not a regular file' in done.stderr


def test_a_message_quoting_a_huge_header_is_bounded(tmp_path, capsys):
    wide = tmp_path / 'wide.csv'
    columns = 10 ** 6
    wide.write_text(','.join(['t'] + [f'q_j{i}' for i in range(columns)]) + '\n'
                    + ','.join(['0'] * (columns + 1)) + '\n')
    code, out, err = run(capsys, 'identify', 'puma560', wide, '-o', tmp_path / 'x.urdf')
    assert code == 2 and out == ''
    assert len(err) < MAX_MESSAGE + 200 and "'j9'] and 999990 more" in err


def test_time_out_of_order_is_named_not_the_efforts(tmp_path, capsys):
    model = rd.load_model('two_link')
    rng = np.random.default_rng(3)
    motion = FourierTrajectory(model.joint_names, 5.0, np.zeros(2),
                               rng.normal(size=(2, 4)) * 0.4, rng.normal(size=(2, 4)) * 0.4)
    run_ = record(model, motion, 8.0)
    shuffled = Recording(run_.joint_names, run_.t[rng.permutation(len(run_.t))],
                         run_.position, run_.effort)
    data = write_csv(tmp_path / 'shuffled.csv', shuffled)
    code, out, err = run(capsys, 'identify', 'two_link', data, '-o', tmp_path / 'x.urdf',
                         '--no-plot')
    assert code == 2 and out == ''
    assert 'the recorded time is out of order, the likely cause: the time goes backwards at ' \
           'row ' in err
    assert 'the efforts do not follow the motion' not in err
    code, _, err = run(capsys, 'identify', 'two_link', write_csv(tmp_path / 'run.csv', run_),
                       '-o', tmp_path / 'y.urdf', '--no-plot')
    assert code == 0, err                                    # the same rows in order: fine
