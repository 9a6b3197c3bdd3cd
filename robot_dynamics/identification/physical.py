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
"""Rigid bodies in the ten standard parameters: the pseudo-inertia, and "as built" models.

A link's ten standard parameters describe a real rigid body (positive mass, an inertia about
the centre of mass whose principal moments satisfy the triangle inequality) exactly when its
*pseudo-inertia* is positive definite (Wensing, Kim, Slotine 2018)::

    J(φ) = [[Σ, h], [hᵀ, m]],   Σ = ½ tr(K) E - K,   h = m c,

with ``K`` the inertia about the link frame's origin; ``J`` is linear in ``φ``
(:data:`_BASIS`). The identified model's program that keeps every ``J_i`` positive definite
and plausible is in :mod:`robot_dynamics.identification.plausible`.

:func:`as_built` is the other direction, for simulated experiments (the identification demo and
the tests): a nominal model made into a real robot (heavier, with friction, every link a real
body).
"""

import numpy as np

from robot_dynamics.identification.regressor import PER_LINK


def pseudo_inertia(phi):
    """Return the pseudo-inertia ``J`` (4, 4) of ten standard parameters ``[M, MX … ZZ]``."""
    m, hx, hy, hz, xx, xy, yy, xz, yz, zz = phi
    K = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    J = np.empty((4, 4))
    J[:3, :3] = 0.5 * np.trace(K) * np.eye(3) - K
    J[:3, 3] = J[3, :3] = hx, hy, hz
    J[3, 3] = m
    return J


# ∂J/∂φ_a: J is linear in φ, so these ten constant matrices give J(φ) = Σ φ_a A_a.
_BASIS = np.array([pseudo_inertia(unit) for unit in np.eye(PER_LINK)])


def is_physical(phi, tolerance=0.0):
    """Tell whether ten standard parameters describe a rigid body (``J`` ≻ ``tolerance``)."""
    return bool(np.linalg.eigvalsh(pseudo_inertia(phi))[0] > tolerance)


def as_built(model, mass_factor=1.2, viscous=(1.5, 0.3), coulomb=(0.8, 0.2)):
    """Return the "real" robot: masses ×``mass_factor``, friction, every link a real body.

    Viscous and Coulomb friction fall linearly from the first to the last joint between the
    given values (N m s/rad, N m). Links must be real bodies: a massless link gets 1 kg, and
    every principal moment of inertia is lifted to ``max(I_k, 0.6 Σ I - I_k) + 0.001`` kg m²
    (the triangle inequality with margin; the bundled PUMA's link 1 and 3 violate it).
    """
    n = model.dof
    inertias = []
    for inertia in model.inertia:
        moments, axes = np.linalg.eigh(inertia)
        lifted = np.maximum(moments, 0.6 * moments.sum() - moments) + 1e-3
        inertias.append(axes @ np.diag(lifted) @ axes.T)
    return model.replace(mass=model.mass * mass_factor + (model.mass == 0),
                         inertia=np.array(inertias),
                         viscous_friction=np.linspace(*viscous, n),
                         coulomb_friction=np.linspace(*coulomb, n))
