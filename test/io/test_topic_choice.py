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
"""Two complete JointState topics in one bag, as a Franka records them (issue 32).

``/joint_states`` from the joint_state_broadcaster and ``/franka/joint_states`` from the
driver both name all 7 joints; often one has no efforts, or they run at different rates.
Was: refused, "more than one names all the model's joints", until ``--topic`` chose. Now the
topic with an effort of every model joint is read, then the faster, then the first by name,
and the Recording's notes say which and why.
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import RecordingError, read_recording
from bags import joint_state_bag

JOINTS = tuple(f'fr3_joint{k}' for k in range(1, 8))


def topic(name, rate, seconds=1.0, efforts=True, start=100.0):
    """Messages of ``name`` at ``rate`` Hz naming the 7 joints (efforts: True, False or a list)."""
    rows = []
    for k in range(int(seconds * rate)):
        t = start + k / rate
        effort = (np.full(7, 1.0 + t) if efforts is True else [] if efforts is False
                  else efforts)
        rows.append((t, JOINTS, 0.1 * np.sin(t + np.arange(7)), effort, name))
    return rows


def test_the_topic_with_efforts_is_read_and_the_note_says_why(tmp_path):
    path = joint_state_bag(tmp_path / 'bag', topic('/franka/joint_states', 100, efforts=False)
                           + topic('/joint_states', 30))
    recording = read_recording(path, joints=JOINTS)
    assert recording.source.endswith(':/joint_states') and recording.samples == 30
    assert np.isfinite(recording.effort).all()
    note, = recording.notes
    assert 'read /joint_states: the only one with efforts of every joint' in note
    assert '/franka/joint_states: no efforts' in note and '--topic TOPIC' in note


def test_of_two_with_efforts_the_faster_is_read_whatever_the_names(tmp_path):
    for fast, slow in (('/joint_states', '/franka/joint_states'),
                       ('/franka/joint_states', '/joint_states')):
        path = joint_state_bag(tmp_path / fast.replace('/', '_'),
                               topic(fast, 1000) + topic(slow, 30))
        recording = read_recording(path, joints=JOINTS)
        assert recording.source.endswith(':' + fast) and recording.samples == 1000
        assert f'read {fast}: 1000 Hz, the highest rate' in recording.notes[0]
        assert f'({slow} 30 Hz)' in recording.notes[0]


def test_a_nan_effort_of_a_model_joint_is_no_effort(tmp_path):
    # joint_state_broadcaster publishes NaN for a joint without an effort interface.
    nan = [1.0] * 6 + [np.nan]
    path = joint_state_bag(tmp_path / 'bag', topic('/joint_states', 1000, efforts=nan)
                           + topic('/franka/joint_states', 30))
    recording = read_recording(path, joints=JOINTS)
    assert recording.source.endswith(':/franka/joint_states')
    assert '/joint_states: efforts of some joints missing or NaN' in recording.notes[0]
    # the NaN joint is no model joint: both complete, the faster read
    assert read_recording(path, joints=JOINTS[:6]).source.endswith(':/joint_states')


def test_alike_topics_are_chosen_by_name_whatever_the_order_and_the_note_says_so(tmp_path):
    first = joint_state_bag(tmp_path / 'a', topic('/joint_states', 100)
                            + topic('/franka/joint_states', 97, start=100.002))
    second = joint_state_bag(tmp_path / 'b', topic('/franka/joint_states', 97, start=100.002)
                             + topic('/joint_states', 100))
    for path in (first, second):
        recording = read_recording(path, joints=JOINTS)
        assert recording.source.endswith(':/franka/joint_states')
        assert ('read /franka/joint_states: /franka/joint_states and /joint_states alike '
                '(efforts of every joint, 97 Hz): the first by name') in recording.notes[0]


def test_the_topic_option_still_chooses_and_notes_nothing(tmp_path):
    path = joint_state_bag(tmp_path / 'bag', topic('/franka/joint_states', 1000)
                           + topic('/joint_states', 30))
    recording = read_recording(path, '/joint_states', JOINTS)
    assert recording.source.endswith(':/joint_states') and recording.samples == 30
    assert recording.notes == ()


def test_two_complete_topics_without_efforts_are_still_refused(tmp_path):
    path = joint_state_bag(tmp_path / 'bag', topic('/franka/joint_states', 100, efforts=False)
                           + topic('/joint_states', 30, efforts=False))
    with pytest.raises(RecordingError, match=r"2 sensor_msgs/msg/JointState topics: .*more "
                                             r"than one names all the model's joints and none "
                                             r"has their positions and efforts; .*--topic"):
        read_recording(path, joints=JOINTS)


def test_identifications_data_report_repeats_the_note(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model('two_link')
    t = np.arange(500) / 100.0
    q = np.column_stack([0.8 * np.sin(1.3 * t), 0.5 * np.sin(0.7 * t + 1)])
    tau = rd.gravity_torques(model, q)
    names = model.joint_names
    path = joint_state_bag(tmp_path / 'bag', [
        (100 + s, names, p, e, '/driver/joint_states') for s, p, e in zip(t, q, tau)] + [
        (100 + s, names, p, [], '/joint_states') for s, p in zip(t, q)])
    recording = read_recording(path, joints=names)
    lines = prepare(recording, model, cutoff=8.0).report.lines()
    assert recording.notes[0] in lines and 'read /driver/joint_states' in recording.notes[0]


def test_without_a_complete_topic_the_one_with_some_efforts_is_read(tmp_path):
    nan = [1.0] * 6 + [np.nan]
    path = joint_state_bag(tmp_path / 'bag', topic('/joint_states', 30, efforts=nan)
                           + topic('/franka/joint_states', 100, efforts=False)
                           + [(100 + k / 100, JOINTS, [], np.ones(7), '/efforts')
                              for k in range(100)])
    recording = read_recording(path, joints=JOINTS)
    assert recording.source.endswith(':/joint_states')
    assert recording.notes == (
        '3 JointState topics name every model joint; read /joint_states: the only one with '
        'positions and efforts; /efforts: no positions; /franka/joint_states: no efforts; '
        '--topic TOPIC (topic= in Python) reads another',)
