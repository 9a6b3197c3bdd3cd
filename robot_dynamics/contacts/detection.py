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
"""Collision detection: the observer's estimate against the learnt thresholds.

Joint j is in contact at a sample when ``|τ̂_ext,j| > T_j`` (the band of
:mod:`robot_dynamics.contacts.thresholds` at that sample's state); the arm is in contact when
any joint is. The joints that see a contact are those between the base and the link touched
(a push on link k moves joints 1..k only), so the most distal joint in contact bounds where it
is. :func:`detect_collisions` runs over a recording; :class:`CollisionDetector` one sample at
a time, for a node or a control loop (the same numbers).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.contacts.observer import MomentumObserver, observe
from robot_dynamics.contacts.thresholds import CollisionThresholds


@dataclass(frozen=True)
class ContactEvent:
    """A run of samples in contact.

    ``start``, ``end`` (s, first and last sample in contact), ``joints`` (names of the joints
    over their threshold at any of them), and at the largest ``|τ̂_ext| / T`` the joint
    ``peak_joint``, its ``peak_torque`` (signed, N m or N) and ``peak_ratio``.
    """

    start: float
    end: float
    joints: tuple
    peak_joint: str
    peak_torque: float
    peak_ratio: float

    def describe(self):
        """Return a one-line description."""
        return (f'{self.start:.4f} - {self.end:.4f} s ({1e3 * (self.end - self.start):.0f} ms): '
                f'joints {", ".join(self.joints)}; peak {self.peak_torque:+.3g} at '
                f'{self.peak_joint} ({self.peak_ratio:.2g} x its threshold)')


@dataclass(frozen=True)
class CollisionDetection:
    """The detector over a recording.

    ``t`` (N,); ``tau_ext``, ``threshold`` (N, n); ``joints`` (N, n) bool, joint over its
    threshold; ``contact`` (N,) bool, any joint; ``events`` (:class:`ContactEvent`, in time
    order); ``joint_names``.
    """

    t: np.ndarray
    tau_ext: np.ndarray
    threshold: np.ndarray
    joints: np.ndarray
    contact: np.ndarray
    events: tuple
    joint_names: tuple

    @property
    def first_contact(self):
        """Return the time of the first sample in contact, s (None: no contact)."""
        return self.events[0].start if self.events else None


def detect_collisions(model, t, q, qd, tau, thresholds):
    """Detect contacts in a recording with ``thresholds``.

    ``thresholds``: :class:`CollisionThresholds`, or a file. ``t`` (N,) s strictly increasing;
    ``q``, ``qd``, ``tau`` (N, n) in the model's joint order, ``tau`` the measured motor
    torques. The observer runs with the thresholds' gain and hold. Returns a
    :class:`CollisionDetection`: ``.contact`` (N,) and ``.joints`` (N, n).
    """
    limits = _thresholds(thresholds).for_model(model)
    run = observe(model, t, q, qd, tau, limits.gain, limits.hold)
    band = limits.band(run.qd, run.momentum_rate, run.gravity)
    over = np.abs(run.tau_ext) > band
    contact = np.any(over, axis=1)
    return CollisionDetection(run.t, run.tau_ext, band, over, contact,
                              events(run.t, run.tau_ext, band, over, model.joint_names),
                              model.joint_names)


def events(t, tau_ext, band, over, names):
    """Return the runs of samples in contact as :class:`ContactEvent` (time order)."""
    contact = np.any(over, axis=1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.r_[0, contact, 0]))
    found = []
    for start, stop in zip(edges[::2], edges[1::2]):
        ratio = np.abs(tau_ext[start:stop]) / band[start:stop]
        k, j = np.unravel_index(np.argmax(ratio), ratio.shape)
        joints = tuple(names[i] for i in np.flatnonzero(np.any(over[start:stop], axis=0)))
        found.append(ContactEvent(float(t[start]), float(t[stop - 1]), joints, names[j],
                                  float(tau_ext[start + k, j]), float(ratio[k, j])))
    return tuple(found)


def _thresholds(thresholds):
    if isinstance(thresholds, CollisionThresholds):
        return thresholds
    if thresholds is None:
        raise ValueError('thresholds: None; learn them from a recording without contact '
                         '(collision_thresholds, robot-dynamics identify) or read a file')
    return CollisionThresholds.read(thresholds)


class CollisionDetector:
    """The detector for one sample at a time (a node's loop).

    ``update(t, q, qd, tau)`` returns whether the arm is in contact after that sample;
    :attr:`tau_ext`, :attr:`threshold` and :attr:`joints` hold the sample's estimate,
    thresholds and joints over them (n,). The same numbers as :func:`detect_collisions`.
    """

    def __init__(self, model, thresholds):
        """Detect on ``model`` with ``thresholds`` (learnt for it: gain, hold, joints)."""
        self.thresholds = _thresholds(thresholds).for_model(model)
        self.observer = MomentumObserver(model, self.thresholds.gain, self.thresholds.hold)
        n = model.dof
        self.tau_ext, self.threshold = np.zeros(n), self.thresholds.band(np.zeros(n), 0, 0)
        self.joints = np.zeros(n, dtype=bool)

    def update(self, t, q, qd, tau):
        """Take the sample at time ``t`` (s); return True if any joint is over its threshold."""
        self.tau_ext = self.observer.update(t, q, qd, tau)
        self.threshold = self.thresholds.band(qd, self.observer.momentum_rate,
                                              self.observer.gravity)
        self.joints = np.abs(self.tau_ext) > self.threshold
        return bool(self.joints.any())

    def reset(self):
        """Forget every sample (after a reaction, or a pause in the data)."""
        self.observer.reset()
        self.joints = np.zeros_like(self.joints)
