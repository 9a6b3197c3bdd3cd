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
"""The dynamics node's output topics: what is listened to, and the messages that go out.

:class:`OutputPublishers` holds the six publishers (each output as a Float64MultiArray and as
a stamped, named copy), knows which outputs someone subscribes to and publishes an output in
the node's ``joints`` order, refusing one that is not finite or beyond the plausible bound.
The values come from :func:`robot_dynamics.control.outputs.dynamics_outputs`.
"""

import numpy as np
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.control.outputs import OUTPUTS
from robot_dynamics.model import bounds
from robot_dynamics.nodes.conversions import (joint_state_message, matrix_rows_message,
                                              matrix_to_array, vector_to_array)

STAMPED = {'feedforward_torques': ('feedforward_joint_states', JointState),
           'gravity_torques': ('gravity_joint_states', JointState),
           'mass_matrix': ('mass_matrix_stamped', JointTrajectory)}


class OutputPublishers:
    """The publishers of ``~/feedforward_torques``, ``~/gravity_torques``, ``~/mass_matrix``."""

    def __init__(self, node, publish_all):
        self.publishers = {
            name: (node.create_publisher(Float64MultiArray, f'~/{name}', 10),
                   node.create_publisher(STAMPED[name][1], f'~/{STAMPED[name][0]}', 10))
            for name in OUTPUTS}
        self.publish_all = publish_all   # publish_unsubscribed: every output, listened or not
        self.names, self.order = (), None
        self._messages = {}     # one Float64MultiArray per output, its layout set once

    def set_order(self, names, order):
        """Publish in the order of ``names`` (the ``joints`` parameter): ``order`` indexes."""
        self.names, self.order = names, order

    def wanted(self):
        """Name the outputs to compute: those with a subscriber (all: publish_unsubscribed)."""
        if self.publish_all:
            return OUTPUTS
        return tuple(name for name in OUTPUTS
                     if any(p.get_subscription_count() for p in self.publishers[name]))

    def publish(self, name, values, stamp):
        """Publish output ``name`` (model order); PlausibilityError if not finite or bounded.

        ``stamp``: the input it was computed from: the joint state's stamp (gravity, mass
        matrix), the time the desired trajectory was sampled at (feed-forward).
        """
        bounds.check_output(name, values)
        order = self.order
        plain, stamped = self.publishers[name]
        values_out = values[np.ix_(order, order)] if name == 'mass_matrix' else values[order]
        message = self._messages.get(name)
        if message is None or len(message.data) != values_out.size:   # layout built once
            convert = matrix_to_array if name == 'mass_matrix' else vector_to_array
            message = self._messages[name] = convert(values_out)
        else:
            message.data = values_out.reshape(-1).tolist()
        plain.publish(message)                      # serialised here: the message is reused
        if not stamped.get_subscription_count():    # the stamped, named copy
            return
        if name == 'mass_matrix':
            stamped.publish(matrix_rows_message(self.names, values_out, stamp))
        else:
            stamped.publish(joint_state_message(self.names, stamp, effort=values_out))
