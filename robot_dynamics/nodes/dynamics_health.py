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
"""The dynamics node's ``/diagnostics``: truthful, never OK while a subscriber waits.

:class:`DynamicsDiagnostics` reads the node it reports on (its model, last state, last
publication and counters) and publishes one status per ``diagnostics_period``.
"""

from diagnostic_msgs.msg import DiagnosticStatus

from robot_dynamics.nodes.node_health import InputAges, publish_status, silence

JOINT_STATES_FIX = ('no output is computed without them: is the driver or simulator publishing '
                    'joint_states here (ros2 topic hz joint_states; check the remapping; with '
                    'use_sim_time, is /clock running)?')


class DynamicsDiagnostics:
    """The health of a :class:`~robot_dynamics.nodes.dynamics_node.DynamicsNode`."""

    def __init__(self, node):
        self.node = node

    def silence(self):
        """Seconds the outputs may lag the input before diagnostics call it an error."""
        node = self.node
        if node.on_message:
            return max(node.get_parameter('diagnostics_period').value, 0.1)
        return max(node.get_parameter('diagnostics_period').value,
                   3.0 / node.get_parameter('publish_rate').value)

    def status(self):
        """Level and message for /diagnostics: never OK while a subscriber waits in silence.

        ERROR: no model; WARN: no joint_states within the silence window (their age and the
        fix; the rule the controllers share, :func:`~robot_dynamics.nodes.node_health.silence`);
        ERROR: joint states arrive but the outputs have not all been published in the window
        (the reason is the last error); WARN: the last state is older than ``stale_timeout``
        by its stamp, the last locked-joint reading was refused (the outputs use the last good
        one), or the accepted trajectory is beyond the limits; OK "idle" when no output has a
        subscriber (nothing is computed, nobody waits: docs/robustness.md says why that is not
        a fault); OK: publishing.
        """
        node = self.node
        window = self.silence()
        if node.model is None:
            return DiagnosticStatus.ERROR, f'no model: {node.last_error}'
        inputs = InputAges({'joint_states': JOINT_STATES_FIX})
        inputs.last['joint_states'] = node.last_input
        silent = silence(inputs, node.last_publish, window, 'the outputs', node.last_error)
        if silent:
            return silent
        if node.state is None:
            return DiagnosticStatus.WARN, f'no usable joint_states yet: {node.last_error}'
        age = node.now_seconds() - node.state[2]
        timeout = node.get_parameter('stale_timeout').value
        if age > timeout:
            return DiagnosticStatus.WARN, (f'no recent joint_states: the last state is '
                                           f'{age:.2f} s old by its stamp (stale_timeout '
                                           f'{timeout} s): {JOINT_STATES_FIX}')
        if node.locked is not None and node.locked.problem:
            return DiagnosticStatus.WARN, node.locked.problem
        if node.feasibility_note:
            return DiagnosticStatus.WARN, node.feasibility_note
        contact = node.contacts.health()       # in contact, or thresholds set but not judged
        if contact:
            return contact
        if not node.listened:
            return DiagnosticStatus.OK, ('idle: no subscriber to any output, nothing computed '
                                         '(accepted_trajectory is still served)')
        return DiagnosticStatus.OK, 'publishing'

    def publish(self):
        """Publish the status with the node's rates, compute times and counters."""
        node = self.node
        mean, p99, worst = node.statistics.summary()
        age = node.statistics.age()
        values = {'input_rate_hz': f'{node.statistics.rate():.1f}',
                  'input_age_s': 'never' if age is None else f'{age:.3f}',
                  'compute_time_mean_ms': f'{mean * 1e3:.4f}',
                  'compute_time_p99_ms': f'{p99 * 1e3:.4f}',
                  'compute_time_max_ms': f'{worst * 1e3:.4f}',
                  'received_messages': str(node.received),
                  'dropped_messages': str(node.dropped),
                  'suppressed_outputs': str(node.suppressed), 'last_error': node.last_error,
                  'solver': node.solver, 'gravity_compensation': str(node.gravity_on),
                  **node.contacts.values()}
        if node.locked is not None:
            values['locked_joints'] = ', '.join(
                f'{k}={v:.6g}' for k, v in node.locked.model.locked_joints.items())
            values['locked_joints_remerges'] = str(node.locked.remerges)
        publish_status(node, node.pub_diagnostics, 'dynamics',
                       node.model.name if node.model else '', self.status(), values)
