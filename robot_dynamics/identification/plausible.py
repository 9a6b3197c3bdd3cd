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
"""Physically consistent *and* plausible parameters: a convex program solved by cvxpy.

Least squares gives the base parameters ``θ̂`` (and friction extras) with the weighted
normal matrix ``G``; a URDF needs every link's mass, centre of mass and inertia. The
estimate (Wensing, Kim, Slotine, "Linear matrix inequalities for physically consistent
inertial parameter identification", RA-L 2018; Lee, Wensing, Park, "Geometric robot dynamic
identification: a convex programming approach", T-RO 2020) solves::

    min  (θ(π, x) - θ̂)ᵀ G (θ(π, x) - θ̂) / (ε r)  +  λ Σ_i d(J_i, J̄_i)
    s.t. J_i ⪰ α J̄_i,  m_i ∈ [m̄_i / f, f m̄_i],  Σ m_i ∈ [M_lo, M_hi],
         m_i c_lo,i ≤ h_i ≤ m_i c_hi,i,  J_i ⪰ s_i² m_i diag(1, 1, 1, 0),
         FV, FC, IA, FS ≥ 0,  |FA| ≤ FC

- ``J_i = [[Σ_i, h_i], [h_iᵀ, m_i]]`` the pseudo-inertia of link i (linear in its ten standard
  parameters; ``J_i ≻ 0`` ⇔ a real rigid body), ``J̄_i`` the prior's (the nominal model's link,
  made a real body where it is not: a massless link gets 5 % of the total mass, every RMS
  extent at least 10 % of the link's length);
- ``d(J, J̄) = -log det J + log det J̄ + tr(J̄⁻¹ J) - 4`` the Bregman divergence of the
  log-determinant (Lee-Wensing-Park's geometric, "entropic" regulariser): zero at the prior,
  invariant to the frame, and ∞ at a degenerate body, so where the data do not determine a
  parameter the prior fills it in; ``λ`` = ``prior_weight`` (default 1: a link doubling its
  mass costs 1.2, as much as fitting 1.2 % worse in energy);
- ``δᵀ G δ`` is exactly the increase of the weighted residual energy over its least-squares
  value ``r``, measured in units of ``ε r`` (:data:`MISFIT_FRACTION`, 1 %): a model costs 1 when
  it fits the data 1 % worse in energy (0.5 % in RMS). This unit, not the noise's standard
  deviations, makes the prior count where the data are weak: with model errors (flexible
  joints, unmodelled friction, delays) a fit's misfit in σ² units is in the thousands
  along directions the data barely see, and the prior would never count;
- the joint terms (FV, FC, IA) are pulled to the nominal ones by a tie-breaker
  ``1e-6 λ Σ ((p - p̄)/p_s)²``, ``p_s = max(|p̄|, typical)`` (:data:`JOINT_SCALES`);
- bounds (:class:`Bounds`): each link's mass within a factor ``f`` of the prior's, the total
  mass in a band, the centre of mass in the box spanned by the joint's origin, the next joint's
  origin and the prior's centre of mass, widened by ``com_margin``; ``J_i ⪰ α J̄_i`` keeps
  every inertia positive definite with margin (no direction's second moment below ``α`` of
  the prior's); the extent floor ``s_i`` (:func:`extent_floors`) keeps every link lighter than
  the plausibility check's densest body (tungsten) for its size, so the identified model passes
  the checks the package applies to it; it is added only for a link the program without it
  made too dense (:func:`estimate` solves again).

The program is a semidefinite program with log-determinant cones (cvxpy, solved by Clarabel).
"""

from dataclasses import dataclass
import warnings

import numpy as np

from robot_dynamics.identification.physical import _BASIS
from robot_dynamics.model.plausibility import DENSITY_RANGE, MIN_EXTENT
from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, PER_JOINT, PER_LINK, link_parameters,
)


#: Typical joint terms (FV N m s/rad, FC N m, IA kg m²) and the weight of their pull to the
#: nominal, ``w ((p - p̄) / max(|p̄|, typical))²``: a tie-breaker only (the data determine the
#: joint terms; where a split is invisible, e.g. ZZ1R = ZZ1 + IA1, the link's divergence keeps
#: the link near the nominal and the rotor takes the rest).
JOINT_SCALES = {'FV': 0.1, 'FC': 0.1, 'IA': 1e-3}
JOINT_WEIGHT = 1e-6
#: A Stribeck amplitude below this fraction of its least-squares size is at its bound 0
#: (the interior-point solver stops near 1e-9 of it, not at 0).
AT_BOUND = 1e-6
#: The misfit's unit: this fraction of the least-squares residual energy.
MISFIT_FRACTION = 0.01
#: A link at its largest allowed mass and its smallest allowed extents has this fraction of
#: the plausibility check's highest density (the solver's tolerance stays inside the bound).
DENSITY_SHARE = 0.9
#: diag(1, 1, 1, 0): ``m s² CENTROIDAL`` is the pseudo-inertia part the extent floor reserves.
CENTROIDAL = np.diag([1.0, 1.0, 1.0, 0.0])


class ConvexProgramError(ValueError):
    """The plausible-parameter program is infeasible or the solver failed: names the bounds."""


@dataclass(frozen=True)
class Bounds:
    """What a plausible identified model must satisfy (see the module docstring).

    ``total_mass``: (low, high) kg, default 0.5 to 2 times the prior's; ``link_mass_factor``:
    each link within ``[m̄/f, f m̄]`` (default 5; a massless prior link: up to a fifth of the
    total); ``com_margin`` m (default 0.1; None: no box); ``inertia_margin`` α (default
    0.01); ``prior_weight`` λ (default 1).
    """

    total_mass: tuple = None
    link_mass_factor: float = 5.0
    com_margin: float = 0.1
    inertia_margin: float = 0.01
    prior_weight: float = 1.0


def prior_bodies(model):
    """Return the prior's links as real bodies: masses, pseudo-inertias (n, 4, 4), lengths.

    A massless link gets 5 % of the total mass; every RMS extent along the principal axes is
    at least 10 % of the link's length (its joint-to-next-joint distance, at least 5 cm).
    """
    n = model.dof
    lengths = link_lengths(model)
    masses = np.where(model.mass > 0, model.mass, 0.05 * max(model.total_mass, 1.0))
    J = np.empty((n, 4, 4))
    for i in range(n):
        m, c = masses[i], model.com[i]
        inertia = model.inertia[i]
        second = 0.5 * np.trace(inertia) * np.eye(3) - inertia         # centroidal Σ
        values, axes = np.linalg.eigh(second)
        values = np.maximum(values, m * (0.1 * lengths[i]) ** 2)
        second = (axes * values) @ axes.T
        J[i, :3, :3] = second + m * np.outer(c, c)
        J[i, :3, 3] = J[i, 3, :3] = m * c
        J[i, 3, 3] = m
    return masses, J, lengths


def link_lengths(model):
    """Distance from each joint's origin to the next one's (the tool frame for the last), m."""
    following = np.vstack((model.placement_translation[1:], model.tip_translation[None]))
    return np.maximum(np.linalg.norm(following, axis=1), 0.05)


def com_boxes(model, margin):
    """Boxes (n, 2, 3) holding each link's origin, next joint origin and prior CoM ± margin."""
    following = np.vstack((model.placement_translation[1:], model.tip_translation[None]))
    boxes = np.empty((model.dof, 2, 3))
    for i in range(model.dof):
        points = np.vstack((np.zeros(3), following[i], model.com[i]))
        boxes[i, 0] = points.min(axis=0) - margin
        boxes[i, 1] = points.max(axis=0) + margin
    return boxes


def estimate(model, base, names, theta, R, joint_terms, bounds=Bounds()):
    """Solve the program: standard parameters π (13 n,), extras {name: value}, details.

    Without extent floors first; a link the solution makes denser than the plausibility
    check's bound gets its floor (:func:`extent_floors`) and the program is solved again, so a
    plausible solution is never changed. See :func:`_estimate` for the arguments.
    """
    floored = set()
    while True:
        pi, values, details = _estimate(model, base, names, theta, R, joint_terms, bounds,
                                        floored)
        dense = set(dense_links(pi, model.dof)) - floored
        if not dense:
            details['floored_links'] = sorted(floored)
            return pi, values, details
        floored |= dense


def dense_links(pi, n):
    """Return the links whose parameters ``pi`` are denser than ``DENSITY_RANGE[1]``."""
    out = []
    for i in range(n):
        J = np.tensordot(pi[PER_LINK * i:PER_LINK * (i + 1)], _BASIS, 1)
        m, h = J[3, 3], J[:3, 3]
        if m <= 0:
            continue
        centroidal = np.linalg.eigvalsh(J[:3, :3] - np.outer(h, h) / m) / m    # σ_k²
        volume = 4.0 / 3.0 * np.pi * 5.0 ** 1.5 * np.sqrt(np.prod(np.maximum(centroidal, 0)))
        if volume <= 0 or m / volume > DENSITY_RANGE[1]:
            out.append(i)
    return out


def _estimate(model, base, names, theta, R, joint_terms, bounds, floored):
    """Solve the program once, with extent floors on the links in ``floored``.

    ``names``: the extras' names (``'F0_3'`` …) after the ``b`` base parameters in ``theta``;
    ``R`` (P, P) with ``‖R δ‖² = δᵀ G δ / r`` (relative residual energy increase).
    """
    import cvxpy as cp                   # ~1 s to import: only when identifying
    n = model.dof
    masses, J_prior, lengths = prior_bodies(model)
    pi0 = np.concatenate([link_parameters(m, c, inertia) for m, c, inertia in zip(
        model.mass, model.com, model.inertia)])
    # Variables in units of their typical size (the solver sees numbers near 1):
    # φ_i = D_i ⊙ z_i, joint terms = typical ⊙ w, extras = their least-squares size ⊙ e.
    D = np.array([m * np.array([1.0] + [length] * 3 + [length ** 2] * 6)
                  for m, length in zip(masses, lengths)])
    z = cp.Variable((n, PER_LINK))
    w = cp.Variable((n, PER_JOINT))
    reference = np.column_stack([model.viscous_friction, model.coulomb_friction,
                                 model.reflected_inertia])
    typical = np.maximum(np.abs(reference), [JOINT_SCALES[t] for t in JOINT_PARAMETERS])
    links, joints = cp.multiply(D, z), cp.multiply(typical, w)
    b = base.count
    extra_scale = np.maximum(np.abs(theta[b:]), 1e-3)
    e = cp.Variable(len(names)) if names else None
    extras = None if e is None else cp.multiply(extra_scale, e)
    K_link, K_joint = base.matrix[:, :PER_LINK * n], base.matrix[:, PER_LINK * n:]
    theta_b = (K_link * D.ravel()) @ cp.reshape(z, (PER_LINK * n,), order='C') + (
        K_joint * typical.ravel()) @ cp.reshape(w, (PER_JOINT * n,), order='C')
    model_theta = theta_b if extras is None else cp.hstack([theta_b, extras])
    misfit = cp.sum_squares(R @ (model_theta - theta)) / MISFIT_FRACTION
    constraints, regulariser = [], 0
    extent_floor = extent_floors(model, masses, bounds)
    basis = _BASIS.reshape(PER_LINK, 16).T                          # vec J = basis φ
    for i in range(n):
        values, vectors = np.linalg.eigh(J_prior[i])
        S = (vectors / np.sqrt(values)) @ vectors.T                 # J̄^(-1/2)
        normalised = np.kron(S, S) @ basis * D[i]                   # vec(S J S) in z_i
        J = cp.reshape(normalised @ z[i], (4, 4), order='C')
        J = 0.5 * (J + J.T)
        regulariser += -cp.log_det(J) + cp.trace(J)                 # d(J, J̄) + 4
        constraints.append(J >> bounds.inertia_margin * np.eye(4))
        if i in floored:
            constraints.append(J - links[i, 0] * (S @ CENTROIDAL @ S) * extent_floor[i] ** 2
                               >> 0)
    constraints += _mass_bounds(model, links, masses, bounds)
    if bounds.com_margin is not None:
        box = com_boxes(model, bounds.com_margin)
        for i in range(n):
            constraints += [links[i, 1:4] >= links[i, 0] * box[i, 0],
                            links[i, 1:4] <= links[i, 0] * box[i, 1]]
    for k, term in enumerate(JOINT_PARAMETERS):
        if term in joint_terms:
            constraints.append(w[:, k] >= 0)
            regulariser += JOINT_WEIGHT * cp.sum_squares(w[:, k] - reference[:, k]
                                                         / typical[:, k])
        else:
            constraints.append(w[:, k] == reference[:, k] / typical[:, k])
    if extras is not None:
        for k, name in enumerate(names):
            kind, j = name[:2], int(name[2:]) - 1
            if kind == 'FS':
                constraints.append(extras[k] >= 0)
            elif kind == 'FA':
                constraints += [extras[k] <= joints[j, 1], -extras[k] <= joints[j, 1]]
    problem = cp.Problem(cp.Minimize(misfit + bounds.prior_weight * regulariser), constraints)
    status = _solve(problem, cp)
    if z.value is None or not all(np.linalg.eigvalsh(np.tensordot(
            D[i] * z.value[i], _BASIS, 1))[0] > 0 for i in range(n)):
        raise ConvexProgramError(
            f'no plausible model satisfies the bounds ({status}): total mass '
            f'{_band(bounds, model)} kg, link masses within x{bounds.link_mass_factor:g} of the '
            f'nominal, centre of mass within {bounds.com_margin} m of the link: widen them')
    joint_values = typical * np.array(w.value)
    free = [k for k, term in enumerate(JOINT_PARAMETERS) if term in joint_terms]
    joint_values[:, free] = np.maximum(joint_values[:, free], 0.0)   # solver round-off
    pi = np.concatenate([(D * z.value).ravel(), joint_values.ravel()])
    values = {} if e is None else dict(zip(names, extra_scale * np.asarray(e.value, float)))
    for (name, value), size in zip(list(values.items()), extra_scale):
        j = int(name[2:]) - 1
        if name.startswith('FS'):             # at its bound (the solver's 1e-9): exactly 0
            values[name] = value if value > AT_BOUND * size else 0.0
        elif name.startswith('FA'):
            values[name] = float(np.clip(value, -joint_values[j, 1], joint_values[j, 1]))
    details = {'status': status, 'misfit': float(misfit.value),
               'regulariser': float(regulariser.value) - 4 * n,
               'prior_pi': pi0, 'prior_masses': masses}
    return pi, values, details


def extent_floors(model, masses, bounds):
    """Smallest RMS extent ``s_i`` (n,), m, that keeps each link below the density bound.

    :func:`robot_dynamics.model.plausibility.link_warnings` calls a link heavier than
    tungsten when ``m / (4/3 π √125 σ₁σ₂σ₃)`` exceeds ``DENSITY_RANGE[1]``. The program asks
    ``Σ_c ⪰ s_i² m_i I`` (every RMS extent about the centre of mass at least ``s_i``: a linear
    matrix inequality in ``J_i``, ``J_i - s_i² m_i diag(1, 1, 1, 0) ⪰ 0``) with ``s_i`` such that
    the link's largest allowed mass at that size is :data:`DENSITY_SHARE` of the bound, and at
    least the checker's thinnest extent ``MIN_EXTENT``.
    """
    total = max(model.total_mass, float(masses.sum()))
    largest = np.where(model.mass > 0, model.mass * bounds.link_mass_factor, total / 5)
    largest = np.minimum(largest, _band(bounds, model)[1])
    volume_factor = 4.0 / 3.0 * np.pi * 5.0 ** 1.5
    floor = np.cbrt(largest / (volume_factor * DENSITY_SHARE * DENSITY_RANGE[1]))
    return np.maximum(floor, 1.01 * MIN_EXTENT)


def _mass_bounds(model, links, masses, bounds):
    """Per-link and total mass constraints."""
    f = bounds.link_mass_factor
    total = max(model.total_mass, float(masses.sum()))
    out = []
    for i in range(model.dof):
        if model.mass[i] > 0:
            out += [links[i, 0] >= model.mass[i] / f, links[i, 0] <= model.mass[i] * f]
        else:
            out.append(links[i, 0] <= total / 5)
    low, high = _band(bounds, model)
    mass = sum(links[i, 0] for i in range(model.dof))
    return out + [mass >= low, mass <= high]


def _band(bounds, model):
    if bounds.total_mass is not None:
        return tuple(float(x) for x in bounds.total_mass)
    return 0.5 * model.total_mass, 2.0 * max(model.total_mass, 1e-3)


def _solve(problem, cp):
    """Clarabel, then SCS if Clarabel fails; the status text.

    cvxpy's own warnings (``Solution may be inaccurate``) are not printed: the status says
    ``optimal_inaccurate`` and :func:`robot_dynamics.identification.review.review` turns it
    into one of the result's warnings.
    """
    for solver in (cp.CLARABEL, cp.SCS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', UserWarning)
                problem.solve(solver=solver)
        except cp.error.SolverError:
            continue
        if problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            return f'{problem.status} ({solver})'
    return str(problem.status)
