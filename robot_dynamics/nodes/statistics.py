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

    def arrival(self):
        """Note the arrival of a message (monotonic wall time)."""
        self.arrivals.append(time.monotonic())

    def rate(self, span=2.0):
        """Messages per second over the last ``span`` seconds of arrivals (Hz), 0 if under two.

        A window of the last arrivals alone would count a pause inside it for as long as the
        window holds it (a restarted simulator read 53 Hz for 8 s while 200 Hz arrived).
        """
        if len(self.arrivals) < 2:
            return 0.0
        last = self.arrivals[-1]
        recent = len(self.arrivals) - bisect.bisect_left(self.arrivals, last - span)
        first = self.arrivals[-recent]
        return (recent - 1) / (last - first) if recent >= 2 and last > first else 0.0

    def summary(self):
        """Mean, p99 and max of the recorded durations in seconds (zeros when empty)."""
        if not self.durations:
            return 0.0, 0.0, 0.0
        values = np.array(self.durations)
        return float(values.mean()), float(np.percentile(values, 99)), float(values.max())
