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
"""A recorded run to the observer's samples; the thresholds ``identify`` writes.

From a :class:`~robot_dynamics.io.recordings.Recording` to what the observer takes, and the
thresholds ``robot-dynamics identify`` writes next to its model. The observer needs every
sample as it was measured (no filter: it filters itself, with a known lag), in time order,
with a finite position, velocity and effort. The rows are cleaned as identification cleans
them (:func:`robot_dynamics.identification.timing.clean_rows`):
sorted by time (the note names where the time went backwards), non-finite rows, repeated
stamps and a driver's stale repeats dropped (each would be a false step of the momentum); the
observer integrates exactly over the longer interval a dropped row leaves, and the notes say
how many rows went and the longest hole. A joint that turns without limit reported modulo one
turn is unwrapped as for identification
(:func:`robot_dynamics.identification.positions.unwrap_turns`: each jump of 2 pi would be a
false step of the momentum, and of ``q̇`` where it is derived), the notes count the jumps.
``q̇`` is the recorded velocity where every kept row has one, else the positions' derivative
(``numpy.gradient``, second order, any spacing). The recording's own notes (which of a bag's
topics was read, and why) come first.
"""

from dataclasses import dataclass
import warnings

import numpy as np

from robot_dynamics.contacts.thresholds import collision_thresholds
from robot_dynamics.errors import ModelWarning
from robot_dynamics.identification.data import DataReport
from robot_dynamics.identification.recorded_joints import match_joints
from robot_dynamics.identification.positions import unwrap_turns
from robot_dynamics.identification.timing import clean_rows
from robot_dynamics.io.recordings import RecordingError


@dataclass(frozen=True)
class ObserverSamples:
    """Cleaned samples in the model's joint order.

    ``t`` (N,) s; ``q``, ``qd``, ``tau`` (N, n); ``notes``: what was dropped or derived, one
    sentence each.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray
    notes: tuple

    def between(self, start, end):
        """Return the samples with ``start <= t <= end``."""
        keep = (self.t >= start) & (self.t <= end)
        return ObserverSamples(self.t[keep], self.q[keep], self.qd[keep], self.tau[keep],
                               self.notes)


def observer_samples(recording, model):
    """Return the :class:`ObserverSamples` of ``recording`` for ``model`` (module docstring)."""
    source = recording.source or 'recording'
    columns, _, _ = match_joints(recording, model)
    arrays = {'q': recording.position[:, columns], 'tau': recording.effort[:, columns]}
    no_effort = [model.joint_names[j] for j in range(model.dof)
                 if not np.any(np.isfinite(arrays['tau'][:, j]))]
    if no_effort:
        raise RecordingError(f'{source}: no effort recorded for joints {no_effort}: the '
                             'observer compares the measured motor torques with the model, '
                             'without them no contact can be told; record JointState.effort')
    if recording.velocity is not None:
        arrays['qd'] = recording.velocity[:, columns]
    report = DataReport(source=source)
    t, arrays = clean_rows(np.asarray(recording.t, dtype=float), arrays, report)
    if t.size < 2:
        raise RecordingError(f'{source}: {t.size} usable row(s) (finite time, position and '
                             'effort of every model joint); the observer needs at least 2')
    arrays['q'] = unwrap_turns(arrays['q'], model, report)
    notes = list(recording.notes) + ([report.time_order] if report.time_order else [])
    for count, what in ((report.nonfinite_rows, 'with NaN/inf position or effort'),
                        (report.duplicate_rows, 'with a repeated time stamp'),
                        (report.stale_rows, 'repeating the previous values (stale)')):
        if count:
            notes.append(f'{count} row(s) {what} dropped: no estimate there')
    if report.unwrapped:
        notes.append(report.unwrapped_line())
    if len(t) < recording.samples:
        spacing = np.diff(t)
        k = int(np.argmax(spacing))
        notes.append(f'longest interval between kept samples {1e3 * spacing[k]:.3g} ms (at '
                     f'{t[k]:.6g} s)')
    qd = arrays.get('qd')
    if qd is None or not np.all(np.isfinite(qd)):
        notes.append('q̇ from the positions\' derivative (' + (
            'no velocity recorded)' if qd is None else 'the recorded velocity has NaN/inf)'))
        qd = np.gradient(arrays['q'], t, axis=0, edge_order=2)
    return ObserverSamples(t, arrays['q'], qd, arrays['tau'], tuple(notes))


def recording_thresholds(model, recording, **options):
    """Learn the collision thresholds of a whole recording without contact.

    :func:`~robot_dynamics.contacts.thresholds.collision_thresholds` on its
    :func:`observer_samples`; ``options``: gain, hold, safety, floor, friction_margin.
    """
    samples = observer_samples(recording, model)
    label = (f'{recording.source or "recording"}, {samples.t[0]:.6g} - {samples.t[-1]:.6g} s, '
             f'{len(samples.t)} samples without contact')
    return collision_thresholds(model, samples.t, samples.q, samples.qd, samples.tau,
                                source=label, **options)


def write_identified_thresholds(model, recording, path, comment=''):
    """Write the thresholds of an identified ``model`` to ``path``; return it and the warnings.

    Learnt on the recording it was identified from (``robot-dynamics identify``); the
    warnings (a model that explains little of it) as one-line messages, for the report.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        written = recording_thresholds(model, recording).write(path, comment)
    return written, [' '.join(str(w.message).split()) for w in caught
                     if issubclass(w.category, ModelWarning)]
