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
"""The launch files' argument checks name the argument and the fix (no ROS, no launch)."""

import pytest

from robot_dynamics.bringup.launch_arguments import (check_bool, check_namespace, check_robot,
                                                     clock_remapping)


def test_launch_argument_checks_name_the_argument_and_the_fix():
    assert check_robot(' puma560 ') == 'puma560' and check_robot('', required=False) == ''
    with pytest.raises(ValueError, match=r"robot:='pumaa' is not a bundled model; use one of"):
        check_robot('pumaa')
    with pytest.raises(ValueError, match='robot_description'):
        check_robot('')
    assert check_bool('use_sim_time', 'True') is True
    assert check_bool('use_sim_time', '', allow_empty=True) is None
    with pytest.raises(ValueError, match="use_sim_time:='yes': use true or false"):
        check_bool('use_sim_time', 'yes')
    assert check_namespace('arm1') == '/arm1' and check_namespace('/a/b_2/') == '/a/b_2'
    assert check_namespace('  ') == ''
    for bad in ('1arm', 'a b', 'a//b', 'arm-1'):
        with pytest.raises(ValueError, match='is not a ROS namespace'):
            check_namespace(bad)
    assert clock_remapping('/arm1', True) == [('/clock', '/arm1/clock')]
    assert clock_remapping('/arm1', False) == [] and clock_remapping('', True) == []
