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
"""The dynamics node's health rule: truthful, never OK while a subscriber waits.

:func:`dynamics_status` judges what the node knows (its model, inputs, outputs, the last state,
locked joints, the accepted trajectory, contacts, subscribers) and returns the ``(level,
message)`` the node publishes on ``/diagnostics``; :class:`DynamicsRecord` keeps the counts and
times it is judged on. Plain values: no ROS here.
"""

import time

from robot_dynamics.control.health import ERROR, OK, WARN, InputAges, silence
from robot_dynamics.control.statistics import Statistics
from robot_dynamics.errors import PlausibilityError, bounded

JOINT_STATES_FIX = ('no output is computed without them: is the driver or simulator publishing '
                    'joint_states here (ros2 topic hz joint_states; check the remapping; with '
                    'use_sim_time, is /clock running)?')


def silence_window(on_message, diagnostics_period, publish_rate):
    """Seconds the outputs may lag the input before diagnostics call it an error."""
    if on_message:
        return max(diagnostics_period, 0.1)
    return max(diagnostics_period, 3.0 / publish_rate)


def dynamics_status(loaded, last_error, last_input, last_publish, window, state_age,
                    stale_timeout, notes=(), listened=True, now=None):
    """Level and message for /diagnostics: never OK while a subscriber waits in silence.

    ERROR: no model (``loaded`` false); WARN: no joint_states within the silence ``window``
    (their age and the fix; the rule the controllers share,
    :func:`~robot_dynamics.control.health.silence`); ERROR: joint states arrive
    (``last_input``, monotonic s) but the outputs have not all been published in the window
    (``last_publish``; the reason is ``last_error``); WARN: no usable state yet
    (``state_age`` None) or the last state is older than ``stale_timeout`` by its stamp; then
    the first of ``notes`` (``(level, message)`` or None: the last locked-joint reading was
    refused, the accepted trajectory is beyond the limits, contacts); OK "idle" when no output
    has a subscriber (nothing is computed, nobody waits: docs/robustness.md says why that is
    not a fault); OK: publishing.
    """
    if not loaded:
        return ERROR, f'no model: {last_error}'
    inputs = InputAges({'joint_states': JOINT_STATES_FIX})
    inputs.last['joint_states'] = last_input
    silent = silence(inputs, last_publish, window, 'the outputs', last_error, now=now)
    if silent:
        return silent
    if state_age is None:
        return WARN, f'no usable joint_states yet: {last_error}'
    if state_age > stale_timeout:
        return WARN, (f'no recent joint_states: the last state is {state_age:.2f} s old by its '
                      f'stamp (stale_timeout {stale_timeout} s): {JOINT_STATES_FIX}')
    for note in notes:
        if note:
            return note
    if not listened:
        return OK, ('idle: no subscriber to any output, nothing computed (accepted_trajectory '
                    'is still served)')
    return OK, 'publishing'


class DynamicsRecord:
    """The dynamics node's counters, last error and times: what ``/diagnostics`` reports."""

    def __init__(self):
        self.statistics = Statistics()    # joint_states arrivals, computation times
        self.received = 0          # joint_states messages taken, good or bad
        self.dropped = 0           # inputs refused
        self.suppressed = 0        # outputs not published: not finite or beyond the bound
        self.implausible_velocities = 0   # states whose velocity is beyond the bounds
        self.last_error = ''
        self.feasibility_note = ''  # the accepted trajectory is beyond the limits (warn, scale)
        self.last_input = None     # monotonic s: the last joint state received,
        self.last_publish = None   # the last output set published in full
        self.listened = True       # did the last computation have any output subscribed?

    def arrival(self, now=None):
        """Count a joint_states message; ``now`` (monotonic s): it is taken, not refused unread."""
        self.received += 1
        self.statistics.arrival(now)
        if now is not None:
            self.last_input = now

    def drop(self, reason):
        """Count a refused input; return ``reason``, bounded, now the last error (to log)."""
        self.dropped += 1
        return self.error(reason)

    def error(self, reason):
        """Keep ``reason``, bounded, as the last error; return it (to log)."""
        self.last_error = bounded(reason)
        return self.last_error

    def check_velocity(self, state_bounds, q, qd):
        """Count a state whose velocity is beyond ``state_bounds``; return the warning, or ''.

        No output uses the measured velocity: the outputs are published all the same.
        """
        try:
            state_bounds.check(q, qd)
        except PlausibilityError as exc:
            self.implausible_velocities += 1
            return self.error(f'joint_states: {exc} (not used by any output: published anyway)')
        return ''

    def published(self, complete):
        """Note a computation's outputs published; ``complete``: every one of them."""
        if complete:
            self.last_publish = time.monotonic()

    def status(self, loaded, window, state_age, stale_timeout, locked_problem='', contacts=None):
        """Return :func:`dynamics_status` of this record.

        Its notes, in order: the locked joints' ``locked_problem`` (WARN), the accepted
        trajectory's :attr:`feasibility_note` (WARN), ``contacts`` (``(level, message)``).
        """
        notes = [locked_problem and (WARN, locked_problem),
                 self.feasibility_note and (WARN, self.feasibility_note), contacts]
        return dynamics_status(loaded, self.last_error, self.last_input, self.last_publish,
                               window, state_age, stale_timeout, notes, self.listened)

    def values(self):
        """Return the /diagnostics key-values of the rates, compute times and counters."""
        mean, p99, worst = self.statistics.summary()
        age = self.statistics.age()
        return {'input_rate_hz': f'{self.statistics.rate():.1f}',
                'input_age_s': 'never' if age is None else f'{age:.3f}',
                'compute_time_mean_ms': f'{mean * 1e3:.4f}',
                'compute_time_p99_ms': f'{p99 * 1e3:.4f}',
                'compute_time_max_ms': f'{worst * 1e3:.4f}',
                'received_messages': str(self.received), 'dropped_messages': str(self.dropped),
                'suppressed_outputs': str(self.suppressed), 'last_error': self.last_error}
