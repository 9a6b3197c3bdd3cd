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
_EYE, _ORTHONORMAL = np.eye(3), 1e-8 + 1e-5 * np.eye(3)      # R Rᵀ = E within these


def validate(model, loaded=False):
    """Raise :class:`ModelError` for unusable data; return warnings for suspicious data.

    ``loaded``: the fields are the URDF loader's, unchanged (``RobotModel._finish``).
    """
    if not loaded:
        check_frames(model)
        rows = np.arange(len(model.mass))
    else:
        rows = np.array([i for i, clear in enumerate(certainly_plausible(
            model.mass.tolist(), model.inertia.tolist())) if not clear], dtype=int)
    found, principal = _inertia_checks(model, rows, loaded) if len(rows) else ([], None)
    massless = [name for name, m in zip(model.link_names, model.mass.tolist()) if m == 0]
    if massless:
        found.append(f'massless moving links: {", ".join(massless)}')
    if principal is not None:
        found += link_warnings([model.link_names[i] for i in rows], model.mass[rows], principal)
    found += reach_warnings(model)
    if not loaded and (model.lower_limit > model.upper_limit).any():
        bad = [n for n, lo, hi in zip(model.joint_names, model.lower_limit, model.upper_limit)
               if lo > hi]
        raise ModelError(f'lower_limit > upper_limit for joints {bad}; swap them')
    signed = ('viscous_friction', 'coulomb_friction', 'rotor_inertia') if loaded else (
        'velocity_limit', 'effort_limit', 'viscous_friction', 'coulomb_friction',
        'rotor_inertia')
    for name in signed if (np.concatenate([getattr(model, k) for k in signed]) < 0).any() \
            else ():
        if (getattr(model, name) < 0).any():
            raise ModelError(f'{name} must be >= 0 for every joint, got '
                             f'{getattr(model, name).tolist()}')
    problem = None if loaded else check_friction_fields(model)
    if problem:
        raise ModelError(problem)
    if not loaded and len(set(model.joint_names)) != len(model.joint_names):
        raise ModelError(f'joint_names are not unique: {list(model.joint_names)}')
    return found


def _inertia_checks(model, rows, loaded):
    """Check the inertias of links ``rows`` (indices, in order); return warnings, moments.

    Raises for an entry beyond :data:`MAX_INERTIA_MAGNITUDE`, a negative mass, an asymmetric
    or indefinite inertia; warns for the triangle inequality and for an inertia indefinite by
    rounding alone (:data:`ROUNDING_INDEFINITE`). ``principal``: (len(rows), 3).
    """
    names = [model.link_names[i] for i in rows]
    inertia, mass = model.inertia[rows], model.mass[rows]
    absolute, transposed = np.abs(inertia), inertia.transpose(0, 2, 1)
    largest = absolute.max(axis=(1, 2))
    huge = indices(largest > MAX_INERTIA_MAGNITUDE)
    for i in huge[:1]:                # LAPACK overflows on them (LinAlgError), so would M
        raise ModelError(f'inertia of link {names[i]!r} has an entry of '
                         f'{np.abs(inertia[i]).max():.3g} kg m^2, beyond what double '
                         f'precision dynamics can handle ({MAX_INERTIA_MAGNITUDE:g}); '
                         'check the units (kg m^2)')
    if loaded:                        # symmetric by construction, masses checked >= 0
        negative = asymmetric = np.zeros(len(largest), dtype=bool)
    else:
        scale = np.maximum(1.0, largest)[:, None, None]
        asymmetric = (np.abs(inertia - transposed) > 1e-12 * scale
                      + 1e-5 * absolute.transpose(0, 2, 1)).any(axis=(1, 2))
        negative = mass < 0
    principal = np.linalg.eigvalsh(inertia / 2 + transposed / 2)
    found = []
    for i, (low, middle, high) in enumerate(principal.tolist()):
        indefinite = low < -1e-12 * max(1.0, high)
        rounded = indefinite and low >= -ROUNDING_INDEFINITE * high
        if not (negative[i] or asymmetric[i] or indefinite
                or low + middle < high * (1 - 1e-9) - 1e-12):     # the triangle inequality
            continue
        name = names[i]
        if negative[i]:
            raise ModelError(f'mass of link {name!r} is {mass[i]}; '
                             'a mass must be >= 0 kg')
        if asymmetric[i]:
            raise ModelError(f'inertia of link {name!r} is not symmetric; '
                             'give ixy, ixz, iyz once each')
        if rounded:                   # Pinocchio and KDL load it; one warning says why
            found.append(f'inertia of link {name!r} is slightly indefinite: smallest principal '
                         f'moment {low:.3g} kg m^2, {-low / high:.1g} of the largest, the '
                         'rounding of entries written to a few digits (a thin link); accepted '
                         'as given: write more digits')
            continue
        if indefinite:
            raise ModelError(f'inertia of link {name!r} is not positive semi-definite '
                             f'(principal moments {principal[i]}); check signs and units '
                             '(kg m^2, about the centre of mass)')
        found.append(f'inertia of link {name!r} violates the triangle inequality '
                     f'(principal moments {np.round(principal[i], 6).tolist()}): '
                     'not a physical rigid body, accepted as given')
    return found, principal


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
