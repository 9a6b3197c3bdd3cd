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
"""Plausibility warnings for any model (issue 24 item 2): closed forms and the issue's case."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.model.plausibility import equivalent_density, principal_extents
from robots import random_model


def test_equivalent_density_of_a_solid_ellipsoid_is_its_density():
    """Check a uniform ellipsoid (semi-axes a, b, c, density ρ): I_x = m (b² + c²) / 5, …."""
    a, b, c, rho = 0.3, 0.1, 0.05, 2700.0
    m = rho * 4 / 3 * np.pi * a * b * c
    moments = np.sort(m / 5 * np.array([b * b + c * c, a * a + c * c, a * a + b * b]))
    assert equivalent_density([m], [moments])[0] == pytest.approx(rho, rel=1e-12)
    extents = np.sort(principal_extents([m], [moments])[0])
    assert np.allclose(extents, np.sort([a, b, c]) / np.sqrt(5), rtol=1e-12)


def test_the_issues_identified_link_warns_and_info_says_so(tmp_path, capsys):
    # Was: a 958 kg link with inertias of 1e-11 kg m^2, and `info` said "warnings: none".
    model = random_model(np.random.default_rng(1), 3, prismatic_fraction=0.0)
    absurd = model.replace(mass=[model.mass[0], 958.0, model.mass[2]],
                           inertia=[model.inertia[0], np.eye(3) * 1e-11, model.inertia[2]])
    assert any("inertia of link 'link2' is degenerate: 958 kg" in w and 'a point mass' in w
               for w in absurd.warnings), absurd.warnings
    dense = model.replace(mass=[model.mass[0], 958.0, model.mass[2]],
                          inertia=[model.inertia[0], np.diag([0.3, 0.3, 0.5]),
                                   model.inertia[2]])
    assert any('heavier than tungsten' in w for w in dense.warnings), dense.warnings
    path = tmp_path / 'absurd.urdf'
    path.write_text(absurd.to_urdf())
    code = cli.main(['info', str(path)])
    out = capsys.readouterr().out
    assert code == 0 and 'warnings: none' not in out and '958 kg' in out


def test_bundled_robots_warn_about_their_documented_oddities():
    puma = rd.load_model('puma560')
    assert any("link 'link1' has rotational inertia [0, 0, 0.35] kg m^2 but no mass" in w
               for w in puma.warnings)
    stanford = rd.load_model('stanford')
    assert any("centre of mass of link 'link3' lies 6.45 m from its joint" in w
               for w in stanford.warnings)
    assert any('a point mass' in w for w in rd.load_model('two_link').warnings)
    for name in ('panda', 'ur5', 'renaud_6r'):
        assert not rd.load_model(name).warnings, name
