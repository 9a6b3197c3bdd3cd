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
"""Which joint-state messages that update no joint are refused (control/joint_states.py)."""

import numpy as np

from robot_dynamics.control.joint_states import JointStateMerge


def test_a_message_naming_no_model_joint_is_refused_only_while_joints_are_missing():
    merge = JointStateMerge(['a', 'b'])
    assert merge.unused(['finger']) == "missing joints ['a', 'b'] (none of the model joints in it)"
    assert merge.unused(['finger'], locked_joints={'finger': 0.0}) == ''    # a gripper's
    merge.update(['a'], [0.1], [], 1.0)
    assert merge.unused(['x']) == "missing joints ['b'] (none of the model joints in it)"
    merge.update(['b'], [0.2], [], 1.0)
    assert merge.unused(['x']) == ''                    # another part of the robot
    np.testing.assert_array_equal(merge.state()[0], [0.1, 0.2])
