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
message)`` the node publishes on ``/diagnostics``. Plain values: no ROS here.
"""

from robot_dynamics.control.health import ERROR, OK, WARN, InputAges, silence

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
