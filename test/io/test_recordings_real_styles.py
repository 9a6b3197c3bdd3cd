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
"""Recordings named and laid out as real loggers write them (red team, December 2026).

Each was refused or misread before: CSV columns named after the joint (``joint1_pos``,
``joint1_effort``) or numbered (``q1``, ``q_1``…, ``position_0``…: joints "1".."6" no model
has); Franka's ``tau_J_<k>`` (read as the effort of a joint ``J_<k>``), its ``tau_ext`` (the
external torque, no joint torque) called "no efforts"; a units row after the header
(``s, rad, Nm``); a bag folder without ``metadata.yaml`` (a recording killed before it
closed); a time column in ns from 0 refused without saying which unit fits.
"""

import shutil

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recording_csv import iso_for_python310
from robot_dynamics.io.recordings import (Recording, RecordingError, read_recording,
                                          write_bag)
from bags import joint_state_bag
from robots import joint, link, quiet_model_from_urdf, robot

NAMES = ('joint1', 'joint2', 'joint3')


def motion(rows=400, rate=97.0, seed=0):
    """Epoch stamps at ``rate``, positions and efforts (rows, 3), seeded."""
    rng = np.random.default_rng(seed)
    t = 1.7e9 + np.arange(rows) / rate
    k = np.arange(1, 4)
    q = 0.3 * np.sin(np.outer(t - t[0], k) + rng.uniform(0, 1, 3))
    return t, q, 5.0 * np.cos(np.outer(t - t[0], k)) + rng.normal(0, 0.01, (rows, 3))


def write(path, header, table, units=None, separator=','):
    lines = [separator.join(header)] + ([separator.join(units)] if units else [])
    lines += [separator.join(repr(float(x)) for x in row) for row in table]
    path.write_text('\n'.join(lines) + '\n')
    return path


def at(time, t, values):
    """Return the recorded ``values`` (N, n) at ``time``, linearly interpolated."""
    return np.array([np.interp(time, t, column) for column in values.T])


def joint_values(recording, names):
    columns = [recording.joint_names.index(name) for name in names]
    return recording.position[:, columns], recording.effort[:, columns]


@pytest.mark.parametrize('position, effort', [
    ('{}_pos', '{}_eff'), ('{}_position', '{}_effort'), ('{}.position', '{}.torque'),
    ('{}_Position', '{}_tau')])
def test_columns_named_after_the_joint_are_read(tmp_path, position, effort):
    t, q, tau = motion()
    header = ['t'] + [position.format(n) for n in NAMES] + [effort.format(n) for n in NAMES]
    recording = read_recording(write(tmp_path / 'run.csv', header, np.column_stack([t, q, tau])))
    got_q, got_tau = joint_values(recording, NAMES)
    assert np.array_equal(got_q, q) and np.array_equal(got_tau, tau)
    assert set(recording.joint_names) == set(NAMES)


@pytest.mark.parametrize('position, effort, first', [
    ('q_{}', 'tau_{}', 1), ('q{}', 'tau{}', 1), ('position_{}', 'effort_{}', 0),
    ('q_{}', 'tau_J_{}', 0), ('q{}', 'tau_J{}', 1)])
def test_numbered_joints_are_the_models_in_chain_order(tmp_path, position, effort, first):
    model = rd.load_model('two_link')
    names = [str(first + j) for j in range(model.dof)]
    t, q, tau = motion()
    q, tau = q[:, :model.dof], tau[:, :model.dof]
    header = (['t'] + [position.format(n) for n in names] + [effort.format(n) for n in names]
              + ['tau_ext_hat_filtered_0', 'q_d_0'])
    table = np.column_stack([t, q, tau, 100 + tau[:, :1], 9 + q[:, :1]])
    recording = read_recording(write(tmp_path / 'run.csv', header, table))
    assert sorted(recording.joint_names) == names           # no J_0, ext_…, d_0 joints
    samples = prepare(recording, model, cutoff=10.0)
    assert any('numbers its joints' in line and f'{first} = {model.joint_names[0]}' in line
               for line in samples.report.lines())
    middle = len(samples.t) // 2
    assert np.allclose(samples.tau[middle], at(samples.t[middle], t, tau), atol=1e-6)


def test_numbered_joints_follow_the_numbers_that_end_the_models_joint_names():
    # KUKA-style names whose numbers are not the chain order: a2 is the first joint
    model = quiet_model_from_urdf(robot(
        link('base'), link('upper'), link('lower'), joint('a2', 'base', 'upper'),
        joint('a1', 'upper', 'lower', axis='0 1 0')))
    t, q, tau = motion()
    recording = Recording(('1', '2'), t, q[:, :2], tau[:, :2])   # 1 = a1, the second joint
    samples = prepare(recording, model, cutoff=10.0)
    assert 'read as the model\'s 2 = a2, 1 = a1' in '\n'.join(samples.report.lines())
    middle = len(samples.t) // 2
    assert np.allclose(samples.tau[middle], at(samples.t[middle], t, tau[:, [1, 0]]),
                       atol=1e-6)


def test_extra_numbers_are_refused_not_guessed():
    model = rd.load_model('two_link')
    t, q, tau = motion()
    recording = Recording(('1', '2', '3'), t, q, tau, None, 'run.csv')
    with pytest.raises(RecordingError, match=r"joints .* of the model are not recorded.*the "
                       r"recording numbers 3 joints \(1, 2, 3\), the model has 2: which are "
                       r"the model's cannot be told"):
        prepare(recording, model, cutoff=10.0)


def test_franka_external_torques_alone_are_named_not_read(tmp_path):
    t, q, tau = motion()
    header = ['time'] + [f'q_{k}' for k in range(3)] + [f'tau_ext_{k}' for k in range(3)]
    with pytest.raises(RecordingError, match=r"'tau_ext_0', 'tau_ext_1', 'tau_ext_2'\] are "
                       'desired or external values, not the measured state'):
        read_recording(write(tmp_path / 'franka.csv', header, np.column_stack([t, q, tau])))


def test_franka_tau_j_of_named_joints_is_their_effort(tmp_path):
    t, q, tau = motion()
    header = (['t'] + [f'q_{n}' for n in NAMES] + [f'tau_J_{n}' for n in NAMES]
              + [f'tau_ext_hat_filtered_{n}' for n in NAMES])
    path = write(tmp_path / 'run.csv', header, np.column_stack([t, q, tau, 0 * tau]))
    recording = read_recording(path)
    assert recording.joint_names == NAMES
    assert np.array_equal(joint_values(recording, NAMES)[1], tau)


def test_a_joint_named_j_keeps_its_name_beside_tau_j(tmp_path):
    t, q, tau = motion()
    names = ('J1', 'J2', 'J3')                       # a Fanuc-style arm, not Franka's tau_J
    header = ['t'] + [f'q_{n}' for n in names] + [f'tau_{n}' for n in names]
    recording = read_recording(write(tmp_path / 'run.csv', header, np.column_stack([t, q, tau])))
    assert recording.joint_names == names
    assert np.array_equal(joint_values(recording, names)[1], tau)


@pytest.mark.parametrize('units, scale, separator', [
    (['s', 'rad', 'rad', 'rad', 'Nm', 'Nm', 'Nm'], 1.0, ','),
    (['[sec]', '[deg]', '[deg]', '[deg]', '[N.m]', '[N.m]', '[N.m]'], np.pi / 180, ';'),
    (['ms', '', 'rad', 'rad', 'mNm', 'Nm', 'Nm'], 1.0, '\t'),
    (['seconds', 'degrees', 'degrees', 'degrees', 'Newton-meter', 'N m', 'Nm'], np.pi / 180,
     ',')])
def test_a_units_row_after_the_header_is_read_and_applied(tmp_path, units, scale, separator):
    t, q, tau = motion()
    header = ['time'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    stamps = (t - t[0]) * (1e3 if units[0] == 'ms' else 1.0)
    path = write(tmp_path / 'run.csv', header, np.column_stack([stamps, q, tau]), units,
                 separator)
    recording = read_recording(path)
    got_q, got_tau = joint_values(recording, NAMES)
    assert np.allclose(recording.t, t - t[0], rtol=0, atol=1e-9)
    assert np.allclose(got_q, q * scale, rtol=1e-12)
    expected = tau * (np.array([1e-3, 1.0, 1.0]) if 'mNm' in units else 1.0)
    assert np.allclose(got_tau, expected, rtol=1e-12)


def test_a_current_in_the_units_row_is_refused(tmp_path):
    t, q, tau = motion()
    header = ['t'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    path = write(tmp_path / 'run.csv', header, np.column_stack([t, q, tau]),
                 ['s'] + ['rad'] * 3 + ['A'] * 3)
    with pytest.raises(RecordingError, match=r"column 'tau_joint1 \[A\]': the unit 'A' is no "
                       'unit of effort'):
        read_recording(path)


def test_a_text_row_that_is_no_units_row_is_still_refused(tmp_path):
    t, q, tau = motion()
    header = ['t'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    path = write(tmp_path / 'run.csv', header, np.column_stack([t, q, tau]))
    lines = path.read_text().splitlines()
    lines.insert(5, ','.join(['x'] * 7))               # text in the middle: an error
    path.write_text('\n'.join(lines) + '\n')
    with pytest.raises(RecordingError, match="line 6: non-numeric value 'x'"):
        read_recording(path)


def test_a_bag_folder_without_metadata_reads_its_storage_file(tmp_path):
    t, q, tau = motion()
    bag = write_bag(tmp_path / 'run', Recording(NAMES, t, q, tau))
    (bag / 'metadata.yaml').unlink()                    # ros2 bag record killed: no metadata
    recording = read_recording(bag, joints=NAMES)
    assert np.array_equal(joint_values(recording, NAMES)[0], q)
    second = tmp_path / 'run' / 'run_1.db3'
    shutil.copy(next((tmp_path / 'run').glob('*.db3')), second)
    with pytest.raises(RecordingError, match='a folder without metadata.yaml holding 2 storage '
                       'files .*ros2 bag reindex'):
        read_recording(bag, joints=NAMES)


def test_a_time_in_ns_from_0_is_refused_naming_the_unit_that_fits():
    model = rd.load_model('two_link')
    t, q, tau = motion()
    recording = Recording(model.joint_names, np.round((t - t[0]) * 1e9), q[:, :2], tau[:, :2],
                          None, 'run.csv')
    with pytest.raises(RecordingError, match=r'time_ns.*97 Hz in ns'):
        prepare(recording, model, cutoff=10.0)


@pytest.mark.parametrize('stamp', [lambda t: t[0] + 0 * t, lambda t: np.floor(t * 10) / 10])
def test_stamps_that_do_not_advance_give_way_to_the_receive_times(tmp_path, stamp):
    # Was: one stamp for every message, every row a duplicate: "too few finite rows".
    t, q, tau = motion()
    received = t + 0.002
    messages = [(s, NAMES, q[k], tau[k]) for k, s in enumerate(stamp(t))]
    recording = read_recording(joint_state_bag(tmp_path / 'bag', messages, received=received))
    assert np.allclose(recording.t, received, rtol=0, atol=1e-6)
    assert 'distinct header stamps in 400 messages' in recording.notes[0]


def test_two_publishers_sharing_stamps_keep_the_stamps(tmp_path):
    t, q, tau = motion()
    messages = []
    for k in range(t.size):                       # each joint in a message of its own
        messages += [(t[k], (name,), q[k, [j]], tau[k, [j]]) for j, name in enumerate(NAMES)]
    received = np.repeat(t, 3) + np.tile([1e-3, 2e-3, 3e-3], t.size)
    recording = read_recording(joint_state_bag(tmp_path / 'bag', messages, received=received))
    assert recording.notes == () and np.allclose(recording.t, t, rtol=0, atol=1e-6)
    assert np.array_equal(joint_values(recording, NAMES)[1], tau)


def test_a_bag_with_only_a_trajectory_controllers_state_names_the_topic_to_record(tmp_path):
    # Was: only the topic list; the controller's state looks like joint states but is not.
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    store = get_typestore(Stores.ROS2_JAZZY)
    state = 'control_msgs/msg/JointTrajectoryControllerState'
    store.register(get_types_from_msg(
        'std_msgs/Header header\nstring[] joint_names\n'
        'trajectory_msgs/JointTrajectoryPoint feedback', state))
    with Writer(tmp_path / 'bag', version=9) as writer:
        writer.add_connection('/arm_controller/controller_state', state, typestore=store)
    with pytest.raises(RecordingError, match=r"/arm_controller/controller_state is a "
                       r"trajectory controller's state .*record the /joint_states"):
        read_recording(tmp_path / 'bag')


@pytest.mark.parametrize('text, read', [
    ('2026-12-06T17:44:37.123456789Z', '2026-12-06T17:44:37.123456+00:00'),
    ('2026-12-06 17:44:37.1+0100', '2026-12-06 17:44:37.100000+01:00'),
    ('2026-12-06 17:44:37', '2026-12-06 17:44:37.000000'), ('17:44:37,25', '17:44:37.250000'),
    ('not a time', 'not a time')])
def test_iso_times_are_given_to_python_310_in_the_form_it_reads(text, read):
    # Python 3.10 (ROS 2 Humble; setup.py allows it) refuses Z, +0100 and 9 digits of fraction.
    assert iso_for_python310(text) == read


def test_iso_times_with_nanoseconds_and_z_are_read_as_utc_seconds(tmp_path):
    t, q, tau = motion()
    stamps = [np.datetime_as_string(np.datetime64(int(s * 1e9), 'ns'), unit='ns') + 'Z'
              for s in t]
    header = ['time'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    lines = [','.join(header)] + [','.join([stamp] + [repr(float(x)) for x in row])
                                  for stamp, row in zip(stamps, np.column_stack([q, tau]))]
    (tmp_path / 'run.csv').write_text('\n'.join(lines) + '\n')
    recording = read_recording(tmp_path / 'run.csv')
    assert np.allclose(recording.t, t, rtol=0, atol=2e-6)


def flattened_joint_states(t, q, tau, names):
    """Return a bag-to-CSV tool's text: header.stamp.sec/.nanosec, name_k, position_k, effort_k."""
    header = (['header.stamp.sec', 'header.stamp.nanosec', 'header.frame_id']
              + [f'name_{k}' for k in range(len(names[0]))]
              + [f'position_{k}' for k in range(q.shape[1])]
              + [f'effort_{k}' for k in range(q.shape[1])])
    lines = [','.join(header)]
    for k, stamp in enumerate(t):
        sec, nanosec = divmod(int(round(stamp * 1e9)), 10 ** 9)
        lines.append(','.join([str(sec), str(nanosec), 'base'] + list(names[k])
                              + [repr(float(x)) for x in np.concatenate([q[k], tau[k]])]))
    return '\n'.join(lines) + '\n'


def test_a_flattened_joint_state_is_named_by_its_name_columns(tmp_path):
    # Was: "no time column"; numbered alone, position_0 would be the chain's first joint, but
    # drivers publish in their own order (the UR driver's /joint_states starts at the elbow).
    t, q, tau = motion()
    order = ('joint3', 'joint1', 'joint2')
    path = tmp_path / 'flat.csv'
    path.write_text(flattened_joint_states(t, q, tau, [order] * t.size))
    recording = read_recording(path)
    assert recording.joint_names == order
    assert np.allclose(recording.t, t, rtol=0, atol=1e-6)
    got_q, got_tau = joint_values(recording, order)
    assert np.array_equal(got_q, q) and np.array_equal(got_tau, tau)


def test_a_name_column_whose_joint_changes_between_rows_is_refused(tmp_path):
    t, q, tau = motion()
    names = [NAMES if k % 2 else NAMES[::-1] for k in range(t.size)]
    path = tmp_path / 'flat.csv'
    path.write_text(flattened_joint_states(t, q, tau, names))
    with pytest.raises(RecordingError, match=r"column 'name_0' names 2 joints \(joint1, joint3\)"
                       r": which joint its values belong to cannot be told"):
        read_recording(path)


@pytest.mark.parametrize('name, scale', [('Time [sec]', 1.0), ('time_usec', 1e6),
                                         ('t (µs)', 1e6), ('timestamp_nsec', 1e9)])
def test_time_units_spelled_out_are_read(tmp_path, name, scale):
    # Was: "no time column" for sec, usec, µs, nsec.
    t, q, tau = motion()
    header = [name] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    stamps = np.round((t - t[0]) * scale)
    path = write(tmp_path / 'run.csv', header, np.column_stack([stamps, q, tau]))
    assert np.allclose(read_recording(path).t, stamps / scale, rtol=0, atol=1e-12)


@pytest.mark.parametrize('storage', ['sqlite3', 'mcap'])
def test_a_bag_with_only_dynamic_joint_states_is_read_from_its_interfaces(tmp_path, storage):
    # Was: refused ("record the /joint_states ..."): the broadcaster's other topic holds them.
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    store = get_typestore(Stores.ROS2_JAZZY)
    store.register(get_types_from_msg('string[] interface_names\nfloat64[] values',
                                      'control_msgs/msg/InterfaceValue'))
    kind = 'control_msgs/msg/DynamicJointState'
    store.register(get_types_from_msg('std_msgs/Header header\nstring[] joint_names\n'
                                      'control_msgs/InterfaceValue[] interface_values', kind))
    types = store.types
    t, q, tau = motion()
    plugin = {'sqlite3': StoragePlugin.SQLITE3, 'mcap': StoragePlugin.MCAP}[storage]
    with Writer(tmp_path / 'bag', version=9, storage_plugin=plugin) as writer:
        connection = writer.add_connection('/dynamic_joint_states', kind, typestore=store)
        for k, stamp in enumerate(t):
            sec, nanosec = divmod(int(round(stamp * 1e9)), 10 ** 9)
            values = [types['control_msgs/msg/InterfaceValue'](
                interface_names=['temperature', 'effort', 'position'],
                values=np.array([40.0, tau[k, j], q[k, j]])) for j in range(3)]
            values.append(types['control_msgs/msg/InterfaceValue'](
                interface_names=['position'], values=np.array([0.01])))     # the gripper
            msg = types[kind](header=types['std_msgs/msg/Header'](
                stamp=types['builtin_interfaces/msg/Time'](sec=sec, nanosec=nanosec),
                frame_id=''), joint_names=list(NAMES) + ['finger'], interface_values=values)
            writer.write(connection, int(round(stamp * 1e9)) + 10 ** 6,
                         store.serialize_cdr(msg, kind))
    recording = read_recording(tmp_path / 'bag', joints=NAMES)
    assert recording.joint_names == NAMES + ('finger',) and recording.velocity is None
    got_q, got_tau = joint_values(recording, NAMES)
    assert np.array_equal(got_q, q) and np.array_equal(got_tau, tau)
    assert np.all(np.isnan(recording.effort[:, 3])) and np.all(recording.position[:, 3] == 0.01)
    assert np.allclose(recording.t, t, rtol=0, atol=1e-6)
    assert 'read /dynamic_joint_states' in recording.notes[0]


def test_clock_readings_across_midnight_keep_going_forward(tmp_path):
    # Was: the rows after midnight 86400 s before the others (sorted first by prepare).
    t, q, tau = motion()
    seconds = 86400 - 2.0 + (t - t[0])
    clocks = [f'{int(s // 3600) % 24:02d}:{int(s // 60) % 60:02d}:{s % 60:09.6f}'
              for s in seconds]
    header = ['time'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    lines = [','.join(header)] + [','.join([c] + [repr(float(x)) for x in row])
                                  for c, row in zip(clocks, np.column_stack([q, tau]))]
    (tmp_path / 'run.csv').write_text('\n'.join(lines) + '\n')
    recording = read_recording(tmp_path / 'run.csv')
    assert np.all(np.diff(recording.t) > 0)
    assert np.allclose(recording.t, seconds, rtol=0, atol=2e-6)


def test_rostopic_echo_p_of_joint_states_is_read_by_its_names_and_stamps(tmp_path):
    # ROS 1's `rostopic echo -p /joint_states > run.csv`: was "need q_<joint> and tau_<joint>".
    t, q, tau = motion()
    order = ('joint2', 'joint3', 'joint1')
    columns = [NAMES.index(name) for name in order]          # the message's order
    header = (['%time', 'field.header.seq', 'field.header.stamp', 'field.header.frame_id']
              + [f'field.name{k}' for k in range(3)] + [f'field.position{k}' for k in range(3)]
              + [f'field.velocity{k}' for k in range(3)] + [f'field.effort{k}' for k in range(3)])
    lines = [','.join(header)]
    for k, stamp in enumerate(t):
        ns = int(round(stamp * 1e9))
        lines.append(','.join([str(ns + 2_000_000 + 1000 * (k % 7)), str(k), str(ns), '']
                              + list(order) + [repr(float(x)) for x in np.concatenate(
                                  [q[k, columns], 0 * q[k], tau[k, columns]])]))
    (tmp_path / 'run.csv').write_text('\n'.join(lines) + '\n')
    recording = read_recording(tmp_path / 'run.csv')
    assert recording.joint_names == order
    assert np.allclose(recording.t, t, rtol=0, atol=1e-6)           # the stamps, not %time
    got_q, got_tau = joint_values(recording, NAMES)
    assert np.array_equal(got_q, q) and np.array_equal(got_tau, tau)


@pytest.mark.parametrize('suffix, separator', [('.tsv', '\t'), ('.txt', ' '), ('.dat', ';')])
def test_text_tables_with_other_suffixes_are_read_as_csv(tmp_path, suffix, separator):
    # Was: "not a readable rosbag2 recording (...)": every file but .csv went to the bag reader.
    t, q, tau = motion()
    header = ['t'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    path = write(tmp_path / f'run{suffix}', header, np.column_stack([t, q, tau]),
                 separator=separator)
    assert np.array_equal(joint_values(read_recording(path), NAMES)[0], q)


def test_missing_value_markers_are_nan_and_a_dash_in_the_units_row_is_no_unit(tmp_path):
    # Was: "non-numeric value 'NA'" (R's write.csv) and "the unit '-' is no unit of position".
    t, q, tau = motion()
    header = ['index', 't'] + [f'q_{n}' for n in NAMES] + [f'tau_{n}' for n in NAMES]
    path = write(tmp_path / 'run.csv', header,
                 np.column_stack([np.arange(t.size), t, q, tau]), ['-', 's', '-'] + ['rad'] * 2
                 + ['Nm'] * 3)
    lines = path.read_text().splitlines()
    lines[7] = ','.join(lines[7].split(',')[:5] + ['NA', 'null', 'N/A'])   # sample 5
    path.write_text('\n'.join(lines) + '\n')
    recording = read_recording(path)
    got_q, got_tau = joint_values(recording, NAMES)
    assert np.array_equal(got_q, q) and np.all(np.isnan(got_tau[5]))
    assert np.array_equal(np.delete(got_tau, 5, axis=0), np.delete(tau, 5, axis=0))


def test_a_desired_joint_state_topic_is_not_read_beside_the_measured_one(tmp_path):
    # Was: both complete at one rate: the first by name, desired_joint_states (the commands).
    t, q, tau = motion()
    base = '/franka_robot_state_broadcaster/'
    messages = []
    for k, stamp in enumerate(t):
        messages.append((stamp, NAMES, q[k] + 0.1, tau[k] + 5.0, base + 'desired_joint_states'))
        messages.append((stamp, NAMES, q[k], tau[k], base + 'measured_joint_states'))
    recording = read_recording(joint_state_bag(tmp_path / 'bag', messages), joints=NAMES)
    assert recording.source.endswith(base + 'measured_joint_states')
    assert np.array_equal(joint_values(recording, NAMES)[1], tau)
    assert 'left out ' + base + 'desired_joint_states' in recording.notes[-1]


def test_the_folder_above_a_bag_names_the_bags_it_holds(tmp_path):
    # Was: "a folder without metadata.yaml" only; users give the folder they recorded into.
    t, q, tau = motion()
    write_bag(tmp_path / 'rosbag2_2026_12_06-17_44_37', Recording(NAMES, t, q, tau))
    with pytest.raises(RecordingError, match='it holds rosbag2_2026_12_06-17_44_37: give one '
                                             'of them'):
        read_recording(tmp_path, joints=NAMES)
