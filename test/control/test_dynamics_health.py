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
"""The dynamics node's health rule, without rclpy (control/dynamics_health.py)."""

import time

import numpy as np

from robot_dynamics.control.dynamics_health import DynamicsRecord, dynamics_status, silence_window
from robot_dynamics.control.health import ERROR, OK, WARN
from robot_dynamics.model.bounds import StateBounds
from robots import quiet_bundled

HEALTHY = dict(loaded=True, last_error='', last_input=9.9, last_publish=9.9, window=1.0,
               state_age=0.01, stale_timeout=0.5, now=10.0)


def status(**changes):
    """Return the status of a healthy node with ``changes``."""
    return dynamics_status(**{**HEALTHY, **changes})


def test_never_ok_while_silent_and_each_reason_named():
    assert status() == (OK, 'publishing')
    assert status(loaded=False, last_error='bad URDF') == (ERROR, 'no model: bad URDF')
    level, text = status(last_input=None)
    assert level == WARN and text.startswith('no joint_states received yet: no output')
    level, text = status(last_publish=5.0, last_error='not finite')
    assert level == ERROR and text == ('receiving inputs but not publishing the outputs (for '
                                       '5.0 s): not finite')
    assert status(state_age=None, last_error='x') == (WARN, 'no usable joint_states yet: x')
    level, text = status(state_age=0.75)
    assert level == WARN and 'the last state is 0.75 s old by its stamp' in text


def test_the_first_note_then_idle():
    notes = [None, '', (WARN, 'feasibility'), (ERROR, 'contacts off')]
    assert status(notes=notes) == (WARN, 'feasibility')
    assert status(listened=False)[1].startswith('idle: no subscriber')
    assert status(notes=[(ERROR, 'contacts off')], listened=False) == (ERROR, 'contacts off')


def test_the_silence_window():
    assert silence_window(True, 1.0, 100.0) == 1.0
    assert silence_window(True, 0.01, 100.0) == 0.1
    assert silence_window(False, 0.5, 2.0) == 1.5           # three timer periods


def test_the_record_counts_and_judges_what_the_node_reports():
    record = DynamicsRecord()
    record.arrival()                                   # refused unread: no input time
    assert (record.received, record.last_input) == (1, None)
    record.arrival(now=5.0)
    assert (record.received, record.last_input) == (2, 5.0)
    assert record.drop('x' * 5000) == record.last_error and len(record.last_error) < 5000
    assert record.dropped == 1
    assert record.error('solver failed') == 'solver failed' and record.dropped == 1
    record.published(complete=False)
    assert record.last_publish is None
    values = record.values()
    assert (values['received_messages'], values['dropped_messages'], values['last_error'],
            values['input_age_s'] != 'never') == ('2', '1', 'solver failed', True)


def test_the_record_notes_come_in_order_locked_feasibility_contacts():
    record = DynamicsRecord()
    record.arrival(now=time.monotonic())
    record.published(complete=True)
    assert record.status(True, 1.0, 0.01, 0.5) == (OK, 'publishing')
    record.feasibility_note = 'desired_trajectory warn: too fast'
    assert record.status(True, 1.0, 0.01, 0.5, contacts=(ERROR, 'contacts off')) == \
        (WARN, 'desired_trajectory warn: too fast')
    assert record.status(True, 1.0, 0.01, 0.5, 'not re-merged') == (WARN, 'not re-merged')
    record.listened = False
    record.feasibility_note = ''
    assert record.status(True, 1.0, 0.01, 0.5)[1].startswith('idle: no subscriber')


def test_an_implausible_velocity_is_counted_and_warned_not_withheld():
    model = quiet_bundled('ur5')
    bounds = StateBounds(model)
    record = DynamicsRecord()
    q = np.zeros(model.dof)
    assert record.check_velocity(bounds, q, np.zeros(model.dof)) == ''
    warning = record.check_velocity(bounds, q, np.full(model.dof, 1e6))
    assert warning == record.last_error and 'published anyway' in warning
    assert (record.implausible_velocities, record.dropped) == (1, 0)
