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
"""Per-joint settings: one number or one per joint, read the same way everywhere.

Limits (time-optimal retiming), observer gains, contact thresholds and excitation
accelerations take one number for every joint or one per joint; any other shape is refused
with the setting's name, the joints and the unit (``model.arguments.per_joint``).
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts import fixed_thresholds
from robot_dynamics.identification.excitation import ExcitationLimits

MODEL = rd.load_model('two_link')
SETTINGS = {
    'velocity_limits': (lambda value: rd.analysis.path_dynamics.check_limits(
        MODEL, velocity_limits=value)[0], 'inf for no limit'),
    'gain': (lambda value: rd.MomentumObserver(MODEL, gain=value).gain, 'in 1/s'),
    'thresholds': (lambda value: fixed_thresholds(MODEL, value).constant, 'N m or N'),
    'max_acceleration': (lambda value: ExcitationLimits.from_model(
        MODEL, max_acceleration=value).acceleration, 'rad/s^2 or m/s^2'),
}


@pytest.mark.parametrize('field', sorted(SETTINGS))
def test_one_number_or_one_per_joint(field):
    read, _ = SETTINGS[field]
    assert np.array_equal(read(3.0), [3.0] * MODEL.dof)
    assert np.array_equal(read([2.0, 5.0]), [2.0, 5.0])


@pytest.mark.parametrize('field', sorted(SETTINGS))
@pytest.mark.parametrize('value', [[1.0, 2.0, 3.0], 'fast', [[1.0, 2.0]] * 2])
def test_any_other_shape_names_the_setting_the_joints_and_the_unit(field, value):
    read, unit = SETTINGS[field]
    with pytest.raises(ValueError) as raised:
        read(value)
    message = str(raised.value)
    assert message.startswith(f'{field}: ') and unit in message
    assert f'give one number or {MODEL.dof} (one per joint of {list(MODEL.joint_names)})' \
        in message
