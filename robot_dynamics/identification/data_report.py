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
"""What :func:`robot_dynamics.identification.data.prepare` did, counted so that it adds up."""

from dataclasses import dataclass, field


@dataclass
class DataReport:
    """What preparation did: rates, segments, gaps, dropped rows, outliers, filters.

    Counts add up: ``samples_in`` recorded rows = dropped ones (NaN/inf, duplicate stamps,
    stale repeats, ``rest_rows_cut`` at rest at the ends, in segments too short) +
    ``gridded_rows``; the segments' uniform grids hold ``grid_points`` = ``samples_used`` +
    ``transient_points``.
    ``sample_rate``: the median interval's; ``grid_rate``: the segments' uniform grids' (their
    fitted period where stamps were de-jittered), weighted by their points; ``mean_rate``:
    rows over time span.
    """

    sample_rate: float = 0.0
    grid_rate: float = 0.0
    source: str = 'recording'
    samples_in: int = 0
    samples_used: int = 0
    mean_rate: float = 0.0
    span: float = 0.0
    gridded_rows: int = 0
    gridded_segments: int = 0
    short_segment_rows: int = 0
    grid_points: int = 0
    transient_points: int = 0
    rest_rows_cut: int = 0
    rest_rows: dict = field(default_factory=dict)         # joint -> samples left out inside
    segments: list = field(default_factory=list)          # (start, end) times, s
    gaps: list = field(default_factory=list)              # (time, length) s, split there
    filled_gaps: int = 0
    short_segments: int = 0
    nonfinite_rows: int = 0
    duplicate_rows: int = 0
    time_order: str = ''                                  # where the time goes backwards
    resampled_segments: int = 0
    dejittered_segments: int = 0
    jitter_rms: float = 0.0
    stale_rows: int = 0
    velocity: str = 'differentiated positions'            # or 'recorded velocity'
    velocity_note: str = ''
    cutoff_source: str = 'given'
    cutoff_scores: dict = field(default_factory=dict)     # Hz -> cross-validated error
    position_outliers: dict = field(default_factory=dict)  # joint -> count
    effort_outliers: dict = field(default_factory=dict)
    ignored_joints: tuple = ()
    unwrapped: dict = field(default_factory=dict)         # joint -> wraps of one turn undone
    recording_notes: tuple = ()                           # what reading it chose (a topic)
    cutoff: float = 0.0
    torque_cutoff: float = None
    effort_delay: float = 0.0

    def lines(self):
        """Human-readable summary, one fact per line; the counts add up."""
        out = [f'{_count(self.samples_in, "sample")} over {self.span:.4g} s: mean rate '
               f'{self.mean_rate:.1f} Hz (median interval {1e3 / self.sample_rate:.3g} ms)']
        out += list(self.recording_notes)
        for count, text in ((self.nonfinite_rows, ('row with NaN/inf', 'rows with NaN/inf')),
                            (self.duplicate_rows, ('duplicate time stamp',
                                                   'duplicate time stamps')),
                            (self.stale_rows, ('stale sample', 'stale samples'))):
            if count:
                out.append(_count(count, *text) + (' (repeats of the previous values)' if
                                                   'stale' in text[0] else '') + ' dropped')
        if self.rest_rows_cut:
            out.append(f'{_count(self.rest_rows_cut, "sample")} at rest at the ends of the '
                       'segments cut (how long the arm rests must not change the result)')
        if self.short_segments:
            out.append(f'{_count(self.short_segments, "segment")} too short dropped '
                       f'({_count(self.short_segment_rows, "sample")})')
        if self.gaps:
            longest = max(length for _, length in self.gaps)
            out.append(f'{_count(len(self.gaps), "gap")} split the recording (longest '
                       f'{longest:.3g} s)')
        out.append(f'{_count(self.gridded_rows, "sample")} in '
                   f'{_count(self.gridded_segments, "segment")} on a uniform '
                   f'{self.grid_rate or self.sample_rate:.4g} Hz grid of {self.grid_points} '
                   f'points: {self.samples_used} used, {self.transient_points} in filter '
                   'transients cut')
        rest = {k: v for k, v in self.rest_rows.items() if v}
        if rest:
            out.append('samples at rest inside left out of the joint\'s equations (Coulomb '
                       'friction is set-valued there): ' + ', '.join(
                           f'{k} {v}' for k, v in rest.items()))
        out += [f'positions low-passed at {self.cutoff:.3g} Hz ({self.cutoff_source}; '
                '4th-order Butterworth, zero phase); efforts ' + (
                    f'at {self.torque_cutoff:.3g} Hz' if self.torque_cutoff else 'unfiltered')
                + (f', moved {1e3 * self.effort_delay:.3g} ms back' if self.effort_delay
                   else ''),
                f'q̇ and q̈ from the {self.velocity}'
                + (f' ({self.velocity_note})' if self.velocity_note else '')]
        if self.cutoff_scores:
            out.append('cut-off candidates, cross-validated torque error: ' + ', '.join(
                f'{c:.3g} Hz {100 * e:.3g} %' for c, e in sorted(self.cutoff_scores.items())))
        for count, text in (
                (self.filled_gaps, ('short gap filled by interpolation',
                                    'short gaps filled by interpolation')),
                (self.resampled_segments, ('segment resampled', 'segments resampled')),
                (self.dejittered_segments, ('segment de-jittered', 'segments de-jittered'))):
            if count:
                out.append(_count(count, *text) + (
                    ' (irregular time stamps interpolated)' if 'resampled' in text[0] else
                    f' (stamps scattered {1e6 * self.jitter_rms:.3g} us RMS around a uniform '
                    'grid)' if 'jittered' in text[0] else ''))
        if self.time_order:
            out.append(self.time_order)
        for label, counts in (('position', self.position_outliers),
                              ('effort', self.effort_outliers)):
            flagged = {k: v for k, v in counts.items() if v}
            if flagged:
                out.append(f'{label} outliers replaced: ' + ', '.join(
                    f'{k} {v}' for k, v in flagged.items()))
        if self.unwrapped:
            out.append(self.unwrapped_line())
        if self.ignored_joints:
            out.append(f'joints not in the model ignored: {", ".join(self.ignored_joints)}')
        return out

    def unwrapped_line(self):
        """Return the line counting the whole turns unwrapped per joint (the contacts' too)."""
        return ('positions reported modulo one turn unwrapped (jumps of 2 pi between samples '
                'undone): ' + ', '.join(f'{k} {v}' for k, v in self.unwrapped.items()))


def _count(count, singular, plural=None):
    """``'1 sample'``, ``'2 samples'``: a count with its noun in the right number."""
    return f'{count} {singular if count == 1 else plural or singular + "s"}'
