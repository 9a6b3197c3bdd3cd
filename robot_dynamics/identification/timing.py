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
"""Real time stamps: duplicates, stale repeats, gaps, jitter, and the uniform grid.

A driver's recording is not a clean uniform sampling:

- **duplicate stamps** (the same time twice): the later rows are dropped;
- **stale samples**: a driver that misses a cycle republishes the previous values with a new
  stamp. A run of rows identical to the row before (every position and effort, bit for bit)
  that is at most ``MAX_STALE`` seconds long and after which the positions have moved is
  stale: dropped, then filled like a short gap. Longer runs are the arm at rest (kept);
- **period**: the median interval, or for rounded stamps the mean of the intervals within
  half the median of it (:func:`regular_period`): stamps rounded to the millisecond put a
  94 Hz recording's median at 11 ms;
- **gaps**: longer than ``max_gap`` (and than one missing sample) split the recording
  into segments;
- **jitter**: when the stamps of a segment scatter around a straight line (sample number →
  time; the number is the stamp's rounded count of periods, so dropped samples leave holes)
  by less than half a period, two explanations fit: the samples were taken uniformly and
  *stamped* with noise (receive times), or *taken* at the jittered instants. The grid that
  leaves the positions smoother (lower RMS second difference, summed over joints) wins: the
  fitted line with the values as recorded (stamps de-jittered, holes interpolated), or
  interpolation at the stamps. Stamps further off any line (irregular logging) are
  interpolated onto a uniform grid.
"""

import numpy as np

#: The longest run of repeated rows taken as stale (longer: the arm at rest), s.
MAX_STALE = 0.05


def time_order_note(t):
    """Say where the recorded time first goes backwards (row 1: the first sample), or ''."""
    step = np.diff(np.asarray(t, dtype=float))
    backwards = np.flatnonzero(step < 0)
    if backwards.size == 0:
        return ''
    k = int(backwards[0])
    return (f'the time goes backwards at row {k + 2} (t = {t[k + 1]:.6g} s after {t[k]:.6g} s; '
            f'{backwards.size} such row(s)): the rows were sorted by time and repeated stamps '
            'dropped; check the recording (two runs appended? a clock reset?)')


def clean_rows(t, arrays, report):
    """Sort by time; drop non-finite rows, duplicate stamps and stale repeats; count each.

    ``arrays``: dict of (N, n) arrays (``q``, ``tau``, optionally ``qd``); NaN in ``qd`` does
    not drop a row (the recorded velocity is optional). Returns ``t`` and the arrays.
    """
    report.time_order = time_order_note(t)
    order = np.argsort(t, kind='stable')
    t = t[order]
    arrays = {key: value[order] for key, value in arrays.items()}
    finite = np.isfinite(t) & np.all(np.isfinite(arrays['q']), 1) & np.all(
        np.isfinite(arrays['tau']), 1)
    report.nonfinite_rows = int(np.count_nonzero(~finite))
    t, arrays = t[finite], {key: value[finite] for key, value in arrays.items()}
    unique = np.concatenate(([True], np.diff(t) > 0)) if t.size else np.ones(0, bool)
    report.duplicate_rows = int(np.count_nonzero(~unique))
    t, arrays = t[unique], {key: value[unique] for key, value in arrays.items()}
    fresh = ~stale_rows(t, arrays['q'], arrays['tau'])
    report.stale_rows = int(np.count_nonzero(~fresh))
    return t[fresh], {key: value[fresh] for key, value in arrays.items()}


def stale_rows(t, q, tau):
    """Mask (N,) of stale rows: short runs of exact repeats after which the positions move."""
    N = len(t)
    stale = np.zeros(N, dtype=bool)
    if N < 3:
        return stale
    same = np.all(q[1:] == q[:-1], axis=1) & np.all(tau[1:] == tau[:-1], axis=1)
    edges = np.diff(np.concatenate(([0], same.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1) + 1, np.flatnonzero(edges == -1)  # rows s..e
    for s, e in zip(starts, ends):
        if e + 1 >= N or t[e] - t[s - 1] > MAX_STALE:
            continue                             # at the end, or a rest: nothing tells
        if np.any(q[e + 1] != q[s - 1]):
            stale[s:e + 1] = True
    return stale


def regular_period(t, median):
    """Return the period of rounded stamps (their regular intervals' mean), else ``median``.

    A 94 Hz recording written with millisecond stamps has intervals of 10 and 11 ms: its
    median interval, 11 ms, would put it on a 91 Hz grid (dropping a sample in 30); the mean
    of those intervals (within half the median of it: lost samples left out) is 10.64 ms.
    Stamps are rounded when their intervals take at most :data:`ROUNDED_VALUES` values (to
    1 us); other stamps keep the median (receive times' jitter: their mean would count a
    late sample and the early one after it alike, but a stretch of lost samples would not).
    """
    spacing = np.diff(t)
    regular = spacing[(spacing > 0.5 * median) & (spacing < 1.5 * median)]
    values = np.unique(np.round(regular, 6))
    if 1 < values.size <= ROUNDED_VALUES and regular.size >= 20 * values.size:
        return float(np.mean(regular))
    return median


#: The most distinct intervals (to 1 us) of stamps taken as rounded.
ROUNDED_VALUES = 5


def segments(t, dt, max_gap, report):
    """Return ``(start, stop)`` index ranges without gaps longer than ``max_gap``."""
    spacing = np.diff(t)
    report.filled_gaps = int(np.count_nonzero((spacing > 1.5 * dt) & (spacing <= max_gap)))
    breaks = np.flatnonzero(spacing > max_gap) + 1
    report.gaps = [(float(t[k - 1]), float(t[k] - t[k - 1])) for k in breaks]
    edges = np.concatenate(([0], breaks, [t.size]))
    return zip(edges[:-1], edges[1:])


def uniform_grid(t, arrays, dt, report):
    """Put one gap-free segment on a uniform grid: times, arrays and the grid's period.

    Stamps within 0.1 % of a period of a uniform grid at ``dt`` are used as they are;
    otherwise see the module docstring: de-jittered stamps keep the samples on the fitted
    line (its period), interpolation puts them on a grid at ``dt`` within the segment.
    """
    uniform = t[0] + dt * np.arange(t.size)
    if np.abs(t - uniform).max() <= 1e-3 * dt:
        return uniform, arrays, dt
    fitted = _sample_numbers(t, dt)
    if fitted is not None:
        index, slope, offset = fitted
        jitter = t - (offset + slope * index)
        report.jitter_rms = max(report.jitter_rms, float(np.sqrt(np.mean(jitter ** 2))))
        numbers = np.arange(index[-1] + 1)
        line = offset + slope * numbers
        kept = {key: _interpolate(numbers, index, value) for key, value in arrays.items()}
        stamped = {key: _interpolate(line, t, value) for key, value in arrays.items()}
        if _roughness(kept['q']) <= _roughness(stamped['q']):
            report.dejittered_segments += 1
            return line, kept, float(slope)
        report.resampled_segments += 1
        return line, stamped, float(slope)
    report.resampled_segments += 1
    grid = t[0] + dt * np.arange(int(np.floor((t[-1] - t[0]) / dt)) + 1)
    return grid, {key: _interpolate(grid, t, value) for key, value in arrays.items()}, dt


def _sample_numbers(t, dt):
    """Sample numbers (N,), period and offset of the line the stamps scatter around, or None.

    The period is refined on growing prefixes (50, 200, 800, … samples) so that rounding
    ``(t - t₀) / period`` never drifts by a sample; None when a stamp lies half a period or
    more off the line, or two stamps fall on one number.
    """
    period, offset, size = dt, t[0], 50
    while True:
        size = min(size, t.size)
        index = np.rint((t[:size] - offset) / period).astype(int)
        if np.any(np.diff(index) <= 0):
            return None
        period, offset = np.polyfit(index, t[:size], 1)
        if size == t.size:
            break
        size *= 4
    index = np.rint((t - offset) / period).astype(int)
    jitter = t - (offset + period * index)
    if np.any(np.diff(index) <= 0) or np.abs(jitter).max() >= 0.5 * period \
            or abs(period - dt) > 0.01 * dt:
        return None
    return index - index[0], period, offset + period * index[0]


def _interpolate(grid, t, values):
    return np.column_stack([np.interp(grid, t, column) for column in values.T])


def _roughness(q):
    """Σ_j RMS of the second difference of column j over its RMS spread (scale-free)."""
    d2 = q[2:] - 2 * q[1:-1] + q[:-2]
    spread = np.maximum(np.std(q, axis=0), 1e-300)
    return float(np.sum(np.sqrt(np.mean(d2 ** 2, axis=0)) / spread))
