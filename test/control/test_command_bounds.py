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
"""Command bounds without ROS: mass matrices refused, efforts saturated and counted."""

import numpy as np
import pytest

from robot_dynamics.control.command_bounds import Saturation, check_mass_matrix
from robot_dynamics.errors import BadInput


def test_mass_matrix_must_be_symmetric_positive_definite():
    check_mass_matrix(np.diag([1.0, 2.0]))
    for bad, words in ((-np.eye(2), 'not positive definite'),
                       (np.array([[1.0, 0.5], [0.0, 1.0]]), 'not symmetric'),
                       (np.array([[np.nan, 0], [0, 1.0]]), 'not finite')):
        with pytest.raises(BadInput, match=words):
            check_mass_matrix(bad)


def test_saturation_clips_and_counts():
    saturation = Saturation(['a', 'b'], np.array([10.0, np.inf]))
    np.testing.assert_array_equal(saturation.apply(np.array([-25.0, 1e5])), [-10.0, 1e5])
    assert saturation.summary() == {'a': 1} and 'joint a saturated' in saturation.last
    with pytest.raises(BadInput, match='beyond'):
        saturation.apply(np.array([0.0, 1e300]))
