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
"""The dynamics node's contact outputs: external torques, the tool wrench, collisions.

A part the node holds (``self.contacts = ContactOutputs(self)``), not a base class: it declares
its parameters, owns a :class:`~robot_dynamics.contacts.verdicts.ContactVerdicts` (the monitor
of the model, the verdicts, their health) and three publishers, and takes each joint state the
node accepted (:meth:`ContactOutputs.on_state`). The topics, parameters and health:
docs/contacts.md, "The dynamics node".
"""

from diagnostic_msgs.msg import DiagnosticStatus
from geometry_msgs.msg import WrenchStamped
from sensor_msgs.msg import JointState
from std_msgs.msg import Bool

from robot_dynamics.contacts import external_wrench
from robot_dynamics.contacts.observer import DEFAULT_GAIN
from robot_dynamics.contacts.verdicts import ContactVerdicts
from robot_dynamics.control.health import ThrottledLog
from robot_dynamics.nodes.conversions import joint_state_message
from robot_dynamics.nodes.parameters import declare_double_array, descriptor
from robot_dynamics.nodes.qos import LATCHED


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
        if publish_all or self.pub_torques.get_subscription_count():
            self._publish_torques(reading.tau_ext, stamp)
        if publish_all or self.pub_wrench.get_subscription_count():
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
