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
"""Health rules the nodes share: silent inputs and outputs, and logs throttled per reason.

The rule of every node's ``/diagnostics`` (docs/robustness.md): never OK while the node is
silent. An input not received within the window is WARN naming the input, its age and the fix;
inputs arriving while the output stays silent is ERROR with the last error. Plain Python: a
node publishes the ``(level, message)`` these return (``robot_dynamics.nodes.node_health``).
"""

import collections
import re
import time

from robot_dynamics.errors import bounded

#: ``diagnostic_msgs/DiagnosticStatus`` levels, the message's own byte values.
OK, WARN, ERROR = b'\x00', b'\x01', b'\x02'

_NUMBER = re.compile(r'[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|\b(nan|inf)\b', re.IGNORECASE)


class InputAges:
    """Monotonic arrival time of each input that drives a node's output.

    ``fixes``: ``{input name: what to check when it is silent}``, in the order to report.
    """

    def __init__(self, fixes):
        self.fixes = dict(fixes)
        self.last = dict.fromkeys(self.fixes)

    def note(self, name, now=None):
        """Record that ``name`` arrived (at ``now``, monotonic seconds; default: now)."""
        self.last[name] = time.monotonic() if now is None else now

    def age(self, name, now=None):
        """Seconds since ``name`` last arrived, None if never."""
        last = self.last[name]
        return None if last is None else (time.monotonic() if now is None else now) - last

    def stale(self, window, names=None, now=None):
        """Return the message about the first input silent for over ``window`` s, else ''."""
        now = time.monotonic() if now is None else now
        for name in self.fixes if names is None else names:
            age = self.age(name, now)
            if age is None:
                return f'no {name} received yet: {self.fixes[name]}'
            if age > window:
                return (f'no recent {name}: the last arrived {age:.1f} s ago '
                        f'(window {window:.2f} s): {self.fixes[name]}')
        return ''


def silence(inputs, last_output, window, output, last_error, names=None, now=None):
    """Return ``(level, message)`` when the node is silent, else None (then judge the rest).

    The level is WARN when an input is silent (:meth:`InputAges.stale`), ERROR when every
    input arrives but ``output`` was not published within ``window`` seconds (``last_output``:
    monotonic time of the last publication, None if never).
    """
    now = time.monotonic() if now is None else now
    stale = inputs.stale(window, names, now)
    if stale:
        return WARN, stale
    if last_output is None or now - last_output > window:
        never = 'none yet' if last_output is None else f'for {now - last_output:.1f} s'
        return ERROR, (f'receiving inputs but not publishing {output} ({never}): '
                       f'{last_error or "no reason recorded"}')
    return None


def reason_key(text, length=80):
    """Return the throttling key of a log line: its text with numbers blanked, shortened."""
    return _NUMBER.sub('#', text)[:length]


class ThrottledLog:
    """Log each reason at most once per ``period`` s, and at most ``burst`` lines per period.

    rclpy's ``throttle_duration_sec`` throttles per call site: a node's one ``_drop`` then
    hid every reason behind the first (a "no points" rejection never appeared). Here the key
    is the reason (:func:`reason_key`: numbers blanked), so each reason appears once a second;
    ``burst`` bounds a flood of distinct reasons; at most ``keys`` reasons are remembered. A
    line logged after suppressed ones says how many were suppressed.
    """

    def __init__(self, logger, period=1.0, burst=10, keys=256, clock=time.monotonic):
        self.logger, self.period, self.burst, self.clock = logger, period, burst, clock
        self.keys = keys
        self._last = collections.OrderedDict()     # key -> [time logged, suppressed since]
        self._recent = collections.deque()         # times of the lines logged, last period

    def warning(self, text):
        """Log ``text`` as a warning unless its reason was logged within the period."""
        line = self._admit(text)
        if line:                   # one call site per severity: rclpy refuses a change
            self.logger.warning(line)
        return bool(line)

    def error(self, text):
        """Log ``text`` as an error unless its reason was logged within the period."""
        line = self._admit(text)
        if line:
            self.logger.error(line)
        return bool(line)

    def _admit(self, text):
        """Return the line to write for ``text``, or '' when it is suppressed (counted)."""
        now, key = self.clock(), reason_key(text)
        while self._recent and now - self._recent[0] >= self.period:
            self._recent.popleft()
        entry = self._last.get(key)
        if (entry is not None and now - entry[0] < self.period) or \
                len(self._recent) >= self.burst:
            if entry is None:
                entry = self._remember(key, -float('inf'))
            entry[1] += 1
            return ''
        suppressed = entry[1] if entry is not None else 0
        self._remember(key, now)
        self._recent.append(now)
        text = bounded(text)          # a line quoting a 1 MB input stays short
        return text if not suppressed else f'{text} (+{suppressed} like it suppressed)'

    def _remember(self, key, when):
        self._last.pop(key, None)
        self._last[key] = entry = [when, 0]
        while len(self._last) > self.keys:
            self._last.popitem(last=False)
        return entry


class CommandRate:
    """Commands sent and foreign messages seen, per second: a controller's rate and what ate it.

    A flood of ``joint_states`` that name none of this arm's joints (another robot's, a
    publisher gone wrong) pushes the arm's own messages out of the subscription's queue:
    trial 3 saw the command rate fall from 185/s to 26/s while /diagnostics said OK (issue 30,
    MED 7). :meth:`starved` is the WARN for that: the rate of the last window below half the
    typical rate of the last minute.
    """

    HISTORY = 60            # s of per-second counts kept
    DROP = 0.5              # a rate below this x the typical one is a WARN

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.last = None                            # monotonic time of the last command
        self.ignored = 0                            # foreign messages in the node's life
        self._sent = collections.Counter()          # whole second -> commands
        self._foreign = collections.Counter()       # whole second -> foreign messages

    def sent(self):
        """Record one command sent now."""
        self.last = now = self.clock()
        self._count(self._sent, now)

    def foreign(self):
        """Record one joint_states message without any of this arm's joints."""
        self.ignored += 1
        self._count(self._foreign, self.clock())

    def _count(self, counts, now):
        second = int(now)
        counts[second] += 1
        if len(counts) > self.HISTORY + 2:
            for old in [s for s in counts if s < second - self.HISTORY]:
                del counts[old]

    def rate(self, window, counts=None):
        """Events per second over the last ``window`` whole seconds (the current one left out)."""
        counts = self._sent if counts is None else counts
        now = int(self.clock())
        seconds = max(1, int(round(window)))
        return sum(counts.get(now - k, 0) for k in range(1, seconds + 1)) / seconds

    def starved(self, window):
        """Return a WARN message when the command rate fell, else ''."""
        now = int(self.clock())
        history = sorted(self._sent.get(now - k, 0) for k in range(1, self.HISTORY + 1))
        typical = history[len(history) * 3 // 4]                 # a busy second, not the peak
        rate = self.rate(window)
        if typical < 10 or rate >= self.DROP * typical:
            return ''
        foreign = self.rate(window, self._foreign)
        why = (f'; {foreign:.0f}/s joint_states messages without this arm\'s joints: another '
               'publisher may be flooding joint_states' if foreign else '')
        return f'command rate fell to {rate:.0f}/s (typically {typical}/s){why}'

    def values(self, window):
        """Return the diagnostics values: command rate and ignored messages."""
        return {'command_rate_hz': f'{self.rate(window):.1f}',
                'ignored_joint_states': self.ignored}
