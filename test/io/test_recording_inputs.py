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
"""Hostile and broken recordings (issue 22 item 8 and LOW): one clear error, never a hang."""

import os

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import (
    Recording, RecordingError, read_recording, write_bag, write_csv,
)
from bags import joint_state_bag
from cost import growth_ratio


def test_many_names_per_message_read_in_linear_time(tmp_path):
    # Was: a list search per name (quadratic): 200,000 names per message never finished.
    def bag(m):
        names = [f'j{k}' for k in range(m)]
        values = np.arange(m, dtype=float)
        return joint_state_bag(tmp_path / f'bag{m}',
                               [(1.0 + 1e-3 * k, names, values, values) for k in range(3)])
    small, large = bag(20_000), bag(200_000)
    back = read_recording(large)
    assert len(back.joint_names) == 200_000 and back.effort[2, -1] == 199_999
    ratio = growth_ratio(lambda: read_recording(small), lambda: read_recording(large),
                         repeats=2)
    assert ratio < 25, ratio                          # linear: 10; quadratic: 100


def test_a_joint_named_twice_in_a_message_is_refused(tmp_path):
    # Was: the later value silently won, then 'rank-deficient'.
    path = joint_state_bag(tmp_path / 'bag', [(1.0, ['a', 'b', 'a'], [1, 2, 3], [1, 2, 3])])
    with pytest.raises(RecordingError, match=r"message 1 names 'a' more than once"):
        read_recording(path)


@pytest.mark.parametrize('header, named', [
    ('t,q_a,q_a,tau_a', "position of 'a' in columns q_a, q_a"),
    ('t,q_a,position_a,tau_a', "position of 'a' in columns q_a, position_a"),
    ('t,time,q_a,tau_a', 'time in columns t, time'),
])
def test_a_csv_column_given_twice_is_refused(tmp_path, header, named):
    path = tmp_path / 'twice.csv'
    path.write_text(header + '\n0,1,2,3\n0.001,1,2,3\n')
    with pytest.raises(RecordingError, match='given more than once') as caught:
        read_recording(path)
    assert named in str(caught.value) and 'twice.csv' in str(caught.value)


def test_a_byte_order_mark_is_read_and_non_utf8_is_named(tmp_path):
    # Was: 'no time column' for a BOM, and a UnicodeDecodeError traceback for Latin-1.
    recording = Recording(('a',), np.arange(30) / 100.0, np.zeros((30, 1)), np.ones((30, 1)))
    text = open(write_csv(tmp_path / 'plain.csv', recording), encoding='utf-8').read()
    (tmp_path / 'bom.csv').write_bytes(b'\xef\xbb\xbf' + text.encode())
    back = read_recording(tmp_path / 'bom.csv')
    assert back.joint_names == ('a',) and np.array_equal(back.t, recording.t)
    (tmp_path / 'latin.csv').write_bytes(b'# r\xe9glage\n' + text.encode())
    with pytest.raises(RecordingError, match=r'latin.csv: not UTF-8 text \(invalid '
                                             r'continuation byte at byte 3\); save the CSV as '
                                             'UTF-8'):
        read_recording(tmp_path / 'latin.csv')


def broken_files(folder):
    """Paths of files that are no recording: /dev/null, random bytes, cut and damaged bags."""
    rng = np.random.default_rng(0)
    recording = Recording(('a', 'b'), np.arange(500) / 1e3, rng.normal(size=(500, 2)),
                          rng.normal(size=(500, 2)))
    paths = {'dev-null': os.devnull}
    for suffix in ('.mcap', '.db3', '.bin'):
        path = folder / f'random{suffix}'
        path.write_bytes(rng.bytes(4096))
        paths[f'random{suffix}'] = path
    for storage, suffix in (('sqlite3', '.db3'), ('mcap', '.mcap')):
        bag = write_bag(folder / f'bag_{storage}', recording, storage=storage)
        data = next(p for p in bag.iterdir() if p.suffix == suffix).read_bytes()
        (folder / f'cut{suffix}').write_bytes(data[:len(data) // 2])
        damaged = bytearray(data)
        damaged[len(data) // 3:len(data) // 3 + 200] = bytes(200)
        (folder / f'damaged{suffix}').write_bytes(bytes(damaged))
        paths[f'cut{suffix}'] = folder / f'cut{suffix}'
        paths[f'damaged{suffix}'] = folder / f'damaged{suffix}'
    (folder / 'no_metadata').mkdir()
    paths['empty-directory'] = folder / 'no_metadata'
    return paths


def test_broken_files_give_one_line_and_exit_2(tmp_path, capsys):
    # Was: ReaderError, SerdeError or FileNotFoundError tracebacks (exit 1).
    # /dev/null: a device, refused before it is opened (issue 30, MED 6).
    for case, path in broken_files(tmp_path).items():
        device = case == 'dev-null'
        with pytest.raises(RecordingError, match='is a device, not a regular file' if device
                           else 'not a readable rosbag2 recording'):
            read_recording(path)
        code = cli.main(['identify', 'two_link', str(path), '-o', str(tmp_path / 'x.urdf')])
        out, err = capsys.readouterr()
        assert code == 2 and out == '' and len(err.strip().splitlines()) == 1, (case, err)
        assert str(path) in err and ('give a file' if device else
                                     'give a complete rosbag2 directory') in err, (case, err)


@pytest.mark.parametrize('scale, apart', [(1e9, '1e+06 s apart'), (1e3, '1 s apart')])
def test_a_time_column_in_other_units_is_refused(scale, apart):
    # Was: nanoseconds accepted as '0.0 Hz' and identified into a 1.16e9 kg link.
    model = rd.load_model('two_link')
    t = np.arange(3000) / 1000.0
    q = 0.3 * np.sin(np.outer(t, [1.0, 2.0]))
    recording = Recording(model.joint_names, (1.7e9 + t) * scale, q, np.cos(q), None,
                          'run.csv')
    with pytest.raises(RecordingError, match='the time column must be in seconds; if it '
                                             'holds nanoseconds divide it by 1e9') as caught:
        prepare(recording, model)
    assert str(caught.value).startswith(f'run.csv: the time stamps are {apart} (median)')
