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

import time

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

from robot_dynamics.errors import PlausibilityError, bounded


class DynamicsHealth:
    """Counting, logging and reporting the node's health (methods of the dynamics node)."""

    def _now(self):
        return self.get_clock().now().nanoseconds * 1e-9

    def _drop(self, reason):
        self.dropped += 1
        self.last_error = reason = bounded(reason)
        self.get_logger().warning(reason, throttle_duration_sec=1.0)

    def _check_velocity(self, q, qd):
        """Warn about an implausible measured velocity; no output uses it, none is withheld."""
        try:
            self._state_bounds.check(q, qd)
        except PlausibilityError as exc:
            self.implausible_velocities += 1
            self.last_error = bounded(
                f'joint_states: {exc} (not used by any output: published anyway)')
            self.get_logger().warning(self.last_error, throttle_duration_sec=1.0)

    def _error(self, reason):
        self.last_error = reason = bounded(reason)
        self.get_logger().error(reason, throttle_duration_sec=1.0)

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
        """Level and message for /diagnostics: never OK while inputs arrive but nothing goes out.

        ERROR: no model, or joint states arrive (within the last silence window) while the
        outputs have not all been published in that window (the reason is the last error);
        WARN: no recent joint state, or the last locked-joint reading was refused (the outputs
        use the last good one); OK: publishing.
        """
        now, window = time.monotonic(), self._silence()
        receiving = self._last_input is not None and now - self._last_input <= window
        published = self._last_publish is not None and now - self._last_publish <= window
        if self.model is None:
            return DiagnosticStatus.ERROR, f'no model: {self.last_error}'
        if receiving and not published:
            return DiagnosticStatus.ERROR, (f'receiving joint states but not publishing for '
                                            f'{window:.2f} s: {self.last_error}')
        stale = self._state is None or \
            self._now() - self._state[2] > self.get_parameter('stale_timeout').value
        if stale or not published:
            return DiagnosticStatus.WARN, 'no recent joint state'
        if self._locked is not None and self._locked.problem:
            return DiagnosticStatus.WARN, self._locked.problem
        if self.feasibility_note:
            return DiagnosticStatus.WARN, self.feasibility_note
        if not self._listened:
            return DiagnosticStatus.WARN, 'no subscriber to any output: nothing published'
        return DiagnosticStatus.OK, 'publishing'

    def _publish_diagnostics(self):
        mean, p99, worst = self.statistics.summary()
        status = DiagnosticStatus(name=f'{self.get_fully_qualified_name()}: dynamics',
                                  hardware_id=bounded(self.model.name if self.model else '',
                                                      200))
        status.level, status.message = self.health()
        status.message = bounded(status.message)
        values = {'input_rate_hz': f'{self.statistics.rate():.1f}',
                  'compute_time_mean_ms': f'{mean * 1e3:.4f}',
                  'compute_time_p99_ms': f'{p99 * 1e3:.4f}',
                  'compute_time_max_ms': f'{worst * 1e3:.4f}',
                  'received_messages': str(self.received),
                  'dropped_messages': str(self.dropped),
                  'suppressed_outputs': str(self.suppressed), 'last_error': self.last_error,
                  'solver': self._solver, 'gravity_compensation': str(self._gravity_on)}
        if self._locked is not None:
            values['locked_joints'] = ', '.join(
                f'{k}={v:.6g}' for k, v in self._locked.model.locked_joints.items())
            values['locked_joints_remerges'] = str(self._locked.remerges)
        status.values = [KeyValue(key=k, value=v) for k, v in values.items()]
        array = DiagnosticArray(status=[status])
        array.header.stamp = self.get_clock().now().to_msg()
        self.pub_diagnostics.publish(array)
