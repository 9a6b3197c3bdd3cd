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
"""Costs a shared, loaded machine cannot fail: growth ratios, peak memory, call counts.

A unit test never compares a time with a fixed number of seconds (one passed at 1.045 s
against a 1.0 s bound on a loaded machine). It compares two costs measured in the same run:
the CPU time of the same work on a small and on a large input (linear work grows like the
input, quadratic work like its square), each the best of several repeats so that one
preemption does not decide. Absolute timings live in benchmarks/.
"""

import gc
import time
import tracemalloc


def cpu_seconds(function, repeats=3):
    """Return the least CPU time of this process over ``repeats`` calls of ``function()``.

    The objects earlier tests left are frozen out of the garbage collector's passes
    meanwhile, so that their number does not count as this code's cost.
    """
    times = []
    gc.collect()
    gc.freeze()
    try:
        for _ in range(repeats):
            start = time.process_time()
            function()
            times.append(time.process_time() - start)
    finally:
        gc.unfreeze()
    return min(times)


def growth_ratio(small, large, repeats=3):
    """Return cpu_seconds(large) / cpu_seconds(small), interleaved and floored at 1 ms.

    The floor keeps a small input whose cost is below the clock's resolution from making
    the ratio meaningless; pick sizes whose small case costs a few milliseconds or more.
    """
    small_times, large_times = [], []
    for _ in range(repeats):
        small_times.append(cpu_seconds(small, 1))
        large_times.append(cpu_seconds(large, 1))
    return min(large_times) / max(min(small_times), 1e-3)


def peak_bytes(function):
    """Return the peak of memory traced by tracemalloc while ``function()`` runs."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
