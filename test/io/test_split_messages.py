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
"""Recordings as drivers write them: 94 Hz with lost samples, parts of a sample in two messages.

Red-team findings: at 94 Hz every NaN row dropped split the recording (a single missing
sample is 21.3 ms, over the 20 ms of a filled gap); efforts published in their own
``JointState`` messages were refused as "too few finite rows"; a gripper's messages on the
same topic counted as rows with NaN; a spreadsheet's CSV (semicolons, tabs) and a gripper's
position column without an effort column were refused.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import (Recording, RecordingError, read_recording,
                                          write_csv)
from bags import joint_state_bag

RATE = 94.0


def arm_motion(names, seconds=12.0, seed=0):
    """Stamps at 94 Hz with 2 ms of receive jitter, smooth positions, efforts (N, n)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * RATE)) / RATE
    k = np.arange(1, len(names) + 1)
    q = 0.3 * np.sin(np.outer(t, k) + k)
    tau = np.cos(np.outer(t, k))
    return 100.0 + t + rng.uniform(0, 0.002, t.size), q, tau


def test_a_lost_sample_at_94_hz_is_filled_not_a_gap():
    # Was: 6 gaps for 1 (each lost sample split the recording), 2 short segments dropped.
    model = rd.load_model('two_link')
    names = model.joint_names
    t, q, tau = arm_motion(names)
    keep = (t < 106.0) | (t > 106.5)                          # one real gap of 0.5 s
    q[[150, 300, 420, 800, 950], 1] = np.nan                 # five lost samples
    report = prepare(Recording(names, t[keep], q[keep], tau[keep]), model).report
    assert report.nonfinite_rows == 5
    assert len(report.gaps) == 1 and report.gaps[0][1] == pytest.approx(0.5, abs=0.015)
    assert report.filled_gaps == 5
    assert report.short_segments == 0


def test_the_grid_rate_reported_is_the_de_jittered_one():
    # Was: "on a uniform 93.82 Hz grid" (the median interval of jittered stamps) for the
    # 94.00 Hz grid the de-jittered segments are on.
    model = rd.load_model('two_link')
    t, q, tau = arm_motion(model.joint_names, seconds=20.0, seed=1)
    report = prepare(Recording(model.joint_names, t, q, tau), model).report
    assert report.dejittered_segments == 1
    assert report.grid_rate == pytest.approx(RATE, rel=1e-4)
    assert abs(report.sample_rate - RATE) > 1e-4 * RATE        # the median interval is off
    assert 'on a uniform 94 Hz grid' in '\n'.join(report.lines())


def test_a_gap_of_two_samples_still_splits_at_94_hz():
    model = rd.load_model('two_link')
    t, q, tau = arm_motion(model.joint_names)
    keep = np.ones(t.size, bool)
    keep[[500, 501]] = False                                # 31.9 ms without a sample
    report = prepare(Recording(model.joint_names, t[keep], q[keep], tau[keep]), model).report
    assert len(report.gaps) == 1 and report.filled_gaps == 0


def test_efforts_in_their_own_messages_are_joined(tmp_path):
    # Was: 2 N rows, each half NaN: "too few finite rows: 0 of 2256 remain".
    names = ['wrist', 'elbow', 'shoulder']
    t, q, tau = arm_motion(names)
    messages = []
    for k in range(t.size):
        messages += [(t[k], names, q[k], []), (t[k] + 0.0004, names, [], tau[k])]
    recording = read_recording(joint_state_bag(tmp_path / 'run', messages))
    assert recording.samples == t.size
    columns = [recording.joint_names.index(name) for name in names]
    assert np.allclose(recording.t, t, rtol=0, atol=1e-8)       # the positions' stamps
    assert np.array_equal(recording.position[:, columns], q)
    assert np.array_equal(recording.effort[:, columns], tau)


def test_a_grippers_messages_join_the_arms_samples(tmp_path):
    # Was: each gripper message a row of NaN for the arm, counted as dropped NaN rows.
    model = rd.load_model('two_link')
    names = list(model.joint_names)
    t, q, tau = arm_motion(names)
    messages = []
    for k in range(t.size):
        messages.append((t[k], names[::-1], q[k, ::-1], tau[k, ::-1]))
        if k % 3 == 0:
            messages.append((t[k] + 0.003, ['finger_joint'], [0.01], [0.5]))
    recording = read_recording(joint_state_bag(tmp_path / 'run', messages))
    assert recording.samples == t.size
    report = prepare(recording, model).report
    assert report.nonfinite_rows == 0 and report.ignored_joints == ('finger_joint',)


def test_messages_that_overlap_are_never_joined(tmp_path):
    # Two publishers of the same joint's position 1 ms apart: two samples each, not one.
    names = ['a', 'b']
    t, q, tau = arm_motion(names, seconds=1.0)
    messages = []
    for k in range(t.size):
        messages += [(t[k], names, q[k], tau[k]), (t[k] + 0.001, names[:1], q[k, :1], [])]
    recording = read_recording(joint_state_bag(tmp_path / 'run', messages))
    assert recording.samples == 2 * t.size
    assert np.isnan(recording.effort[1::2]).all() and np.isfinite(recording.effort[::2]).all()


@pytest.mark.parametrize('separator', [';', '\t'])
def test_a_spreadsheets_csv_is_read_like_a_comma_separated_one(tmp_path, separator):
    # Was: "line 2: non-numeric value '0.0;0.25...'".
    names = ('a', 'b')
    t, q, tau = arm_motion(names, seconds=1.0)
    path = write_csv(tmp_path / 'run.csv', Recording(names, t, q, tau))
    commas = read_recording(path)
    path.write_text(path.read_text().replace(',', separator))
    other = read_recording(path)
    assert other.joint_names == names
    assert np.array_equal(other.position, commas.position)
    assert np.array_equal(other.effort, commas.effort) and np.array_equal(other.t, commas.t)


def test_a_gripper_position_without_effort_is_an_extra_joint(tmp_path):
    # Was: "need q_<joint> and tau_<joint> columns for the same joints".
    model = rd.load_model('two_link')
    names = model.joint_names
    t, q, tau = arm_motion(names)
    path = write_csv(tmp_path / 'run.csv', Recording(names, t, q, tau))
    lines = path.read_text().splitlines()
    path.write_text('\n'.join([lines[0] + ',q_finger_joint']
                              + [line + ',0.02' for line in lines[1:]]) + '\n')
    recording = read_recording(path)
    assert recording.joint_names == names + ('finger_joint',)
    assert np.isnan(recording.effort[:, 2]).all() and (recording.position[:, 2] == 0.02).all()
    report = prepare(recording, model).report
    assert report.ignored_joints == ('finger_joint',) and report.nonfinite_rows == 0


def test_a_ros1_bag_is_refused_with_the_command_that_converts_it(tmp_path):
    # Was: "not a readable rosbag2 recording (ReaderError: Unrecognized storage format)".
    path = tmp_path / 'run.bag'
    path.write_bytes(b'#ROSBAG V2.0\nE\x00\x00\x00' + bytes(64))
    with pytest.raises(RecordingError, match=r'ROS 1 bag.*rosbags-convert --src \S*run.bag'):
        read_recording(path)


def test_joints_recorded_with_a_prefix_are_read_without_it():
    # Was: only "joints [...] of the model are not recorded (recorded: ['ur_...', ...])"; then
    # refused naming the prefix, which the command line had no option to give.
    model = rd.load_model('two_link')
    t, q, tau = arm_motion(model.joint_names, seconds=3.0)
    prefixed = tuple('ur_' + name for name in model.joint_names)
    samples = prepare(Recording(('ur_gripper',) + prefixed, t, np.c_[q[:, :1], q],
                                np.c_[tau[:, :1], tau]), model)
    assert "with the prefix 'ur_' (a driver's tf_prefix)" in '\n'.join(samples.report.lines())
    assert samples.report.ignored_joints == ('ur_gripper',)
    assert np.allclose(samples.tau[5], [np.interp(samples.t[5], t, x) for x in tau.T])
    both = tuple(side + name for side in ('left_', 'right_') for name in model.joint_names)
    with pytest.raises(RecordingError, match='not recorded') as error:
        prepare(Recording(both, t, np.c_[q, q], np.c_[tau, tau]), model)
    assert 'prefix' not in str(error.value)                  # two candidates: no guess


def test_stamps_rounded_to_the_millisecond_keep_the_rate_and_every_sample():
    # Was: the median interval, 11 ms, taken for the period of a 94 Hz recording written with
    # '%.3f' stamps: "uniform 90.91 Hz grid of 4555 points" for 4710 samples, "resampled".
    model = rd.load_model('two_link')
    t, q, tau = arm_motion(model.joint_names, seconds=20.0)
    t = np.round(100.0 + np.arange(t.size) / RATE, 3)
    report = prepare(Recording(model.joint_names, t, q, tau), model).report
    assert report.grid_rate == pytest.approx(RATE, rel=1e-4)
    assert report.grid_points == t.size and report.dejittered_segments == 1
    assert report.filled_gaps == 0 and report.resampled_segments == 0
