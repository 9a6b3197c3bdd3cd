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
"""Links whose inertia certainly passes every check: a screen in plain floats, no eigenvalues.

:class:`~robot_dynamics.model.RobotModel` checks each link's principal moments ``λ`` (numpy's
``eigvalsh``): positive semi-definite, the triangle inequality, and the plausibility checks
(:mod:`robot_dynamics.model.plausibility`: RMS extents ``σ_k`` of at least ``MIN_EXTENT``, an
equivalent density within ``DENSITY_RANGE``, no inertia without mass). The extents' squares
times the mass are the eigenvalues of the second-moment matrix ``Σ = ½ tr(I) E - I``, and the
density needs only their product, ``det Σ``; so a link with mass passes them all when

- ``Σ - s E`` is positive definite (its LDLᵀ pivots are positive) for a shift ``s`` above every
  threshold on ``m σ_k²`` (``m · MIN_EXTENT²``, the round-off floor of the extents) plus
  ``4·1e-11·S`` (``S``: the largest |entry|; ``eigvalsh`` is within about ``1e-14·S`` of the
  exact moments, the LDLᵀ pivots' round-off is of that size too), and ``s >= 1e-6·S`` so that
  the moments' round-off moves the density by less than 1e-4 (relative);
- the density from ``det Σ`` (LDLᵀ of ``Σ``) lies inside ``DENSITY_RANGE`` by 1e-3 (relative).

Then whatever round-off ``eigvalsh`` gives, the checks find nothing, and the model skips them for
that link; any other link (massless, thin, near a bound, of extreme magnitude, or failing) goes
through the checks themselves, so the warnings and errors are theirs, unchanged.
"""

import math

from robot_dynamics.model.plausibility import DENSITY_RANGE, MIN_EXTENT, VOLUME_FACTOR

#: Masses (kg) and inertia entries (kg m²) screened: far from overflow and underflow.
SCREENED = (1e-30, 1e30)


def certainly_plausible(mass, inertia):
    """Tell per link whether the inertia checks certainly find nothing (list of bool).

    ``mass``: n floats, kg; ``inertia``: n nested 3×3 lists about the centres of mass, kg m²
    (``array.tolist()``). False means unsure, not implausible: run the checks.
    """
    return [_passes(m, rows) for m, rows in zip(mass, inertia)]


def _passes(m, rows):
    (a, b, c), (d, e, f), (g, h, k) = rows
    low, high = SCREENED
    scale = max(abs(a), abs(b), abs(c), abs(d), abs(e), abs(f), abs(g), abs(h), abs(k))
    if not (low < m < high and low < scale < high):
        return False
    xy, xz, yz = b / 2 + d / 2, c / 2 + g / 2, f / 2 + h / 2        # numpy's symmetric part
    xx, yy, zz = (e + k - a) / 2, (a + k - e) / 2, (a + e - k) / 2       # Σ's diagonal
    shift = max(MIN_EXTENT ** 2 * m * (1 + 1e-9), 1e-6 * scale, 6e-12 * max(1.0, scale)) \
        + 4e-11 * scale
    if _determinant(xx - shift, yy - shift, zz - shift, -xy, -xz, -yz) is None:
        return False
    determinant = _determinant(xx, yy, zz, -xy, -xz, -yz)
    if determinant is None:
        return False
    density = m / (VOLUME_FACTOR * math.sqrt(determinant / m ** 3))
    low, high = DENSITY_RANGE
    return low * (1 + 1e-3) < density < high * (1 - 1e-3)


def _determinant(xx, yy, zz, xy, xz, yz):
    """``det`` of the symmetric matrix from its LDLᵀ pivots, or None if one is not positive."""
    first = xx
    if not first > 0:
        return None
    l_yx, l_zx = xy / first, xz / first
    second = yy - l_yx * xy
    if not second > 0:
        return None
    coupling = yz - l_zx * xy
    third = zz - l_zx * xz - coupling * coupling / second
    if not third > 0:
        return None
    return first * second * third
