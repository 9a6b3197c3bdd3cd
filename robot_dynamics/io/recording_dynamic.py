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
"""ros2_control's ``control_msgs/DynamicJointState``, read as joint states.

A bag that holds no ``sensor_msgs/JointState`` topic but ``/dynamic_joint_states`` (the
joint_state_broadcaster's other topic) is read from it: each joint's ``position``,
``velocity`` and ``effort`` state interfaces (NaN where a joint has none; other interfaces,
a temperature or a current, are left out). The message definitions (the same in Humble and
Jazzy) are registered here: ``rosbags`` does not ship control_msgs.
"""

from types import SimpleNamespace

import numpy as np

from robot_dynamics.io.recording_topics import DYNAMIC_JOINT_STATE

_INTERFACE_VALUE = 'control_msgs/msg/InterfaceValue'
_DEFINITIONS = {_INTERFACE_VALUE: 'string[] interface_names\nfloat64[] values',
                DYNAMIC_JOINT_STATE: 'std_msgs/Header header\nstring[] joint_names\n'
                                     'control_msgs/InterfaceValue[] interface_values'}
_FIELDS = ('position', 'velocity', 'effort')


def dynamic_connections(reader):
    """Return the bag's DynamicJointState connections that hold messages."""
    return [c for c in reader.connections
            if c.msgtype == DYNAMIC_JOINT_STATE and c.msgcount > 0]


def joint_states(reader, connections, typestore):
    """Yield ``(connection, received ns, message)``, each message shaped as a ``JointState``.

    ``message``: ``header``, ``name``, and ``position``, ``velocity``, ``effort`` arrays of
    one value per name (NaN: the joint has no such interface).
    """
    from rosbags.typesys import get_types_from_msg
    for name, text in _DEFINITIONS.items():
        if name not in typestore.fielddefs:
            typestore.register(get_types_from_msg(text, name))
    for connection, received, raw in reader.messages(connections=connections):
        msg = typestore.deserialize_cdr(raw, DYNAMIC_JOINT_STATE)
        values = {key: np.full(len(msg.joint_names), np.nan) for key in _FIELDS}
        for j, interface in enumerate(msg.interface_values[:len(msg.joint_names)]):
            for key, value in zip(interface.interface_names, interface.values):
                if key in values:
                    values[key][j] = value
        yield connection, received, SimpleNamespace(header=msg.header,
                                                    name=list(msg.joint_names), **values)
