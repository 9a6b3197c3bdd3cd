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
"""Which link masses the data determine: the range of every model that fits as well.

No link mass of a revolute arm is identifiable alone (the base parameters regroup them,
Gautier 1990); physical consistency and geometry bound them nonetheless (Wensing, Kim,
Slotine 2018), more or less tightly. :func:`mass_ranges` gives, for each link, the least and
the greatest mass of a physically consistent model whose base parameters lie within
``level`` standard deviations of the estimate, the profile interval::

    min / max  m_i   s.t.  (K π - θ̂)ᵀ Σ⁻¹ (K π - θ̂) ≤ ρ² + level²,  J_k(π) ⪰ 0,
                           centre of mass k in its box (``com_margin``),  FV, FC, IA ≥ 0

``ρ²`` the least value of the left side over the same constraints (zero when ``θ̂`` itself
is a physical model: the likelihood-ratio interval about the constrained estimate), ``Σ`` the
covariance of the base parameters (the reported standard deviations with the
correlations of the weighted normal matrix), ``J_k`` the pseudo-inertias. The prior (the
nominal model) plays no part: a narrow range is the data's. A link is *determined* when its
range lies within ±:data:`DETERMINED` of its midpoint; elsewhere the identified mass is the
prior's choice among models that fit equally well.
"""

import warnings

import numpy as np

from robot_dynamics.identification.physical import _BASIS
from robot_dynamics.identification.plausible import _solve, com_boxes, prior_bodies
from robot_dynamics.identification.regressor import JOINT_PARAMETERS, PER_JOINT, PER_LINK

#: A link's mass is determined by the data when its range is within this fraction of its
#: midpoint either way.
DETERMINED = 0.2


def mass_ranges(result, level=2.0, com_margin=0.1, groups=None):
    """Return (G, 2) least and greatest masses that fit within ``level`` σ, kg.

    ``result``: an :class:`~robot_dynamics.identification.IdentificationResult` (its
    ``details['R']``); ``com_margin``: the centre-of-mass boxes' margin, m (None: no box);
    ``groups``: lists of link indices whose summed mass is bounded (default: each link
    alone). An unbounded side is inf.
    """
    import cvxpy as cp
    model, base = result.nominal_model, result.base
    n, b = model.dof, base.count
    covariance = _base_covariance(result)
    try:
        L = np.linalg.cholesky(covariance)
    except np.linalg.LinAlgError:                   # a parameter without spread: no ranges
        return np.full((n if groups is None else len(groups), 2), np.nan)
    masses, _, lengths = prior_bodies(model)
    D = np.array([m * np.array([1.0] + [length] * 3 + [length ** 2] * 6)
                  for m, length in zip(masses, lengths)])
    z = cp.Variable((n, PER_LINK))
    w = cp.Variable((n, PER_JOINT))
    links = cp.multiply(D, z)
    pi = cp.hstack([cp.reshape(links, (PER_LINK * n,), order='C'),
                    cp.reshape(w, (PER_JOINT * n,), order='C')])
    free = [k for k, term in enumerate(JOINT_PARAMETERS) if term in result.details['joint_terms']]
    fixed = np.column_stack([model.viscous_friction, model.coulomb_friction,
                             model.reflected_inertia])
    delta = base.matrix @ pi - result.theta[:b]
    distance = cp.sum_squares(np.linalg.solve(L, np.eye(b)) @ delta)
    bound = cp.Parameter(nonneg=True)
    constraints = []
    for i in range(n):
        J = cp.reshape(_BASIS.reshape(PER_LINK, 16).T @ links[i], (4, 4), order='C')
        constraints.append(0.5 * (J + J.T) >> 0)
    if com_margin is not None:
        box = com_boxes(model, com_margin)
        constraints += [links[:, 1:4] >= cp.multiply(links[:, :1], box[:, 0]),
                        links[:, 1:4] <= cp.multiply(links[:, :1], box[:, 1])]
    for k in range(PER_JOINT):
        constraints.append(w[:, k] >= 0 if k in free else w[:, k] == fixed[:, k])
    with warnings.catch_warnings():          # "may be inaccurate": a range, not the model
        warnings.simplefilter('ignore', UserWarning)
        return _ranges(cp, n, links, constraints, distance, bound, level, groups)


def _ranges(cp, n, links, constraints, distance, bound, level, groups):
    """Solve the closest model, then the least and greatest mass of each group."""
    closest = cp.Problem(cp.Minimize(distance), constraints)
    _solve(closest, cp)
    if closest.value is None or not np.isfinite(closest.value):
        return np.full((n if groups is None else len(groups), 2), np.nan)
    bound.value = float(closest.value) + level ** 2
    direction = cp.Parameter(n)
    problem = cp.Problem(cp.Minimize(direction @ links[:, 0]), constraints + [distance <= bound])
    groups = [[i] for i in range(n)] if groups is None else groups
    out = np.empty((len(groups), 2))
    for g, members in enumerate(groups):
        for side, sign in enumerate((1.0, -1.0)):
            direction.value = sign * np.isin(np.arange(n), members)
            status = _solve(problem, cp)
            if status.startswith('unbounded'):
                out[g, side] = np.inf if side else 0.0
            elif links.value is None:
                out[g, side] = np.nan
            else:
                out[g, side] = max(float(np.sum(links.value[members, 0])), 0.0)
    return out


def determined(ranges):
    """Per link, True where the range lies within ±:data:`DETERMINED` of its midpoint."""
    lo, hi = ranges[:, 0], ranges[:, 1]
    with np.errstate(invalid='ignore', divide='ignore'):
        return np.isfinite(hi) & (hi - lo <= DETERMINED * (hi + lo))


def _base_covariance(result):
    """Covariance of the base parameters: reported σ, correlations of ``(RᵀR)⁻¹``."""
    b = result.base.count
    R = result.details['R']
    inverse = np.linalg.inv(R.T @ R)
    scale = np.sqrt(np.diag(inverse))
    correlation = inverse / np.outer(scale, scale)
    std = result.std
    return (correlation * np.outer(std, std))[:b, :b]
