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
"""Upstream's parameter names on the trajectory controller, with upstream's meanings (31 LOW).

``joints``, ``allow_partial_joints_goal``, ``allow_nonzero_velocity_at_trajectory_end`` and
``constraints.*`` were silently ignored; now they mean what they mean in ros2_control, and a
parameter of upstream's that this controller does not use is named in one WARN with why.
"""

import numpy as np
import pytest
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

import robot_dynamics as rd
from robot_dynamics.nodes import parameters
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController


def controller(ros, **values):
    overrides = [Parameter('model', value='ur5')] + [
        Parameter(name, value=value) for name, value in values.items()]
    return ros.add(JointTrajectoryController(namespace=ros.namespace,
                                             parameter_overrides=overrides))


def test_upstream_constraints_replace_the_defaults_with_their_meaning(ros):
    node = controller(ros, **{'constraints.shoulder_pan_joint.goal': 0.2,
                              'constraints.elbow_joint.trajectory': 0.0,
                              'constraints.goal_time': 0.0, 'path_tolerance': 0.1})
    tolerances = parameters.default_tolerances(node, node.joint_names)
    assert tolerances.goal_position[0] == 0.2                 # upstream's, set
    assert tolerances.goal_position[1] == 0.01                # ours: goal_tolerance
    assert tolerances.path_position[2] == np.inf              # upstream's 0: not checked
    assert tolerances.path_position[0] == 0.1                 # ours: path_tolerance
    assert tolerances.goal_time == 0.0                        # 0: no limit (upstream)
    assert tolerances.goal_velocity[0] == 0.05                # ours: not set upstream
    rules = parameters.goal_rules(node)
    assert not (rules.allow_partial_joints_goal or rules.allow_nonzero_velocity_at_trajectory_end)


def test_joints_orders_the_commands_and_must_name_every_joint(ros):
    names = list(rd.load_model('ur5').joint_names)
    reordered = controller(ros, joints=names[::-1])
    probe = ros.node('probe')
    commands = []
    probe.create_subscription(Float64MultiArray, 'effort_commands',
                              lambda msg: commands.append(np.array(msg.data)), 10)
    states = probe.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
    assert ros.spin_until(lambda: states.get_subscription_count() > 0
                          and reordered.pub_command.get_subscription_count() > 0)
    q = np.linspace(-0.3, 0.3, 6)
    states.publish(JointState(name=names, position=list(q), velocity=[0.0] * 6))
    assert ros.spin_until(lambda: commands)
    # The first state is held at rest: the command is the gravity torque (UR5: no friction).
    np.testing.assert_allclose(commands[0], rd.gravity_torques(rd.load_model('ur5'), q)[::-1],
                               rtol=0, atol=1e-9)
    with pytest.raises(ValueError, match='must name each model joint once'):
        controller(ros, joints=names[:5])


def test_upstream_parameters_this_controller_does_not_use_are_named(ros):
    node = controller(ros, command_interfaces=['effort'], state_interfaces=['position'],
                      **{'gains.shoulder_pan_joint.p': 100.0, 'goal_tolerence': 0.1})
    notes = parameters.unknown_parameters(node)
    assert 'parameter command_interfaces ignored: commands are efforts' in notes[0]
    assert any('gains.shoulder_pan_joint.p ignored: the feedback is computed torque: set kp'
               in note for note in notes)
    assert any('goal_tolerence ignored: not a parameter of this controller (a typo?)' in note
               for note in notes)
    assert len(notes) == 4
