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
"""Of a bag's several ``sensor_msgs/JointState`` topics, the one to read (:func:`topic_choice`).

:func:`robot_dynamics.io.recordings.read_bag` asks when the bag holds more than one.
"""

from dataclasses import dataclass
import itertools
import re

import numpy as np

from robot_dynamics.io.recording_base import RecordingError

JOINT_STATE = 'sensor_msgs/msg/JointState'
DYNAMIC_JOINT_STATE = 'control_msgs/msg/DynamicJointState'
#: Names of JointState topics that hold no measurement (franka's desired_joint_states, a
#: controller's commands, external torques): read only when no other names the joints.
NOT_MEASURED = re.compile(r'desired|command|cmd|reference|target|setpoint|external', re.I)
#: ros2_control's topics that are no JointState, and what they are.
_CONTROL = {DYNAMIC_JOINT_STATE: f'ros2_control\'s {DYNAMIC_JOINT_STATE}',
            'control_msgs/msg/JointTrajectoryControllerState': 'a trajectory controller\'s '
            'state (reference, feedback and error of its joints; measured efforts rarely)'}


def topic_choice(path, reader, connections, typestore, joints):
    """Return the JointState topics that carry ``joints``' positions and efforts, and a note.

    The only topic whose first message names all ``joints``; of several (Franka's
    ``/joint_states`` from the joint_state_broadcaster and ``/franka/joint_states`` from the
    driver), the one with positions and a finite effort of every joint (identification and
    the observer need the torques; without one, with positions and some efforts), then the
    higher message rate, then the first by name: the note says which was read and why.
    Without any: the only pair where one has the positions and the other the efforts (a
    driver's efforts on a topic of their own). Otherwise raise
    :class:`RecordingError` saying which topics the bag holds (joints, messages) and how to
    choose one.
    """
    if not connections:
        found = sorted({(c.topic, c.msgtype) for c in reader.connections})
        hint = next((f' ({c.topic} is {_CONTROL[c.msgtype]}: record the /joint_states that '
                     'its joint_state_broadcaster publishes beside it)'
                     for c in reader.connections if c.msgtype in _CONTROL), '')
        raise RecordingError(f'{path}: no {JOINT_STATE} topic (topics: {found}){hint}; record '
                             'the joint states (ros2 bag record /joint_states)')
    fields, described = {}, []
    for topic in sorted({c.topic for c in connections}):
        shown, fields[topic] = _topic_fields(reader, [c for c in connections if c.topic == topic],
                                             typestore, joints)
        count = sum(c.msgcount for c in connections if c.topic == topic)
        described.append(f'{topic} ({count} messages, joints '
                         f'{", ".join(name[:40] for name in shown[:8])}'
                         f'{", ..." if len(shown) > 8 else ""})')
    fields = {topic: found for topic, found in fields.items() if found}
    measured = {topic: found for topic, found in fields.items()
                if not NOT_MEASURED.search(topic)}
    if measured and len(measured) < len(fields):
        chosen, notes = topic_choice(path, reader, [c for c in connections
                                                    if c.topic in measured], typestore, joints)
        return chosen, notes + (f'left out {", ".join(sorted(set(fields) - set(measured)))}:'
                                ' desired, commanded or external values by their names',)
    complete = [topic for topic, found in fields.items() if found.position and found.torques]
    both = [topic for topic, found in fields.items() if found.position and found.effort]
    positions = [topic for topic, found in fields.items() if found.position]
    efforts = [topic for topic, found in fields.items() if found.effort]
    if len(fields) == 1:
        return list(fields), ()
    if complete or both:
        return _ranked(complete or both, fields, 'efforts of every joint' if complete
                       else 'positions and efforts')
    if len(positions) == 1 and len(efforts) == 1:
        return positions + efforts, ()
    raise RecordingError(f'{path}: {len(described)} {JOINT_STATE} topics: '
                         f'{"; ".join(described)}; '
                         + ('more than one names all the model\'s joints and none has their '
                            'positions and efforts; ' if fields else '')
                         + 'choose the one with the model\'s joints and their efforts: '
                         '--topic TOPIC (topic= in Python)')


@dataclass(frozen=True)
class _TopicFields:
    """What a topic's first message holds for the model's joints, and its message rate (Hz)."""

    position: bool
    effort: bool
    torques: bool              # a finite effort of every model joint
    rate: float


#: Messages whose receive times give a topic's rate; rates closer than this ratio are alike.
RATE_MESSAGES = 100
SAME_RATE = 1.1


def _topic_fields(reader, connections, typestore, joints):
    """Return the names in a topic's first message and its :class:`_TopicFields`.

    None instead of the fields when the message does not name all ``joints``.
    """
    first = list(itertools.islice(reader.messages(connections=connections), RATE_MESSAGES))
    msg = first and typestore.deserialize_cdr(first[0][2], JOINT_STATE)
    shown = list(msg.name) if msg else []
    if not (msg and joints and set(joints) <= set(shown)):
        return shown, None
    effort = np.asarray(msg.effort, dtype=float)
    torques = effort.size == len(shown) and all(np.isfinite(effort[shown.index(name)])
                                                for name in joints)
    received = np.diff([received for _, received, _ in first])
    rate = 1e9 / float(np.median(received)) if received.size and np.median(received) > 0 \
        else 0.0
    return shown, _TopicFields(len(msg.position) > 0, effort.size > 0, torques, rate)


def _ranked(candidates, fields, what):
    """Return the fastest of the ``candidates`` (alike: the first by name) and a note.

    ``what``: what the candidates have that the other topics in ``fields`` lack.
    """
    fastest = max(fields[topic].rate for topic in candidates)
    alike = [topic for topic in candidates if fields[topic].rate * SAME_RATE >= fastest]
    chosen = alike[0]                                  # sorted by name
    if len(alike) > 1:
        why = (f'{" and ".join(alike)} alike ({what}, {_hz(fields[chosen].rate)}): the first '
               'by name')
    elif len(candidates) > 1:
        why = (f'{_hz(fields[chosen].rate)}, the highest rate of the topics with {what} ('
               + ', '.join(f'{t} {_hz(fields[t].rate)}' for t in candidates if t != chosen)
               + ')')
    else:
        why = f'the only one with {what}'
    lacking = ''.join(f'; {t}: {_lacks(found)}' for t, found in fields.items()
                      if t not in candidates)
    return [chosen], (f'{len(fields)} JointState topics name every model joint; read {chosen}: '
                      f'{why}{lacking}; --topic TOPIC (topic= in Python) reads another',)


def _lacks(found):
    """Say what a topic's :class:`_TopicFields` lack: positions, efforts, some efforts."""
    return ('no positions' if not found.position else 'no efforts' if not found.effort
            else 'efforts of some joints missing or NaN')


def _hz(rate):
    return f'{rate:.4g} Hz' if rate > 0 else 'rate unknown'
