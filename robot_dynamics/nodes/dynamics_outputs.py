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
"""The dynamics node's output topics: the dynamics outputs and the contact outputs.

:class:`OutputPublishers` holds the six publishers (each output as a Float64MultiArray and as
a stamped, named copy), knows which outputs someone subscribes to and publishes an output in
the node's ``joints`` order, refusing one that is not finite or beyond the plausible bound.
The values come from :func:`robot_dynamics.control.outputs.dynamics_outputs`.

:class:`ContactOutputs` (``self.contacts = ContactOutputs(self)``) declares the contact
parameters, owns a :class:`~robot_dynamics.contacts.verdicts.ContactVerdicts` (the monitor of
the model, the verdicts, their health) and publishes external torques, the tool wrench and
collisions for each joint state the node accepted (:meth:`ContactOutputs.on_state`). The
topics, parameters and health: docs/contacts.md, "The dynamics node".
"""

from diagnostic_msgs.msg import DiagnosticStatus
from geometry_msgs.msg import WrenchStamped
import numpy as np
from sensor_msgs.msg import JointState
from std_msgs.msg import Bool, Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.contacts import external_wrench
from robot_dynamics.contacts.observer import DEFAULT_GAIN
from robot_dynamics.contacts.verdicts import ContactVerdicts
from robot_dynamics.control.cdr import Float64ArrayBytes
from robot_dynamics.control.health import ThrottledLog
from robot_dynamics.control.outputs import Listened, OUTPUTS
from robot_dynamics.model import bounds
from robot_dynamics.nodes.conversions import joint_state_message, matrix_rows_message
from robot_dynamics.nodes.parameters import declare_double_array, descriptor
from robot_dynamics.nodes.qos import LATCHED

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
        self._writers = {}      # one Float64ArrayBytes per output, its layout set once
        self.listened = Listened()

    def set_order(self, names, order):
        """Publish in the order of ``names`` (the ``joints`` parameter): ``order`` indexes."""
        self.names, self.order = names, order

    def wanted(self):
        """Name the outputs to compute: those with a subscriber (all: publish_unsubscribed)."""
        if self.publish_all:
            return OUTPUTS
        return tuple(name for name in OUTPUTS if any(map(self.listened, self.publishers[name])))

    def publish(self, name, values, stamp):
        """Publish output ``name`` (model order); PlausibilityError if not finite or bounded.

        ``stamp``: the input it was computed from: the joint state's stamp (gravity, mass
        matrix), the time the desired trajectory was sampled at (feed-forward).
        """
        bounds.check_output(name, values)
        order = self.order
        plain, stamped = self.publishers[name]
        values_out = values[np.ix_(order, order)] if name == 'mass_matrix' else values[order]
        writer = self._writers.get(name)
        if writer is None or writer.count != values_out.size:      # layout built once
            writer = self._writers[name] = Float64ArrayBytes.for_output(name, len(order))
        plain.publish(writer.message(values_out))   # the bytes rclpy would serialise
        if not self.listened(stamped):              # the stamped, named copy
            return
        if name == 'mass_matrix':
            stamped.publish(matrix_rows_message(self.names, values_out, stamp))
        else:
            stamped.publish(joint_state_message(self.names, stamp, effort=values_out))


class ContactOutputs:
    """External torques, wrench and collision verdicts of the dynamics node (module docstring)."""

    def __init__(self, node):
        """Declare the contact parameters of ``node`` and create its publishers."""
        self.node = node
        node.declare_parameter('contacts_enabled', True, descriptor(
            'estimate external torques and judge contact from the efforts in joint_states '
            '(the momentum observer, docs/contacts.md)', read_only=True))
        node.declare_parameter('contact_gain', 0.0, descriptor(
            'observer gain K, 1/s (time constant 1/K); 0: the thresholds file\'s, else '
            f'{DEFAULT_GAIN:g}', read_only=True, low=0.0, high=1e4))
        declare_double_array(node, 'contact_thresholds', 'collision thresholds, N m or N: one '
                             'value or one per model joint (model order); empty: '
                             'contact_thresholds_file, else contact is not judged',
                             read_only=True)
        node.declare_parameter('contact_thresholds_file', '', descriptor(
            'collision thresholds file (robot-dynamics identify writes MODEL.contacts.yaml)',
            read_only=True))
        node.declare_parameter('contact_link', '', descriptor(
            '~/external_wrench at this link (empty: the tool link)', read_only=True))
        self.verdicts = ContactVerdicts(node.get_parameter('contact_gain').value or None,
                                        node.get_parameter('contact_thresholds').value,
                                        node.get_parameter('contact_thresholds_file').value,
                                        node.get_parameter('contacts_enabled').value)
        self.log = ThrottledLog(node.get_logger())
        self._torques_message = None  # ~/external_torques, reused (names set once)
        self.pub_torques = node.create_publisher(JointState, '~/external_torques', 10)
        self.pub_wrench = node.create_publisher(WrenchStamped, '~/external_wrench', 10)
        self.pub_collision = node.create_publisher(Bool, '~/collision', LATCHED)

    def _monitor_for(self, model):
        """Return the monitor of ``model``, built (and its notes logged) when the model changed."""
        verdicts = self.verdicts
        if verdicts.model is not model:
            logger = self.node.get_logger()
            for judged, note in verdicts.build(model):
                if judged:                      # one call site per severity (rclpy's rule)
                    logger.warning(note)
                else:                           # nothing is judged: a note, not a warning
                    logger.info(note)
            if verdicts.problem:
                self.log.error(verdicts.problem)
        return verdicts.monitor

    def on_state(self, msg, q, qd, t):
        """Take a joint state the node accepted: ``q``, ``qd`` model order, ``t`` its time, s."""
        if not self.verdicts.enabled or self._monitor_for(self.node.model) is None:
            return
        reading = self.verdicts.judge(t, q, qd, msg.name, msg.effort)
        if reading.tau_ext is None and self.verdicts.monitor.thresholds is not None:
            return self.log.warning(f'contact not judged: {reading.reason}')
        if reading.tau_ext is None:
            return None
        stamp = msg.header.stamp
        publish_all = self.node.outputs.publish_all
        if publish_all or self.node.outputs.listened(self.pub_torques):
            self._publish_torques(reading.tau_ext, stamp)
        if publish_all or self.node.outputs.listened(self.pub_wrench):
            self._publish_wrench(q, reading.tau_ext, stamp)
        if reading.in_contact:
            self.log.warning(reading.describe())
        if self.verdicts.changed:
            self.pub_collision.publish(Bool(data=reading.in_contact))

    def _publish_torques(self, tau_ext, stamp):
        """Publish ``τ̂_ext`` in the output order; the message and its names are built once."""
        names, order = self.node.outputs.names, self.node.outputs.order
        message = self._torques_message
        if message is None or list(message.name) != list(names):
            message = self._torques_message = joint_state_message(names, stamp)
        message.header.stamp = stamp
        message.effort = tau_ext[order].tolist()
        self.pub_torques.publish(message)

    def _publish_wrench(self, q, tau_ext, stamp):
        model = self.node.model
        link = self.node.get_parameter('contact_link').value or model.tip_link
        try:
            w = external_wrench(model, q, tau_ext, link, frame='link').wrench
        except ValueError as exc:
            return self.log.error(f'external_wrench not published: {exc}')
        msg = WrenchStamped()
        msg.header.stamp, msg.header.frame_id = stamp, link
        f, m = msg.wrench.force, msg.wrench.torque
        f.x, f.y, f.z, m.x, m.y, m.z = (float(x) for x in w)
        self.pub_wrench.publish(msg)

    def forget_model(self):
        """Release the monitor of a replaced model (rebuilt for the new one at the next state)."""
        self.verdicts.forget_model()

    def health(self):
        """Return ``(level, message)`` when contacts need attention, else None (the verdicts')."""
        health = self.verdicts.health()
        return health and (getattr(DiagnosticStatus, health[0]), health[1])

    def values(self):
        """Return the /diagnostics key-values of the contact outputs."""
        return self.verdicts.values()
