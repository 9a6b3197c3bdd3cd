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
"""A stream of joint states to a contact verdict: observer, thresholds and detector in one.

:class:`ContactMonitor` is what a node (or a user's loop) holds: ``update(t, q, qd, tau)``
returns a :class:`ContactReading` with the estimate ``τ̂_ext``, the thresholds, whether the
arm is in contact and the joint that sees it most (its largest ``|τ̂_ext| / T``), or **why it
cannot judge**: efforts missing or not finite, a time that does not increase, the first
sample (the observer starts), no thresholds. A sample it cannot judge reports
``in_contact=None``, never ``False``: "no contact" is only said of a sample the detector
judged. A refused sample leaves the observer unchanged (the next one integrates over the
longer interval, exactly: :class:`~robot_dynamics.contacts.observer.MomentumObserver`).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.contacts.detection import CollisionDetector, _thresholds
from robot_dynamics.contacts.observer import MomentumObserver, check_gain, missing_efforts
from robot_dynamics.contacts.thresholds import CollisionThresholds
from robot_dynamics.model.arguments import per_joint

NO_THRESHOLDS = ('no collision thresholds: the estimate is published but contact is not judged; '
                 'learn them from a run without contact (robot-dynamics identify writes '
                 'MODEL.contacts.yaml) or give per-joint values')
STARTING = 'the observer starts on this sample (no estimate before a second one)'


def fixed_thresholds(model, values, gain=None, hold='linear'):
    """Return constant thresholds (one value, or one per joint, N m or N) for ``model``.

    The band's constant term only (no growth with speed): for a simulator or a model known
    well, or set by hand; learnt thresholds (:func:`collision_thresholds`) are tighter where
    the motion is slow and looser where it is fast.
    """
    T = per_joint(model, values, 'thresholds', 'N m or N')
    if not np.all(np.isfinite(T) & (T > 0)):
        raise ValueError(f'thresholds: {T.tolist()}; every threshold must be a finite torque '
                         '> 0 (N m or N): the estimate a joint may reach without contact')
    zeros = np.zeros(model.dof)
    return CollisionThresholds(model.joint_names, check_gain(model, gain), T, zeros, zeros,
                               zeros, hold=hold, safety=1.0, model=model.name,
                               source='fixed values')


@dataclass(frozen=True)
class ContactReading:
    """One sample's verdict.

    ``t`` s; ``tau_ext`` (n,) the estimate (None: no estimate, see ``reason``; the first
    sample only starts the observer); ``threshold``
    (n,) and ``joints`` (n,) bool, joints over it (None without thresholds); ``in_contact``
    True/False, or None when not judged (``reason`` says why); ``joint`` (name) and ``torque``
    (signed, N m or N) at the largest ``|τ̂_ext| / T`` (without thresholds: the largest
    ``|τ̂_ext|``), ``ratio`` that ratio (NaN without thresholds).
    """

    t: float
    tau_ext: np.ndarray = None
    threshold: np.ndarray = None
    joints: np.ndarray = None
    in_contact: bool = None
    joint: str = ''
    torque: float = float('nan')
    ratio: float = float('nan')
    reason: str = ''
    over: tuple = ()

    @property
    def judged(self):
        """Return True when ``in_contact`` is a verdict (True or False), not unknown."""
        return self.in_contact is not None

    def describe(self):
        """Return a one-line description for a log or a diagnostic."""
        if self.in_contact is None:
            return f'contact not judged: {self.reason}'
        if not self.in_contact:
            return (f'no contact (largest {self.torque:+.3g} at {self.joint}, {self.ratio:.2g} x '
                    'its threshold)')
        over = ', '.join(self.over) if self.over else self.joint
        return (f'contact: {self.torque:+.3g} N m at {self.joint} ({self.ratio:.2g} x its '
                f'threshold; joints over it: {over})')


class ContactMonitor:
    """Observer, thresholds and detector over a stream of joint states (module docstring).

    ``thresholds``: :class:`~robot_dynamics.contacts.thresholds.CollisionThresholds`, a file,
    or None (the estimate only, contact not judged). With thresholds the observer runs with
    their gain and hold (they hold for those only; a different ``gain`` raises ``ValueError``);
    without, with ``gain`` (1/s, default 50) and ``hold``.
    """

    def __init__(self, model, thresholds=None, gain=None, hold='linear'):
        """Monitor ``model`` (see the class docstring)."""
        self.model = model
        if thresholds is None:
            self.detector = None
            self.observer = MomentumObserver(model, gain, hold)
        else:
            limits = _thresholds(thresholds).for_model(model)
            if gain is not None and not np.allclose(check_gain(model, gain), limits.gain):
                raise ValueError(f'gain: {gain} 1/s, but the thresholds were learnt with '
                                 f'{limits.gain.tolist()} 1/s and hold for that gain only; '
                                 'leave the gain unset or learn thresholds for it')
            self.detector = CollisionDetector(model, limits)
            self.observer = self.detector.observer
        self.gain = self.observer.gain
        self.last = None

    @property
    def thresholds(self):
        """Return the thresholds in the model's joint order (None: not judged)."""
        return None if self.detector is None else self.detector.thresholds

    def update(self, t, q, qd, tau):
        """Take the sample at ``t`` (s); return its :class:`ContactReading`.

        ``q``, ``qd``, ``tau`` (n,) in the model's joint order, ``tau`` the measured motor
        torques (None or empty: missing). Never raises for a bad sample: the reading says why
        it was not judged.
        """
        if tau is None or np.size(tau) == 0:
            return self._refused(t, missing_efforts())
        first = self.observer.time is None
        try:
            if self.detector is None:
                tau_ext = self.observer.update(t, q, qd, tau)
            else:
                self.detector.update(t, q, qd, tau)
                tau_ext = self.detector.tau_ext
        except ValueError as exc:
            return self._refused(t, str(exc))
        tau_ext = np.array(tau_ext)
        if first:
            return self._keep(ContactReading(float(t), reason=STARTING))
        if self.detector is None:
            j = int(np.argmax(np.abs(tau_ext)))
            return self._keep(ContactReading(float(t), tau_ext, joint=self.model.joint_names[j],
                                             torque=float(tau_ext[j]), reason=NO_THRESHOLDS))
        threshold, joints = self.detector.threshold, self.detector.joints
        ratio = np.abs(tau_ext) / threshold
        j = int(np.argmax(ratio))
        over = tuple(self.model.joint_names[k] for k in np.flatnonzero(joints))
        return self._keep(ContactReading(float(t), tau_ext, threshold, joints.copy(),
                                         bool(over), self.model.joint_names[j],
                                         float(tau_ext[j]), float(ratio[j]), over=over))

    def reset(self):
        """Forget every sample: the next update starts the observer again."""
        self.observer.reset()
        if self.detector is not None:
            self.detector.joints[:] = False
        self.last = None

    def _refused(self, t, reason):
        try:
            stamp = float(t)
        except (TypeError, ValueError):
            stamp = float('nan')
        return self._keep(ContactReading(stamp, reason=reason))

    def _keep(self, reading):
        self.last = reading
        return reading
