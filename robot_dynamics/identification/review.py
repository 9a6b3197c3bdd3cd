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
"""What to distrust in an identified model: moves from the prior, mass band, clamped terms.

:func:`link_changes` tabulates, for every link, the prior (nominal) and identified mass,
centre of mass and principal moments of inertia about the centre of mass; :func:`review`
turns them into warnings, loud by design (``robot-dynamics identify`` prints each on stderr):

- a link's mass or a principal moment moved by more than ``MOVE_FACTOR`` (2) either way,
  or its centre of mass by more than ``MOVE_DISTANCE`` (0.1 m);
- the total mass outside ``MASS_BAND`` (±25 %) of the prior's;
- every term the physical model puts more than ``MOVE_SIGMA`` (2) standard deviations from
  its least-squares value (:func:`moved_terms`): a joint or friction-law term (rotor
  inertia, viscous, Coulomb, offset, asymmetry, Stribeck) on its own line, saying when it is
  held at its bound 0 (a negative rotor inertia or Stribeck amplitude is never clamped
  silently; a Stribeck term held at 0 leaves the law written), the base parameters together;
- a convex program that did not solve to optimality, or only inaccurately (cvxpy's own
  "Solution may be inaccurate" warning is silenced and reported here);
- every plausibility warning of the identified model itself
  (:mod:`robot_dynamics.model.plausibility`).
"""

import numpy as np

MOVE_FACTOR = 2.0
MOVE_SIGMA = 2.0
MOVE_DISTANCE = 0.1
MASS_BAND = 0.25


def link_changes(prior, identified):
    """Rows per link: name, masses, CoMs (3,), principal moments (3,), prior then identified."""
    rows = []
    for i, name in enumerate(prior.link_names):
        rows.append((name, prior.mass[i], identified.mass[i], prior.com[i], identified.com[i],
                     np.linalg.eigvalsh(prior.inertia[i]),
                     np.linalg.eigvalsh(identified.inertia[i])))
    return rows


def _factor(a, b):
    a, b = abs(float(a)), abs(float(b))
    if min(a, b) <= 0:
        return np.inf if max(a, b) > 0 else 1.0
    return max(a / b, b / a)


def review(result, bounds):
    """Warnings (one line each) about ``result`` (an IdentificationResult)."""
    found = []
    prior, identified = result.nominal_model, result.model
    for name, m0, m, c0, c, lam0, lam in link_changes(prior, identified):
        if m0 > 0 and _factor(m0, m) > MOVE_FACTOR:
            found.append(f'link {name!r}: mass {m0:.4g} kg (nominal) -> {m:.4g} kg identified, '
                         f'more than x{MOVE_FACTOR:g}')
        moved = [k for k in range(3) if lam0[k] > 0 and _factor(lam0[k], lam[k]) > MOVE_FACTOR]
        if moved and m0 > 0:
            found.append(f'link {name!r}: principal inertia {_list(lam0)} (nominal) -> '
                         f'{_list(lam)} kg m^2 identified, more than x{MOVE_FACTOR:g}')
        if m0 > 0 and np.linalg.norm(c - c0) > MOVE_DISTANCE:
            found.append(f'link {name!r}: centre of mass moved {np.linalg.norm(c - c0):.3g} m '
                         f'from the nominal {_list(c0)} to {_list(c)} m')
    total0, total = prior.total_mass, identified.total_mass
    if total0 > 0 and abs(total / total0 - 1) > MASS_BAND:
        found.append(f'total mass {total:.4g} kg identified against {total0:.4g} kg nominal '
                     f'({100 * (total / total0 - 1):+.0f} %, beyond ±{100 * MASS_BAND:.0f} %): '
                     'check the nominal model, the recording (units, payload) and the bounds')
    found += moved_terms(result)
    status = str(result.details.get('status', 'optimal'))
    if status.startswith('optimal_inaccurate'):
        found.append(f'the plausible-parameter program ended {status}: the solver could not '
                     'reach its accuracy, the model may be off its optimum: check its '
                     'validation error, or narrow the bounds (--total-mass)')
    elif not status.startswith('optimal'):
        found.append(f'the plausible-parameter program ended {status}: check the result')
    found += [f'identified model: {warning}' for warning in identified.warnings]
    return found


#: Joint and friction-law terms, warned one by one: rotor inertia, viscous, Coulomb, offset,
#: asymmetry, Stribeck.
JOINT_TERMS = {'IA': 'rotor inertia', 'FV': 'viscous friction', 'FC': 'Coulomb friction',
               'F0': 'friction offset', 'FA': 'Coulomb asymmetry', 'FS': 'Stribeck friction'}


def moved_terms(result):
    """Warnings for each term the physical model puts more than MOVE_SIGMA sd from least squares.

    The least-squares value is where the data put a term; the physical program moves it to
    make every link a real body within the bounds, or pulls it to the nominal model where
    the data barely see it. Beyond ``MOVE_SIGMA`` standard deviations the data and the
    physical model disagree: each joint term on its own line (a term held at its bound 0 says
    so, and a Stribeck term held at 0 is not in the law written), the base parameters
    together on one line, every one with its numbers.
    """
    if 'status' not in result.details:                   # no physical model
        return []
    found, combinations = [], []
    laws = dict(enumerate(getattr(result, 'laws', ())))
    for k, name in enumerate(result.names):
        theta, std, physical = result.theta[k], result.std[k], result.physical_theta[k]
        if not (std > 0 and abs(physical - theta) > MOVE_SIGMA * std):
            continue
        term = name[:2] if k >= result.base.count else name.rstrip('R0123456789')
        sigmas = (physical - theta) / std
        if term not in JOINT_TERMS:
            combinations.append(f'{name} {theta:.4g} ± {std:.2g} -> {physical:.4g} '
                                f'({sigmas:+.1f} sd)')
            continue
        j = int(name[len(term):].rstrip('R')) - 1
        what = f'{name} ({JOINT_TERMS[term]} of {result.model.joint_names[j]})'
        if theta < 0 and physical <= 1e-6 * (abs(theta) + std):
            found.append(f'{what}: least squares gives {theta:.4g} ± {std:.2g} ({sigmas:.1f} '
                         'sd below 0); the physical model holds it at 0' + (
                             f': the friction law written is {laws[j].describe()}, without '
                             'the Stribeck term' if term == 'FS' and j in laws else '')
                         + ': the data and the model class disagree there (unmodelled '
                         'dynamics, a filter, a delay?)')
        else:
            found.append(f'{what}: the physical model moves it from {theta:.4g} ± {std:.2g} '
                         f'(least squares) to {physical:.4g} ({sigmas:+.1f} sd)')
    if combinations:
        found.append(f'the physical model moves {len(combinations)} base parameter'
                     f'{"s" if len(combinations) > 1 else ""} more than {MOVE_SIGMA:g} sd from '
                     'the least-squares values the data give (to make every link a real '
                     'body within the bounds, or towards the nominal model where the data see '
                     'little): ' + '; '.join(combinations))
    return found


def _list(values):
    return '[' + ', '.join(f'{v:.3g}' for v in values) + ']'
