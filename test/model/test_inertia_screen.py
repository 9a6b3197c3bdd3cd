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
"""The plain-float inertia screen: a link it clears is one the checks find nothing on."""

import numpy as np
from scipy.spatial.transform import Rotation

from robot_dynamics import BUNDLED_MODELS, data_path, RobotModel
from robot_dynamics.model.inertia_screen import certainly_plausible
from robot_dynamics.model.plausibility import (
    DENSITY_RANGE, equivalent_density, link_warnings, MIN_EXTENT, principal_extents,
    VOLUME_FACTOR,
)
from robot_dynamics.errors import ModelError
from robot_dynamics.model.validation import diagonal_moments, UNSCALED, validate
from robots import random_model

EDGE = [1 - 1e-12, 1 - 1e-9, 1 - 1e-6, 1 - 1e-3, 1.0, 1 + 1e-12, 1 + 1e-9, 1 + 1e-6, 1 + 1e-3]


def _link(rng):
    """Return a mass and an inertia about the com: random, or at a threshold of the checks."""
    sigma = 10.0 ** rng.uniform(-4, 0, 3)                   # RMS extents, m
    kind = rng.integers(6)
    if kind == 1:                                           # at the thinness bound
        sigma[rng.integers(3)] = MIN_EXTENT * rng.choice(EDGE)
    elif kind == 2:                                         # two or three equal moments
        sigma[1] = sigma[0] if rng.random() < 0.7 else sigma[2]
        sigma[2] = sigma[0] if rng.random() < 0.3 else sigma[2]
    density = 10.0 ** rng.uniform(-0.5, 5)
    if kind == 3:                                           # at a density bound
        density = DENSITY_RANGE[rng.integers(2)] * rng.choice(EDGE)
    mass = density * VOLUME_FACTOR * np.prod(sigma)
    moments = mass * (np.sum(sigma ** 2) - sigma ** 2)     # λ_k = m (σ_i² + σ_j²)
    if kind == 4:                                           # at the triangle inequality
        moments[2] = (moments[0] + moments[1]) * rng.choice(EDGE)
    if kind == 5:                                           # extreme magnitudes
        scale = 10.0 ** rng.choice([-40, -25, 25, 40])
        mass, moments = mass * scale, moments * scale
    R = Rotation.random(random_state=rng.integers(1 << 31)).as_matrix()
    inertia = R @ np.diag(moments) @ R.T
    return mass, (inertia + inertia.T) / 2


def test_a_screened_link_gets_the_findings_of_the_full_checks():
    """``validate(loaded=True)`` (screened) finds what ``validate(loaded=False)`` finds."""
    rng = np.random.default_rng(32)
    cleared = total = 0
    for _ in range(150):
        model = random_model(rng, 8, prismatic_fraction=0.0)
        links = [_link(rng) for _ in range(model.dof)]
        model = model.replace(mass=[m for m, _ in links], inertia=[i for _, i in links])
        screened = certainly_plausible(model.mass.tolist(), model.inertia.tolist())
        cleared, total = cleared + sum(screened), total + len(screened)
        assert validate(model, loaded=True) == validate(model, loaded=False)
    assert 0.1 < cleared / total < 0.9, (cleared, total)   # both paths taken


def test_the_screen_clears_no_link_the_checks_warn_about():
    """Links at each threshold's edge: cleared only when every check passes."""
    rng = np.random.default_rng(7)
    for _ in range(3000):
        mass, inertia = _link(rng)
        model = random_model(rng, 1, prismatic_fraction=0.0)
        model = model.replace(mass=[mass], inertia=[inertia])
        if certainly_plausible([mass], [inertia.tolist()])[0]:
            assert model.warnings == (), model.warnings


def test_the_screen_refuses_what_it_cannot_vouch_for():
    """Massless, zero, indefinite, non-finite and huge inertias go to the checks themselves."""
    eye = np.eye(3).tolist()
    assert certainly_plausible([1.0], [(0.01 * np.eye(3)).tolist()]) == [True]   # 61 kg/m^3
    cases = [(0.0, eye), (1.0, np.zeros((3, 3)).tolist()), (1.0, np.diag([1, 1, -1.0]).tolist()),
             (1.0, np.diag([1, 1, 3.0]).tolist()), (float('nan'), eye),
             (1.0, np.diag([1, 1, np.inf]).tolist()), (1e160, (1e160 * np.eye(3)).tolist())]
    assert certainly_plausible(*zip(*cases)) == [False] * len(cases)


def test_the_bundled_arms_skip_the_checks_where_they_find_nothing():
    """Panda's and UR5's links are all cleared; Stanford's and Puma's warned links are not."""
    expected = {'panda': [True] * 7, 'ur5': [True] * 6,
                'stanford': [True, True, True, False, False, True],
                'puma560': [False, True, False, True, True, True]}
    for name, cleared in expected.items():
        model = RobotModel.from_urdf(data_path(BUNDLED_MODELS[name]), urdf_friction=False)
        assert certainly_plausible(model.mass.tolist(), model.inertia.tolist()) == cleared


def test_link_warnings_name_the_links_the_extents_and_densities_condemn():
    """Per-link plain floats: the links and numbers of the numpy definitions, in order."""
    rng = np.random.default_rng(11)
    links = [_link(rng) for _ in range(3000)]
    mass = np.array([m for m, _ in links])
    mass[::97] = 0.0                                           # massless, with inertia
    principal = np.linalg.eigvalsh(np.array([inertia for _, inertia in links]))
    names = [f'l{i}' for i in range(len(links))]
    positive = np.where(mass > 0, mass, 1.0)
    thinnest = principal_extents(positive, principal).min(axis=1)
    density = equivalent_density(positive, principal)
    low, high = DENSITY_RANGE
    expected = [f"inertia of link 'l{i}' is degenerate" for i in range(len(links))
                if mass[i] > 0 and 0 <= thinnest[i] < MIN_EXTENT]
    expected += [f"link 'l{i}': {mass[i]:.4g} kg {density[i]:.3g}" for i in range(len(links))
                 if mass[i] > 0 and thinnest[i] >= MIN_EXTENT
                 and not low <= density[i] <= high]
    expected += [f"link 'l{i}' has rotational inertia" for i in range(len(links))
                 if mass[i] == 0]
    found = [w.split(' with principal')[0] + ' ' + w.split('uniform ellipsoid of ')[1].split()[0]
             if 'uniform ellipsoid' in w else w.split(' kg m^2')[0].split(':')[0].split(' [')[0]
             for w in link_warnings(names, mass, principal)]
    assert len(expected) > 300 and found == expected


def _diagonal_entry(rng):
    """Return a diagonal moment: zero of either sign, negative, tiny, huge or ordinary."""
    kind = rng.integers(6)
    if kind < 2:
        return (0.0, -0.0)[kind]
    value = 10.0 ** rng.uniform(-6, 1) * rng.choice([1.0, 1.0, -1.0])
    if kind == 2:
        return float(10.0 ** rng.choice([-145, -141, -139, 139, 141, 145]) * rng.uniform(1, 9))
    return float(value if kind > 3 else np.round(value, int(rng.integers(1, 5))))


def test_a_diagonal_inertias_moments_are_eigvalshs_bit_for_bit():
    """``diagonal_moments``: LAPACK's eigenvalues of a diagonal matrix (signed zeros too)."""
    rng = np.random.default_rng(3)
    tried = 0
    for _ in range(20000):
        diagonal = [_diagonal_entry(rng) for _ in range(3)]
        if rng.random() < 0.3:
            diagonal[rng.integers(3)] = diagonal[rng.integers(3)]       # equal moments
        rows = np.diag(diagonal)
        largest = float(np.abs(rows).max())
        moments = diagonal_moments(rows.tolist(), largest)
        if moments is None:
            assert not (largest == 0 or UNSCALED[0] < largest < UNSCALED[1])
            continue
        tried += 1
        expected = np.linalg.eigvalsh(rows / 2 + rows.T / 2)
        assert np.array(moments).tobytes() == expected.tobytes(), (diagonal, moments, expected)
    assert tried > 15000
    off_diagonal = np.eye(3)
    off_diagonal[0, 1] = off_diagonal[1, 0] = 1e-300
    assert diagonal_moments(off_diagonal.tolist(), 1.0) is None


def test_the_loaders_diagonal_inertias_get_the_findings_of_the_full_checks():
    """Point masses, rods, plates, triangle failures, indefinite ones: one finding each way."""
    rng = np.random.default_rng(5)
    errors = 0
    for _ in range(300):
        model = random_model(rng, 4, prismatic_fraction=0.0)
        diagonals = [[_diagonal_entry(rng) for _ in range(3)] for _ in range(model.dof)]
        masses = [float(rng.choice([0.0, 1e-3, 1.0, 50.0])) for _ in range(model.dof)]
        object.__setattr__(model, 'mass', np.array(masses))         # unchecked, as loaded
        object.__setattr__(model, 'inertia', np.array([np.diag(d) for d in diagonals]))
        outcomes = []
        for loaded in (True, False):
            try:
                outcomes.append(validate(model, loaded=loaded))
            except ModelError as exc:
                outcomes.append(str(exc))
        errors += isinstance(outcomes[0], str)
        assert outcomes[0] == outcomes[1]
    assert 30 < errors < 270                         # refusals and warnings both compared
