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
"""``tip_link=''`` is the default chain end, as the error for an unknown tip link says.

Red-team finding: ``from_urdf(urdf, tip_link='')`` raised "tip_link: unknown link ''; ...
set tip_link to one of the URDF's links [...], or '' for the default" (``base_link=''``
already meant the root).
"""

import pytest

import robot_dynamics as rd

URDF = '''<robot name="two">
  <link name="base"/>
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><origin xyz="0.2 0 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="tool0"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 0 0.3"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="tool" type="fixed"><parent link="b"/><child link="tool0"/>
    <origin xyz="0.4 0 0"/></joint>
</robot>'''


def test_an_empty_tip_link_is_the_default():
    default = rd.RobotModel.from_urdf(URDF)
    empty = rd.RobotModel.from_urdf(URDF, base_link='', tip_link='')
    assert (empty.base_link, empty.tip_link, empty.joint_names) == ('base', 'tool0', ('j1', 'j2'))
    assert (default.tip_link, default.joint_names) == (empty.tip_link, empty.joint_names)


def test_an_unknown_tip_link_still_names_the_empty_default():
    with pytest.raises(rd.URDFError, match=r"unknown link 'tol0'.*or '' for the default"):
        rd.RobotModel.from_urdf(URDF, tip_link='tol0')
