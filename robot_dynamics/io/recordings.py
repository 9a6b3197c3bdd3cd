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
"""Recorded joint motion: rosbag2 (sqlite3 and MCAP) and CSV, read without a ROS install.

A :class:`Recording` holds the raw samples of ``sensor_msgs/JointState`` messages: times
(s), joint names, positions, efforts and, when recorded, velocities. Bags are read and written
with the pure-Python ``rosbags`` library (a bag directory with ``metadata.yaml``, or a single
``.db3`` / ``.mcap`` file). Each message is matched by joint name, so messages may list the
joints in any order or only some of them (a joint a message does not carry is NaN in that row).
The time of a message is its ``header.stamp``, or the bag's receive time when the stamp is 0.
Messages that carry complementary parts of one sample are joined into one row
(:func:`joined_messages`): a driver that publishes the efforts in their own message, a
gripper's joints published apart from the arm's.

CSV: a header row ``t`` (or ``time``), then ``q_<joint>``/``position_<joint>``,
``tau_<joint>``/``effort_<joint>`` and optionally ``qd_<joint>``/``velocity_<joint>`` columns
(a joint without one of them, e.g. a gripper's position alone, is NaN there); separated by
commas, or by semicolons or tabs when the header holds no comma; ``#`` starts a comment line;
UTF-8, with or without a byte-order mark. :func:`write_csv`
writes ``t, q_*, qd_*, tau_*``.

Whatever is wrong with a file is a :class:`RecordingError` naming it and the fix, never a
traceback from a parser: a truncated or corrupted bag, random bytes, an empty file, text that is
not UTF-8, a column given twice (``q_j1`` twice, or ``q_j1`` and ``position_j1``) and a joint
named twice in one ``JointState`` message (which of the two values is meant cannot be told).
"""

from collections import Counter
from dataclasses import dataclass
import csv
import os

import numpy as np

from robot_dynamics.errors import bounded
from robot_dynamics.io.files import check_regular_file

JOINT_STATE = 'sensor_msgs/msg/JointState'


class RecordingError(ValueError):
    """A recording cannot be read: the message names the file, the field and the fix.

    The message is cut to :data:`~robot_dynamics.errors.MAX_MESSAGE` characters
    (:func:`~robot_dynamics.errors.bounded`): it may quote a file's header.
    """

    def __init__(self, message, *args):
        super().__init__(bounded(message), *args)


@dataclass(frozen=True)
class Recording:
    """Raw joint-state samples: ``t`` (N,) s; ``position``, ``effort``, ``velocity`` (N, m).

    Columns follow ``joint_names``; ``velocity`` is None when not recorded. Units are SI
    (rad or m, rad/s or m/s, N m or N); missing values are NaN.
    """

    joint_names: tuple
    t: np.ndarray
    position: np.ndarray
    effort: np.ndarray
    velocity: np.ndarray = None
    source: str = ''

    def __post_init__(self):
        """Check the shapes agree."""
        m = len(self.joint_names)
        for name in ('position', 'effort', 'velocity'):
            value = getattr(self, name)
            if value is not None and np.shape(value) != (len(self.t), m):
                raise RecordingError(f'{self.source or "recording"}: {name} has shape '
                                     f'{np.shape(value)}, expected ({len(self.t)}, {m})')

    @property
    def samples(self):
        """Return the number of samples N."""
        return len(self.t)


def read_recording(path, topic=None):
    """Read a bag (directory, ``.db3`` or ``.mcap``) or a ``.csv`` file into a Recording."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f'recording {path!r} not found; give a rosbag2 directory, a '
                                '.db3 or .mcap file, or a .csv file')
    check_recording_files(path)
    if path.lower().endswith('.csv'):
        return read_csv(path)
    _refuse_ros1_bag(path)
    try:
        return read_bag(path, topic)
    except RecordingError:
        raise
    except Exception as exc:         # noqa: B902 - any parser failure of a foreign file
        detail = ' '.join(str(exc).split())[:200]
        raise RecordingError(f'{path}: not a readable rosbag2 recording ({type(exc).__name__}: '
                             f'{detail}); give a complete rosbag2 directory, .db3 or .mcap '
                             'file, or a .csv file (t, q_<joint>, tau_<joint>)') from None


def _refuse_ros1_bag(path):
    """Refuse a ROS 1 bag (``#ROSBAG V2.0``) with the command that converts it to rosbag2."""
    if os.path.isdir(path):
        return
    with open(path, 'rb') as handle:
        if not handle.read(13).startswith(b'#ROSBAG V'):
            return
    target = os.path.splitext(path)[0] + '_ros2'
    raise RecordingError(f'{path}: a ROS 1 bag; convert it to rosbag2 first: rosbags-convert '
                         f'--src {path} --dst {target} (the rosbags package), then give '
                         f'{target}')


#: Largest recording file read, bytes (a CSV or one storage file of a bag).
MAX_RECORDING_BYTES = 4 << 30


def check_recording_files(path):
    """Refuse a recording that is, or whose bag folder holds, no regular file (a FIFO, a device).

    The checks of the URDF loader (:func:`~robot_dynamics.io.files.check_regular_file`): a
    FIFO named ``run.csv`` would block the read forever, a symlink to ``/dev/zero`` would read
    until memory runs out.
    """
    files = [os.path.join(path, name) for name in sorted(os.listdir(path))] \
        if os.path.isdir(path) else [path]
    for name in files:
        if not os.path.isdir(name):
            check_regular_file(name, 'recording', MAX_RECORDING_BYTES, RecordingError,
                               'split the recording or record fewer topics')


# ---------------------------------------------------------------------- rosbag2
def read_bag(path, topic=None):
    """Read ``sensor_msgs/JointState`` messages of ``topic`` (default: the only such topic)."""
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import Stores, get_typestore
    typestore = get_typestore(Stores.ROS2_JAZZY)
    rows, names = [], {}
    with Reader(path) as reader:
        connections = [c for c in reader.connections if c.msgtype == JOINT_STATE]
        topics = sorted({c.topic for c in connections})
        if topic is None and len(topics) != 1:
            found = sorted({(c.topic, c.msgtype) for c in reader.connections})
            raise RecordingError(f'{path}: expected one {JOINT_STATE} topic, found {topics} '
                                 f'(all topics: {found}); choose one with topic=')
        topic = topic or topics[0]
        connections = [c for c in connections if c.topic == topic]
        if not connections:
            raise RecordingError(f'{path}: no {JOINT_STATE} messages on {topic!r}; topics: '
                                 f'{topics}')
        for connection, received, raw in reader.messages(connections=connections):
            msg = typestore.deserialize_cdr(raw, connection.msgtype)
            stamp = msg.header.stamp.sec + 1e-9 * msg.header.stamp.nanosec
            row_names = list(msg.name)
            _refuse_repeated(row_names, f'{path}:{topic}: message {len(rows) + 1}')
            for name in row_names:                     # a dict: linear in the names
                names.setdefault(name, len(names))
            rows.append((stamp if stamp > 0 else received * 1e-9, row_names,
                         msg.position, msg.velocity, msg.effort))
    if not rows:
        raise RecordingError(f'{path}: topic {topic!r} has no messages')
    return _from_rows(rows, names, f'{path}:{topic}')


def _refuse_repeated(names, where):
    """Raise :class:`RecordingError` naming the names that occur more than once."""
    if len(set(names)) == len(names):
        return
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    shown = ', '.join(repr(name)[:80] for name in repeated[:5])
    more = f' and {len(repeated) - 5} more' if len(repeated) > 5 else ''
    raise RecordingError(f'{where} names {shown}{more} more than once; which value is meant '
                         'cannot be told: record each joint once per message (one column '
                         'per joint in a CSV)')


_FIELDS = ('position', 'velocity', 'effort')


def _from_rows(rows, index, source):
    names = list(index)
    groups = joined_messages([_message(row, index) for row in rows])
    N, m = len(groups), len(names)
    t = np.empty(N)
    arrays = {key: np.full((N, m), np.nan) for key in _FIELDS}
    for r, group in enumerate(groups):
        t[r] = max(group, key=lambda message: message[1]['position'].size)[0]
        for _, parts in group:
            columns = parts['columns']
            for key in _FIELDS:
                if parts[key].size == columns.size:     # JointState allows empty arrays
                    arrays[key][r, columns] = parts[key]
    velocity = arrays['velocity'] if np.isfinite(arrays['velocity']).any() else None
    if not np.isfinite(arrays['effort']).any():
        raise RecordingError(f'{source}: no efforts recorded; identification needs '
                             'JointState.effort (the applied joint torques)')
    return Recording(tuple(names), t, arrays['position'], arrays['effort'], velocity, source)


def _message(row, index):
    """``(stamp, parts)`` of a bag row: its joints' columns and each field's values."""
    stamp, row_names, *values = row
    parts = {key: np.asarray(value, dtype=float).ravel() for key, value in zip(_FIELDS, values)}
    parts['columns'] = np.array([index[name] for name in row_names], dtype=int)
    return stamp, parts


def _cells(parts):
    """Return the (field, column) cells a message carries (a field of the wrong size: none)."""
    columns = parts['columns']
    return {(key, int(c)) for key in _FIELDS if parts[key].size == columns.size
            for c in columns}


def _signature(parts):
    return (parts['columns'].tobytes(),) + tuple(parts[k].size > 0 for k in _FIELDS)


def joined_messages(messages):
    """Group ``messages`` ``[(stamp, parts)]`` into samples: a list of lists of messages.

    Messages in time order join the sample before when they are less than half a period
    after its first message (the median interval of the most frequent kind of message: the
    same joints and fields) and carry none of its cells (a field of a joint): the efforts in a
    message of their own, a gripper's joints apart from the arm's. A recording whose messages
    all carry the same joints and fields (every driver's usual) gives one sample per message.
    A sample's time is that of its message with the most positions.
    """
    signatures = [_signature(parts) for _, parts in messages]
    if len(set(signatures)) == 1:
        return [[message] for message in messages]
    order = sorted(range(len(messages)), key=lambda k: messages[k][0])
    common = Counter(signatures).most_common(1)[0][0]          # linear in the messages
    stamps = np.array([messages[k][0] for k in order if signatures[k] == common])
    window = 0.5 * float(np.median(np.diff(stamps))) if stamps.size > 1 else 0.0
    groups, cells = [], set()
    for k in order:
        stamp, parts = messages[k]
        carried = _cells(parts)
        if groups and stamp - groups[-1][0][0] < window and not carried & cells:
            groups[-1].append(messages[k])
            cells |= carried
        else:
            groups.append([messages[k]])
            cells = carried
    return groups


def write_bag(path, recording, topic='/joint_states', storage='sqlite3'):
    """Write a Recording as ``sensor_msgs/JointState`` messages (``storage``: sqlite3, mcap)."""
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore
    plugins = {'sqlite3': StoragePlugin.SQLITE3, 'mcap': StoragePlugin.MCAP}
    if storage not in plugins:
        raise ValueError(f'storage: {storage!r}; use one of {sorted(plugins)}')
    typestore = get_typestore(Stores.ROS2_JAZZY)
    JointState = typestore.types[JOINT_STATE]
    Header = typestore.types['std_msgs/msg/Header']
    Time = typestore.types['builtin_interfaces/msg/Time']
    empty = np.zeros(0)
    with Writer(path, version=9, storage_plugin=plugins[storage]) as writer:
        connection = writer.add_connection(topic, JOINT_STATE, typestore=typestore)
        for k, stamp in enumerate(recording.t):
            nanoseconds = int(round(stamp * 1e9))
            sec, nanosec = divmod(nanoseconds, 10 ** 9)
            msg = JointState(
                header=Header(stamp=Time(sec=sec, nanosec=nanosec), frame_id=''),
                name=list(recording.joint_names),
                position=np.ascontiguousarray(recording.position[k], dtype=np.float64),
                velocity=(empty if recording.velocity is None
                          else np.ascontiguousarray(recording.velocity[k], dtype=np.float64)),
                effort=np.ascontiguousarray(recording.effort[k], dtype=np.float64))
            writer.write(connection, nanoseconds, typestore.serialize_cdr(msg, JOINT_STATE))
    return path


# ---------------------------------------------------------------------- CSV
_PREFIXES = {'position': ('q_', 'position_'), 'velocity': ('qd_', 'velocity_'),
             'effort': ('tau_', 'effort_')}


def _numbers(row, number, width, path, last):
    """Return the floats of CSV ``row`` on line ``number`` (empty: NaN), or say what is wrong."""
    if len(row) != width:
        cut = ' (the last line: the file looks truncated; delete that line)' if last else ''
        raise RecordingError(f'{path}: line {number} has {len(row)} fields, the header '
                             f'{width}{cut}; every row must hold one number per column')
    try:
        return [float(x) if x.strip() else np.nan for x in row]
    except ValueError:
        bad = next(x for x in row if x.strip() and not _is_float(x))
        raise RecordingError(f'{path}: line {number}: non-numeric value {bad[:40]!r}; every '
                             'row after the header must hold numbers') from None


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_csv(path):
    """Read a CSV recording (header row, see the module docstring)."""
    try:
        with open(path, newline='', encoding='utf-8-sig') as handle:      # BOM or not
            numbered = [(number, line) for number, line in enumerate(handle, 1)
                        if line.strip() and not line.lstrip().startswith('#')]
    except UnicodeDecodeError as exc:
        raise RecordingError(f'{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); '
                             'save the CSV as UTF-8') from None
    reader = csv.reader((line for _, line in numbered),
                        delimiter=_delimiter(numbered[0][1] if numbered else ''))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise RecordingError(f'{path}: empty CSV; expected a header row t, q_*, tau_*') from None
    data = np.array([_numbers(row, number, len(header), path, number == numbered[-1][0])
                     for (number, _), row in zip(numbered[1:], reader)])
    if data.ndim != 2 or data.shape[0] == 0 or data.shape[1] != len(header):
        raise RecordingError(f'{path}: expected rows of {len(header)} numbers like the header')
    time_columns = [k for k, h in enumerate(header) if h in ('t', 'time')]
    if not time_columns:
        raise RecordingError(f'{path}: no time column; name the first column t (seconds); '
                             f'found columns {[h[:40] for h in header[:8]]}')
    columns = {key: {} for key in _PREFIXES}
    sources = {'time': [header[k] for k in time_columns]}     # meaning → its columns
    for k, h in enumerate(header):
        for key, prefixes in _PREFIXES.items():
            for prefix in prefixes:
                if h.startswith(prefix):
                    columns[key].setdefault(h[len(prefix):], k)
                    sources.setdefault(f'{key} of {h[len(prefix):]!r}', []).append(h)
    repeated = [(what, given) for what, given in sources.items() if len(given) > 1]
    if repeated:
        shown = '; '.join(f'{what[:60]} in columns {", ".join(g[:60] for g in given[:4])}'
                          for what, given in repeated[:3])
        raise RecordingError(f'{path}: {len(repeated)} quantities given more than once '
                             f'({shown}); which one is meant cannot be told: keep one column '
                             'each')
    time_column = time_columns[0]
    names = list(columns['position'])
    if not names or not columns['effort']:
        raise RecordingError(f'{path}: need q_<joint> and tau_<joint> columns for the same '
                             f'joints; found positions {_some(names)}, efforts '
                             f'{_some(list(columns["effort"]))}')
    names += [name for name in columns['effort'] if name not in columns['position']]
    arrays = {key: _joint_columns(data, cols, names) for key, cols in columns.items()}
    return Recording(tuple(names), data[:, time_column], arrays['position'], arrays['effort'],
                     arrays['velocity'], path)


def _joint_columns(data, columns, names):
    """Return the (N, m) values of ``names`` (NaN where a joint has no column), or None.

    A joint may have a position column and no effort (a gripper logged beside the arm): only
    the model's joints must have both (:func:`~robot_dynamics.identification.prepare` names
    a model joint whose column is missing).
    """
    if not columns:
        return None
    values = np.full((data.shape[0], len(names)), np.nan)
    for j, name in enumerate(names):
        if name in columns:
            values[:, j] = data[:, columns[name]]
    return values


def _delimiter(header):
    """Return the CSV header's separator: ``,``, else ``;`` or a tab (spreadsheets' exports)."""
    if ',' not in header:
        for separator in (';', '\t'):
            if separator in header:
                return separator
    return ','


def _some(names, shown=10):
    """``names`` as a list of at most ``shown`` (each cut to 40 characters) and the count."""
    listed = [name[:40] for name in names[:shown]]
    return f'{listed} and {len(names) - shown} more' if len(names) > shown else str(listed)


def write_csv(path, recording):
    """Write a Recording as CSV: ``t, q_*, [qd_*,] tau_*``."""
    names = recording.joint_names
    blocks = [('q_', recording.position)]
    if recording.velocity is not None:
        blocks.append(('qd_', recording.velocity))
    blocks.append(('tau_', recording.effort))
    header = ['t'] + [prefix + name for prefix, _ in blocks for name in names]
    data = np.column_stack([recording.t] + [array for _, array in blocks])
    with open(path, 'w', newline='') as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(data.tolist())
    return path
