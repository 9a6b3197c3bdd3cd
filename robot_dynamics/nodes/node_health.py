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
"""A node's ``/diagnostics`` status; the health rules are :mod:`robot_dynamics.control.health`.

The rules (silent inputs and outputs, logs throttled per reason, the command rate) are plain
Python; a node publishes the ``(level, message)`` they return with :func:`publish_status`.
"""

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

from robot_dynamics.control.health import (CommandRate, InputAges, ThrottledLog,  # noqa: F401
                                           reason_key, silence)
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
