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
"""The hint for a joint state from the future names the missing /clock under sim time.

The trial: with ``use_sim_time`` already true and no /clock ever received, a wall-stamped
state was dropped with "... synchronise the clocks or set use_sim_time": the wrong fix. A ROS
clock under sim time reads 0 until the first /clock message, which is how the check knows.
"""

import pytest

from robot_dynamics.control.joint_states import state_time
from robot_dynamics.errors import BadInput

WALL = 1795752385.25


def test_no_clock_yet_under_sim_time_says_so():
    with pytest.raises(BadInput) as caught:
        state_time(WALL, 0.0, 0.5)
    text = str(caught.value)
    assert 'no /clock received yet: is the simulator (or a bag played with --clock) ' \
           'running?' in text
    assert 'set use_sim_time' not in text


def test_a_clock_that_runs_keeps_the_synchronise_hint():
    with pytest.raises(BadInput, match='synchronise the clocks or set use_sim_time'):
        state_time(WALL, 100.0, 0.5)                 # sim time running, wall stamp
    assert state_time(WALL, WALL + 0.1, 0.5) == pytest.approx(WALL, abs=1e-6)
    assert state_time(0.0, 0.0, 0.5) == 0.0           # stamp 0 means now
