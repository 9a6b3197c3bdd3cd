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
"""Inertial parameters of each body, kept symbolic, and their regrouping.

Body i's ten standard parameters at the origin O_i of its modified-DH frame {i}' (joint axis
``z_i``), in seed 001's notation: mass ``m^i`` (``M``), first moment ``u^i = m^i d_ii``
(``MX, MY, MZ``) and second moment ``k^i = φ^i - m^i d̂_ii d̂_ii`` (Huygens; ``XX, XY, XZ, YY,
YZ, ZZ``, the inertia about O_i; the paper's ``a, b, c = XX, YY, ZZ`` and ``f, e, d = -XY,
-XZ, -YZ``). A parameter whose value is zero in the model is a *structural zero* and stays 0;
every other one is a symbol ``XX1``, ``MY3``, ... (bodies numbered from 1 as in the paper).

Each parameter is a :class:`dict` ``{symbol: coefficient}`` (a linear form of the symbols), so
that regrouping stays exact and symbolic. Regrouping moves the part of body j that cannot be
told apart from body j-1 onto body j-1 (it leaves the Lagrangian unchanged, hence every joint
torque):

- ``'augmented'`` (seed 001, relation 0): across a revolute joint j, the mass of bodies
  j … n concentrated at O_j joins body j-1 (Renaud's augmented body ``m*, u*, k*``). This is
  :func:`robot_dynamics.algorithms.renaud.augment`, the function the ``renaud`` solver runs
  on numbers, here run on linear forms;
- ``'base'`` (the paper's conclusion; Khalil-Kleinfinger's base parameters): relation (0)
  and, what differs, across a revolute joint j also the first moment ``MZ_j`` along the axis
  and the part ``YY_j (E - z zᵀ)`` of the inertia (``XX_j`` becomes ``XX_j - YY_j``); across a
  prismatic joint the whole rotational inertia. Across joint 1 the moved part goes to the
  fixed base and vanishes.
- ``'none'``: the standard parameters.
"""

import numpy as np

from robot_dynamics.algorithms.renaud import augment, body_moments

NAMES = ('XX', 'XY', 'XZ', 'YY', 'YZ', 'ZZ', 'MX', 'MY', 'MZ', 'M')
_K_INDEX = {'XX': (0, 0), 'XY': (0, 1), 'XZ': (0, 2), 'YY': (1, 1), 'YZ': (1, 2),
            'ZZ': (2, 2)}
REGROUPINGS = ('none', 'augmented', 'base')


def standard_parameters(frames):
    """Numeric standard parameters per body: list of dicts name -> value (frames {i}')."""
    values = []
    for i in range(len(frames.mass)):
        body = body_moments(frames, i)                                      # Huygens, at O_i
        entry = {name: body.K[index] for name, index in _K_INDEX.items()}
        entry.update(MX=body.u[0], MY=body.u[1], MZ=body.u[2], M=body.m)
        values.append(entry)
    return values


def _form(coefficient, name):
    return {name: coefficient} if coefficient != 0 else {}


def _sum(*forms):
    """Sum of linear forms, symbol by symbol in the order given; nothing is dropped."""
    total = {}
    for form in forms:
        for name, coefficient in form.items():
            total[name] = total.get(name, 0.0) + coefficient
    return total


def _add(*forms):
    """Sum of linear forms without the coefficients that cancel to rounding (<= 1e-13)."""
    return {k: v for k, v in _sum(*forms).items() if abs(v) > 1e-13}


def _scale(c, form):
    c = float(c)
    if abs(c) < 1e-14:
        return {}
    return {name: c * v for name, v in form.items()}


class BodyParameters:
    """Linear forms ``m`` (dict), ``u`` (3 dicts) and ``K`` (3x3 dicts, symmetric)."""

    def __init__(self, m, u, K):
        self.m, self.u, self.K = m, u, K


def symbolic_bodies(values, tolerance=1e-12):
    """One :class:`BodyParameters` per body; zeros of ``values`` are structural zeros."""
    scale = max(1.0, max(abs(v) for entry in values for v in entry.values()))
    bodies = []
    for i, entry in enumerate(values):
        def form(name):
            return _form(1.0, f'{name}{i + 1}') if abs(entry[name]) > tolerance * scale else {}
        K = [[None] * 3 for _ in range(3)]
        for name, (r, c) in _K_INDEX.items():
            K[r][c] = K[c][r] = form(name)
        bodies.append(BodyParameters(form('M'), [form('MX'), form('MY'), form('MZ')], K))
    return bodies


def regroup(bodies, frames, mode):
    """Apply the regrouping ``mode`` (see module docstring) from the tip to the base.

    ``bodies``: :class:`BodyParameters` (changed in place and returned). Relation (0) is the
    ``renaud`` solver's own, :func:`robot_dynamics.algorithms.renaud.augment`, run here on
    linear forms. ``'base'`` adds only what differs: ``MZ_j`` and ``YY_j`` across a revolute
    joint (:func:`_across_revolute`), the whole inertia across a prismatic one, and what each
    body keeps (:func:`_keep_base_part`).
    """
    if mode not in REGROUPINGS:
        raise ValueError(f"regroup must be one of {REGROUPINGS}, got {mode!r}")
    if mode == 'none':
        return bodies
    base = mode == 'base'
    for j in reversed(range(len(bodies))):
        body, revolute = bodies[j], frames.revolute[j]
        if j > 0 and (revolute or base):           # across joint 1: the fixed base, it vanishes
            parent, P, p = bodies[j - 1], np.asarray(frames.P[j]), np.asarray(frames.p[j])
            if revolute:
                _across_revolute(parent, body, P, p, base)
            else:
                _receive_inertia(parent, P, body.K)               # 'base', prismatic joint j
            _drop_rounding(parent)
        if base:
            _keep_base_part(body, revolute)
        elif revolute and j > 0:
            body.m = {}                                           # now in m*^{j-1}
    return bodies


def _across_revolute(parent, body, P, p, base):
    """Move body j's mass m*^j, concentrated at O_j, into the parent: relation (0).

    For ``base`` also the first moment ``MZ_j`` along the axis and the inertia ``YY_j (E -
    z zᵀ)``, which no rotation about joint j reveals. The inertia is added before relation (0)
    and the first moment after it: that order of the terms of each sum fixes the generated
    constants to the bit.
    """
    if base:
        yy = body.K[1][1]
        _receive_inertia(parent, P, [[_scale((r == c) * (r < 2), yy) for c in range(3)]
                                     for r in range(3)])
    star = augment(parent, body.m, p, _sum, _scale)                                  # (0)
    parent.m, parent.u, parent.K = star.m, list(star.u), [list(row) for row in star.K]
    if base:
        _receive_first_moment(parent, P, p, body.u[2])


def _receive_inertia(parent, P, inertia):
    """Add to ``parent.K`` a pure rotational inertia (3x3 forms, child frame at rotation P)."""
    for r in range(3):
        for c in range(3):
            rotated = _add(*(_scale(P[r, a] * P[c, b], inertia[a][b])
                             for a in range(3) for b in range(3)))
            parent.K[r][c] = _sum(parent.K[r][c], rotated)


def _receive_first_moment(parent, P, p, first_moment_z):
    """Add a first moment along the child's z axis, about the child origin ``p``, to ``parent``.

    Parallel-axis theorem for a first moment ``u`` about the child origin (no mass):
    ``u' = u``, ``K' = K + 2(p·u)E - p uᵀ - u pᵀ``.
    """
    w = P[:, 2]
    u_rel = [_scale(w[k], first_moment_z) for k in range(3)]
    parent.u = [_sum(parent.u[k], u_rel[k]) for k in range(3)]
    p_dot_u = _add(*(_scale(p[k], u_rel[k]) for k in range(3)))
    for r in range(3):
        for c in range(3):
            dipole = _add(_scale(2.0 * (r == c), p_dot_u), _scale(-p[r], u_rel[c]),
                          _scale(-p[c], u_rel[r]))
            parent.K[r][c] = _sum(parent.K[r][c], dipole)


def _drop_rounding(body):
    """Drop the coefficients of ``body``'s forms that cancelled to rounding."""
    body.m = _add(body.m)
    body.u = [_add(x) for x in body.u]
    body.K = [[_add(x) for x in row] for row in body.K]


def _keep_base_part(body, revolute):
    """Keep what is left of body j ('base') once its unidentifiable part moved to its parent."""
    if revolute:
        yy = body.K[1][1]
        body.m, body.u[2], body.K[1][1] = {}, {}, {}
        body.K[0][0] = _add(body.K[0][0], _scale(-1.0, yy))           # XX_j - YY_j
    else:
        body.K = [[{} for _ in range(3)] for _ in range(3)]


def form_text(form):
    """Readable text of a linear form, e.g. ``MY5 - MZ6``."""
    if not form:
        return '0'
    parts = []
    for name, c in sorted(form.items(), key=lambda item: (item[0][2:], item[0])):
        sign = '-' if c < 0 else '+'
        magnitude = abs(c)
        term = name if abs(magnitude - 1) < 1e-15 else f'{magnitude:.12g}*{name}'
        parts.append((sign, term))
    text = ('-' if parts[0][0] == '-' else '') + parts[0][1]
    for sign, term in parts[1:]:
        text += f' {sign} {term}'
    return text


def evaluate(form, values):
    """Numeric value of a linear form given ``values`` {symbol: value}."""
    return float(sum(c * values[name] for name, c in form.items()))


def symbol_values(values):
    """Map ``XX1 ...`` symbols to numbers, from :func:`standard_parameters` output."""
    return {f'{name}{i + 1}': float(v) for i, entry in enumerate(values)
            for name, v in entry.items()}
