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
"""Issue 30's MED and LOW findings in the nodes (docs/safety.md), in this process.

A model too large to serve in real time, a simulator frozen by its real-time factor, a
command rate eaten by a foreign joint_states flood, a huge robot_description parameter parsed
on the executor thread.
"""

import numpy as np
import pytest
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState

from robot_dynamics.model import bounds
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
from robot_dynamics.nodes.simulation_node import SimulationNode
from robots import quiet_model_from_urdf, random_arm_urdf


def test_a_model_with_too_many_joints_is_refused(ros):
    """MED 5: a 3,000-joint URDF was served (9e6-double mass matrices, 19 of 75 states)."""
    urdf = random_arm_urdf(3, bounds.MAX_NODE_JOINTS + 1, 'long', prismatic_fraction=0.0)
    overrides = [Parameter('robot_description', value=urdf)]
    for kind in (JointTrajectoryController, SimulationNode):
        with pytest.raises(ValueError, match='101 moving joints, more than MAX_NODE_JOINTS = '
                           '100') as caught:
            kind(namespace=ros.namespace, parameter_overrides=overrides)
        assert 'base_link/tip_link' in str(caught.value)
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=overrides))
    assert dynamics.model is None and 'MAX_NODE_JOINTS' in dynamics.last_error


def test_a_freezing_real_time_factor_is_refused(ros):
    """LOW: 5e-324 froze the simulator while /diagnostics said OK."""
    sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='two_link')]))
    for value in (5e-324, 1e-4):
        result = sim.set_parameters([Parameter('real_time_factor', value=value)])[0]
        assert not result.successful and 'would freeze the simulation' in result.reason
    for value in (0.0, 1e-3, 2.0):
        assert sim.set_parameters([Parameter('real_time_factor', value=value)])[0].successful


def test_the_controller_reports_the_rate_and_the_foreign_messages(ros):
    controller = ros.add(JointTrajectoryController(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='ur5')]))
    probe = ros.node('flood')
    states = probe.create_publisher(JointState, 'joint_states', 10)
    assert ros.spin_until(lambda: states.get_subscription_count() > 0)
    names = list(controller.joint_names)
    for _ in range(20):
        states.publish(JointState(name=names, position=[0.0] * 6))
        states.publish(JointState(name=['other_robot_joint'], position=[0.0]))
        ros.spin_for(0.01)
    assert ros.spin_until(lambda: controller.commands.ignored >= 15)
    values = controller.commands.values(1.0)
    assert values['ignored_joint_states'] >= 15 and controller.commands.last is not None


def test_a_large_robot_description_parameter_loads_off_the_executor(ros):
    """MED 4: a 16 MB robot_description parameter stalled the node 2.8-3.6 s per change."""
    first = random_arm_urdf(61, 3, 'arm3')
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('robot_description', value=first)]))
    padding = '<!-- ' + 'x' * (2 << 20) + ' -->'           # 2 MB: over SYNC_PARSE_BYTES
    heavy = random_arm_urdf(62, 3, 'arm3b').replace('<robot', padding + '<robot', 1)
    result = dynamics.set_parameters([Parameter('robot_description', value=heavy)])[0]
    assert result.successful
    assert dynamics.model.name == 'arm3'                   # not loaded in the callback
    assert ros.spin_until(lambda: dynamics.model.name == 'arm3b', 20.0)
    expected = quiet_model_from_urdf(random_arm_urdf(62, 3, 'arm3b'))
    np.testing.assert_array_equal(dynamics.model.mass, expected.mass)
    broken = padding + '<robot name="x"><link/></robot>'
    assert dynamics.set_parameters([Parameter('robot_description', value=broken)])[0].successful
    assert ros.spin_until(lambda: 'the parameters are set back' in dynamics.last_error, 20.0)
    assert dynamics.get_parameter('robot_description').value == heavy
    assert dynamics.model.name == 'arm3b'
    small = dynamics.set_parameters([Parameter('robot_description',
                                               value='<robot name="x"><link/></robot>')])[0]
    assert not small.successful and 'does not load' in small.reason   # small: refused at once
