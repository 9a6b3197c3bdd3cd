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
"""The arms file of robot_dynamics_arms: checked, and each arm's nodes planned (no ROS)."""

import pytest

from robot_dynamics.bringup.arms_file import arm_nodes, default_arms_file, read_arms


def test_arms_file_is_checked(tmp_path):
    path = tmp_path / 'arms.yaml'
    path.write_text('arms: {left: panda}\nnodes: [controller]\n')
    with pytest.raises(ValueError, match='unknown node kinds'):
        read_arms(path)
    path.write_text('arms: []\n')
    with pytest.raises(ValueError, match="'arms' must map"):
        read_arms(path)
    path.write_text('arms: {left: panda, 2nd: ur5}\n')
    with pytest.raises(ValueError, match='not a ROS namespace'):
        read_arms(path)
    path.write_text('arms: {left: panda}\nparameters: {controller: {kp: 1}}\n')
    with pytest.raises(ValueError, match=r"parameters for unknown node kinds \['controller'\]"):
        read_arms(path)
    path.write_text('arms: {left: panda, cell/right: ur5}\nnodes: [simulation_node]\n')
    assert read_arms(path)[:2] == ([('/left', 'panda'), ('/cell/right', 'ur5')],
                                   ['simulation_node'])


def test_the_bundled_arms_file_gives_each_arm_a_dynamics_node():
    arms, nodes, parameters = read_arms(default_arms_file())
    assert arms == [('/left', 'panda'), ('/right', 'panda')] and nodes == ['dynamics_node']
    planned = arm_nodes(arms, nodes, parameters)
    assert [(kind, namespace) for kind, namespace, _, _ in planned] == [
        ('dynamics_node', '/left'), ('dynamics_node', '/right')]
    kind, namespace, values, remappings = planned[0]
    assert values == dict(parameters['dynamics_node'], model='panda')
    assert remappings == [('~/desired_trajectory', 'desired_trajectory')]    # wall time


def test_a_simulated_arm_keeps_its_clock_in_its_namespace():
    planned = arm_nodes([('/left', 'arm.urdf')], ['simulation_node', 'dynamics_node'],
                        {'simulation_node': {'publish_clock': True},
                         'dynamics_node': {'use_sim_time': True}})
    assert planned == [
        ('simulation_node', '/left', {'publish_clock': True, 'urdf_file': 'arm.urdf'},
         [('/clock', '/left/clock')]),
        ('dynamics_node', '/left', {'use_sim_time': True, 'urdf_file': 'arm.urdf'},
         [('~/desired_trajectory', 'desired_trajectory'), ('/clock', '/left/clock')])]
