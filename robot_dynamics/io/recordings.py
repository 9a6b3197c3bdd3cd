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
The time of a message is its ``header.stamp``, or when the stamp is 0 the bag's receive time
(moved onto the stamps' clock by the other messages' median offset: simulated time).
Messages that carry complementary parts of one sample are joined into one row
(:func:`joined_messages`): a driver that publishes the efforts in their own message, a
gripper's joints published apart from the arm's.

CSV (:mod:`robot_dynamics.io.recording_csv`): a header row with a time column (``t``,
``time``, ``timestamp``, ``stamp``; in seconds unless its name gives the unit: ``time_ns``;
or ISO 8601 dates and times),
then ``q_<joint>``/``position_<joint>``, ``tau_<joint>``/``effort_<joint>`` and optionally
``qd_<joint>``/``velocity_<joint>`` columns (a joint without one of them, e.g. a gripper's
position alone, is NaN there), or PlotJuggler's export (``__time``,
``<topic>/<joint>/position``, ``<topic>/header/stamp``); separated by commas, or by
semicolons or tabs (then with a decimal comma or point); ``#`` starts a comment line; UTF-8,
with or without a byte-order mark. :func:`write_csv` writes ``t, q_*, qd_*, tau_*``.

Whatever is wrong with a file is a :class:`RecordingError` naming it and the fix, never a
traceback from a parser: a truncated or corrupted bag, random bytes, an empty file, text that is
not UTF-8, a column given twice (``q_j1`` twice, or ``q_j1`` and ``position_j1``) and a joint
named twice in one ``JointState`` message (which of the two values is meant cannot be told).
"""

from collections import Counter
import os

import numpy as np

from robot_dynamics.io.files import check_regular_file
from robot_dynamics.io.recording_base import Recording, RecordingError
from robot_dynamics.io.recording_csv import read_csv, write_csv
from robot_dynamics.io.recording_dynamic import dynamic_connections, joint_states
from robot_dynamics.io.recording_topics import DYNAMIC_JOINT_STATE, JOINT_STATE, topic_choice

__all__ = ['JOINT_STATE', 'Recording', 'RecordingError', 'read_recording', 'read_bag',
           'read_csv', 'write_bag', 'write_csv', 'joined_messages', 'check_recording_files']


def read_recording(path, topic=None, joints=()):
    """Read a bag (directory, ``.db3`` or ``.mcap``) or a ``.csv`` file into a Recording.

    ``joints``: the model's joints; of a bag's several ``JointState`` topics, the one whose
    messages name them all is read (``/joint_states`` beside ``/gripper/joint_states``; of
    several such, :func:`read_bag` says which and why, in the Recording's ``notes``).
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f'recording {path!r} not found; give a rosbag2 directory, a '
                                '.db3 or .mcap file, or a .csv file')
    if os.path.basename(path) == 'metadata.yaml':
        path = os.path.dirname(path) or '.'          # the bag it describes
    check_recording_files(path)
    path = _storage_file(path)
    if path.lower().endswith(TABLES):
        return read_csv(path)
    _refuse_ros1_bag(path)
    try:
        return read_bag(path, topic, joints)
    except RecordingError:
        raise
    except Exception as exc:         # noqa: B902 - any parser failure of a foreign file
        detail = ' '.join(str(exc).split())[:200]
        folder = os.path.dirname(path) or '.'
        bag = (f'; {folder} holds the bag\'s metadata.yaml: give that directory' if
               os.path.isfile(path) and os.path.isfile(os.path.join(folder, 'metadata.yaml'))
               else '')
        raise RecordingError(f'{path}: not a readable rosbag2 recording ({type(exc).__name__}: '
                             f'{detail}){bag}; give a complete rosbag2 directory, .db3 or '
                             '.mcap file, or a .csv file (t, q_<joint>, tau_<joint>)') from None


#: Suffixes of text tables, read as CSV (a logger's .tsv, .txt or .dat; separators are found).
TABLES = ('.csv', '.tsv', '.txt', '.dat')


def _storage_file(path):
    """Return a bag folder without ``metadata.yaml`` as its only storage file; refuse several.

    A recording killed before it closed, or a bag's folder copied without its metadata.
    """
    if not os.path.isdir(path) or os.path.isfile(os.path.join(path, 'metadata.yaml')):
        return path
    files = sorted(name for name in os.listdir(path) if name.endswith(('.db3', '.mcap')))
    if len(files) == 1:
        return os.path.join(path, files[0])
    if not files:
        inside = sorted(name for name in os.listdir(path) if name.lower().endswith(TABLES)
                        or os.path.isfile(os.path.join(path, name, 'metadata.yaml')))
        raise RecordingError(f'{path}: not a readable rosbag2 recording (a folder without '
                             'metadata.yaml, .db3 or .mcap file); give a complete rosbag2 '
                             'directory, .db3 or .mcap file, or a .csv file'
                             + (f'; it holds {", ".join(inside[:4])}'
                                f'{", ..." if len(inside) > 4 else ""}: give one of them'
                                if inside else ''))
    raise RecordingError(f'{path}: a folder without metadata.yaml holding {len(files)} storage '
                         f'files ({", ".join(files[:3])}): recreate it with ros2 bag reindex '
                         f'{path}, or give one of the files')


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
def read_bag(path, topic=None, joints=()):
    """Read ``sensor_msgs/JointState`` messages of ``topic``.

    Default: the only such topic, or the one naming all ``joints`` (of several, the one with
    positions and efforts of every joint, then the higher rate, then the name:
    :func:`_topic_choice`), or the two naming them, one with the positions and one with the
    efforts (joined).
    """
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import Stores, get_typestore
    typestore = get_typestore(Stores.ROS2_JAZZY)
    rows, receipts, names, uneven = [], [], {}, {}
    with Reader(path) as reader:
        connections = [c for c in reader.connections if c.msgtype == JOINT_STATE]
        topics = sorted({c.topic for c in connections})
        dynamic = [c for c in dynamic_connections(reader) if c.topic == (topic or c.topic)]
        if dynamic and (topic or not connections):           # ros2_control's alone
            topic, notes = dynamic[0].topic, (f'no {JOINT_STATE} topic: read {dynamic[0].topic}, '
                                              f'the position, velocity and effort interfaces '
                                              f'of ros2_control\'s {DYNAMIC_JOINT_STATE}',)
            messages = joint_states(reader, [c for c in dynamic if c.topic == topic], typestore)
        else:
            chosen, notes = ([topic], ()) if topic else (topics, ()) if len(topics) == 1 \
                else topic_choice(path, reader, connections, typestore, joints)
            topic = '+'.join(chosen)
            connections = [c for c in connections if c.topic in chosen]
            if not connections:
                raise RecordingError(f'{path}: no {JOINT_STATE} messages on {topic!r}; '
                                     f'topics: {topics}')
            messages = ((c, received, typestore.deserialize_cdr(raw, c.msgtype))
                        for c, received, raw in reader.messages(connections=connections))
        for connection, received, msg in messages:
            stamp = msg.header.stamp.sec + 1e-9 * msg.header.stamp.nanosec
            row_names = list(msg.name)
            where = f'{path}:{topic}: message {len(rows) + 1}'
            _refuse_repeated(row_names, where)
            for name in row_names:                     # a dict: linear in the names
                names.setdefault(name, len(names))
            for key in _FIELDS:
                size = len(getattr(msg, key))
                if 0 < size != len(row_names) and key not in uneven:
                    shown = ', '.join(repr(name)[:40] for name in row_names[:8])
                    uneven[key] = (f'{where} lists {len(row_names)} names ({shown}'
                                   f'{", ..." if len(row_names) > 8 else ""}) and {size} '
                                   f'{key}s; JointState arrays are empty or hold one value '
                                   'per name, so which joints they belong to cannot be told: '
                                   f'publish one {key} per name (NaN where there is none)')
            rows.append((stamp, row_names, msg.position, msg.velocity, msg.effort))
            receipts.append(received * 1e-9)
    if not rows:
        raise RecordingError(f'{path}: topic {topic!r} has no messages')
    rows, stuck = _stamped(rows, receipts)
    return _from_rows(rows, names, f'{path}:{topic}', uneven, tuple(notes) + stuck)


def _stamped(rows, receipts):
    """Give rows whose ``header.stamp`` is 0 their receive time, on the stamps' clock; a note.

    The stamps' clock may not be the recorder's (simulated time from 0, a controller's clock):
    the receive time is moved by the median offset of the stamped messages (none stamped: 0).
    A simulation's first message at time 0 stays first, not 1.7e9 s later. Stamps that do not
    advance (of the most frequent kind of message, fewer than :data:`STUCK_STAMPS` as many
    distinct stamps as messages: a driver that stamps once) give way to the receive times.
    """
    stamps, receipts = np.array([row[0] for row in rows]), np.array(receipts)
    kinds = [tuple(row[1]) for row in rows]
    usual = Counter(kinds).most_common(1)[0][0]
    common = np.array([kind == usual for kind in kinds]) & (stamps > 0)
    count, distinct = int(common.sum()), np.unique(stamps[common]).size
    if count >= 20 and distinct < STUCK_STAMPS * count < np.unique(receipts[common]).size:
        note = (f'{distinct} distinct header stamps in {count} messages (a driver '
                'that does not stamp each message): read the bag\'s receive times instead')
        return [(receipt,) + row[1:] for row, receipt in zip(rows, receipts)], (note,)
    unstamped = stamps <= 0
    if not unstamped.any():
        return rows, ()
    offset = float(np.median(stamps[~unstamped] - receipts[~unstamped])) \
        if not unstamped.all() else 0.0
    return [(receipt + offset,) + row[1:] if zero else row
            for row, receipt, zero in zip(rows, receipts, unstamped)], ()


#: Distinct stamps per message below which a bag's header stamps are stuck (see _stamped).
STUCK_STAMPS = 0.2


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


def _from_rows(rows, index, source, uneven, notes=()):
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
    for key in ('position', 'effort'):
        if not np.isfinite(arrays[key]).any() and key in uneven:
            raise RecordingError(uneven[key])
    if not np.isfinite(arrays['effort']).any():
        raise RecordingError(f'{source}: no efforts recorded; identification needs '
                             'JointState.effort (the applied joint torques)')
    return Recording(tuple(names), t, arrays['position'], arrays['effort'], velocity, source,
                     tuple(notes))


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
