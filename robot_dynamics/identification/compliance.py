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
"""Joint compliance between a motor-side encoder and the link: estimated, removed from ``q``.

An arm whose position encoders sit on the motor side of a compliant transmission (harmonic
drives; the elastic joint of Spong 1987) records ``θ = q + c τ``: the link's position plus the
spring's deflection, ``c = 1/k`` rad per N m. Evaluated at ``θ`` instead of ``q``, the link
dynamics are wrong by the same amount in every resample of the data, so the block bootstrap
cannot see the bias it causes (the simulated arm of test/mismatched_arm.py: 87 % of the base
parameters within 2σ of the truth with flexible joints, 100 % with the same arm rigid).

Linearised about the recorded positions, with the first estimate ``θ̂`` (``τ̂ = A(θ) θ̂``,
:func:`~robot_dynamics.identification.prediction.design`)::

    τ = A(θ - C τ, θ̇, θ̈ - C τ'') θ̂ + e  ≈  A θ̂ - Σ_j c_j (∂τ̂/∂q_j τ̂_j + ∂τ̂/∂q̈_j τ̂''_j) + e

so the compliances are ``n`` more columns (one forward difference each, ``τ̂''`` from the
predicted torques low-passed at :data:`BANDWIDTH`), fitted jointly with ``θ`` on
:data:`SUBSET` evenly spread rows. Where ``c_j`` is positive beyond :data:`SIGNIFICANCE`
standard deviations, the positions and accelerations are corrected, ``q = θ - ĉ τ̂``,
``q̈ = θ̈ - ĉ τ̂''``, and the normal equations are built again; the correction is kept only if
it lowers the cross-validated torque error, as the cut-off and the friction laws are chosen.
The velocities stay the recorded ones (the deflection's rate ``ĉ τ̂'`` is neglected; the
friction acts on the motor's), and the rotor inertia, regrouped with the link's (``ZZ1R``),
sees the corrected acceleration: a bias left. The validation samples are not corrected: the
identified URDF is scored as a controller reading the same encoders uses it.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.identification.data import Samples
from robot_dynamics.identification.normal import accumulate, cross_validate
from robot_dynamics.identification.prediction import design, predict

#: Rows of the estimation data used to fit the compliances.
SUBSET = 2000
#: Compliance step of the forward differences, rad/(N m) (``q_j`` moves by ``STEP τ̂_j``).
STEP = 1e-6
#: The deflection's acceleration ``c τ''`` is taken from the predicted torques low-passed at
#: this frequency, Hz (the motion's band; their noise would be amplified).
BANDWIDTH = 5.0
#: A compliance is used when it exceeds this many standard deviations.
SIGNIFICANCE = 3.0
#: The corrected positions must lower the cross-validated error by this fraction.
PARSIMONY = 0.005


@dataclass
class Compliance:
    """Per joint: fitted compliance ``fitted`` and ``std`` (rad/(N m)), the one ``used`` (n,).

    ``used`` is zero where the compliance was not significant or the correction did not lower
    the cross-validated error; ``note`` says what was done.
    """

    fitted: np.ndarray
    std: np.ndarray
    used: np.ndarray
    note: str = ''

    @property
    def stiffness(self):
        """Stiffness ``1/c`` per joint of the used compliances, N m/rad (inf where none)."""
        with np.errstate(divide='ignore'):
            return np.where(self.used > 0, 1.0 / np.maximum(self.used, 1e-300), np.inf)


def fit_compliance(model, base, samples, known, pi0, scale, plan, theta, weights, deflection,
                   rows=SUBSET):
    """Fit the compliances jointly with the parameters on a subset: :class:`Compliance`.

    ``deflection``: ``(τ̂, τ̂'')`` (K, n) each, the predicted torques and their second derivative
    in time: a compliance ``c_j`` moves ``q_j`` by ``-c_j τ̂_j`` and ``q̈_j`` by ``-c_j τ̂''_j``.
    """
    n = model.dof
    pick = np.unique(np.linspace(0, samples.count - 1, min(rows, samples.count)).astype(int))
    sub = samples.select(pick)
    tau, curvature = (x[pick] for x in deflection)
    A, extra = design(model, base, sub, known, pi0, scale, plan)
    tau_hat = A @ theta + extra
    E = np.empty((sub.count, n, n))
    for j in range(n):
        unit = np.eye(n)[j]
        moved = _moved(sub, STEP * tau[:, j, None] * unit, STEP * curvature[:, j, None] * unit)
        Aj, extra_j = design(model, base, moved, known, pi0, scale, plan)
        E[:, :, j] = -((Aj @ theta + extra_j) - tau_hat) / STEP
    w = np.sqrt(weights)[None, :, None]
    if sub.rest is not None:
        w = w * ~sub.rest[:, :, None]                  # at rest: Coulomb friction set-valued
    Z = (np.concatenate((A, E), axis=2) * w).reshape(-1, A.shape[2] + n)
    y = ((sub.tau - extra) * w[..., 0]).ravel()
    norms = np.linalg.norm(Z, axis=0)
    free = norms > 1e-9 * np.max(norms)          # joint 1 of an arm on a vertical axis: none
    Zs = Z[:, free] / norms[free]
    coef = np.linalg.lstsq(Zs, y, rcond=None)[0]
    residual = y - Zs @ coef
    equations = np.count_nonzero(np.broadcast_to(w[..., 0], sub.tau.shape))
    s2 = residual @ residual / max(equations - Zs.shape[1], 1)
    full_coef, variance = np.zeros(Z.shape[1]), np.full(Z.shape[1], np.inf)
    full_coef[free] = coef / norms[free]
    variance[free] = np.diag(np.linalg.pinv(Zs.T @ Zs)) * s2 / norms[free] ** 2
    fitted, std = full_coef[-n:], np.sqrt(np.maximum(variance[-n:], 0.0))
    used = np.where(fitted > SIGNIFICANCE * std, fitted, 0.0)
    return Compliance(fitted, std, used)


def remove_compliance(model, base, samples, blocks, known, pi0, scale, chosen, plan, theta,
                      weights, chunk=4000, enabled=True):
    """Correct ``samples``' positions for the fitted compliance when cross-validation agrees.

    Returns ``(samples, blocks, compliance)``: the corrected samples and their normal
    equations, or the given ones (``compliance.used`` all zero) when no compliance is
    significant or the correction does not lower the cross-validated error by
    :data:`PARSIMONY`. ``enabled`` False: nothing fitted, the samples as given.
    """
    if not enabled:
        zero = np.zeros(model.dof)
        return samples, blocks, Compliance(zero, zero, zero, 'not fitted (compliance=False)')
    tau_hat = predict(model, base, samples, known, pi0, scale, [(plan, theta)], chunk)[0]
    deflection = (tau_hat, _second_derivative(samples.t, tau_hat))
    compliance = fit_compliance(model, base, samples, known, pi0, scale, plan, theta, weights,
                                deflection)
    if not np.any(compliance.used > 0):
        compliance.note = 'none significant'
        return samples, blocks, compliance
    corrected = _moved(samples, *(-compliance.used * x for x in deflection))
    again = accumulate(model, base, corrected, known, pi0, scale, chunk=chunk)
    before = weights @ cross_validate(blocks, chosen, weights)[0]
    after = weights @ cross_validate(again, chosen, weights)[0]
    if after < (1 - PARSIMONY) * before:
        compliance.note = (f'positions corrected (cross-validated error x{after / before:.3f} '
                           'of the uncorrected)')
        return corrected, again, compliance
    compliance.note = (f'significant but not used (cross-validated error x{after / before:.3f}'
                       ' of the uncorrected)')
    compliance.used = np.zeros_like(compliance.used)
    return samples, blocks, compliance


def _moved(samples, offset, acceleration=0.0):
    """Return ``samples`` with ``offset`` added to the positions, ``acceleration`` to ``q̈``."""
    return Samples(samples.t, samples.q + offset, samples.qd, samples.qdd + acceleration,
                   samples.tau, samples.report, samples.coulomb, samples.rest, samples.recorded)


def _second_derivative(t, x):
    """Second time derivative of ``x`` (K, n), low-passed at :data:`BANDWIDTH`, per window."""
    out = np.zeros_like(x)
    period = np.median(np.diff(t)) if t.size > 1 else 1.0
    edges = np.concatenate(([0], np.flatnonzero(np.diff(t) > 2 * period) + 1, [t.size]))
    for a, b in zip(edges[:-1], edges[1:]):
        if b - a < 30:
            continue
        y = x[a:b]
        if BANDWIDTH < 0.4 / period:
            import scipy.signal      # scipy.signal costs ~1 s to import: only when used
            sos = scipy.signal.butter(4, BANDWIDTH, fs=1.0 / period, output='sos')
            y = scipy.signal.sosfiltfilt(sos, y, axis=0)
        out[a:b] = np.gradient(np.gradient(y, t[a:b], axis=0), t[a:b], axis=0)
    return out
