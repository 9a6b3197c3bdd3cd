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
"""Recordings: rosbag2 (sqlite3, MCAP) and CSV round trips, joints by name, gaps, outliers."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import (
    Recording, RecordingError, read_recording, write_bag, write_csv,
)


def sine_recording(names, seconds=4.0, rate=500.0, velocity=False):
    t = np.arange(int(seconds * rate)) / rate
    k = np.arange(1, len(names) + 1)
    q = 0.3 * np.sin(np.outer(t, k) + k)
    tau = np.cos(np.outer(t, k))
    return Recording(tuple(names), t, q, tau, np.gradient(q, t, axis=0) if velocity else None)


@pytest.mark.parametrize('storage', ['sqlite3', 'mcap'])
def test_bag_round_trip(tmp_path, storage):
    recording = sine_recording(['a', 'b', 'c'], velocity=True)
    path = write_bag(tmp_path / 'bag', recording, storage=storage)
    back = read_recording(path)
    assert back.joint_names == ('a', 'b', 'c')
    assert np.abs(back.t - recording.t).max() < 1e-9
    for field in ('position', 'velocity', 'effort'):
        assert np.array_equal(getattr(back, field), getattr(recording, field))
    storage_file = next(p for p in path.iterdir() if p.suffix in ('.db3', '.mcap'))
    assert np.array_equal(read_recording(storage_file).position, recording.position)


def test_bag_messages_are_matched_by_name(tmp_path):
    """Messages that list the joints in another order, or only some, land in their columns."""
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore
    store = get_typestore(Stores.ROS2_JAZZY)
    JointState = store.types['sensor_msgs/msg/JointState']
    Header = store.types['std_msgs/msg/Header']
    Time = store.types['builtin_interfaces/msg/Time']
    messages = [(['b', 'a'], [2.0, 1.0], [20.0, 10.0]), (['a', 'b'], [1.5, 2.5], [15.0, 25.0]),
                (['a'], [3.0], [30.0])]
    with Writer(tmp_path / 'bag', version=9) as writer:
        connection = writer.add_connection('/robot/joint_states', JointState.__msgtype__,
                                           typestore=store)
        for k, (names, position, effort) in enumerate(messages):
            msg = JointState(header=Header(stamp=Time(sec=k + 1, nanosec=0), frame_id=''),
                             name=names, position=np.array(position), velocity=np.zeros(0),
                             effort=np.array(effort))
            writer.write(connection, (k + 1) * 10 ** 9,
                         store.serialize_cdr(msg, JointState.__msgtype__))
    back = read_recording(tmp_path / 'bag')
    assert back.joint_names == ('b', 'a') and back.velocity is None
    assert np.array_equal(back.position[:2], [[2.0, 1.0], [2.5, 1.5]])
    assert np.isnan(back.position[2, 0]) and back.position[2, 1] == 3.0
    assert np.array_equal(back.t, [1.0, 2.0, 3.0])                      # header stamps


def test_csv_round_trip_and_errors(tmp_path):
    recording = sine_recording(['j1', 'j2'])
    path = write_csv(tmp_path / 'run.csv', recording)
    back = read_recording(path)
    assert back.joint_names == ('j1', 'j2')
    assert np.array_equal(back.position, recording.position)
    assert np.array_equal(back.effort, recording.effort)
    (tmp_path / 'bad.csv').write_text('t,q_j1\n0,1\n')
    with pytest.raises(RecordingError, match='tau_<joint>'):
        read_recording(tmp_path / 'bad.csv')
    with pytest.raises(FileNotFoundError, match='not found'):
        read_recording(tmp_path / 'missing.csv')


def test_prepare_matches_joints_and_reports_extras():
    model = rd.load_model('two_link')
    names = list(model.joint_names)
    recording = sine_recording(['gripper'] + names[::-1])
    samples = prepare(recording, model)
    assert samples.report.ignored_joints == ('gripper',)
    inner = slice(500, 1000)
    t = samples.t[inner]
    expected = 0.3 * np.sin(3 * t + 3)                       # column of names[0]: k = 3
    assert np.allclose(samples.q[inner, 0], expected, atol=1e-6)
    assert np.allclose(samples.qd[inner, 0], 0.9 * np.cos(3 * t + 3), atol=1e-4)
    assert np.allclose(samples.qdd[inner, 0], -2.7 * np.sin(3 * t + 3), atol=1e-3)
    with pytest.raises(RecordingError, match='not recorded'):
        prepare(sine_recording(['x', names[0]]), model)


def test_prepare_splits_at_gaps_and_removes_spikes():
    model = rd.load_model('two_link')
    recording = sine_recording(list(model.joint_names), seconds=10.0)
    keep = (recording.t < 4.0) | (recording.t > 4.5)          # a 0.5 s gap
    position = recording.position.copy()
    effort = recording.effort.copy()
    position[1500, 0] += 0.2                                   # an encoder glitch
    effort[3000, 1] += 50.0                                    # a torque spike
    effort[3100, 1] = np.nan                                   # a lost value
    spiky = Recording(recording.joint_names, recording.t[keep], position[keep], effort[keep])
    samples = prepare(spiky, model)
    report = samples.report
    assert len(report.segments) == 2 and len(report.gaps) == 1
    assert report.gaps[0][1] == pytest.approx(0.504, abs=1e-9)       # 3.998 s to 4.502 s
    assert report.filled_gaps == 1                                   # the lost value's row
    assert report.position_outliers[model.joint_names[0]] == 1
    assert report.effort_outliers[model.joint_names[1]] == 1
    assert report.nonfinite_rows == 1
    assert not np.any((samples.t > 4.0) & (samples.t < 4.5))
    assert np.abs(samples.tau).max() < 1.5
    text = '\n'.join(report.lines())
    assert 'gap' in text and 'outliers replaced' in text


def test_prepare_keeps_friction_steps():
    """A Coulomb step at a velocity reversal is no outlier."""
    model = rd.load_model('two_link')
    recording = sine_recording(list(model.joint_names))
    effort = recording.effort + 5.0 * np.sign(np.cos(recording.t))[:, None]
    samples = prepare(Recording(recording.joint_names, recording.t, recording.position,
                                effort), model)
    assert not any(samples.report.effort_outliers.values())
