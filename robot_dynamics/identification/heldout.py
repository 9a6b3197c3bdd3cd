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
"""The held-out stretch and the torque error of what ``identify`` writes, measured on it.

The validation error a user trusts must be the one they would measure themselves: load the
written files, predict the held-out torques, compare with the recording. Issue 32's second
arm reported 4.0 % where that measurement gave 8.5 %: on a stretch the fit had seen, with the
whole friction law, while the nodes loaded the URDF alone. Here:

- :func:`split` holds back a named stretch: the last ``validation`` fraction of the time span
  (after the rest at the ends is cut), or another recording; nothing of it is fitted;
- :func:`recorded_rows` puts the held-out check on the recording's own rows in that stretch
  where irregular stamps were resampled onto the grid (whose interpolation averages the
  noise away): their efforts as recorded, the states from the filtered positions
  interpolated to their stamps; efforts low-passed on request (``torque_cutoff``) are
  compared as filtered;
- :func:`urdf_model` is the identified model as its URDF holds it: viscous and Coulomb
  friction only (URDF's ``<dynamics damping friction>``). Where a joint's law is richer, the
  two are refitted, least squares with both ≥ 0 on the estimation samples, to the torque the
  rigid bodies and rotors leave: the best a URDF alone can carry; the friction file keeps the
  whole law (its own viscous and Coulomb terms);
- :func:`score_written` predicts the held-out torques by inverse dynamics
  (:func:`robot_dynamics.inverse_dynamics`, as the nodes compute them) of the URDF alone and
  of the URDF with its friction file; ``robot-dynamics identify`` scores the files it wrote,
  read back.
"""

from dataclasses import dataclass, field
import warnings

import numpy as np

from robot_dynamics.api import inverse_dynamics
from robot_dynamics.errors import ModelWarning
from robot_dynamics.identification.data import Samples, prepare
from robot_dynamics.identification.prediction import layout_for, predict
from robot_dynamics.io.recordings import Recording, read_recording
from robot_dynamics.model import RobotModel
from robot_dynamics.model.friction import EXTRA_FIELDS, has_extra_friction


@dataclass
class ValidationResult:
    """Held-out samples: times, measured torques and the predictions (K, n) by name.

    ``nominal``, ``base``, ``physical``: the nominal model, the least-squares parameters and
    the identified model through the regressor; ``urdf``, ``written``: the identified model
    as its URDF alone holds it and with its friction file, by inverse dynamics
    (:func:`score_written`); ``stretch``: which data were held out, in words.
    """

    t: np.ndarray
    measured: np.ndarray
    nominal: np.ndarray
    base: np.ndarray
    physical: np.ndarray
    others: dict = field(default_factory=dict)          # label -> (K, n), --validate models
    q: np.ndarray = None
    qd: np.ndarray = None
    qdd: np.ndarray = None
    urdf: np.ndarray = None
    written: np.ndarray = None
    stretch: str = ''

    @staticmethod
    def _rms(x):
        return np.sqrt(np.mean(x ** 2, axis=0))

    def prediction(self, which):
        """Predicted torques (K, n): nominal, base, physical, urdf, written or a label."""
        return self.others[which] if which in self.others else getattr(self, which)

    @property
    def measured_rms(self):
        """RMS of the measured torque per joint."""
        return self._rms(self.measured)

    def error_rms(self, which):
        """RMS of measured minus predicted per joint; ``which``: see :meth:`prediction`."""
        return self._rms(self.measured - self.prediction(which))

    def relative_error(self, which):
        """Overall RMS error over overall RMS torque (all joints together)."""
        return float(np.sqrt(np.sum(self.error_rms(which) ** 2)
                             / np.sum(self.measured_rms ** 2)))


def split(model, samples, validation, options):
    """Estimation samples, held-out samples (or None) and the held-out stretch in words.

    ``validation``: the fraction of the time span held back at the end, 0 or None for none,
    or another recording (path, :class:`Recording` or prepared :class:`Samples`).
    """
    if validation is None or (np.isscalar(validation) and validation == 0):
        return samples, None, ''
    if np.isscalar(validation):
        if not 0 < validation < 1:
            raise ValueError(f'validation: a fraction in (0, 1) or a recording, got '
                             f'{validation}')
        cut = samples.t[0] + (1 - validation) * (samples.t[-1] - samples.t[0])
        return (samples.select(samples.t < cut), samples.select(samples.t >= cut),
                f'the last {100 * validation:.3g} % of the time span')
    if not isinstance(validation, Samples):
        if not isinstance(validation, Recording):
            validation = read_recording(validation, joints=model.joint_names)
        validation = prepare(validation, model, cutoff=samples.report.cutoff, **options)
    return samples, validation, f'the recording {validation.report.source}'


def windows(samples):
    """Return the contiguous time windows of ``samples``: [(start, end)] s, split at gaps.

    A gap is longer than 2 periods.
    """
    if samples is None or not samples.count:
        return []
    t = samples.t
    period = np.median(np.diff(t)) if t.size > 1 else 0.0
    breaks = np.flatnonzero(np.diff(t) > 2 * period) + 1
    edges = np.concatenate(([0], breaks, [t.size]))
    return [(float(t[a]), float(t[b - 1])) for a, b in zip(edges[:-1], edges[1:])]


def recorded_rows(samples):
    """Return the held-out check on the recorded rows inside ``samples``' windows: Samples.

    Where the stamps were irregular and the values interpolated onto the grid (resampled),
    the rows as recorded: their efforts, and q, q̇, q̈ of the prepared samples interpolated
    to their stamps. Otherwise the grid holds the recorded values (stamps uniform, or
    de-jittered: samples taken uniformly, stamped with noise) and is returned as it is, as
    when the efforts were filtered (``torque_cutoff``: compared as filtered).
    """
    if samples.recorded is None or samples.coulomb is not None \
            or not samples.report.resampled_segments:
        return samples
    stamps, efforts = samples.recorded
    parts = []
    for start, end in windows(samples):
        inside = (samples.t >= start) & (samples.t <= end)
        rows = (stamps >= start) & (stamps <= end)
        states = [np.column_stack([np.interp(stamps[rows], samples.t[inside], column)
                                   for column in x[inside].T])
                  for x in (samples.q, samples.qd, samples.qdd)]
        parts.append((stamps[rows], *states, efforts[rows]))
    t, q, qd, qdd, tau = (np.concatenate(column) for column in zip(*parts))
    return Samples(t, q, qd, qdd, tau, samples.report)


def validate(model, base, samples, known, pi0, scale, plan, theta, physical_theta, chunk,
             stretch=''):
    """Predict the held-out torques with the nominal model, θ̂ and the physical model.

    All three through the same augmented regressor (equal to inverse dynamics, except that
    the Coulomb column is filtered like the efforts when they were), so they compare alike.
    """
    coulomb = layout_for(model, base, plan, nominal=True)
    nominal, based, physical = predict(model, base, samples, known, pi0, scale, [
        (coulomb, base.values(pi0)), (plan, theta), (plan, physical_theta)], chunk)
    return ValidationResult(samples.t, samples.tau, nominal, based, physical, q=samples.q,
                            qd=samples.qd, qdd=samples.qdd, stretch=stretch)


def urdf_model(model, samples, joint_terms=('FV', 'FC')):
    """``model`` as its URDF alone holds it: viscous + Coulomb friction (see the module).

    ``samples``: the estimation samples (rows at rest left out). Joints whose law is richer
    get the viscous and Coulomb friction (those of ``joint_terms``) that fit best, ≥ 0.
    """
    if not has_extra_friction(model):
        return model
    import scipy.optimize        # ~0.3 s to import: only when a law is richer
    rich = [j for j in range(model.dof) if any(getattr(model, name)[j] for name in EXTRA_FIELDS)]
    free = [k for k, term in enumerate(('FV', 'FC')) if term in joint_terms]
    fixed = [k for k in range(2) if k not in free]
    plain = model.replace(**{name: np.zeros(model.dof) for name in EXTRA_FIELDS})
    terms = np.array([plain.viscous_friction, plain.coulomb_friction])        # (2, n)
    rigid = plain.replace(viscous_friction=np.zeros(model.dof),
                          coulomb_friction=np.zeros(model.dof))
    left = samples.tau - inverse_dynamics(rigid, samples.q, samples.qd, samples.qdd)
    for j in rich:
        rows = slice(None) if samples.rest is None else ~samples.rest[:, j]
        columns = np.column_stack((samples.qd[rows, j], np.sign(samples.qd[rows, j])))
        target = left[rows, j] - columns[:, fixed] @ terms[fixed, j]
        if free:
            terms[free, j] = scipy.optimize.nnls(columns[:, free], target)[0]
    return plain.replace(viscous_friction=terms[0], coulomb_friction=terms[1])


def score_written(check, names, urdf, whole):
    """Set ``check.urdf`` and ``check.written``: held-out torques of the written models.

    ``names``: the check's joint order; ``urdf``: the model of the URDF alone; ``whole``: with
    its friction file (``urdf`` itself when none is written).
    """
    check.urdf = model_torques(urdf, check, names, 'the URDF alone')
    check.written = model_torques(whole, check, names, 'the URDF with its friction file')
    return check


def score_files(result, urdf_path, friction_path=None):
    """:func:`score_written` with the models read back from the files written: exactly them.

    ``urdf_path``: the URDF written from ``result.urdf_model``; ``friction_path``: its
    friction file (None when none was written: the URDF is the whole model).
    """
    with warnings.catch_warnings():                  # the identified model's own: reported
        warnings.simplefilter('ignore', ModelWarning)
        urdf = RobotModel.from_urdf(urdf_path)
    whole = urdf.with_friction(friction_path) if friction_path else urdf
    return score_written(result.validation, result.model.joint_names, urdf, whole)


def model_torques(model, check, names, label):
    """Held-out torques (K, n) of ``model`` by inverse dynamics, in the order ``names``.

    Joints are matched by name; ValueError naming ``label`` if the joints differ.
    """
    missing = [name for name in names if name not in model.joint_names]
    if missing or model.dof != len(names):
        raise ValueError(f'{label}: its joints {list(model.joint_names)} are not the '
                         f'identified model\'s {list(names)}; score a model of the same arm')
    order = [list(names).index(name) for name in model.joint_names]
    tau = inverse_dynamics(model, check.q[:, order], check.qd[:, order], check.qdd[:, order])
    back = np.empty_like(tau)
    back[:, order] = tau
    return back
