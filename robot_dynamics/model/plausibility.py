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
"""Plausibility of inertial data: warnings for links that no real arm has.

A link's mass ``m`` and principal moments of inertia ``λ₁ ≤ λ₂ ≤ λ₃`` about its centre of mass
fix its second moments of mass along the principal axes,
``m σ_k² = ½ (λ_i + λ_j - λ_k)`` (the diagonal of the pseudo-inertia, Wensing, Kim, Slotine
2018), so ``σ_k`` is the link's RMS extent along axis k: negative when the triangle inequality
fails, zero for a flat plate or a rod. A uniform solid ellipsoid with the same ``m`` and ``λ``
has semi-axes ``√5 σ_k``; its density ``m / (4/3 π √125 σ₁σ₂σ₃)`` is the *equivalent density*
(solid parts: about their material's, hollow ones less). The checks, vectorised over the links:

- equivalent density outside ``DENSITY_RANGE`` (1 to 30 000 kg/m³: lighter than air or
  heavier than tungsten for the link's size; e.g. 958 kg with inertias of 1e-11 kg m²). Thin
  hollow shells reach ~40 kg/m³ (3 mm of aluminium around a 30 cm ball), so the lower bound is
  generous;
- degenerate or near-singular inertia: a link with mass whose RMS extent along a principal
  axis is below ``MIN_EXTENT`` (1 mm) — a flat plate or a rod, at or near the triangle
  inequality's limit (``λ₁ + λ₂ ≈ λ₃``), or all moments below ``m · MIN_EXTENT²``;
- rotational inertia on a massless link (not a rigid body);
- a centre of mass farther from its joint than the whole arm's reach plus 0.5 m.

:func:`link_warnings` and :func:`reach_warnings` return one line per finding;
:class:`RobotModel` adds them to its warnings (:mod:`robot_dynamics.model.validation`), so the
loaders, the nodes and ``robot-dynamics info`` show them. The checks ignore links that already
fail the triangle inequality (the model says so itself).
"""

import math

import numpy as np

#: Equivalent uniform-ellipsoid densities of real links, kg/m³ (air to beyond tungsten).
DENSITY_RANGE = (1.0, 30000.0)
#: Smallest RMS extent of a link with mass along a principal axis, m.
MIN_EXTENT = 1e-3
#: Slack on the arm's reach for a centre of mass, m.
REACH_SLACK = 0.5
#: The uniform ellipsoid's volume over σ₁σ₂σ₃ (semi-axes √5 σ_k).
VOLUME_FACTOR = 4.0 / 3.0 * math.pi * 5.0 ** 1.5
#: A degenerate link's shape by its number of thin principal axes (:func:`link_warnings`).
_SHAPES = (None, "a flat plate (at the triangle inequality's limit)",
           'a rod (near-singular inertia)', 'a point mass')


def principal_extents(mass, principal):
    """RMS extents ``σ`` (N, 3), m, from masses (N,) and principal moments (N, 3) (sorted).

    ``σ_k² = (λ_i + λ_j - λ_k) / (2 m)``; NaN for a massless link, negative entries are
    returned as ``-√|·|`` (the triangle inequality fails along that axis).
    """
    lam = np.asarray(principal, dtype=float)
    second = 0.5 * (lam.sum(axis=1, keepdims=True) - 2 * lam)         # m σ_k², k ↔ λ_k
    rounding = 1e-12 * np.maximum(1.0, np.abs(lam).max(axis=1, keepdims=True))
    second = np.where(np.abs(second) <= rounding, 0.0, second)
    mass = np.asarray(mass, dtype=float)[:, None]
    if (mass > 0).all():                        # nothing to silence (errstate costs µs)
        ratio = second / mass
    else:
        with np.errstate(divide='ignore', invalid='ignore'):
            ratio = second / mass
    return np.sign(ratio) * np.sqrt(np.abs(ratio))


def equivalent_density(mass, principal):
    """Density of the uniform ellipsoid with these masses (N,) and moments (N, 3), kg/m³."""
    return _density(mass, principal_extents(mass, principal))


def _density(mass, sigma):
    """:func:`equivalent_density` from masses (N,) and RMS extents ``sigma`` (N, 3)."""
    positive = np.maximum(sigma, 0.0)                  # np.prod's products, in its order
    volume = VOLUME_FACTOR * (positive[:, 0] * positive[:, 1] * positive[:, 2])
    mass = np.asarray(mass, dtype=float)
    if (volume > 0).all():
        return mass / volume
    return np.divide(mass, volume, out=np.full_like(volume, np.inf), where=volume > 0)


def link_warnings(names, mass, principal):
    """Return the warnings on each link's inertia alone: ``names``, masses, ``principal``.

    ``mass`` a list of floats, ``principal`` a list of 3 moments per link (``.tolist()``).
    One category after the other (degenerate, density, inertia without mass), each in the
    links' order, so the warnings of a subset of links are those of the whole, less the rest.
    Plain floats, per link: :func:`principal_extents`' and :func:`equivalent_density`'s
    arithmetic, operation for operation (the same values).
    """
    degenerate, dense, massless = [], [], []
    low, high = DENSITY_RANGE
    for name, m, moments in zip(names, mass, principal):
        sigma = _extents(m, moments) if m > 0 else None
        if sigma is not None and 0 <= min(sigma) < MIN_EXTENT:  # triangle failures: warned
            thin = (sigma[0] < MIN_EXTENT) + (sigma[1] < MIN_EXTENT) + (sigma[2] < MIN_EXTENT)
            shape = _SHAPES[thin]
            degenerate.append(
                f'inertia of link {name!r} is degenerate: {m:.4g} kg with '
                f'principal moments {_moments(moments)} kg m^2 is {shape}, thinner than '
                f'{1e3 * MIN_EXTENT:g} mm (RMS) along {thin} principal axis(es); no real link '
                'is: check the inertia and its units (kg m^2, about the centre of mass)')
        elif sigma is not None and min(sigma) >= MIN_EXTENT:
            density = m / (VOLUME_FACTOR * (sigma[0] * sigma[1] * sigma[2]))
            if density < low or density > high:
                kind = 'heavier than tungsten' if density > high else 'lighter than air'
                semi_axes = _millimetres([math.sqrt(5) * s for s in sigma])
                dense.append(
                    f'link {name!r}: {m:.4g} kg with principal moments '
                    f'{_moments(moments)} kg m^2 has the density of a uniform ellipsoid of '
                    f'{density:.3g} kg/m^3 (semi-axes {semi_axes} mm), {kind} for its size: '
                    'check the mass (kg) and inertia (kg m^2) and their units')
        if m == 0 and max(map(abs, moments)) > 0:
            massless.append(f'link {name!r} has rotational inertia {_moments(moments)} kg m^2 '
                            'but no mass: not a rigid body (its mass may have been lumped into '
                            'a neighbour)')
    return degenerate + dense + massless


def _extents(m, moments):
    """:func:`principal_extents` of one link: mass ``m`` > 0, its moments (a list)."""
    total = moments[0] + moments[1] + moments[2]
    rounding = 1e-12 * max(1.0, max(map(abs, moments)))
    sigma = []
    for lam in moments:
        second = 0.5 * (total - 2 * lam)
        ratio = (0.0 if abs(second) <= rounding else second) / m
        sigma.append(math.sqrt(ratio) if ratio >= 0 else -math.sqrt(-ratio))
    return sigma


def reach_warnings(model):
    """Warnings for centres of mass beyond the whole arm's reach plus :data:`REACH_SLACK`."""
    travel = _travel(model)
    if _clearly_within(model, travel):
        return []
    found = []
    weighed = model.mass > 0
    tip = model.tip_translation                              # np.linalg.norm's arithmetic
    reach = _norms(model.placement_translation).sum() + math.sqrt(tip.dot(tip)) + travel
    distance = _norms(model.com)
    for i in indices(weighed & (distance > reach + REACH_SLACK)):
        found.append(f'centre of mass of link {model.link_names[i]!r} lies {distance[i]:.3g} m '
                     f'from its joint, beyond the whole arm\'s reach ({reach:.3g} m) plus '
                     f'{REACH_SLACK} m: check its <origin> in <inertial> (m, link frame)')
    return found


def _clearly_within(model, travel):
    """Tell whether every centre of mass is within the reach plus slack by 1e-9 (plain floats).

    The sums' round-off (~1e-15) cannot make :func:`reach_warnings`' test differ then.
    """
    reach = travel + sum(math.sqrt(x * x + y * y + z * z) for x, y, z in
                         [*model.placement_translation.tolist(), model.tip_translation.tolist()])
    farthest = max(math.sqrt(x * x + y * y + z * z) for x, y, z in model.com.tolist())
    return farthest < (reach + REACH_SLACK) * (1 - 1e-9)


def indices(mask):
    """``np.flatnonzero(mask)``, or ``()`` at the cost of one call when no entry is true."""
    return np.flatnonzero(mask) if np.count_nonzero(mask) else ()


def _norms(x):
    """Row norms of (N, 3) ``x``: ``np.linalg.norm(x, axis=1)``'s arithmetic, less overhead."""
    return np.sqrt(np.add.reduce(x * x, axis=1))


def _travel(model):
    """Sum of the prismatic joints' largest finite |limit| (0 for revolute ones), m."""
    if 'prismatic' not in model.joint_types:
        return 0.0
    travel = np.where(model.is_revolute, 0.0, np.maximum(np.abs(model.lower_limit),
                                                         np.abs(model.upper_limit)))
    return np.where(np.isfinite(travel), travel, 0.0).sum()


def _moments(values):
    values = list(values)
    floor = max(1e-12, 1e-12 * max(map(abs, values)))               # round-off, kg m^2
    return '[' + ', '.join([f'{0.0 if abs(v) <= floor else v:.3g}' for v in values]) + ']'


def _millimetres(values):
    return '[' + ', '.join(f'{1e3 * v:.3g}' for v in values) + ']'
