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
"""Launch the simulation demo: ``ros2 launch robot_dynamics simulation.launch.py``.

Starts simulation_node (publishing /clock), dynamics_node, computed_torque_controller and
trajectory_publisher with ``config`` (default: the package's config/simulation.yaml) and the
same remappings as ``robot_dynamics_bringup``, which runs this graph in one process where
``launch`` is not installed. Arguments: ``robot`` (bundled model name), ``config``,
``use_feedforward``.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('simulation_node', 'dynamics_node', 'computed_torque_controller',
               'trajectory_publisher')
CONFIGS = ('config/simulation.yaml',)

# Keep in step with robot_dynamics.nodes.bringup.REMAPPINGS.
REMAPPINGS = {
    'simulation_node': [],
    'dynamics_node': [('~/desired_trajectory', 'desired_trajectory')],
    'computed_torque_controller': [
        ('feedforward_torques', 'dynamics_node/feedforward_torques'),
        ('feedforward_joint_states', 'dynamics_node/feedforward_joint_states'),
        ('mass_matrix', 'dynamics_node/mass_matrix'),
        ('effort_commands', 'simulation_node/effort_commands')],
    'trajectory_publisher': [],
}


def generate_launch_description():
    """Declare the arguments and the four nodes."""
    config = LaunchConfiguration('config')
    robot = {'model': LaunchConfiguration('robot')}
    feedforward = {'use_feedforward': ParameterValue(LaunchConfiguration('use_feedforward'),
                                                     value_type=bool)}
    extra = {'simulation_node': robot, 'dynamics_node': robot, 'trajectory_publisher': robot,
             'computed_torque_controller': feedforward}
    nodes = [Node(package=PACKAGE, executable=name, name=name, output='screen',
                  parameters=[config, extra[name]], remappings=REMAPPINGS[name])
             for name in EXECUTABLES]
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560',
                              description='bundled model name'),
        DeclareLaunchArgument('config', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'simulation.yaml']),
            description='ros__parameters YAML of the four nodes'),
        DeclareLaunchArgument('use_feedforward', default_value='true',
                              description='false: PD on M(q) only, for comparison'),
    ] + nodes)
