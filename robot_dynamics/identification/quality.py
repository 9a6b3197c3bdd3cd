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
"""Refusals of recordings that cannot identify a model, or give one that explains nothing.

:func:`check_fit_size` and :func:`check_excitation` refuse a recording with fewer equations
than base parameters, silent efforts or a motion that leaves parameters undetermined.

A recording whose efforts do not follow the motion (pure noise, a wrong column, a torque
signal of other joints, units off by orders of magnitude with an offset) still gives least-
squares parameters, and the convex program turns them into a plausible-looking URDF. The
relative torque error ``e = ‖τ - τ̂‖ / ‖τ‖`` (all joints together, RMS over RMS) tells:
a model that explains nothing has ``e ≈ 100 %`` (predicting zero torque scores exactly
100 %); a good one a few per cent (1 % noise: ~1 %; the real 7-joint arm of issue 24:
2.9-3.6 %). :data:`MAX_ERROR` (50 %: the model explains less than three quarters of the
torque energy) is far above any usable model and far below a fit to noise.

:func:`check_cross_validated` applies it to the cross-validated error on the estimation
data (before the costly convex program); :func:`check_validation` to the identified model's
error on the validation samples. Both raise :class:`PoorFitError` naming the error, the
bound, the likely causes and the fix; ``max_error=None`` (``--max-error inf``) accepts any
fit. :func:`poorly_explained_joints` warns about a single joint beyond the bound.
"""

import numpy as np

from robot_dynamics.api import inverse_dynamics
from robot_dynamics.identification.normal import cross_validate
from robot_dynamics.io.recordings import RecordingError

#: Largest relative torque error (RMS error over RMS torque, all joints) of a model that
#: ``identify`` returns; above it the model explains almost nothing and is refused.
MAX_ERROR = 0.5


class PoorFitError(RecordingError):
    """The model explains almost none of the measured torques; ``result`` when identified."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


def cross_validated_error(blocks, chosen, weights):
    """Return the overall and per-joint (n,) relative torque errors held out over 5 folds."""
    error, energy = cross_validate(blocks, chosen, weights)
    per_joint = np.sqrt(error / np.maximum(energy, 1e-300))
    return float(np.sqrt(error.sum() / max(energy.sum(), 1e-300))), per_joint


def check_cross_validated(source, names, blocks, chosen, weights, max_error=MAX_ERROR,
                          cause=''):
    """Raise :class:`PoorFitError` when the cross-validated error exceeds ``max_error``.

    ``cause``: the likelier reason than the efforts (:func:`timing_cause`), or ''.
    """
    if max_error is None:
        return
    overall, per_joint = cross_validated_error(blocks, chosen, weights)
    if overall > max_error:
        raise PoorFitError(_message(
            source, 'cross-validated on the estimation data (5 folds)', overall, per_joint,
            names, max_error, cause))


def check_validation(source, result, max_error=MAX_ERROR, hint='', cause=''):
    """Raise :class:`PoorFitError` (carrying ``result``) when the validation error is too big.

    ``hint``: a sentence added to the message (:func:`scale_hint`); ``cause`` as in
    :func:`check_cross_validated`.
    """
    check = result.validation
    if max_error is None or check is None:
        return
    overall = check.relative_error('physical')
    if overall > max_error:
        per_joint = check.error_rms('physical') / np.maximum(check.measured_rms, 1e-300)
        raise PoorFitError(_message(source, 'of the identified model on the validation '
                                    'samples', overall, per_joint,
                                    result.model.joint_names, max_error, cause) + hint, result)


def timing_cause(report):
    """Return why a fit on a recording whose time went backwards fails ('' if it did not).

    Sorting such rows by time interleaves two runs or reverses a motion: positions and
    efforts no longer belong together, and "the efforts do not follow the motion" would be
    the wrong advice (issue 30, LOW). ``report``: the samples' DataReport.
    """
    if not report.time_order:
        return ''
    return (f'the recorded time is out of order, the likely cause: {report.time_order}. Fix '
            'the time stamps (one run per recording, stamps from one clock) and identify again')


#: Measured over nominal torque RMS beyond which (or below its inverse) the units are wrong.
SCALE_BOUND = 10.0


def nominal_scale_hint(model, samples):
    """:func:`scale_hint` of prepared ``samples`` against ``model``'s inverse dynamics."""
    return scale_hint(samples.tau, inverse_dynamics(model, samples.q, samples.qd, samples.qdd),
                      model.joint_names)


def scale_hint(measured, predicted, names):
    """Return a sentence naming joints whose torques are orders of magnitude off, or ''.

    ``measured``, ``predicted`` (K, n): the recorded torques and the nominal model's for the
    same motion. Least squares fits torques scaled by 1000 as well as the true ones (the model
    is linear in its parameters), so only the bounded physical model fails, and "the efforts
    do not follow the motion" or "widen the bounds" would be the wrong advice (trial 3).
    """
    expected = np.sqrt(np.mean(np.asarray(predicted) ** 2, axis=0))
    ratio = np.sqrt(np.mean(np.asarray(measured) ** 2, axis=0)) / np.maximum(expected, 1e-300)
    off = [f'{name} {r:.3g}x' for name, r, p in zip(names, ratio, expected)
           if p > 0 and not 1 / SCALE_BOUND <= r <= SCALE_BOUND]
    if not off:
        return ''
    return (f'. The measured torques are orders of magnitude from what the nominal model '
            f'predicts for this motion ({", ".join(off)}): check their units (N m; from mN m '
            'divide by 1000) and the nominal masses')


def poorly_explained_joints(result, max_error=MAX_ERROR):
    """Warnings for joints whose validation error alone exceeds ``max_error`` (one line each).

    The overall error weighs joints by their torque: a wrist whose effort column is noise
    hides behind a shoulder's tens of N m. Such a joint's parameters are fitted to nothing.
    """
    check = result.validation
    if max_error is None or check is None:
        return []
    per_joint = check.error_rms('physical') / np.maximum(check.measured_rms, 1e-300)
    return [f'joint {name}: the identified model\'s torque error on the validation samples is '
            f'{100 * e:.0f} % of its RMS ({rms:.3g} N m or N), above {100 * max_error:.0f} %: '
            'its torque is barely explained; check its effort column (the applied torque of '
            'this joint, units) and that the motion moves it'
            for name, e, rms in zip(result.model.joint_names, per_joint, check.measured_rms)
            if e > max_error]


def check_fit_size(model, base, fit):
    """Refuse a fit with fewer equations (samples × joints) than base parameters."""
    need = -(-base.count // model.dof)
    if fit.count < need:
        report = fit.report
        raise RecordingError(
            f'{report.source}: too few finite rows for the fit: {fit.count} samples remain '
            f'({report.nonfinite_rows} of {report.samples_in} rows dropped for NaN/inf, then '
            f'filter transients and the validation share), need at least {need} for the '
            f'{base.count} base parameters of {model.dof} joints: record longer or without '
            'dropouts')


def check_excitation(model, base, fit, blocks):
    """Refuse zero efforts and a motion that leaves base parameters undetermined."""
    report = fit.report
    gram, _, energy, _ = blocks.total()
    silent = [name for name, e in zip(model.joint_names, energy) if not e > 0]
    if silent:
        raise RecordingError(f'{report.source}: the efforts of {", ".join(silent)} are zero in '
                             f'all {fit.count} fitted samples: record with efforts (the '
                             'applied joint torques, JointState.effort)')
    b = base.count
    G = gram[:, :b, :b].sum(axis=0)
    scale = 1.0 / np.sqrt(np.maximum(np.diag(G), 1e-300))
    values, vectors = np.linalg.eigh(G * np.outer(scale, scale))
    if values[0] > 1e-12 * values[-1]:
        return
    weakest = np.argsort(-np.abs(vectors[:, 0]))[:3]
    raise RecordingError(
        f'{report.source}: the motion in the {fit.count} fitted samples does not determine '
        f'the {base.count} base parameters (the regressor is rank-deficient: condition '
        f'{values[-1] / max(values[0], 1e-300):.2g}; least determined: '
        f'{", ".join(base.names[k] for k in weakest)}): record a longer motion that moves '
        'every joint, e.g. the excitation of `robot-dynamics excite`')


def _message(source, where, overall, per_joint, names, max_error, cause=''):
    worst = ', '.join(f'{name} {100 * e:.0f} %' for name, e in zip(names, per_joint))
    advice = cause or (
        'the efforts do not follow the motion. Check that the effort columns are the applied '
        'joint torques (N m, N for prismatic joints; not currents or noise) of the joints '
        'they are named after, recorded together with the positions, and that the motion '
        'excites the dynamics (e.g. the trajectory of `robot-dynamics excite`)')
    return (f'{source}: the model explains almost none of the measured torques: torque '
            f'error {100 * overall:.0f} % of their RMS {where} (per joint: {worst}; above the '
            f'bound {100 * max_error:.0f} %; 100 % is no better than predicting zero): '
            f'{advice}; to keep such a model anyway raise the bound (--max-error, max_error=)')
