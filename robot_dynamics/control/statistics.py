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
"""Sliding-window rate and duration statistics of a node's inputs, for its diagnostics."""

import bisect
import collections
import time

import numpy as np


class Statistics:
    """Sliding-window rate and duration statistics for diagnostics."""

    def __init__(self, window=2000):
        self.durations = collections.deque(maxlen=window)
        self.arrivals = collections.deque(maxlen=window)

    def arrival(self, now=None):
        """Note the arrival of a message (monotonic wall time; ``now`` for tests)."""
        self.arrivals.append(time.monotonic() if now is None else now)

    def age(self, now=None):
        """Seconds since the last arrival (monotonic), None if none arrived."""
        if not self.arrivals:
            return None
        return (time.monotonic() if now is None else now) - self.arrivals[-1]

    def rate(self, span=2.0, now=None):
        """Messages per second over the ``span`` seconds up to ``now`` (Hz), 0 if under two.

        A window of the last arrivals alone would count a pause inside it for as long as the
        window holds it (a restarted simulator read 53 Hz for 8 s while 200 Hz arrived). A
        window ending at the last arrival kept the last rate while nothing arrived (180 Hz
        reported next to "no recent joint state"): the window ends now, so the rate decays
        to 0 within ``span`` of the last arrival. Steady arrivals give ``(k - 1) / (t_k - t_1)``
        exactly; once the silence since the last exceeds their mean interval ``T``, the span
        counted runs to ``now - T`` instead, and the rate falls as ``1 / silence``.
        """
        now = time.monotonic() if now is None else now
        start = bisect.bisect_right(self.arrivals, now - span)
        recent = len(self.arrivals) - start
        if recent < 2:
            return 0.0
        first, last = self.arrivals[start], self.arrivals[-1]
        if last <= first:
            return 0.0
        interval = (last - first) / (recent - 1)
        return (recent - 1) / max(last - first, now - interval - first)

    def summary(self):
        """Mean, p99 and max of the recorded durations in seconds (zeros when empty)."""
        if not self.durations:
            return 0.0, 0.0, 0.0
        values = np.array(self.durations)
        return float(values.mean()), float(np.percentile(values, 99)), float(values.max())
