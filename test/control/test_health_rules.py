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
"""The health rules of every node, without rclpy: silence, throttled logs, the command rate.

Reproductions (trial 2, issue 30): a controller said OK 14 s after the simulator died; one
rejection's throttled log hid another's ("no points" never appeared); a flood cut the command
rate from 185/s to 26/s while /diagnostics said OK.
"""

from robot_dynamics.control.health import (ERROR, WARN, CommandRate, InputAges, ThrottledLog,
                                           reason_key, silence)


class LogLines:
    """A logger that records the lines it is asked to write."""

    def __init__(self):
        self.lines = []

    def warning(self, text):
        self.lines.append(text)

    error = warning


def test_a_silent_input_is_warn_naming_it_its_age_and_the_fix():
    inputs = InputAges({'joint_states': 'start the driver', 'mass_matrix': 'start dynamics'})
    level, text = silence(inputs, None, 1.0, 'effort_commands', '', now=10.0)
    assert level == WARN and text == 'no joint_states received yet: start the driver'
    inputs.note('joint_states', now=10.0)
    inputs.note('mass_matrix', now=10.0)
    assert silence(inputs, 10.0, 1.0, 'effort_commands', '', now=10.5) is None
    level, text = silence(inputs, 10.0, 1.0, 'effort_commands', '', now=24.0)
    assert level == WARN and text.startswith('no recent joint_states: the last arrived 14.0 s')
    assert text.endswith('start the driver')
    inputs.note('joint_states', now=24.0)
    level, text = silence(inputs, 10.0, 1.0, 'effort_commands', '', now=24.0)
    assert level == WARN and 'no recent mass_matrix' in text
    assert silence(inputs, 10.0, 1.0, 'effort_commands', '', names=['joint_states'],
                   now=24.0)[0] == ERROR       # receiving, silent 14 s
    inputs.note('mass_matrix', now=24.0)
    level, text = silence(inputs, 10.0, 1.0, 'effort_commands', 'stamp 5 s old', now=24.0)
    assert level == ERROR and text == ('receiving inputs but not publishing effort_commands '
                                       '(for 14.0 s): stamp 5 s old')


def test_the_log_is_throttled_per_reason_not_per_node():
    clock = [0.0]
    logger = LogLines()
    log = ThrottledLog(logger, period=1.0, burst=3, clock=lambda: clock[0])
    for k in range(100):                                   # a flood of one reason ...
        clock[0] = 0.001 * k
        log.warning(f'joint_states dropped: position[{k % 6}] = nan')
    log.warning('desired_trajectory rejected: the trajectory has no points')    # ... another
    assert logger.lines == ['joint_states dropped: position[0] = nan',
                            'desired_trajectory rejected: the trajectory has no points']
    clock[0] = 1.5
    log.warning('joint_states dropped: position[3] = nan')
    assert logger.lines[-1] == 'joint_states dropped: position[3] = nan (+99 like it suppressed)'
    for k in range(50):                                    # distinct reasons: burst bounds them
        log.error(f'reason {chr(65 + k % 26)}{chr(97 + k // 26)}')
    assert len(logger.lines) == 3 + 2                      # burst 3 per period in all
    assert reason_key('q = 1.5e+300, nan and -2') == 'q = #, # and #'


def test_a_command_rate_that_falls_is_a_warn():
    """MED 7: a flood cut the rate from 185/s to 26/s while /diagnostics said OK."""
    now = [1000.0]
    rate = CommandRate(clock=lambda: now[0])
    for second in range(30):                   # 185 commands a second for 30 s
        for k in range(185):
            now[0] = 1000.0 + second + k / 185
            rate.sent()
    now[0] = 1030.5
    assert rate.starved(1.0) == ''
    for k in range(26):                        # then 26 a second, 25,000 foreign a second
        now[0] = 1030.0 + 1.0 + k / 26
        rate.sent()
    for k in range(25_000):
        now[0] = 1031.0 + k / 25_000
        rate.foreign()
    now[0] = 1032.2
    said = rate.starved(1.0)
    assert said.startswith('command rate fell to 26/s (typically 185/s); 25000/s joint_states '
                           "messages without this arm's joints"), said
    assert rate.values(1.0) == {'command_rate_hz': '26.0', 'ignored_joint_states': 25_000}
