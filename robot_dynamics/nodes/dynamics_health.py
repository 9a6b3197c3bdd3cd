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
"""The dynamics node's bookkeeping: dropped inputs, errors and truthful ``/diagnostics``.

A mixin of :class:`~robot_dynamics.nodes.dynamics_node.DynamicsNode`.
"""

from diagnostic_msgs.msg import DiagnosticStatus

from robot_dynamics.errors import PlausibilityError, bounded
from robot_dynamics.nodes.node_health import InputAges, ThrottledLog, publish_status, silence

JOINT_STATES_FIX = ('no output is computed without them: is the driver or simulator publishing '
                    'joint_states here (ros2 topic hz joint_states; check the remapping; with '
                    'use_sim_time, is /clock running)?')


class DynamicsHealth:
    """Counting, logging and reporting the node's health (methods of the dynamics node)."""

    def _now(self):
        return self.get_clock().now().nanoseconds * 1e-9

    def _throttled(self):
        """Return the node's log throttled per reason (made on first use)."""
        if getattr(self, '_throttled_log', None) is None:
            self._throttled_log = ThrottledLog(self.get_logger())
        return self._throttled_log

    def _drop(self, reason):
        self.dropped += 1
        self.last_error = reason = bounded(reason)
        self._throttled().warning(reason)

    def _check_velocity(self, q, qd):
        """Warn about an implausible measured velocity; no output uses it, none is withheld."""
        try:
            self._state_bounds.check(q, qd)
        except PlausibilityError as exc:
            self.implausible_velocities += 1
            self.last_error = bounded(
                f'joint_states: {exc} (not used by any output: published anyway)')
            self._throttled().warning(self.last_error)

    def _error(self, reason):
        self.last_error = reason = bounded(reason)
        self._throttled().error(reason)

    def callback_failed(self, name, exc):
        """Log and count an exception caught around a callback (the node keeps running)."""
        self._error(f'{name} failed: {type(exc).__name__}: {exc}')

    def _silence(self):
        """Seconds the outputs may lag the input before diagnostics call it an error."""
        if self._on_message:
            return max(self.get_parameter('diagnostics_period').value, 0.1)
        return max(self.get_parameter('diagnostics_period').value,
                   3.0 / self.get_parameter('publish_rate').value)

    def health(self):
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
        window = self._silence()
        if self.model is None:
            return DiagnosticStatus.ERROR, f'no model: {self.last_error}'
        inputs = InputAges({'joint_states': JOINT_STATES_FIX})
        inputs.last['joint_states'] = self._last_input
        silent = silence(inputs, self._last_publish, window, 'the outputs', self.last_error)
        if silent:
            return silent
        if self._state is None:
            return DiagnosticStatus.WARN, f'no usable joint_states yet: {self.last_error}'
        age, timeout = self._now() - self._state[2], self.get_parameter('stale_timeout').value
        if age > timeout:
            return DiagnosticStatus.WARN, (f'no recent joint_states: the last state is '
                                           f'{age:.2f} s old by its stamp (stale_timeout '
                                           f'{timeout} s): {JOINT_STATES_FIX}')
        if self._locked is not None and self._locked.problem:
            return DiagnosticStatus.WARN, self._locked.problem
        if self.feasibility_note:
            return DiagnosticStatus.WARN, self.feasibility_note
        contact = self.contacts.health()       # in contact, or thresholds set but not judged
        if contact:
            return contact
        if not self._listened:
            return DiagnosticStatus.OK, ('idle: no subscriber to any output, nothing computed '
                                         '(accepted_trajectory is still served)')
        return DiagnosticStatus.OK, 'publishing'

    def _publish_diagnostics(self):
        mean, p99, worst = self.statistics.summary()
        age = self.statistics.age()
        values = {'input_rate_hz': f'{self.statistics.rate():.1f}',
                  'input_age_s': 'never' if age is None else f'{age:.3f}',
                  'compute_time_mean_ms': f'{mean * 1e3:.4f}',
                  'compute_time_p99_ms': f'{p99 * 1e3:.4f}',
                  'compute_time_max_ms': f'{worst * 1e3:.4f}',
                  'received_messages': str(self.received),
                  'dropped_messages': str(self.dropped),
                  'suppressed_outputs': str(self.suppressed), 'last_error': self.last_error,
                  'solver': self._solver, 'gravity_compensation': str(self._gravity_on),
                  **self.contacts.values()}
        if self._locked is not None:
            values['locked_joints'] = ', '.join(
                f'{k}={v:.6g}' for k, v in self._locked.model.locked_joints.items())
            values['locked_joints_remerges'] = str(self._locked.remerges)
        publish_status(self, self.pub_diagnostics, 'dynamics',
                       self.model.name if self.model else '', self.health(), values)
