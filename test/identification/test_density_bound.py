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
"""The identified model passes the package's own plausibility check (trial F8).

The trial identified the PUMA 560 carrying a 2 kg payload (1 % noise) and got a link5 of
1.7 kg with inertias ~3e-4 kg m²: "denser than tungsten" by the check that ``info`` and
``identify`` then print. The program's extent floor (``identification/plausible.py``) keeps
every link below that density bound.
"""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.identification import design_excitation, identify
from robot_dynamics.identification.plausible import Bounds, extent_floors, prior_bodies
from robot_dynamics.model.plausibility import (
    DENSITY_RANGE, equivalent_density, principal_extents,
)
from measured_runs import record


def principal_moments(model):
    """Principal moments (n, 3) of each link's inertia about its centre of mass."""
    return np.array([np.linalg.eigvalsh(inertia) for inertia in model.inertia])


def test_extent_floor_caps_the_density_of_the_heaviest_allowed_link():
    model = rd.load_model('puma560')
    bounds = Bounds()
    masses = prior_bodies(model)[0]
    floor = extent_floors(model, masses, bounds)
    total = max(model.total_mass, masses.sum())
    largest = np.minimum(np.where(model.mass > 0, bounds.link_mass_factor * model.mass,
                                  total / 5), 2 * model.total_mass)   # the total mass band
    # a link at its largest mass with every RMS extent at the floor: a uniform ellipsoid
    # with semi-axes √5 s, i.e. principal moments 2 m s² each (closed form)
    density = equivalent_density(largest, 2 * largest[:, None] * floor[:, None] ** 2
                                 * np.ones((1, 3)))
    unclipped = floor > 1.01e-3                      # not raised to the thinnest extent
    assert np.all(density <= 0.9 * DENSITY_RANGE[1] * (1 + 1e-12))
    np.testing.assert_allclose(density[unclipped], 0.9 * DENSITY_RANGE[1], rtol=1e-12)


def test_identified_puma_with_a_payload_is_not_denser_than_tungsten():
    nominal = rd.load_model('puma560')
    truth = nominal.with_payload(2.0, com=[0.0, 0.0, 0.05])
    excitation = design_excitation(nominal, time_limit=None, iterations=3, starts=3, seed=1)
    result = identify(nominal, record(truth, excitation.trajectory, 30.0, noise=True))
    model = result.model
    moments = principal_moments(model)
    density = equivalent_density(model.mass, moments)
    assert np.all(density <= DENSITY_RANGE[1]), density
    assert np.all(principal_extents(model.mass, moments) > 1e-3)
    assert not [w for w in model.warnings if 'tungsten' in w], model.warnings
