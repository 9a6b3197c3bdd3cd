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

The screen runs in C (``robot_dynamics/model/src/inertia_screen.c``: Python's float operations
in the same order, no fused multiply-add, so the same answers); a build without it screens no
link (every link is checked: the same findings, more slowly).
"""

from robot_dynamics.model.plausibility import DENSITY_RANGE, MIN_EXTENT, VOLUME_FACTOR

try:                       # the compiled screen (setup.py: optional, built with the package)
    from robot_dynamics.model._inertia_screen import screen as _screen
except ImportError:        # pragma: no cover - a build without a compiler; a source checkout
    _screen = None

#: Masses (kg) and inertia entries (kg m²) screened: far from overflow and underflow.
SCREENED = (1e-30, 1e30)
#: The screen's constants (``robot_dynamics/model/src/inertia_screen.c``): the screened range,
#: ``MIN_EXTENT²`` widened by 1e-9, the volume factor, ``DENSITY_RANGE`` narrowed by 1e-3.
CONSTANTS = (*SCREENED, MIN_EXTENT ** 2, 1 + 1e-9, VOLUME_FACTOR,
             DENSITY_RANGE[0] * (1 + 1e-3), DENSITY_RANGE[1] * (1 - 1e-3))


def certainly_plausible(mass, inertia):
    """Tell per link whether the inertia checks certainly find nothing (list of bool).

    ``mass``: n floats, kg; ``inertia``: n nested 3×3 lists about the centres of mass, kg m²
    (``array.tolist()``). False means unsure, not implausible: run the checks (every link,
    without the compiled screen).
    """
    if _screen is None:
        return [False] * min(len(mass), len(inertia))
    return _screen(mass, inertia, CONSTANTS)
