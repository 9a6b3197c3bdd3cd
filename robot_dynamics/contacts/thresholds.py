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
"""Collision thresholds learnt from a recording without contact.

Without contact the observer's estimate is the model's error seen through the observer's
filter: sensor noise, and the part of the real torque the model misses. That part grows where
the model is wrong: with speed (friction), with the inertial torque of the motion (masses,
centres of mass, rotor inertias: ``d(M q̇)/dt = M q̈ + Ṁ q̇``) and with the gravity load. So the
threshold of joint j is a band, not a constant::

    T_j = a_j + b_j |q̇_j| + c_j |ṗ̂_j| + d_j |G_j(q)|

with ``ṗ̂`` the momentum's rate through the observer's own filter (it lags as the estimate
does; :attr:`MomentumObserver.momentum_rate`). :func:`collision_thresholds` fits the tightest
such band over the learning recording, the one of least mean height that lies above every
sample's ``|τ̂_ext,j|`` (a linear program with ``a, b, c, d >= 0``: the envelope, not a
quantile, so the learning data hold no alarm), multiplies it by ``safety`` (default
:data:`SAFETY`: the rest of a recording sees noise peaks and motions the learning part did not)
and raises ``a_j`` to at least ``friction_margin`` times the model's friction at rest (the
least certain torque of any model: stiction and the Stribeck effect, seen in slow creeps the
learning data may lack) and ``floor`` times the RMS of the measured torque (an exact model
would otherwise get thresholds at rounding level). A contact during learning is learnt as
model error: learn on motion without contact.
"""

from dataclasses import dataclass, field

import numpy as np

from robot_dynamics.api import inverse_dynamics
from robot_dynamics.contacts.observer import check_hold, observe
from robot_dynamics.errors import warn
from robot_dynamics.io.thresholds_yaml import KEYS, read_thresholds, thresholds_yaml

#: The default safety factor on the learnt envelope.
SAFETY = 2.0
#: The default floor of the constant term, a fraction of the RMS of each joint's torque.
FLOOR = 0.01
#: The default friction margin: the constant term covers this fraction of each joint's
#: friction at rest (Coulomb + Stribeck + asymmetry + offset), the least certain torque of
#: any model (a slow creep near zero speed may not be in the learning data).
FRICTION_MARGIN = 0.2
#: The band's coefficients and their units (the keys of the thresholds file).
COEFFICIENTS = ('constant', 'velocity', 'momentum_rate', 'gravity')


@dataclass(frozen=True)
class CollisionThresholds:
    """Per-joint collision thresholds of one model and observer gain.

    ``joint_names`` (n,); ``gain`` (n,) 1/s and ``hold`` of the observer they were learnt with;
    ``constant`` a (n,) N m or N, ``velocity`` b (n,) N m s/rad, ``momentum_rate`` c and
    ``gravity`` d (n,) ratios (the band of the module docstring, safety included); ``peak``
    (n,) the largest ``|τ̂_ext|`` of the learning data; ``safety``; ``model``, ``source``
    labels; ``fingerprint`` (n,) the model's :func:`fingerprint` (NaN: unknown).
    """

    joint_names: tuple
    gain: np.ndarray
    constant: np.ndarray
    velocity: np.ndarray
    momentum_rate: np.ndarray
    gravity: np.ndarray
    peak: np.ndarray = None
    hold: str = 'linear'
    safety: float = SAFETY
    model: str = ''
    source: str = field(default='', compare=False)
    fingerprint: np.ndarray = None

    def __post_init__(self):
        """Freeze the arrays as (n,) floats; check the hold."""
        n = len(self.joint_names)
        object.__setattr__(self, 'joint_names', tuple(self.joint_names))
        for name in ('gain',) + COEFFICIENTS + ('peak', 'fingerprint'):
            value = getattr(self, name)
            value = np.full(n, np.nan) if value is None else np.array(value, dtype=float)
            value = np.broadcast_to(value, (n,)).copy()
            value.flags.writeable = False
            object.__setattr__(self, name, value)
        check_hold(self.hold)

    def band(self, qd, momentum_rate, gravity):
        """Return the thresholds ``T`` (shape of ``qd``: (n,) or (N, n)) at these states."""
        return (self.constant + self.velocity * np.abs(qd) + self.momentum_rate
                * np.abs(momentum_rate) + self.gravity * np.abs(gravity))

    def for_model(self, model):
        """Return these thresholds in ``model``'s joint order; refuse a model they don't fit."""
        names = list(model.joint_names)
        missing = [name for name in names if name not in self.joint_names]
        if missing:
            raise ValueError(f'thresholds: no thresholds for joints {missing} of model '
                             f'{model.name!r} (the thresholds have {list(self.joint_names)}); '
                             'learn them for this model (collision_thresholds, robot-dynamics '
                             'identify)')
        order = [self.joint_names.index(name) for name in names]
        ours = self if order == list(range(len(self.joint_names))) else CollisionThresholds(
            tuple(names), *(getattr(self, k)[order] for k in ('gain',) + COEFFICIENTS),
            self.peak[order], self.hold, self.safety, self.model, self.source,
            self.fingerprint[order])
        ours.check_model(model)
        return ours

    def check_model(self, model):
        """Warn when ``model`` is not the one the thresholds were learnt for (fingerprint)."""
        known = np.isfinite(self.fingerprint)
        if not np.any(known):
            return
        now = fingerprint(model)
        off = known & (np.abs(now - self.fingerprint) > 1e-6 * np.maximum(
            1.0, np.abs(self.fingerprint)))
        if np.any(off):
            j = int(np.flatnonzero(off)[0])
            warn(f'thresholds: learnt for another model than {model.name!r} ({self.model!r}): '
                 f'its inverse dynamics at the check state differs at joints '
                 f'{[self.joint_names[k] for k in np.flatnonzero(off)]} ({now[j]:.6g} instead '
                 f'of {self.fingerprint[j]:.6g} at {self.joint_names[j]}); a friction sidecar '
                 'not loaded (--friction)? Learn the thresholds for this model, or expect false '
                 'alarms or missed contacts')

    def to_yaml(self, comment=''):
        """Return the thresholds file's text (:mod:`robot_dynamics.io.thresholds_yaml`)."""
        joints = {name: {key: getattr(self, key)[j] for key in KEYS
                         if np.isfinite(getattr(self, key)[j])}
                  for j, name in enumerate(self.joint_names)}
        return thresholds_yaml(joints, self.hold, self.safety, self.model, self.source, comment)

    def write(self, path, comment=''):
        """Write the thresholds file to ``path``; return the path."""
        with open(path, 'w', encoding='utf-8') as handle:
            handle.write(self.to_yaml(comment))
        return path

    @classmethod
    def read(cls, source):
        """Read a thresholds file (path, YAML text or dict)."""
        data = read_thresholds(source)
        names = tuple(data['joints'])
        values = {key: [data['joints'][name].get(key, np.nan) for name in names]
                  for key in KEYS}
        return cls(names, values['gain'], *(values[k] for k in COEFFICIENTS), values['peak'],
                   data['hold'], data['safety'], data['model'], data['source'],
                   values['fingerprint'])


def friction_at_rest(model):
    """Each joint's friction level at rest (n,): ``Fc + Fs + |Fa| + |τ₀|``, N m or N."""
    return (model.coulomb_friction + np.abs(model.stribeck_friction)
            + np.abs(model.coulomb_asymmetry) + np.abs(model.friction_offset))


def fingerprint(model):
    """Return the model's inverse dynamics (n,) at ``q = 0.5, q̇ = q̈ = 1`` (every joint).

    Masses, inertias, friction and gravity in n numbers, to tell models apart.
    """
    ones = np.ones(model.dof)
    return inverse_dynamics(model, 0.5 * ones, ones, ones)


def fit_band(residual, features, rows=2000):
    """Coefficients x >= 0 (k,) of the least mean band ``features @ x`` above ``|residual|``.

    ``residual`` (N,), ``features`` (N, k) (non-negative; column 0 the constant 1). A linear
    program (scipy's HiGHS): minimise ``mean(features) @ x`` subject to ``features @ x >=
    |residual|``, by constraint generation: solved on the ``rows`` largest residuals, then
    again with the most violated of the others added until none is (the same optimum as with
    every row, at the cost of a few small programs: an hour at 1 kHz is 3.6 million rows).
    What the solver's tolerance leaves under a residual is added to the constant: the band
    lies above every one.
    """
    from scipy.optimize import linprog         # scipy.optimize: ~0.3 s to import, when used
    peak = max(np.abs(residual).max(), 1e-300)
    target = np.abs(residual) / peak                         # the program in units of 1
    scale = np.maximum(features.max(axis=0), 1e-300)         # columns of comparable size
    A = features / scale
    cost = A.mean(axis=0)
    chosen = np.argsort(target)[-rows:]
    while True:
        result = linprog(cost, A_ub=-A[chosen], b_ub=-target[chosen], bounds=(0, None),
                         method='highs')
        if result.status != 0:                # not expected: x = (1, 0, …) is feasible
            return np.r_[peak, np.zeros(features.shape[1] - 1)]
        x = np.maximum(result.x, 0.0)
        short = target - A @ x
        violated = np.setdiff1d(np.flatnonzero(short > 1e-6), chosen)   # HiGHS: 1e-7
        if violated.size == 0:
            x = x / scale * peak
            deficit = (np.abs(residual) - features @ x).max() + 8 * np.finfo(float).eps * peak
            x[0] += max(deficit, 0.0)
            return x
        chosen = np.union1d(chosen, violated[np.argsort(short[violated])[-rows:]])


def collision_thresholds(model, t, q, qd, tau, gain=None, hold='linear', safety=SAFETY,
                         floor=FLOOR, friction_margin=FRICTION_MARGIN, source=''):
    """Learn :class:`CollisionThresholds` for ``model`` from a recording without contact.

    ``t`` (N,) s, strictly increasing; ``q``, ``qd``, ``tau`` (N, n), model joint order,
    ``tau`` the measured motor torques. ``gain``, ``hold``: the observer's (the thresholds
    hold for them only). ``safety`` >= 1 multiplies the learnt envelope; ``friction_margin``
    (a fraction of each joint's friction at rest) and ``floor`` (a fraction of its torque RMS)
    bound the constant term from below. See the module docstring.
    """
    if not (np.isfinite(safety) and safety >= 1):
        raise ValueError(f'safety: {safety}; give a factor >= 1 on the learnt envelope '
                         f'(default {SAFETY})')
    for name, value in (('floor', floor), ('friction_margin', friction_margin)):
        if not (np.isfinite(value) and value >= 0):
            raise ValueError(f'{name}: {value}; give a fraction >= 0')
    run = observe(model, t, q, qd, tau, gain, hold)
    rms = check_efforts(model, np.asarray(tau, dtype=float))
    least = np.maximum(floor * rms, friction_margin * friction_at_rest(model))
    coefficients = np.zeros((model.dof, len(COEFFICIENTS)))
    for j in range(model.dof):
        features = np.column_stack((np.ones(len(run.t)), np.abs(run.qd[:, j]),
                                    np.abs(run.momentum_rate[:, j]), np.abs(run.gravity[:, j])))
        coefficients[j] = safety * fit_band(run.tau_ext[:, j], features)
        coefficients[j, 0] = max(coefficients[j, 0], least[j])
    label = source or f'{run.t[-1] - run.t[0]:.6g} s, {len(run.t)} samples without contact'
    peak = np.abs(run.tau_ext).max(axis=0)
    loose = np.flatnonzero(peak > 0.5 * rms)
    if loose.size:
        found = ', '.join(f'{model.joint_names[j]} {peak[j]:.3g} of {rms[j]:.3g}' for j in loose)
        warn(f'thresholds: on joints {[model.joint_names[j] for j in loose]} the model leaves '
             'more than half the measured torque unexplained (largest estimate of RMS torque: '
             f'{found}): contacts smaller than that go unseen; check the model (identify it), '
             'its friction and the efforts\' units')
    return CollisionThresholds(model.joint_names, run.gain, *coefficients.T, peak, hold, safety,
                               model.name, label, fingerprint(model))


def check_efforts(model, tau):
    """Return each joint's RMS effort; refuse efforts that never change (none recorded).

    A driver that fills ``JointState.effort`` with zeros, or repeats one value, gives no
    torque to compare with: thresholds learnt on it would be the model's whole torque and
    hide every contact.
    """
    flat = np.flatnonzero(np.ptp(tau, axis=0) == 0)
    if flat.size:
        raise ValueError(f'tau: the efforts of joints {[model.joint_names[j] for j in flat]} '
                         f'never change (all {tau[0, flat]}): no torque was recorded, and '
                         'thresholds learnt on it would hide every contact; record the '
                         'measured motor torques (JointState.effort)')
    return np.sqrt(np.mean(tau ** 2, axis=0))
