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
"""Identification: cut-off and friction laws from data, least squares, a plausible model.

:func:`identify` (Gautier 1997; Swevers et al. 1997; Lee, Wensing, Park 2020):

1. prepare the samples (:mod:`robot_dynamics.identification.data`); the position filter's
   cut-off (``cutoff='auto'``) is the candidate of :data:`CUTOFFS` with the least
   cross-validated torque error on the estimation data (5 contiguous folds; at most 5000
   rows per candidate, the same for every candidate), the arm at rest cut at the ends and
   left out of a joint's equations inside (:mod:`robot_dynamics.identification.rest`);
   hold back the last ``validation`` fraction of the time span (or another recording),
   never fitted (:mod:`robot_dynamics.identification.heldout`);
2. one pass over the estimation samples builds the normal equations per block of time
   (:mod:`robot_dynamics.identification.normal`); ordinary least squares gives per-joint
   noise ``σ_j``, rows of joint j are weighted by ``1/σ_j``;
3. the friction law of each joint (``friction='auto'``): the one of
   :mod:`robot_dynamics.identification.friction_laws` with the least cross-validated error
   of that joint's torque (a richer law must gain 0.5 %);
4. weighted least squares: the base parameters ``θ̂``; their standard deviations from the
   block bootstrap (200 resamples of the blocks; the textbook ``s² (WᵀW)⁻¹`` with fewer than
   10 blocks), combined with the change of ``θ̂`` per half sample of effort-to-position delay
   (:data:`TIMING_UNCERTAINTY`: no recording knows its sensors' relative timing exactly)
   and, where a richer friction law was chosen, half the change of the base parameters
   from viscous + Coulomb friction to the chosen laws (the law is a choice too);
5. the physically consistent and plausible model (:mod:`robot_dynamics.identification.plausible`,
   a convex program): close to ``θ̂`` where the data determine it, to the nominal model where
   they do not, within the :class:`~robot_dynamics.identification.plausible.Bounds`; a
   Stribeck term it holds at 0 leaves the law; the URDF alone's viscous and Coulomb friction
   refitted where a law is richer; the held-out torques of the nominal model, ``θ̂``, the
   identified model and its URDF alone;
6. warnings (:mod:`robot_dynamics.identification.review`): a link's mass or inertia moved by
   more than x2, a total mass outside ±25 % of the nominal, every term the physical model
   moves more than 2 sd from ``θ̂``, the model's own plausibility warnings; a fit whose
   torque error, cross-validated (before step 5) or on the held-out samples, exceeds
   ``max_error`` is refused (``quality``).
"""

from dataclasses import dataclass, field
import time

import numpy as np

from robot_dynamics.identification.base import base_parameters
from robot_dynamics.identification.compliance import remove_compliance
from robot_dynamics.identification.data import Samples, prepare
from robot_dynamics.identification.determined import mass_ranges
from robot_dynamics.identification.friction_laws import model_fields, supported_laws, variants
from robot_dynamics.identification.heldout import (
    recorded_rows, score_written, split, urdf_model, validate, windows,
)
from robot_dynamics.identification.normal import (
    accumulate, assemble, bootstrap, choose_laws, cross_validate, fit, solve,
)
from robot_dynamics.identification.plausible import Bounds, ConvexProgramError, estimate
from robot_dynamics.identification.quality import (
    MAX_ERROR, check_cross_validated, check_excitation, check_fit_size, check_validation,
    nominal_scale_hint, poorly_explained_joints, timing_cause,
)
from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, PER_JOINT, PER_LINK, parameters,
)
from robot_dynamics.identification.review import review
from robot_dynamics.io.recordings import Recording, read_recording

#: The effort-to-position timing is uncertain by this many samples (a current loop's lag,
#: sampling skew): the standard deviations include the parameters' change per sample of
#: delay times this.
TIMING_UNCERTAINTY = 0.5
#: Position cut-off candidates, Hz (those below 0.4 times the sample rate are tried).
CUTOFFS = (3.0, 5.0, 8.0, 12.0, 20.0)


@dataclass
class IdentificationResult:
    """Everything :func:`identify` found; see :mod:`robot_dynamics.identification.report`.

    ``base``: :class:`~robot_dynamics.identification.base.BaseParameters`; ``names`` (P,):
    the estimated parameters, the base parameters then the friction extras (``F0_j``
    offset, ``FA_j`` asymmetry, ``FS_j`` Stribeck); ``theta``, ``std``, ``nominal`` (P,):
    least-squares values, their block-bootstrap standard deviations, the nominal model's;
    ``sigma`` (n,) per-joint torque noise; ``model``: the plausible identified
    :class:`~robot_dynamics.model.RobotModel`; ``physical_theta`` (P,): its values;
    ``laws`` (n,): the friction variant per joint that the physical model holds
    (``details['chosen_laws']``: the cross-validated ones); ``urdf_model``: ``model`` as its
    URDF alone holds it (:func:`~robot_dynamics.identification.heldout.urdf_model`);
    ``validation``: :class:`~robot_dynamics.identification.heldout.ValidationResult`;
    ``data``: the preparation report; ``fit_samples``; ``windows``: {'estimation':
    [(start, end)], 'validation': [...]} s; ``warnings``; ``details`` of the convex program;
    ``timings``.
    """

    base: object
    names: tuple
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
    laws: tuple = ()
    windows: dict = field(default_factory=dict)
    warnings: tuple = ()
    details: dict = field(default_factory=dict)
    nominal_model: object = None
    urdf_model: object = None

    @property
    def relative_std(self):
        """Relative standard deviation of each parameter, % (inf where θ = 0)."""
        with np.errstate(divide='ignore', invalid='ignore'):
            return np.where(self.theta != 0, 100 * self.std / np.abs(self.theta), np.inf)


def identify(model, data, validation=0.2, weighted=True, joint_terms=JOINT_PARAMETERS,
             cutoff='auto', torque_cutoff=None, effort_delay=0.0, physical=True, chunk=4000,
             friction='auto', velocity='auto', bounds=None, replicates=200, seed=0,
             compliance=True, max_error=MAX_ERROR):
    """Identify ``model``'s parameters and a plausible physical model from recorded motion.

    ``data``: a :class:`~robot_dynamics.io.recordings.Recording`, a path (bag or CSV) or
    prepared :class:`~robot_dynamics.identification.data.Samples`. ``validation``: the
    fraction of the time span held back at the end (0 for none) or another recording.
    ``joint_terms``: joint parameters identified (others are taken from the model).
    ``cutoff``: Hz or ``'auto'`` (cross-validated, see the module docstring);
    ``torque_cutoff``, ``effort_delay``, ``velocity``: see
    :mod:`robot_dynamics.identification.data`. ``friction``: ``'auto'``, a law of
    :data:`~robot_dynamics.identification.friction_laws.LAWS` for every joint, or
    {joint: law}; with ``torque_cutoff`` the law is ``coulomb``. ``bounds``:
    :class:`~robot_dynamics.identification.plausible.Bounds`. ``replicates``: bootstrap
    resamples. ``compliance``: fit the joint compliance seen by motor-side encoders and
    correct the positions where the data support it
    (:mod:`robot_dynamics.identification.compliance`). ``max_error``: refuse a model whose
    relative torque error, cross-validated or on the validation samples, exceeds it
    (:mod:`robot_dynamics.identification.quality`; None: never). Returns an
    :class:`IdentificationResult`; ``result.model`` is the identified model (its friction law
    in the model's fields).
    """
    timings, started = {}, time.perf_counter()
    joint_terms = tuple(t for t in JOINT_PARAMETERS if t in joint_terms)
    base = base_parameters(model, joint_terms)
    known = _known_columns(model, joint_terms)
    pi0 = parameters(model)
    options = dict(torque_cutoff=torque_cutoff, effort_delay=effort_delay, velocity=velocity)
    samples = _samples(model, data, cutoff, validation, options, base, known, pi0)
    fit_set, held_back, stretch = split(model, samples, validation, options)
    timings['prepare'] = time.perf_counter() - started
    check_fit_size(model, base, fit_set)

    started = time.perf_counter()
    scale = np.maximum(np.sqrt(np.mean(fit_set.qd ** 2, axis=0)), 1e-6)
    blocks = accumulate(model, base, fit_set, known, pi0, scale, chunk=chunk)
    check_excitation(model, base, fit_set, blocks)
    coulomb = [variants(1.0, 'coulomb')[0]] * model.dof
    sigma = fit(blocks, coulomb)[2]
    weights = 1.0 / sigma ** 2 if weighted else np.ones(model.dof)
    chosen = choose_laws(blocks, _candidates(model, friction, joint_terms, torque_cutoff,
                                             scale), weights)
    theta, plan, sigma, weights = _weighted_fit(blocks, chosen, weighted)
    fit_set, blocks, compliance = remove_compliance(
        model, base, fit_set, blocks, known, pi0, scale, chosen, plan, theta, weights, chunk,
        enabled=compliance)
    if np.any(compliance.used > 0):
        theta, plan, sigma, weights = _weighted_fit(blocks, chosen, weighted)
    cause = timing_cause(fit_set.report)                # time stamps out of order
    check_cross_validated(fit_set.report.source, model.joint_names, blocks, chosen, weights,
                          max_error, cause)
    std, R, inflation = _uncertainty(blocks, plan, weights, theta, replicates, seed)
    if any(law.law != 'coulomb' for law in chosen):         # the law is uncertain too
        plain = fit(blocks, coulomb, weights)[0]
        b = base.count
        std[:b] = np.sqrt(std[:b] ** 2 + ((theta[:b] - plain[:b]) / 2) ** 2)
    timings['least squares'] = time.perf_counter() - started

    started = time.perf_counter()
    identified, values, details, laws = model, {}, {}, chosen
    hint = nominal_scale_hint(model, fit_set)          # torques in the wrong units
    if physical:
        try:
            pi, values, details = estimate(model, base, plan[2], theta, R, joint_terms,
                                           bounds or Bounds())
        except ConvexProgramError as exc:
            if not (hint or cause):
                raise
            raise ConvexProgramError(f'{exc}{hint}' + (f'; {cause}' if cause else '')) from exc
        laws = supported_laws(chosen, values)       # a Stribeck term held at 0 is no law
        identified = with_parameters(model, pi, laws, values)
    physical_theta = np.concatenate((base.values(parameters(identified)),
                                     [values.get(name, 0.0) for name in plan[2]]))
    timings['physical model'] = time.perf_counter() - started
    urdf = urdf_model(identified, fit_set, joint_terms)
    check = None
    if held_back is not None and held_back.count:
        started = time.perf_counter()
        check = validate(model, base, recorded_rows(held_back), known, pi0, scale, plan,
                         theta, physical_theta, chunk, stretch)
        score_written(check, model.joint_names, urdf, identified)
        timings['validation'] = time.perf_counter() - started
    nominal = np.concatenate((base.values(pi0), np.zeros(len(plan[2]))))
    result = IdentificationResult(
        base=base, names=tuple(base.names) + plan[2], theta=theta, std=std, nominal=nominal,
        sigma=sigma, model=identified, physical_theta=physical_theta, validation=check,
        data=samples.report, fit_samples=fit_set.count, timings=timings, laws=tuple(laws),
        windows={'estimation': windows(fit_set), 'validation': windows(held_back)},
        details={**details, 'inflation': inflation, 'blocks': len(blocks.rows),
                 'compliance': compliance, 'R': R, 'joint_terms': joint_terms,
                 'chosen_laws': tuple(chosen)},
        nominal_model=model, urdf_model=urdf)
    if physical:
        result.details['mass_ranges'] = mass_ranges(result, com_margin=(
            bounds or Bounds()).com_margin)
    result.warnings = tuple(review(result, bounds or Bounds())
                            + poorly_explained_joints(result, max_error))
    check_validation(fit_set.report.source, result, max_error, hint, cause)
    return result


def _samples(model, data, cutoff, validation, options, base, known, pi0):
    if isinstance(data, Samples):
        return data
    if not isinstance(data, Recording):
        data = read_recording(data, joints=model.joint_names)
    if cutoff != 'auto':
        return prepare(data, model, cutoff=float(cutoff), **options)
    return choose_cutoff(model, data, validation, options, base, known, pi0)


def _weighted_fit(blocks, chosen, weighted):
    """Least squares, then weighted by ``1/σ_j²`` (Gautier 1997): θ, plan, σ, weights."""
    theta, plan, sigma = fit(blocks, chosen)
    weights = np.ones(len(chosen))
    if weighted:
        weights = 1.0 / sigma ** 2
        theta, plan, _ = fit(blocks, chosen, weights)
    return theta, plan, sigma, weights


def choose_cutoff(model, recording, validation, options, base, known, pi0, max_rows=5000):
    """Prepare ``recording`` at the :data:`CUTOFFS` candidate with the least CV error."""
    prepared, scores = {}, {}
    window = None
    for candidate in CUTOFFS:
        samples = prepare(recording, model, cutoff=candidate, **options)
        actual = samples.report.cutoff
        if actual in prepared:
            continue
        if window is None:
            window = samples.report.segments            # the lowest cut-off trims most
        prepared[actual] = samples
        fit_set = split(model, samples, validation if np.isscalar(validation) else 0,
                        options)[0]
        inside = np.zeros(fit_set.count, dtype=bool)
        for lo, hi in window:
            inside |= (fit_set.t >= lo) & (fit_set.t <= hi)
        stride = max(1, -(-int(inside.sum()) // max_rows))
        rows = np.flatnonzero(inside)[::stride]
        if rows.size < 10 * base.count // model.dof + 10:
            continue
        subset = fit_set.select(rows)
        scale = np.maximum(np.sqrt(np.mean(subset.qd ** 2, axis=0)), 1e-6)
        blocks = accumulate(model, base, subset, known, pi0, scale)
        error, energy = cross_validate(blocks, [variants(1.0, 'coulomb')[0]] * model.dof,
                                       np.ones(model.dof))
        scores[actual] = float(np.sqrt(error.sum() / max(energy.sum(), 1e-300)))
    if not scores:
        best = max(prepared)
    else:
        best = min(scores, key=scores.get)
    samples = prepared[best]
    samples.report.cutoff_source = 'chosen by cross-validation'
    samples.report.cutoff_scores = scores
    return samples


def _candidates(model, friction, joint_terms, torque_cutoff, scale):
    """Return the friction variants per joint, simplest first."""
    if 'FC' not in joint_terms or torque_cutoff:
        return [[variants(1.0, 'coulomb')[0]]] * model.dof
    if isinstance(friction, dict):
        unknown = sorted(set(friction) - set(model.joint_names))
        if unknown:
            raise ValueError(f'friction: joints {unknown} are not in the model '
                             f'{list(model.joint_names)}')
        laws = [friction.get(name, 'auto') for name in model.joint_names]
    else:
        laws = [friction] * model.dof
    return [variants(s, None if law == 'auto' else law) for s, law in zip(scale, laws)]


def _uncertainty(blocks, plan, weights, theta, replicates, seed):
    """Return the standard deviations, ``R`` and the bootstrap's variance inflation κ.

    Standard deviations: block bootstrap and effort timing; ``‖R δ‖² = δᵀ G δ / r`` is the
    relative increase of the weighted residual energy r.
    """
    sums = blocks.total()
    G, m = assemble(sums[:2], plan, weights)
    residual = weights @ sums[2] - 2 * m @ theta + theta @ G @ theta
    s2 = max(residual, 1e-12 * (weights @ sums[2])) / max(sums[3].sum() - theta.size, 1.0)
    scale = 1.0 / np.sqrt(np.maximum(np.diag(G), 1e-300))
    classical = np.linalg.inv(G * np.outer(scale, scale)) * np.outer(scale, scale) * s2
    L = np.linalg.cholesky(G * np.outer(scale, scale))
    R = (L.T / scale) / np.sqrt(max(residual, 1e-12 * (weights @ sums[2])))   # δᵀGδ / r
    std, inflation = np.sqrt(np.diag(classical)), 1.0
    if replicates and len(blocks.rows) >= 10:
        draws = bootstrap(blocks, plan, weights, replicates, seed)
        if len(draws) >= replicates // 2:
            boot = np.std(draws, axis=0, ddof=1)
            ratio = (boot / np.maximum(std, 1e-300)) ** 2
            inflation = float(np.median(ratio))
            std = boot
    earlier, later = (solve(*assemble((sums[0], moment), plan, weights))
                      for moment in blocks.shifted.sum(axis=1))
    timing = TIMING_UNCERTAINTY * np.abs(later - earlier) / 2   # per sample of delay
    return np.sqrt(std ** 2 + timing ** 2), R, inflation


def _known_columns(model, joint_terms):
    """Return the indices of the joint parameters taken from the model (not identified)."""
    n = model.dof
    return [PER_LINK * n + PER_JOINT * j + k for j in range(n)
            for k, term in enumerate(JOINT_PARAMETERS) if term not in joint_terms]


def with_parameters(model, pi, laws=None, extras=None):
    """Return a copy of ``model`` with standard parameters ``π`` (masses, inertias, joints).

    ``laws`` (n,) friction variants and their ``extras`` {name: value} set the friction law's
    other fields (:func:`robot_dynamics.identification.friction_laws.model_fields`).
    """
    n = model.dof
    links = pi[:PER_LINK * n].reshape(n, PER_LINK)
    masses = links[:, 0]
    coms = links[:, 1:4] / masses[:, None]
    inertias = []
    for (m, _, _, _, xx, xy, yy, xz, yz, zz), c in zip(links, coms):
        K = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
        inertias.append(K - m * (c @ c * np.eye(3) - np.outer(c, c)))
    joints = pi[PER_LINK * n:].reshape(n, PER_JOINT)
    friction = {}
    if laws is not None:
        rows = [model_fields(law, {name[:2]: value for name, value in (extras or {}).items()
                                   if int(name[2:]) == j + 1}) for j, law in enumerate(laws)]
        friction = {key: np.array([row[key] for row in rows]) for key in rows[0]}
    return model.replace(mass=masses, com=coms, inertia=np.array(inertias),
                         viscous_friction=joints[:, 0], coulomb_friction=joints[:, 1],
                         rotor_inertia=joints[:, 2] / model.gear_ratio ** 2, **friction)
