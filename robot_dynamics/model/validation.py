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
"""The checks of a :class:`~robot_dynamics.model.RobotModel`'s fields: errors and warnings.

:func:`validate` raises :class:`ModelError` for unusable data and returns warnings for
suspicious data. For the URDF loader's own fields (``loaded``) it skips what the loader has
checked, and the inertia checks run only on the links the plain-float screen
(:mod:`robot_dynamics.model.inertia_screen`) cannot clear: the same findings, in the same order.
"""

import numpy as np

from robot_dynamics.errors import ModelError
from robot_dynamics.model.friction import check_friction_fields
from robot_dynamics.model.inertia_screen import certainly_plausible
from robot_dynamics.model.plausibility import indices, link_warnings, reach_warnings

#: Largest |inertia entry| accepted, kg m^2: about the square root of the largest double, so
#: the products of moments in the checks (the equivalent ellipsoid) cannot overflow.
MAX_INERTIA_MAGNITUDE = 1e150
#: A smallest principal moment this far below zero (relative to the largest) is the rounding of
#: entries written to a few digits (a rod or plate at four digits: ~2e-5): a warning, not an error.
ROUNDING_INDEFINITE = 1e-3
#: Largest |entries| that LAPACK's ``syevd`` does not scale (its ``sqrt(safmin / eps)`` and
#: inverse, ~1e-146 and ~1e146), with a margin: :func:`diagonal_moments`.
UNSCALED = (1e-140, 1e140)
_EYE, _ORTHONORMAL = np.eye(3), 1e-8 + 1e-5 * np.eye(3)      # R Rᵀ = E within these


def validate(model, loaded=False):
    """Raise :class:`ModelError` for unusable data; return warnings for suspicious data.

    ``loaded``: the fields are the URDF loader's, unchanged (``RobotModel._finish``).
    """
    masses = model.mass.tolist()
    if not loaded:
        check_frames(model)
        rows = list(range(len(masses)))
        found, principal = _inertia_checks(model, np.array(rows, dtype=int))
    else:
        inertias = model.inertia.tolist()
        rows = [i for i, clear in enumerate(certainly_plausible(masses, inertias)) if not clear]
        found, principal = loaded_inertia_checks([model.link_names[i] for i in rows],
                                                 [inertias[i] for i in rows]) if rows else ([], [])
    massless = [name for name, m in zip(model.link_names, masses) if m == 0]
    if massless:
        found.append(f'massless moving links: {", ".join(massless)}')
    if rows:
        found += link_warnings([model.link_names[i] for i in rows],
                               [masses[i] for i in rows], principal)
    found += reach_warnings(model)
    if not loaded and (model.lower_limit > model.upper_limit).any():
        bad = [n for n, lo, hi in zip(model.joint_names, model.lower_limit, model.upper_limit)
               if lo > hi]
        raise ModelError(f'lower_limit > upper_limit for joints {bad}; swap them')
    signed = ('viscous_friction', 'coulomb_friction', 'rotor_inertia') if loaded else (
        'velocity_limit', 'effort_limit', 'viscous_friction', 'coulomb_friction',
        'rotor_inertia')
    negative = np.count_nonzero(np.concatenate([getattr(model, k) for k in signed]) < 0)
    for name in signed if negative else ():
        if (getattr(model, name) < 0).any():
            raise ModelError(f'{name} must be >= 0 for every joint, got '
                             f'{getattr(model, name).tolist()}')
    problem = None if loaded else check_friction_fields(model)
    if problem:
        raise ModelError(problem)
    if not loaded and len(set(model.joint_names)) != len(model.joint_names):
        raise ModelError(f'joint_names are not unique: {list(model.joint_names)}')
    return found


def _inertia_checks(model, rows):
    """Check the inertias of links ``rows`` (indices, in order); return warnings, moments.

    Raises for an entry beyond :data:`MAX_INERTIA_MAGNITUDE`, a negative mass, an asymmetric
    or indefinite inertia; warns for the triangle inequality and for an inertia indefinite by
    rounding alone (:data:`ROUNDING_INDEFINITE`). ``principal``: len(rows) lists of 3.
    """
    names = [model.link_names[i] for i in rows]
    inertia, mass = model.inertia[rows], model.mass[rows]
    absolute, transposed = np.abs(inertia), inertia.transpose(0, 2, 1)
    largest = absolute.max(axis=(1, 2))
    for i in indices(largest > MAX_INERTIA_MAGNITUDE)[:1]:
        _refuse_huge(names[i], float(largest[i]))
    scale = np.maximum(1.0, largest)[:, None, None]
    asymmetric = (np.abs(inertia - transposed) > 1e-12 * scale
                  + 1e-5 * absolute.transpose(0, 2, 1)).any(axis=(1, 2))
    negative = mass < 0
    refusals = [None] * len(names)
    for i in indices(negative | asymmetric):
        refusals[i] = (f'mass of link {names[i]!r} is {mass[i]}; a mass must be >= 0 kg'
                       if negative[i] else f'inertia of link {names[i]!r} is not symmetric; '
                       'give ixy, ixz, iyz once each')
    principal = np.linalg.eigvalsh(inertia / 2 + transposed / 2).tolist()
    return _moment_findings(names, principal, refusals), principal


def loaded_inertia_checks(names, inertias):
    """:func:`_inertia_checks` of the URDF loader's inertias: symmetric, masses >= 0.

    ``names``: the links; ``inertias``: their 3×3 nested lists (``array.tolist()``). The same
    findings and moments: a diagonal inertia's principal moments are its diagonal, sorted
    (:func:`diagonal_moments`), the others' are ``eigvalsh``'s.
    """
    principal, full = [], []
    for name, rows in zip(names, inertias):
        largest = max(max(map(abs, row)) for row in rows)
        if largest > MAX_INERTIA_MAGNITUDE:
            _refuse_huge(name, largest)
        moments = diagonal_moments(rows, largest)
        if moments is None:
            full.append(len(principal))
        principal.append(moments)
    if full:
        inertia = np.array([inertias[k] for k in full])
        for k, moments in zip(full, np.linalg.eigvalsh(
                inertia / 2 + inertia.transpose(0, 2, 1) / 2).tolist()):
            principal[k] = moments
    return _moment_findings(names, principal, [None] * len(names)), principal


def diagonal_moments(rows, largest):
    """Return ``eigvalsh``'s moments of a diagonal 3×3 ``rows`` (lists), or None if not diagonal.

    LAPACK's ``syevd`` on a diagonal matrix (of largest |entry| ``largest``, unscaled: 0 or
    within :data:`UNSCALED`) keeps the diagonal, bit for bit (its Householder reflections are
    the identity, every off-diagonal splits the tridiagonal matrix), and sorts it (insertion
    sort, stable); the diagonal is that of ``I / 2 + Iᵀ / 2``.
    """
    (a, b, c), (d, e, f), (g, h, k) = rows
    if b or c or d or f or g or h or not (largest == 0 or UNSCALED[0] < largest < UNSCALED[1]):
        return None
    return sorted([a / 2 + a / 2, e / 2 + e / 2, k / 2 + k / 2])


def _refuse_huge(name, largest):
    """Refuse an inertia entry beyond :data:`MAX_INERTIA_MAGNITUDE` (LAPACK overflows on it)."""
    raise ModelError(f'inertia of link {name!r} has an entry of {largest:.3g} kg m^2, beyond '
                     f'what double precision dynamics can handle ({MAX_INERTIA_MAGNITUDE:g}); '
                     'check the units (kg m^2)')


def _moment_findings(names, principal, refusals):
    """Warnings from the links' principal moments (lists); raise at the first refused link.

    ``refusals``: per link None or the message of an error found before (a negative mass, an
    asymmetric inertia), raised where the link's turn comes.
    """
    found = []
    for name, refusal, (low, middle, high) in zip(names, refusals, principal):
        indefinite = low < -1e-12 * max(1.0, high)
        rounded = indefinite and low >= -ROUNDING_INDEFINITE * high
        if refusal:
            raise ModelError(refusal)
        if not (indefinite or low + middle < high * (1 - 1e-9) - 1e-12):   # triangle ineq.
            continue
        if rounded:                   # Pinocchio and KDL load it; one warning says why
            found.append(f'inertia of link {name!r} is slightly indefinite: smallest principal '
                         f'moment {low:.3g} kg m^2, {-low / high:.1g} of the largest, the '
                         'rounding of entries written to a few digits (a thin link); accepted '
                         'as given: write more digits')
            continue
        moments = np.array([low, middle, high])
        if indefinite:
            raise ModelError(f'inertia of link {name!r} is not positive semi-definite '
                             f'(principal moments {moments}); check signs and units '
                             '(kg m^2, about the centre of mass)')
        found.append(f'inertia of link {name!r} violates the triangle inequality '
                     f'(principal moments {np.round(moments, 6).tolist()}): '
                     'not a physical rigid body, accepted as given')
    return found


def check_frames(model):
    """Normalise the axes (zero length refused); refuse an improper placement rotation."""
    norms = np.sqrt(np.add.reduce(model.axis * model.axis, axis=1))   # np.linalg.norm's sum
    for i in indices(norms < 1e-9)[:1]:
        raise ModelError(f'axis of joint {model.joint_names[i]!r} has zero length; '
                         'give a non-zero direction such as [0, 0, 1]')
    if not (np.abs(norms - 1.0) <= 1e-9 + 1e-5).all():     # np.allclose's bound
        axis = np.array(model.axis / norms[:, None], dtype=float)
        axis.setflags(write=False)
        object.__setattr__(model, 'axis', axis)
    R = model.placement_rotation      # the checks run on the stacks (large models load fast)
    improper = (np.abs(R @ R.transpose(0, 2, 1) - _EYE) > _ORTHONORMAL).any(axis=(1, 2)) | (
        np.linalg.det(R) < 0)
    for i in indices(improper)[:1]:
        raise ModelError(f'placement_rotation of joint {model.joint_names[i]!r} is not '
                         'a proper rotation matrix (orthonormal, det +1)')
