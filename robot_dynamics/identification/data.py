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
"""From a raw recording to the samples identification needs: q, q̇, q̈, τ on a uniform grid.

Steps, each reported in a :class:`DataReport`:

1. **Joints by name**: the model's joints are picked from the recording's columns (extra
   joints are ignored and listed; a missing joint is an error naming it).
2. **Time stamps** (:mod:`robot_dynamics.identification.timing`): samples sorted by time;
   rows with a non-finite position or effort, duplicate stamps and *stale* samples (a
   driver's repeats of the previous values) dropped; gaps up to ``max_gap`` seconds (default
   20 ms), and at any rate one missing sample (:data:`ONE_MISSING`), filled by linear
   interpolation, longer ones split the recording into segments
   (segments shorter than ``min_segment`` seconds are dropped); jittered stamps either
   de-jittered or interpolated, whichever leaves the positions smoother. A sample rate
   outside 2 Hz – 1 MHz (time in ns or ms) is refused.
3. **Outliers**: isolated spikes in every position, velocity and effort column are replaced
   by the mean of their neighbours (see :func:`_despike`: the second difference of a spike
   has the shape ``(s, -2s, s)``, which neither a smooth motion nor a friction step produces).
4. **Derivatives**: positions are low-pass filtered without phase lag (4th-order Butterworth
   run forward and backward, ``scipy.signal.sosfiltfilt``) at ``cutoff`` Hz (at most 0.4
   times the sampling rate; :func:`robot_dynamics.identification.identify` chooses it from
   the data by default) and differentiated by the fourth-order central difference
   ``(-x₊₂ + 8x₊₁ - 8x₋₁ + x₋₂) / 12h``. A **recorded velocity** (``velocity='auto'``) is
   used for q̇, and differentiated once for q̈, when, filtered alike, it agrees with the
   position's derivative (no lag, RMS difference below 5 % per joint): one differentiation
   less means a less noisy q̈ (noise in the regressor biases least squares towards zero).
   Otherwise the positions are differentiated twice and the report says why. The first and
   last ``6 / cutoff`` seconds of each segment (filter transients, decayed below 1e-9 of the
   acceleration) are dropped.
   Before all this, the rows at the start and at the end of each segment where the arm is
   at rest are cut (:mod:`robot_dynamics.identification.rest`), so that how long the arm
   rested changes nothing; inside, each joint's samples at rest are marked
   (:attr:`Samples.rest`): Coulomb friction is set-valued there.
5. **Efforts** are not filtered by default: white torque noise does not bias least squares,
   and a low-pass filter would smear the Coulomb friction step at velocity reversals, which
   the regressor evaluates sharply. ``torque_cutoff`` filters them with the same design
   (Gautier's parallel filtering: right for efforts that step at the control rate, such as
   commanded torques held between samples); then the regressor's Coulomb column
   ``sign(q̇)``, the only one that is not smooth, goes through the same filter.
   ``effort_delay`` (s) moves efforts that are stamped later than the state they belong to
   back in time: a torque held over the control period T and reported at its end belongs to
   the middle, ``effort_delay = T / 2``.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.identification.data_report import DataReport
from robot_dynamics.identification.positions import check_limits, check_speeds, unwrap_turns
from robot_dynamics.identification.recorded_joints import match_joints
from robot_dynamics.identification.rest import joint_rest, moving_span, rest_speeds
from robot_dynamics.identification.timing import (clean_rows, regular_period, segments,
                                                  uniform_grid)
from robot_dynamics.io.recordings import RecordingError


@dataclass
class Samples:
    """Prepared samples in the model's joint order: ``t`` (K,), ``q, qd, qdd, tau`` (K, n).

    ``coulomb`` (K, n): with filtered efforts, ``sign(q̇)`` through the same filter (the
    regressor's Coulomb column, so that both sides of ``Y π = τ`` see the same filter); None
    otherwise. ``rest`` (K, n): where a joint is at rest (left out of its equations,
    :mod:`robot_dynamics.identification.rest`); None: nowhere. ``recorded``: the recording's
    rows after cleaning, ``(t (R,), τ (R, n))``, efforts moved back by ``effort_delay``:
    held-out errors are measured on them (:mod:`robot_dynamics.identification.heldout`).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    report: DataReport
    coulomb: np.ndarray = None
    rest: np.ndarray = None
    recorded: tuple = None

    def select(self, mask):
        """Return the samples where ``mask`` (K,) is true."""
        return Samples(self.t[mask], self.q[mask], self.qd[mask], self.qdd[mask],
                       self.tau[mask], self.report,
                       None if self.coulomb is None else self.coulomb[mask],
                       None if self.rest is None else self.rest[mask], self.recorded)

    @property
    def count(self):
        """Return the number of samples K."""
        return len(self.t)


def prepare(recording, model, cutoff=20.0, torque_cutoff=None, min_segment=1.0, max_gap=0.02,
            effort_delay=0.0, velocity='auto'):
    """Prepare ``recording`` (:class:`~robot_dynamics.io.recordings.Recording`) for ``model``.

    ``velocity``: ``'auto'`` (the recorded velocity where it agrees with the positions),
    ``'recorded'`` (always, where recorded) or ``'differentiated'`` (never). Returns
    :class:`Samples`.
    """
    if velocity not in ('auto', 'recorded', 'differentiated'):
        raise ValueError(f"velocity: {velocity!r}; use 'auto', 'recorded' or 'differentiated'")
    report = DataReport(source=recording.source or 'recording', samples_in=recording.samples,
                        cutoff=cutoff, torque_cutoff=torque_cutoff, effort_delay=effort_delay,
                        recording_notes=recording.notes)
    columns, report.ignored_joints, note = match_joints(recording, model)
    report.recording_notes += (note,) if note else ()
    arrays = {'q': recording.position[:, columns], 'tau': recording.effort[:, columns]}
    if velocity != 'differentiated' and recording.velocity is not None:
        recorded = recording.velocity[:, columns]
        if np.all(np.isfinite(recorded[np.all(np.isfinite(arrays['q']), axis=1)])):
            arrays['qd'] = recorded
        else:
            report.velocity_note = 'the recorded velocity has gaps (NaN): not used'
    t, arrays = clean_rows(np.asarray(recording.t, dtype=float), arrays, report)
    if t.size < MIN_SAMPLES:
        raise RecordingError(_too_few_rows(report, recording, columns, model.joint_names,
                                           t.size))
    arrays['q'] = unwrap_turns(arrays['q'], model, report)
    check_limits(report.source, arrays['q'], model)
    recorded = (t - effort_delay, arrays['tau'])          # as recorded: held-out errors
    dt = float(np.median(np.diff(t)))
    report.sample_rate = 1.0 / dt
    report.span = float(t[-1] - t[0])
    report.mean_rate = (t.size - 1) / report.span
    _check_rate(report)
    check_speeds(report.source, t, arrays['q'], model, dt)
    dt = regular_period(t, dt)
    report.cutoff = min(cutoff, 0.4 / dt)
    if torque_cutoff:
        report.torque_cutoff = min(torque_cutoff, 0.4 / dt)
    names = model.joint_names
    report.position_outliers = dict.fromkeys(names, 0)
    report.effort_outliers = dict.fromkeys(names, 0)
    spans = list(segments(t, dt, max(max_gap, ONE_MISSING * dt), report))
    slow = [_slow_velocity(t[a:b], arrays['q'][a:b], dt) for a, b in spans]
    speeds = rest_speeds(np.concatenate([v for _, v in slow]))
    pieces, notes = [], []
    for (a, b), (grid, speed) in zip(spans, slow):
        rows = np.arange(a, b)
        first, last = moving_span(speed, speeds) if len(speed) else (0, 0)
        if last > first:                       # the arm at rest at both ends: cut
            start = grid[first] if first > 0 else -np.inf
            end = grid[last - 1] if last < len(grid) else np.inf
            rows = rows[(t[rows] >= start) & (t[rows] <= end)]
        elif len(speed):
            rows = rows[:0]
        report.rest_rows_cut += b - a - rows.size
        piece = _segment(t[rows], {k: v[rows] for k, v in arrays.items()}, dt, names,
                         report, min_segment, velocity, notes, speeds)
        if piece is not None:
            pieces.append(piece)
    if not pieces:
        raise RecordingError(f'{recording.source or "recording"}: no segment of at least '
                             f'{min_segment} s without gaps' + (
                                 ' in which the arm moves' if report.rest_rows_cut else '')
                             + '; record longer stretches'
                             + (f' ({report.time_order})' if report.time_order else ''))
    if notes:
        report.velocity_note = notes[0]
    arrays = [np.concatenate(column) for column in zip(*pieces)]
    report.samples_used = len(arrays[0])
    report.rest_rows = dict(zip(names, arrays[6].sum(axis=0).tolist()))
    return Samples(*arrays[:5], report, arrays[5] if torque_cutoff else None, arrays[6],
                   recorded)


#: The fewest rows with a finite time, position and effort of every model joint.
MIN_SAMPLES = 20
#: Gaps up to this many periods are filled whatever ``max_gap``: one missing sample (two
#: periods) with up to half a period of stamp jitter. Was 1.5: below 100 Hz every NaN row
#: dropped split the recording (a 94 Hz arm with 5 such rows: 5 gaps, 15 % of its samples cut).
ONE_MISSING = 2.5
#: Plausible sample rates of joint states, Hz: outside, the time unit is wrong.
RATE_RANGE = (2.0, 1e6)
#: Rest is told from the velocity of a local quadratic fitted over this window, s (whatever
#: the cut-off: how long the arm rests must not sway the choices made on the data).
REST_WINDOW = 0.25


def _check_rate(report):
    """Refuse a sample rate no joint-state recording has (time in ns or ms, not s)."""
    low, high = RATE_RANGE
    rate = report.sample_rate
    if low <= rate <= high:
        return
    plausible = [f'{rate / scale:.4g} Hz in {unit}' for unit, scale in
                 (('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9)) if low <= rate / scale <= high]
    raise RecordingError(
        f'{report.source}: the time stamps are {1 / rate:.3g} s apart (median), a sample rate '
        f'of {rate:.3g} Hz, outside the {low:g} Hz - {high:.0e} Hz of joint states: the time '
        'column must be in seconds; if it holds nanoseconds divide it by 1e9, milliseconds '
        'by 1e3, or name a CSV\'s time column with its unit (time_ns, time_us, time_ms)'
        + (f'; read in another unit: {", ".join(plausible)}' if plausible else ''))


def _too_few_rows(report, recording, columns, names, usable):
    """Name the columns whose non-finite values left too few rows, and the fix."""
    csv = report.source.lower().endswith('.csv')
    counts = [('t' if csv else 'time stamp', np.count_nonzero(~np.isfinite(recording.t)))]
    for key, prefix, label in (('position', 'q_', 'position'), ('effort', 'tau_', 'effort')):
        bad = np.count_nonzero(~np.isfinite(getattr(recording, key)[:, columns]), axis=0)
        counts += [(f'{prefix}{name}' if csv else f'{label} of {name}', k)
                   for name, k in zip(names, bad)]
    rows = recording.samples
    empty = [label for label, k in counts if k == rows]
    partial = [f'{label} ({k} of {rows})' for label, k in counts if 0 < k < rows]
    found = []
    if empty:
        found.append(f'no finite value in {", ".join(empty)}')
    if partial:
        found.append(f'NaN/inf in {", ".join(partial)}')
    fix = ('record with positions and efforts of every model joint (JointState.position and '
           '.effort)' if empty else 'record without dropouts, or fill the missing values')
    return (f'{report.source}: too few finite rows: {usable} of {rows} remain after dropping '
            f'rows with NaN/inf (and duplicate time stamps), need at least {MIN_SAMPLES}; '
            f'{"; ".join(found) or "duplicate time stamps"}: {fix}')


def _slow_velocity(t, q, dt):
    """Return times and smooth joint velocities (G, n) of ``q`` that tell rest.

    The velocities are :func:`_rest_velocity`'s.

    On the grid of the multiples of ``dt`` inside the segment (anchored at time zero, not
    at the segment's start, so that a recording with more rest before the motion has the
    same grid points), positions interpolated linearly. Empty for a segment shorter than the
    window (it is dropped later).
    """
    grid = np.arange(np.ceil(t[0] / dt), np.floor(t[-1] / dt) + 1) * dt
    if grid.size < 2 * int(REST_WINDOW / dt / 2) + 3:
        return grid[:0], np.zeros((0, q.shape[1]))
    return grid, _rest_velocity(np.column_stack([np.interp(grid, t, column)
                                                 for column in q.T]), dt)


def _rest_velocity(q, dt):
    """Velocity (K, n) of a quadratic fitted over :data:`REST_WINDOW` around each sample.

    Savitzky-Golay (``scipy.signal.savgol_filter``), fitted to the end samples too: unlike a
    low-pass filter run forward and backward, it does not fade to zero at the ends of a
    segment, where rest is looked for.
    """
    import scipy.signal
    window = max(3, 2 * int(REST_WINDOW / dt / 2) + 1)
    if window > len(q):
        return _derivative(q, dt)
    return scipy.signal.savgol_filter(q, window, 2, deriv=1, delta=dt, axis=0, mode='interp')


def _segment(t, arrays, dt, names, report, min_segment, velocity, notes, speeds):
    """One gap-free segment → (t, q, qd, qdd, tau, coulomb, rest) trimmed, or None if short.

    ``rest`` (K, n) marks each joint's rest inside (:mod:`robot_dynamics.identification.rest`;
    ``speeds`` (n,) its thresholds).
    """
    if t.size < 2 or t[-1] - t[0] < min_segment:
        report.short_segments += int(t.size > 0)
        report.short_segment_rows += t.size
        return None
    uniform, arrays, step = uniform_grid(t, arrays, dt, report)
    trim = max(5, int(np.ceil(6.0 / report.cutoff / step)))
    if uniform.size < 2 * trim + 10:
        report.short_segments += 1
        report.short_segment_rows += t.size
        return None
    report.gridded_rows += t.size
    report.gridded_segments += 1
    report.grid_rate = (report.grid_rate * report.grid_points + uniform.size / step) / (
        report.grid_points + uniform.size)
    report.grid_points += uniform.size
    report.transient_points += 2 * trim
    q, tau = arrays['q'], arrays['tau']
    if report.effort_delay:
        tau = np.column_stack([np.interp(uniform + report.effort_delay, uniform, column)
                               for column in tau.T])
    q = _lowpass(_despike(q, names, report.position_outliers), report.cutoff, step)
    tau = _despike(tau, names, report.effort_outliers)
    if report.torque_cutoff:
        tau = _lowpass(tau, report.torque_cutoff, step)
    qd = _derivative(q, step)
    if 'qd' in arrays:
        recorded = _lowpass(_despike(arrays['qd'], names, {n: 0 for n in names}),
                            report.cutoff, step)
        agrees, note = _velocity_agrees(recorded[trim:-trim], qd[trim:-trim], names)
        if agrees or velocity == 'recorded':
            qd = recorded
            report.velocity = 'recorded velocity'
        notes.append(note)
    qdd = _derivative(qd, step)
    coulomb = _lowpass(np.sign(qd), report.torque_cutoff, step) if report.torque_cutoff \
        else np.sign(qd)
    keep = slice(trim, uniform.size - trim)
    report.segments.append((float(uniform[trim]), float(uniform[uniform.size - trim - 1])))
    rest = joint_rest(_rest_velocity(arrays['q'], step), speeds, step)
    return (uniform[keep], q[keep], qd[keep], qdd[keep], tau[keep], coulomb[keep],
            rest[keep])


def _velocity_agrees(recorded, derived, names, tolerance=0.05, max_lag=10):
    """Whether the filtered recorded velocity matches the positions' derivative; and why."""
    scale = np.sqrt(np.mean(derived ** 2, axis=0))
    moving = scale > 1e-9
    if not np.any(moving):
        return False, 'the joints do not move'
    lags = np.arange(-max_lag, max_lag + 1)
    m = len(derived) - 2 * max_lag
    centre = derived[max_lag:max_lag + m, moving]
    misfit = [np.sum((recorded[max_lag + k:max_lag + k + m, moving] - centre) ** 2)
              for k in lags]
    lag = int(lags[int(np.argmin(misfit))])
    error = np.sqrt(np.mean((recorded - derived) ** 2, axis=0)) / np.maximum(scale, 1e-300)
    worst = int(np.argmax(np.where(moving, error, 0.0)))
    if lag != 0:
        return False, (f'the recorded velocity lags the positions\' derivative by {lag} '
                       'sample(s): not used')
    if error[worst] > tolerance:
        return False, (f'the recorded velocity differs from the positions\' derivative by '
                       f'{100 * error[worst]:.3g} % RMS ({names[worst]}): not used')
    return True, (f'agrees with the positions\' derivative to {100 * error[worst]:.2g} % RMS, '
                  'no lag')


def _despike(x, names, counts, threshold=8.0):
    """Replace isolated spikes by the mean of their neighbours; count them per joint.

    A spike of height s at sample k leaves the second difference ``(s, -2s, s)`` at
    ``k-1, k, k+1``; a smooth curve leaves neighbours of one sign and a step (Coulomb friction
    at a reversal) ``(h, -h)``. Sample k is a spike when ``|Δ²x_k|`` exceeds ``threshold``
    robust standard deviations (1.4826 MAD of Δ²x over the column) and both neighbours have
    the opposite sign and at least a quarter of its size.
    """
    d2 = np.zeros_like(x)
    d2[1:-1] = x[2:] - 2 * x[1:-1] + x[:-2]
    spread = 1.4826 * np.median(np.abs(d2 - np.median(d2, axis=0)), axis=0)
    spread = np.maximum(spread, 1e-9 * (1.0 + np.abs(x).max(0)))
    centre, before, after = d2[1:-1], d2[:-2], d2[2:]
    spike = np.zeros(x.shape, dtype=bool)
    spike[1:-1] = ((np.abs(centre) > threshold * spread)
                   & (before * centre < 0) & (after * centre < 0)
                   & (np.abs(before) > 0.25 * np.abs(centre))
                   & (np.abs(after) > 0.25 * np.abs(centre)))
    out = x.copy()
    rows, cols = np.nonzero(spike)
    out[rows, cols] = 0.5 * (x[rows - 1, cols] + x[rows + 1, cols])
    for j, name in enumerate(names):
        counts[name] += int(np.count_nonzero(spike[:, j]))
    return out


def _lowpass(x, cutoff, dt):
    """Zero-phase 4th-order Butterworth low-pass along axis 0."""
    import scipy.signal          # scipy.signal costs ~1 s to import: only when used
    sos = scipy.signal.butter(4, cutoff, fs=1.0 / dt, output='sos')
    return scipy.signal.sosfiltfilt(sos, x, axis=0)


def _derivative(x, dt):
    """Fourth-order central difference along axis 0 (second order at the two ends)."""
    d = np.gradient(x, dt, axis=0, edge_order=2)
    d[2:-2] = (-x[4:] + 8 * x[3:-1] - 8 * x[1:-3] + x[:-4]) / (12 * dt)
    return d
