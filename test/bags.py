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
"""Bags of ``sensor_msgs/JointState`` for the recording tests, written with ``rosbags``."""

import numpy as np


def joint_state_bag(path, messages, received_after=1e-3, received=None):
    """Write ``messages`` [(stamp s, names, position, effort)] as a /joint_states bag at ``path``.

    A fifth item is the message's topic instead. Each is received ``received_after`` s after
    its stamp, or at ``received`` (s, one per message); returns ``path``.
    """
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore
    store = get_typestore(Stores.ROS2_JAZZY)
    JointState = store.types['sensor_msgs/msg/JointState']
    Header = store.types['std_msgs/msg/Header']
    Time = store.types['builtin_interfaces/msg/Time']
    with Writer(path, version=9) as writer:
        connections = {}
        for k, (stamp, names, position, effort, *topic) in enumerate(messages):
            topic = topic[0] if topic else '/joint_states'
            if topic not in connections:
                connections[topic] = writer.add_connection(topic, JointState.__msgtype__,
                                                           typestore=store)
            sec, nanosec = divmod(int(round(stamp * 1e9)), 10 ** 9)
            msg = JointState(header=Header(stamp=Time(sec=sec, nanosec=nanosec), frame_id=''),
                             name=list(names), position=np.ascontiguousarray(position, float),
                             velocity=np.zeros(0), effort=np.ascontiguousarray(effort, float))
            receipt = stamp + received_after if received is None else received[k]
            writer.write(connections[topic], int(round(receipt * 1e9)),
                         store.serialize_cdr(msg, JointState.__msgtype__))
    return path
