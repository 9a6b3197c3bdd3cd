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
"""Base parameters: the identifiable combinations of the standard inertial parameters.

Some columns of the regressor ``Y`` are zero or linear combinations of others for every
motion, so only ``b < p`` combinations ``π_b = K π`` of the standard parameters change the
torques: the base parameters (Khalil-Kleinfinger 1986; Renaud's regrouped parameters, seed
001). They are found numerically (Gautier 1990): stack the regressor of random states into
``W`` (N n × p), find its rank ``b`` by QR with column pivoting, pick ``b`` independent columns
``W_1`` (preferring links near the base and, within a link, the order ``M, MX, MY, MZ, XX,
XY, YY, XZ, YZ, ZZ``, then the joint terms), and express the others as ``W_2 = W_1 β``. Then

    τ = Y π = Y_1 (π_1 + β π_2) = Y_b π_b,    K = [E  β] (columns permuted back).

With this preference a base parameter keeps the name of its independent standard parameter,
with ``R`` appended when others were regrouped into it (``XX2R = XX2 - YY2 + …``), exactly as
in Khalil's and Renaud's rules: the mass ``M_j``, the first moment ``MZ_j`` along the axis and
``YY_j`` of a link behind a revolute joint j move to the links before it.
"""

from dataclasses import dataclass
import weakref

import numpy as np

from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, batch_regressor, parameter_names,
)

_cache = weakref.WeakKeyDictionary()


@dataclass(frozen=True, eq=False)
class BaseParameters:
    """The identifiable parameter combinations of a model.

    ``names`` (b,): base parameter names; ``standard_names`` (p,); ``independent`` (b,):
    indices of the standard parameters (regressor columns) kept; ``matrix`` ``K`` (b, p) with
    ``π_b = K π``; ``definitions`` (b,): ``K``'s rows as text, e.g. ``'XX2 - YY2 + 0.185 M3'``.
    """

    names: tuple
    standard_names: tuple
    independent: np.ndarray
    matrix: np.ndarray
    definitions: tuple

    @property
    def count(self):
        """Return the number of base parameters ``b``."""
        return len(self.names)

    def values(self, pi):
        """Return the base parameter values ``K π`` (b,) of standard parameters ``π`` (p,)."""
        return self.matrix @ np.asarray(pi, dtype=float)

    def regressor(self, Y):
        """Return the base regressor ``Y_b`` (…, n, b): the independent columns of ``Y``."""
        return Y[..., self.independent]

    def table(self, values=None):
        """Return rows ``(name, definition[, value])``, one per base parameter."""
        if values is None:
            return list(zip(self.names, self.definitions))
        return list(zip(self.names, self.definitions, np.asarray(values, dtype=float)))


def base_parameters(model, joint_terms=JOINT_PARAMETERS, samples=60, seed=0, tolerance=1e-9):
    """Find the base parameters of ``model`` (cached per model): :class:`BaseParameters`.

    ``joint_terms``: which joint-space parameters are identified, a subset of ``('FV', 'FC',
    'IA')`` (default all); the others are taken as known (their columns of ``K`` are zero).
    The rank is decided on ``samples`` random states (joint values within the limits,
    velocities and accelerations of either sign) with QR column pivoting; a column whose
    distance from the span of the columns before it is below ``tolerance`` times its norm
    is dependent. Depends on the kinematics, the joint types and the gravity direction only.
    """
    joint_terms = _check_joint_terms(joint_terms)
    key = (joint_terms, samples, seed, tolerance)
    cached = _cache.get(model, {}).get(key)
    if cached is not None:
        return cached
    W = _stacked_regressor(model, samples, np.random.default_rng(seed))
    W[:, [k for k, name in enumerate(parameter_names(model))
          if name.rstrip('0123456789') in JOINT_PARAMETERS
          and name.rstrip('0123456789') not in joint_terms]] = 0.0
    independent = _independent_columns(W, tolerance)
    matrix = _grouping_matrix(W, independent)
    names = parameter_names(model)
    result = BaseParameters(
        names=tuple(names[k] + ('R' if np.count_nonzero(row) > 1 else '')
                    for k, row in zip(independent, matrix)),
        standard_names=names,
        independent=independent,
        matrix=matrix,
        definitions=tuple(definition(row, names) for row in matrix))
    _cache.setdefault(model, {})[key] = result
    return result


def _check_joint_terms(joint_terms):
    terms = tuple(str(t).upper() for t in joint_terms)
    unknown = sorted(set(terms) - set(JOINT_PARAMETERS))
    if unknown:
        raise ValueError(f'joint_terms: unknown {unknown}; choose from {JOINT_PARAMETERS} '
                         '(viscous friction, Coulomb friction, reflected rotor inertia)')
    return tuple(t for t in JOINT_PARAMETERS if t in terms)


def random_states(model, samples, rng):
    """Random ``q, qd, qdd`` (samples, n): q within finite limits (else ±π rad, ±1 m)."""
    n = model.dof
    span = np.where(model.is_revolute, np.pi, 1.0)
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit, -span)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit, span)
    q = rng.uniform(lower, upper, (samples, n))
    qd = rng.uniform(-1.0, 1.0, (samples, n))
    qdd = rng.uniform(-1.0, 1.0, (samples, n))
    return q, qd, qdd


def _stacked_regressor(model, samples, rng):
    q, qd, qdd = random_states(model, samples, rng)
    return batch_regressor(model, q, qd, qdd).reshape(-1, 13 * model.dof)


def _independent_columns(W, tolerance):
    """Return ``rank W`` column indices, each independent of the preferred columns before it.

    The rank comes from QR with column pivoting of the column-normalised ``W``; the columns
    are then taken in their natural order (base links first) by Gram-Schmidt with
    reorthogonalisation, keeping a column whose residual exceeds ``tolerance`` of its norm.
    """
    norms = np.linalg.norm(W, axis=0)
    scale = norms.max()
    nonzero = np.flatnonzero(norms > tolerance * scale)
    unit = W[:, nonzero] / norms[nonzero]
    import scipy.linalg          # scipy costs ~0.5 s to import: only when used
    R = scipy.linalg.qr(unit, mode='r', pivoting=True)[0]
    diagonal = np.abs(np.diag(R))
    rank = int(np.count_nonzero(diagonal > np.sqrt(tolerance) * diagonal[0]))
    basis, kept = np.zeros((W.shape[0], 0)), []
    for column in nonzero:
        v = W[:, column] / norms[column]
        for _ in range(2):                                   # twice is enough (Kahan)
            v = v - basis @ (basis.T @ v)
        residual = np.linalg.norm(v)
        if residual > np.sqrt(tolerance):
            basis = np.column_stack((basis, v / residual))
            kept.append(column)
    if len(kept) != rank:
        raise np.linalg.LinAlgError(
            f'base parameters: the column selection found {len(kept)} independent columns '
            f'but QR with pivoting the rank {rank}; the random states are degenerate, '
            'raise samples=')
    return np.array(kept, dtype=int)


def _grouping_matrix(W, independent):
    """``K`` (b, p) with ``W = W_1 K``; entries below 1e-10 relative set to exactly 0."""
    W1 = W[:, independent]
    K, *_ = np.linalg.lstsq(W1, W, rcond=None)
    K[np.abs(K) < 1e-10 * max(1.0, np.abs(K).max())] = 0.0
    K[np.arange(len(independent)), independent] = 1.0
    residual = np.abs(W1 @ K - W).max()
    if residual > 1e-8 * max(1.0, np.abs(W).max()):
        raise np.linalg.LinAlgError(f'base parameters: regrouping residual {residual:.3g}; '
                                    'the columns are not dependent as found')
    return K


def definition(row, names, digits=6):
    """Text of ``Σ row_k · names_k``, e.g. ``'XX2 - YY2 + 0.1849 M3'``."""
    parts = []
    for name, c in zip(names, row):
        if c == 0:
            continue
        magnitude = abs(c)
        term = name if abs(magnitude - 1) < 1e-12 else f'{magnitude:.{digits}g} {name}'
        parts.append(('-' if c < 0 else '+', term))
    if not parts:
        return '0'
    text = ('-' if parts[0][0] == '-' else '') + parts[0][1]
    return text + ''.join(f' {sign} {term}' for sign, term in parts[1:])
