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
"""Model changes from the ``robot_description`` topic: parsed off the executor, rate-limited.

Any publisher on the topic can change the model of a node that takes it from there (as
robot_state_publisher's subscribers do). A large URDF takes long to parse (11 MB: about a
second) and two of them alternating at 1 Hz held the executor so that 95 % of the joint states
went unanswered. :class:`RateLimitedLoader` parses in one worker thread and starts the next
parse no sooner than ``interval`` (1 s) or nine times the last parse's duration after the last
one ended, whichever is longer (the worker is busy at most a tenth of the time, and shares the
interpreter with the executor at most that much); the latest text waits, older pending ones
are skipped, and the result is handed back by :meth:`RateLimitedLoader.poll` on the caller's
thread (the dynamics node's executor: :mod:`robot_dynamics.nodes.dynamics_model`).
:func:`model_change` says what changed, for a WARN line.
"""

import concurrent.futures
import math
import time

import numpy as np

DESCRIPTION_INTERVAL = 1.0     # s (wall): the shortest pause between two parses
BUSY_FACTOR = 9.0              # ... or this many times the last parse's duration


class RateLimitedLoader:
    """Parse ``robot_description`` texts in a worker thread, rate-limited (module docstring).

    ``load(text)`` runs in the worker and returns a model (or raises); ``apply(text, future)``
    runs in :meth:`poll` with the finished future; ``current()`` returns the text in use (one
    equal to it is not parsed again). :meth:`poll`, every :attr:`poll_period` (``interval /
    10``, at most 0.1 s), collects the result and starts a text that had to wait.
    """

    def __init__(self, load, apply, current, interval=DESCRIPTION_INTERVAL,
                 clock=time.monotonic):
        self._load, self._apply, self._current = load, apply, current
        self.interval = float(interval)
        self.poll_period = min(0.1, self.interval / 10)
        self._clock = clock
        self._pending = None            # the latest text not yet parsed
        self._text, self._future = None, None
        self._next = -math.inf          # clock time from which the next parse may start
        self.parsed = 0                 # texts parsed (a measure of the rate limit)
        self._worker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix='robot_description')

    def offer(self, text):
        """Take a text received on the topic; it is parsed now or once the interval passed."""
        self._pending = text
        self._start_if_due()

    def busy(self):
        """Tell whether a text is being parsed or waiting."""
        return self._future is not None or self._pending is not None

    def _start_if_due(self):
        now = self._clock()
        if self._future is not None or self._pending is None:
            return
        if self._pending == self._current():      # back to the text in use: nothing to do
            self._pending = None
            return
        if now < self._next:
            return
        self._text, self._pending = self._pending, None
        self.parsed += 1
        self._future = self._worker.submit(self._timed_load, self._text)

    def _timed_load(self, text):
        """Run ``load`` (worker thread) and set when the next parse may start."""
        start = self._clock()
        try:
            return self._load(text)
        finally:
            end = self._clock()
            self._next = end + max(self.interval, BUSY_FACTOR * (end - start))

    def poll(self):
        """Hand a finished parse to ``apply``; start a waiting text whose time has come."""
        if self._future is not None and self._future.done():
            future, self._future = self._future, None
            self._apply(self._text, future)
        self._start_if_due()

    def close(self):
        """Stop the worker (a parse in progress finishes in the background)."""
        self._worker.shutdown(wait=False, cancel_futures=True)


def model_change(old, new):
    """Say in one line what differs between two models: name, joints, link masses."""
    parts = []
    if old.name != new.name:
        parts.append(f'robot {old.name!r} -> {new.name!r}')
    removed = [name for name in old.joint_names if name not in new.joint_names]
    added = [name for name in new.joint_names if name not in old.joint_names]
    if removed or added:
        parts.append(f'joints removed {removed}, added {added}')
    old_mass = dict(zip(old.link_names, np.asarray(old.mass, dtype=float)))
    moved = [f'{link} {old_mass[link]:.6g} -> {mass:.6g} kg'
             for link, mass in zip(new.link_names, np.asarray(new.mass, dtype=float))
             if link in old_mass and not np.isclose(old_mass[link], mass, rtol=1e-9, atol=0)]
    if moved:
        parts.append('masses ' + ', '.join(moved))
    total_old, total_new = float(np.sum(old.mass)), float(np.sum(new.mass))
    parts.append(f'total mass {total_old:.6g} -> {total_new:.6g} kg')
    return '; '.join(parts)
