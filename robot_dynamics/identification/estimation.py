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
"""Identification: weighted least squares on the base parameters, then a physical model.

:func:`identify` follows Gautier's recipe (Gautier 1997; Swevers et al. 1997):

1. prepare the samples (:mod:`robot_dynamics.identification.data`) and hold back the last
   ``validation`` fraction of the time span (or a separate recording) for validation;
2. ordinary least squares ``Y_b θ = τ`` over the fit samples; per-joint noise
   ``σ_j² = ‖τ_j - Y_bj θ‖² / (N_j - b / n)``;
3. weighted least squares with the rows of joint j divided by ``σ_j``; covariance
   ``C = s² (Wᵀ W)⁻¹`` with ``s²`` the weighted residual variance; relative standard deviation
   ``100 √C_kk / |θ_k|`` per base parameter;
4. a physically consistent model closest to ``θ`` (:mod:`robot_dynamics.identification.physical`).

The regressor is built in chunks and only the normal equations are kept (``b × b`` per joint,
columns scaled to unit norm), so memory does not grow with the recording.
"""

from dataclasses import dataclass
import time

import numpy as np

from robot_dynamics.identification.base import base_parameters
from robot_dynamics.identification.data import Samples, prepare
from robot_dynamics.identification.physical import realise
from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, PER_JOINT, PER_LINK, batch_regressor, parameters,
)
from robot_dynamics.io.recordings import Recording, RecordingError, read_recording


@dataclass
class IdentificationResult:
    """Everything :func:`identify` found; see :mod:`robot_dynamics.identification.report`.

    ``base``: :class:`~robot_dynamics.identification.base.BaseParameters`; ``theta``,
    ``std``, ``nominal`` (b,): identified values, their standard deviations and the nominal
    model's values; ``sigma`` (n,): per-joint torque noise; ``model``: the physically
    consistent identified :class:`~robot_dynamics.model.RobotModel`; ``physical_theta``: its
    base parameters; ``validation``: :class:`ValidationResult` or None; ``data``: the
    preparation report; ``fit_samples``; ``timings`` {step: s}.
    """

    base: object
    theta: np.ndarray
    std: np.ndarray
    nominal: np.ndarray
    sigma: np.ndarray
    model: object
    physical_theta: np.ndarray
    validation: object
    data: object
    fit_samples: int
    timings: dict

    @property
    def relative_std(self):
        """Relative standard deviation of each base parameter, % (inf where θ = 0)."""
        with np.errstate(divide='ignore', invalid='ignore'):
            return np.where(self.theta != 0, 100 * self.std / np.abs(self.theta), np.inf)


@dataclass
class ValidationResult:
    """Held-back samples: times, measured torques and the predictions (K, n)."""

    t: np.ndarray
    measured: np.ndarray
    nominal: np.ndarray
    base: np.ndarray
    physical: np.ndarray

    @staticmethod
    def _rms(x):
        return np.sqrt(np.mean(x ** 2, axis=0))

    @property
    def measured_rms(self):
        """RMS of the measured torque per joint."""
        return self._rms(self.measured)

    def error_rms(self, which):
        """RMS of measured minus predicted per joint; ``which``: nominal, base, physical."""
        return self._rms(self.measured - getattr(self, which))

    def relative_error(self, which):
        """Overall RMS error over overall RMS torque (all joints together)."""
        return float(np.sqrt(np.sum(self.error_rms(which) ** 2)
                             / np.sum(self.measured_rms ** 2)))


def identify(model, data, validation=0.2, weighted=True, joint_terms=JOINT_PARAMETERS,
             cutoff=20.0, torque_cutoff=None, effort_delay=0.0, physical=True, chunk=4000):
    """Identify ``model``'s base parameters and a physical model from recorded motion.

    ``data``: a :class:`~robot_dynamics.io.recordings.Recording`, a path (bag or CSV) or
    prepared :class:`~robot_dynamics.identification.data.Samples`. ``validation``: the
    fraction of the time span held back at the end (0 for none) or another recording.
    ``joint_terms``: joint parameters identified (others are taken from the model).
    ``cutoff``/``torque_cutoff``: filter cut-offs, Hz; ``effort_delay``: s the efforts are
    stamped late (see :mod:`robot_dynamics.identification.data`). Returns an
    :class:`IdentificationResult`; ``result.model`` is the identified RobotModel.
    """
    timings = {}
    started = time.perf_counter()
    options = dict(cutoff=cutoff, torque_cutoff=torque_cutoff, effort_delay=effort_delay)
    samples = _samples(model, data, options)
    fit, held_back = _split(model, samples, validation, options)
    timings['prepare'] = time.perf_counter() - started
    base = base_parameters(model, joint_terms)
    known = _known_columns(model, joint_terms)
    pi0 = parameters(model)

    _check_fit_size(model, base, fit)

    started = time.perf_counter()
    gram, moment, energy, rows = _normal_equations(model, base, fit, known, pi0, chunk)
    _check_excitation(model, base, fit, gram, energy)
    theta, sigma = _least_squares(gram, moment, energy, rows, base.count, None)
    if weighted:
        theta, sigma_w = _least_squares(gram, moment, energy, rows, base.count, sigma)
    cov, R = _covariance(gram, moment, energy, rows, theta, sigma if weighted else None)
    timings['least squares'] = time.perf_counter() - started

    started = time.perf_counter()
    identified = model
    if physical:
        pi = realise(model, base, R, theta, joint_terms)
        identified = with_parameters(model, pi)
    timings['physical model'] = time.perf_counter() - started
    check = None
    if held_back is not None and held_back.count:
        started = time.perf_counter()
        check = _validate(model, identified, base, theta, held_back, known, pi0, chunk)
        timings['validation'] = time.perf_counter() - started
    return IdentificationResult(
        base=base, theta=theta, std=np.sqrt(np.diag(cov)), nominal=base.values(pi0),
        sigma=sigma, model=identified, physical_theta=base.values(parameters(identified)),
        validation=check, data=samples.report, fit_samples=fit.count, timings=timings)


def _samples(model, data, options):
    if isinstance(data, Samples):
        return data
    if not isinstance(data, Recording):
        data = read_recording(data)
    return prepare(data, model, **options)


def _split(model, samples, validation, options):
    """Fit and validation samples: the last fraction of the time span, or other data."""
    if validation is None or (np.isscalar(validation) and validation == 0):
        return samples, None
    if np.isscalar(validation):
        if not 0 < validation < 1:
            raise ValueError(f'validation: a fraction in (0, 1) or a recording, got '
                             f'{validation}')
        split = samples.t[0] + (1 - validation) * (samples.t[-1] - samples.t[0])
        return samples.select(samples.t < split), samples.select(samples.t >= split)
    return samples, _samples(model, validation, options)


def _check_fit_size(model, base, fit):
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


def _check_excitation(model, base, fit, gram, energy):
    """Refuse zero efforts and a motion that leaves base parameters undetermined."""
    report = fit.report
    silent = [name for name, e in zip(model.joint_names, energy) if not e > 0]
    if silent:
        raise RecordingError(f'{report.source}: the efforts of {", ".join(silent)} are zero in '
                             f'all {fit.count} fitted samples: record with efforts (the '
                             'applied joint torques, JointState.effort)')
    G = gram.sum(axis=0)
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


def _known_columns(model, joint_terms):
    """Return the indices of the joint parameters taken from the model (not identified)."""
    n = model.dof
    return [PER_LINK * n + PER_JOINT * j + k for j in range(n)
            for k, term in enumerate(JOINT_PARAMETERS) if term not in joint_terms]


def _chunks(samples, chunk):
    for start in range(0, samples.count, chunk):
        part = slice(start, start + chunk)
        yield samples.q[part], samples.qd[part], samples.qdd[part], samples.tau[part]


def _regressor(model, samples, chunk):
    """Yield ``(Y, τ)`` per chunk; the Coulomb columns filtered like τ when it was."""
    n = model.dof
    columns = PER_LINK * n + PER_JOINT * np.arange(n) + JOINT_PARAMETERS.index('FC')
    for start, (q, qd, qdd, tau) in zip(range(0, samples.count, chunk),
                                        _chunks(samples, chunk)):
        Y = batch_regressor(model, q, qd, qdd)
        if samples.coulomb is not None:
            Y[:, np.arange(n), columns] = samples.coulomb[start:start + chunk]
        yield Y, tau


def _normal_equations(model, base, samples, known, pi0, chunk):
    """Per joint: ``Y_jᵀ Y_j`` (n, b, b), ``Y_jᵀ τ_j`` (n, b), ``τ_jᵀ τ_j`` (n,), rows (n,)."""
    n, b = model.dof, base.count
    gram, moment = np.zeros((n, b, b)), np.zeros((n, b))
    energy, rows = np.zeros(n), np.zeros(n)
    for Y, tau in _regressor(model, samples, chunk):
        if known:
            tau = tau - Y[..., known] @ pi0[known]
        Yb = base.regressor(Y)                                           # (K, n, b)
        for j in range(n):
            Yj = np.ascontiguousarray(Yb[:, j])
            gram[j] += np.einsum('kb,kc->bc', Yj, Yj)    # not BLAS: its threads spin when
            moment[j] += Yj.T @ tau[:, j]                # the machine is busy (5-10x slower)
        energy += np.sum(tau ** 2, axis=0)
        rows += tau.shape[0]
    return gram, moment, energy, rows


def _least_squares(gram, moment, energy, rows, b, sigma):
    """Solve the (weighted) normal equations with unit-norm columns; per-joint noise σ_j."""
    weights = np.ones(len(rows)) if sigma is None else 1.0 / sigma ** 2
    G = np.einsum('j,jab->ab', weights, gram)
    m = weights @ moment
    scale = 1.0 / np.sqrt(np.maximum(np.diag(G), 1e-300))
    theta = scale * np.linalg.solve(G * np.outer(scale, scale), m * scale)
    residual = energy - 2 * moment @ theta + np.einsum('a,jab,b->j', theta, gram, theta)
    floor = 1e-24 * np.maximum(energy, 1e-300)
    dof = np.maximum(rows - b / len(rows), 1.0)
    return theta, np.sqrt(np.maximum(residual, floor) / dof)


def _covariance(gram, moment, energy, rows, theta, sigma):
    """Covariance of θ and the triangular factor ``R`` of the weighted regressor."""
    weights = np.ones(len(rows)) if sigma is None else 1.0 / sigma ** 2
    G = np.einsum('j,jab->ab', weights, gram)
    m = weights @ moment
    residual = weights @ energy - 2 * m @ theta + theta @ G @ theta
    s2 = max(residual, 1e-30 * (weights @ energy)) / max(rows.sum() - len(theta), 1.0)
    scale = 1.0 / np.sqrt(np.maximum(np.diag(G), 1e-300))
    inverse = np.linalg.inv(G * np.outer(scale, scale)) * np.outer(scale, scale)
    L = np.linalg.cholesky(G * np.outer(scale, scale))
    R = (L.T / scale) / np.sqrt(max(s2, 1e-300))        # ‖R δ‖² = weighted residual / s²
    return s2 * inverse, R


def with_parameters(model, pi):
    """Return a copy of ``model`` with standard parameters ``π`` (masses, inertias, joints)."""
    n = model.dof
    links = pi[:PER_LINK * n].reshape(n, PER_LINK)
    masses = links[:, 0]
    coms = links[:, 1:4] / masses[:, None]
    inertias = []
    for (m, _, _, _, xx, xy, yy, xz, yz, zz), c in zip(links, coms):
        K = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
        inertias.append(K - m * (c @ c * np.eye(3) - np.outer(c, c)))
    joints = pi[PER_LINK * n:].reshape(n, PER_JOINT)
    return model.replace(mass=masses, com=coms, inertia=np.array(inertias),
                         viscous_friction=joints[:, 0], coulomb_friction=joints[:, 1],
                         rotor_inertia=joints[:, 2] / model.gear_ratio ** 2)


def _validate(model, identified, base, theta, samples, known, pi0, chunk):
    """Predict the held-back torques with the nominal, base-parameter and physical models.

    All three through the same regressor ``Y π`` (equal to inverse dynamics, except that the
    Coulomb column is filtered like the efforts when they were), so they compare alike.
    """
    pi_identified = parameters(identified)
    nominal, based, physical = [], [], []
    for Y, _ in _regressor(model, samples, chunk):
        extra = Y[..., known] @ pi0[known] if known else 0.0
        nominal.append(Y @ pi0)
        based.append(base.regressor(Y) @ theta + extra)
        physical.append(Y @ pi_identified)
    return ValidationResult(samples.t, samples.tau, np.concatenate(nominal),
                            np.concatenate(based), np.concatenate(physical))
