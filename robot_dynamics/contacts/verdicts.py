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
"""A node's contact verdicts over a stream of joint states: one monitor per model, and health.

:class:`ContactVerdicts` is what the dynamics node holds (docs/contacts.md, "The dynamics
node"): it builds a :class:`~robot_dynamics.contacts.monitor.ContactMonitor` once per model
(also when that fails: a bad thresholds file is read once; :attr:`~ContactVerdicts.problem`
says why until the model changes), puts each sample's efforts in model order by name, counts
contact onsets and says when the verdict changed (the node publishes it then), and gives the
health and the values of ``/diagnostics``. Contact is judged from 3/K after the observer
starts (:func:`settling`): the estimate starts at zero, and a first command after a hold
(the lockstep simulator's, a robot's brakes) leaves a transient that decays with 1/K.
Arrays and names: no ROS here.
"""

from dataclasses import replace
import warnings

import numpy as np

from robot_dynamics.contacts.monitor import ContactMonitor, fixed_thresholds, STARTING
from robot_dynamics.errors import ModelWarning, bounded


#: Time constants (1/K) after the observer starts before contact is judged: a start-up
#: transient (a first command after a hold, docs/contacts.md) has decayed to 5 % by then.
SETTLE_TIME_CONSTANTS = 3.0


def settling(seconds):
    """Return why a sample this soon after the observer started is not judged."""
    return (f'the observer started less than {seconds * 1e3:.0f} ms (3/K) ago: the estimate '
            'is published, contact is judged once a start-up transient has decayed')


class ContactVerdicts:
    """Contact verdicts of the joint states of the node's current model (module docstring).

    ``gain`` (1/s, None: the thresholds file's, else the default), ``thresholds`` (values, one
    or one per joint; empty: ``path``'s file, else nothing is judged), ``enabled``.
    """

    def __init__(self, gain=None, thresholds=(), path='', enabled=True):
        self.gain, self.values_given, self.path = gain, list(thresholds), path
        self.enabled = enabled
        self.monitor, self.model = None, None   # the model the monitor was built for (or not)
        self._names_seen, self._effort_index = None, None   # a message's names -> model order
        self.reading = None
        self._started = -np.inf      # the time of the observer's first sample, s
        self.problem = ''            # why the monitor could not be built ('' when it was)
        self.contacts = 0            # onsets seen
        self.published = None        # the last verdict the node published
        self.changed = False         # the last sample changed the verdict: publish it

    def forget_model(self):
        """Release the monitor of a replaced model (rebuilt for the new one at the next state)."""
        self.monitor = self.model = self._names_seen = None

    def build(self, model):
        """Build the monitor of ``model``; return its notes ``[(judged, text)]`` to log.

        ``judged``: the thresholds judge contact (then a note is a warning, else information).
        On failure the monitor is None and :attr:`problem` says why.
        """
        self.model, self._names_seen = model, None      # the efforts' index is the model's
        self._started = -np.inf
        try:
            with warnings.catch_warnings(record=True) as caught:     # to the node's log, not
                warnings.simplefilter('always', ModelWarning)       # stderr (no friction,
                thresholds = fixed_thresholds(model, self.values_given, self.gain) \
                    if self.values_given else (self.path or None)
                self.monitor = ContactMonitor(model, thresholds, self.gain)   # other thresholds)
            self.problem = ''
        except (ValueError, OSError) as exc:
            self.monitor, self.problem = None, bounded(f'contacts off: {exc}')
            return []
        judged = self.monitor.thresholds is not None
        return [(judged, bounded(f'contacts: {note}')) for note in dict.fromkeys(
            str(w.message) for w in caught if issubclass(w.category, ModelWarning))]

    def judge(self, t, q, qd, names, efforts):
        """Take one joint state: ``q``, ``qd`` in model order, its ``names`` and ``efforts``.

        Return the :class:`~robot_dynamics.contacts.monitor.ContactReading`; :attr:`changed`
        tells whether the verdict changed (a judged sample only).
        """
        reading = self.monitor.update(t, q, qd, self._efforts(names, efforts))
        if reading.reason == STARTING:
            self._started = reading.t
        elif reading.judged and reading.t - self._started < self.settle_time():
            reading = replace(reading, in_contact=None, reason=settling(self.settle_time()))
        self.reading = reading
        self.changed = reading.in_contact is not None and reading.in_contact != self.published
        if reading.in_contact and not self.published:
            self.contacts += 1
        if self.changed:
            self.published = reading.in_contact
        return reading

    def settle_time(self):
        """Return how long after the observer starts its estimate is not judged, s (3/K)."""
        return SETTLE_TIME_CONSTANTS / float(np.min(self.monitor.gain))

    def _efforts(self, names, efforts):
        """Return the efforts (n,) in model order, or None if any joint lacks one."""
        if len(efforts) != len(names):
            return None
        if names != self._names_seen:            # the index is found once per name list
            index, wanted = {name: k for k, name in enumerate(names)}, self.model.joint_names
            self._names_seen = list(names)
            self._effort_index = None if any(name not in index for name in wanted) \
                else np.array([index[name] for name in wanted])
        if self._effort_index is None:
            return None
        return np.asarray(efforts, dtype=float)[self._effort_index]

    def health(self):
        """Return ``('ERROR' | 'WARN', message)`` when contacts need attention, else None.

        ERROR: the monitor could not be built (a bad thresholds file, say); WARN: in contact,
        or thresholds are set but the last sample was not judged (no efforts, a bad stamp).
        Without thresholds nothing is judged by design: the values say so, no WARN.
        """
        reading = self.reading
        if not self.enabled:
            return None
        if self.problem:
            return 'ERROR', self.problem
        if reading is None or self.monitor is None or self.monitor.thresholds is None:
            return None
        if reading.in_contact:
            return 'WARN', f'in contact: {reading.describe()}'
        if reading.in_contact is None and reading.tau_ext is None:
            return 'WARN', (f'{reading.describe()}; ~/collision is not updated until a sample '
                            'is judged')
        return None

    def values(self):
        """Return the /diagnostics key-values of the contact outputs."""
        if not self.enabled:
            return {'contacts': 'disabled (contacts_enabled: false)'}
        reading = self.reading
        values = {'contacts': reading.describe() if reading else 'no joint state yet',
                  'contacts_detected': str(self.contacts)}
        if self.monitor is not None:
            values['contact_gain'] = ', '.join(f'{k:g}' for k in self.monitor.gain)
            values['contact_thresholds'] = 'none: not judged' if self.monitor.thresholds is None \
                else self.monitor.thresholds.source or 'given'
        return values
