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
"""The nodes' ``/diagnostics``: :func:`publish_status`, and the dynamics node's status.

The rules (silent inputs and outputs, logs throttled per reason, the command rate, the
dynamics node's rule) are plain Python (:mod:`robot_dynamics.control.health`,
:mod:`robot_dynamics.control.dynamics_health`); a node publishes the ``(level, message)`` they
return with :func:`publish_status`. :class:`DynamicsDiagnostics` reads the dynamics node (its
model, last state, last publication and counters) and publishes one status per
``diagnostics_period``, never OK while a subscriber waits.
"""

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

from robot_dynamics.control.dynamics_health import silence_window
from robot_dynamics.errors import bounded


def publish_status(node, publisher, kind, hardware_id, level_message, values):
    """Publish one ``/diagnostics`` status ``<node's full name>: <kind>``, stamped now."""
    status = DiagnosticStatus(name=f'{node.get_fully_qualified_name()}: {kind}',
                              hardware_id=bounded(hardware_id, 200))
    status.level, status.message = level_message[0], bounded(level_message[1])
    status.values = [KeyValue(key=k, value=bounded(str(v))) for k, v in values.items()]
    array = DiagnosticArray(status=[status])
    array.header.stamp = node.get_clock().now().to_msg()
    publisher.publish(array)


class DynamicsDiagnostics:
    """The health of a :class:`~robot_dynamics.nodes.dynamics_node.DynamicsNode`."""

    def __init__(self, node):
        self.node = node

    def silence(self):
        """Seconds the outputs may lag the input before diagnostics call it an error."""
        node = self.node
        return silence_window(node.on_message, node.get_parameter('diagnostics_period').value,
                              node.get_parameter('publish_rate').value)

    def status(self):
        """Return the level and message for /diagnostics (``dynamics_status``'s rule)."""
        node = self.node
        return node.record.status(
            node.model is not None, self.silence(),
            None if node.state is None else node.now_seconds() - node.state[2],
            node.get_parameter('stale_timeout').value,
            node.locked is not None and node.locked.problem, node.contacts.health())

    def publish(self):
        """Publish the status with the node's rates, compute times and counters."""
        node = self.node
        values = {**node.record.values(), 'solver': node.solver,
                  'gravity_compensation': str(node.gravity_on), **node.contacts.values(),
                  **(node.locked.values() if node.locked is not None else {})}
        publish_status(node, node.pub_diagnostics, 'dynamics',
                       node.model.name if node.model else '', self.status(), values)
