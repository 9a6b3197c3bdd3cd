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
"""A transmission with a negative reduction (a motor mounted the other way round).

Red-team finding: ``<mechanicalReduction>-1</mechanicalReduction>`` loaded as gear ratio -1,
and the nodes' plausibility check (``model_source.with_overrides``) then refused the whole
model ("gear_ratio: every value must be finite and >= 0"), although Pinocchio ignores
transmissions and the dynamics only see the reduction squared.
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control.model_source import with_overrides

LINK = ('<link name="{0}"><inertial><origin xyz="0.05 0 0.1"/><mass value="1.5"/>'
        '<inertia ixx="0.01" iyy="0.012" izz="0.008" ixy="0" iyz="0" ixz="0"/></inertial></link>')
JOINT = ('<joint name="j{0}" type="revolute"><parent link="{1}"/><child link="l{0}"/>'
         '<origin xyz="0 0 0.2"/><axis xyz="0 1 0"/>'
         '<limit lower="-2" upper="2" effort="50" velocity="2"/></joint>')
ROS1 = ('<transmission name="t{0}"><type>transmission_interface/SimpleTransmission</type>'
        '<joint name="j{0}"><hardwareInterface>hardware_interface/EffortJointInterface'
        '</hardwareInterface></joint><actuator name="m{0}"><mechanicalReduction>{1}'
        '</mechanicalReduction>{2}</actuator></transmission>')
ROS2 = ('<ros2_control name="arm" type="system"><hardware><plugin>mock_components/GenericSystem'
        '</plugin></hardware></ros2_control><transmission name="t3"><plugin>'
        'transmission_interface/SimpleTransmission</plugin><actuator name="m3" role="actuator1"/>'
        '<joint name="j3" role="joint1"><mechanical_reduction>-100.0</mechanical_reduction>'
        '</joint></transmission>')


def reversed_arm():
    """Three joints: j1 reduction -1, j2 -50 with a rotor, j3 -100 (ros2_control form)."""
    parts = [LINK.format('base')]
    for k in (1, 2, 3):
        parts += [LINK.format(f'l{k}'), JOINT.format(k, 'base' if k == 1 else f'l{k - 1}')]
    parts += [ROS1.format(1, -1, ''), ROS1.format(2, -50, '<rotorInertia>2e-5</rotorInertia>'),
              ROS2]
    return '<robot name="reversed">' + ''.join(parts) + '</robot>'


def test_a_negative_reduction_is_a_gear_ratio_the_nodes_accept():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        model = rd.RobotModel.from_urdf(reversed_arm())
    assert model.gear_ratio.tolist() == [1.0, 50.0, 100.0]
    assert model.reflected_inertia == pytest.approx([0.0, 2e-5 * 2500, 0.0], rel=1e-12)
    with_overrides(model, {})                  # was: PlausibilityError, gear_ratio >= 0
    notes = [str(w.message) for w in caught if 'reduction negative' in str(w.message)]
    assert len(notes) == 1 and all(f'j{k} (' in notes[0] for k in (1, 2, 3))


def test_the_sign_changes_no_torque():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        turned = rd.RobotModel.from_urdf(reversed_arm())
        plain = rd.RobotModel.from_urdf(reversed_arm().replace('>-', '>'))
    q, qd, qdd = np.array([0.3, -0.4, 0.9]), np.array([0.5, -1.0, 0.2]), np.ones(3)
    assert np.array_equal(rd.inverse_dynamics(turned, q, qd, qdd),
                          rd.inverse_dynamics(plain, q, qd, qdd))
