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
"""Which link masses the data determine (identification/determined.py), against the truth.

A prismatic joint carries the weight of everything beyond it, so the mass of that subtree is
in its torque directly; the masses of links turned by revolute joints only enter through
first moments and inertias and are bounded by physics and geometry alone. The truth is
``as_built`` (masses +20 %, not the nominal), so neither the prior nor the estimator knows it.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import design_excitation, identify
from robot_dynamics.identification.determined import determined, mass_ranges
from robot_dynamics.identification.physical import as_built
from measured_runs import record


@pytest.fixture(scope='module')
def stanford():
    nominal = rd.load_model('stanford')                   # RRPRRR
    truth = as_built(nominal)
    excitation = design_excitation(nominal, time_limit=None, iterations=1, starts=2, seed=1)
    result = identify(nominal, record(truth, excitation.trajectory, 20.0, noise=True),
                      validation=0.2)
    return truth, result


def test_the_mass_a_prismatic_joint_carries_is_determined(stanford):
    truth, result = stanford
    beyond = [2, 3, 4, 5]                                 # links moved by the prismatic joint
    (lo, hi), = mass_ranges(result, groups=[beyond])
    assert lo <= truth.mass[beyond].sum() <= hi
    assert hi - lo < 0.01 * truth.mass[beyond].sum()      # measured 7.760 - 7.768 kg
    assert abs(result.model.mass[beyond].sum() / truth.mass[beyond].sum() - 1) < 0.01


def test_link_masses_within_twenty_percent_where_determined(stanford):
    truth, result = stanford
    ranges = result.details['mass_ranges']
    assert ranges.shape == (6, 2)
    inside = (ranges[:, 0] <= truth.mass) & (truth.mass <= ranges[:, 1])
    assert np.all(inside), (ranges, truth.mass)
    assert np.isinf(ranges[0, 1]) and np.isinf(ranges[1, 1])   # turned about fixed axes only
    chosen = determined(ranges)
    assert chosen[2], ranges[2]                           # the prismatic link (measured ±14 %)
    error = np.abs(result.model.mass / truth.mass - 1)
    assert np.all(error[chosen] < 0.2), (error, chosen)


def test_determined_criterion():
    ranges = np.array([[0.9, 1.1], [0.5, 1.5], [1.0, np.inf], [np.nan, np.nan]])
    assert determined(ranges).tolist() == [True, False, False, False]
