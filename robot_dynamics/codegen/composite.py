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
"""The mass matrix by composite rigid bodies, on the generator's symbolic scalars.

Walker and Orin's method 3 (Featherstone's CRBA) in Renaud's frames and moments: the
composite body ``C_j`` (bodies j … n, rigid at the current q) has the moments ``m, u, K`` at
O_j in {j}' (:class:`~robot_dynamics.algorithms.renaud.Body`), accumulated from the tip::

    C_j = body_j + C_{j+1} moved by R = P_{j+1} Rz(q_{j+1}) and p = p_{j,j+1}
    m' = m,  u' = R u + m p,  K' = R K Rᵀ + m (|p|² E - p pᵀ) + 2 (p·Ru) E - p (Ru)ᵀ - (Ru) pᵀ

A unit acceleration of joint j moves ``C_j`` alone; its wrench at O_j is ``(z × u, K z)``
(revolute) or ``(m z, u × z)`` (prismatic), so ``M[j][j]`` is ``K_zz`` or ``m``, and the
wrench carried down the chain as in Renaud's backward relations (7b, 9b) gives ``M[j][i]``,
i < j, as its moment (revolute i) or force (prismatic i) along ``z_i``. ``R K Rᵀ`` about z
uses ``cos 2q = 2c² - 1`` and ``sin 2q = 2cs``: four products for the x-y block, four for the
couplings with z. A structural zero or ±1 of ``P`` and ``p`` costs nothing; components the
outputs do not use are never emitted (the emitters keep only what the outputs reach).

Against strobing (n inverse dynamics passes with ``qdd = e_j``, one straight-line program after
sharing) the Panda's mass matrix costs 190 multiplications and 190 additions instead of 566 and
411; the generator keeps whichever of the two is shorter
(in :mod:`robot_dynamics.codegen.generator`).
"""

from robot_dynamics.algorithms.renaud import Body
from robot_dynamics.spatial.components import add3, cross, is_zero, lincomb, matvec, rz


def mass_matrix(scalars, frames, bodies, q):
    """Rigid-body ``M[i][j]`` (n×n nested lists, the lower triangle ``j <= i`` filled).

    ``scalars``: the generator's :class:`~robot_dynamics.codegen.expr.Graph`; ``bodies``: the
    regrouped :class:`Body` moments (regrouping keeps the kinetic energy, hence M).
    """
    n = len(frames.revolute)
    trig = [_trig(scalars, q[i]) if frames.revolute[i] else None for i in range(n)]
    shifts = [_shift(frames, i, q) for i in range(n)]
    composite = [None] * n
    composite[n - 1] = bodies[n - 1]
    for j in reversed(range(n - 1)):
        moved = _move(composite[j + 1], frames.P[j + 1], trig[j + 1], shifts[j + 1])
        composite[j] = _label(scalars, _sum(bodies[j], moved), j + 1)
    M = [[None] * n for _ in range(n)]
    for j in range(n):
        C = composite[j]
        if frames.revolute[j]:
            force, moment = (-C.u[1], C.u[0], 0.0), (C.K[0][2], C.K[1][2], C.K[2][2])
        else:
            force, moment = (0.0, 0.0, C.m), (C.u[1], -C.u[0], 0.0)
        M[j][j] = moment[2] if frames.revolute[j] else force[2]
        for i in reversed(range(j)):
            force, moment = _carry(frames.P[i + 1], trig[i + 1], shifts[i + 1], force, moment)
            M[j][i] = moment[2] if frames.revolute[i] else force[2]
    return M


def _trig(scalars, qi):
    """``c, s, c², cs`` of one revolute joint (``c²`` and ``cs`` give the double angle)."""
    c, s = scalars.function('cos', qi), scalars.function('sin', qi)
    return c, s, c * c, c * s


def _shift(frames, i, q):
    """``p_{i-1,i}``: O_{i-1} to O_i in {i-1}', gaining ``q_i z_i`` at a prismatic joint."""
    p = tuple(frames.p[i])
    if frames.revolute[i]:
        return p
    P = frames.P[i]
    return tuple(p[k] + P[k][2] * q[i] for k in range(3))


def _rotate(P, trig, v):
    """``P Rz(q) v`` (``P v`` at a prismatic joint)."""
    return matvec(P, v if trig is None else rz(trig[0], trig[1], v))


def _carry(P, trig, p, force, moment):
    """Move a wrench at O_i in {i}' to O_{i-1} in {i-1}' (Renaud's relations 7b, 9b)."""
    force = _rotate(P, trig, force)
    return force, add3(_rotate(P, trig, moment), cross(p, force))


def _rotate_inertia(P, trig, K):
    """``R K Rᵀ`` for a symmetric K: Rz by the double angle, then P (folds for a DH twist)."""
    if trig is not None:
        c, s, cc, cs = trig
        difference = K[0][0] - K[1][1]
        twice_cs, cos2 = cs + cs, (cc + cc) - 1.0
        xx = K[1][1] + difference * cc - K[0][1] * twice_cs
        xy = difference * cs + K[0][1] * cos2
        yy = (K[0][0] + K[1][1]) - xx
        xz, yz = rz(c, s, (K[0][2], K[1][2], 0.0))[:2]
        K = ((xx, xy, xz), (xy, yy, yz), (xz, yz, K[2][2]))
    PK = [[lincomb(P[r], (K[0][c], K[1][c], K[2][c])) for c in range(3)] for r in range(3)]
    upper = {(r, c): lincomb(P[c], PK[r]) for r in range(3) for c in range(r, 3)}
    return tuple(tuple(upper[min(r, c), max(r, c)] for c in range(3)) for r in range(3))


def _move(C, P, trig, p):
    """Composite moments ``C`` at O_i in {i}' as moments at O_{i-1} in {i-1}' (Huygens)."""
    u = _rotate(P, trig, C.u)
    K = _rotate_inertia(P, trig, C.K)
    mp = tuple(0.0 if is_zero(x) else C.m * x for x in p)
    pu = [[0.0 if is_zero(x) else x * y for y in u] for x in p]
    shifted = [[None] * 3 for _ in range(3)]
    for r in range(3):
        for c in range(3):
            if r == c:
                a, b = (r + 1) % 3, (r + 2) % 3
                other = pu[a][a] + pu[b][b]
                extra = (mp[a] * p[a] + mp[b] * p[b]) + (other + other)
            else:
                extra = -(mp[r] * p[c]) - (pu[r][c] + pu[c][r])
            shifted[r][c] = K[r][c] + extra
    return Body(C.m, add3(u, mp), tuple(tuple(row) for row in shifted))


def _sum(body, moved):
    """Moments of ``body`` plus ``moved`` (both at one point, one frame)."""
    return Body(body.m + moved.m, add3(body.u, moved.u),
                tuple(add3(a, b) for a, b in zip(body.K, moved.K)))


def _label(scalars, C, j):
    """Name the composite moments ``mc{j}``, ``uc{j}_x``, ``Kc{j}_xy`` in the emitted code."""
    u = tuple(scalars.label(x, f'uc{j}_{a}') for x, a in zip(C.u, 'xyz'))
    K = tuple(tuple(scalars.label(x, f'Kc{j}_{a}{b}') for b, x in zip('xyz', row))
              for a, row in zip('xyz', C.K))
    return Body(scalars.label(C.m, f'mc{j}'), u, K)
