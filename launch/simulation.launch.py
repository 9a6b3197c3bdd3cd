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

Starts simulation_node (publishing /clock), dynamics_node, joint_trajectory_controller (serving
``joint_trajectory_controller/follow_joint_trajectory``) and trajectory_publisher with
``config`` (default: the package's config/simulation.yaml) and the same remappings as
``robot_dynamics_bringup``, which runs this graph in one process where ``launch`` is not
installed. Arguments: ``robot`` (bundled model name), ``robot_description``
(URDF XML of your own robot, passed as a string, e.g. ``robot_description:="$(cat arm.urdf)"``;
it takes precedence over ``robot`` for every node), ``config``, ``use_feedforward`` (true or
false). The arguments are checked before any node starts: a bad value ends the launch with an
error and no node left running.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
               'trajectory_publisher')
CONFIGS = ('config/simulation.yaml',)

# Keep in step with robot_dynamics.nodes.bringup.REMAPPINGS.
REMAPPINGS = {
    'simulation_node': [],
    'dynamics_node': [('~/desired_trajectory', 'desired_trajectory')],
    'joint_trajectory_controller': [
        ('desired_trajectory', 'dynamics_node/accepted_trajectory'),
        ('effort_commands', 'simulation_node/effort_commands')],
    'trajectory_publisher': [],
}


def checked_arguments(context):
    """Return the arguments the nodes need; raise (so nothing starts) if one is bad."""
    robot = LaunchConfiguration('robot').perform(context).strip()
    description = LaunchConfiguration('robot_description').perform(context)
    description = description if description.strip() else ''
    if not robot and not description:
        raise ValueError('robot:=NAME (a bundled model such as puma560) or '
                         'robot_description:="$(cat arm.urdf)" is required')
    use_feedforward = LaunchConfiguration('use_feedforward').perform(context).strip().lower()
    if use_feedforward not in ('true', 'false'):
        raise ValueError(f'use_feedforward:={use_feedforward!r}: use true or false')
    return robot, description, use_feedforward == 'true'


def nodes(context):
    """Return the four nodes once every argument has been checked."""
    robot, description, use_feedforward = checked_arguments(context)
    config = LaunchConfiguration('config').perform(context)
    source = ({'robot_description': ParameterValue(description, value_type=str), 'model': ''}
              if description else {'model': robot})
    extra = {'simulation_node': source, 'dynamics_node': source, 'trajectory_publisher': source,
             'joint_trajectory_controller': {**source, 'use_feedforward': use_feedforward}}
    return [Node(package=PACKAGE, executable=name, name=name, output='screen',
                 parameters=[config, extra[name]], remappings=REMAPPINGS[name])
            for name in EXECUTABLES]


def generate_launch_description():
    """Declare the arguments, then the nodes (started only if the arguments are valid)."""
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560',
                              description='bundled model name'),
        DeclareLaunchArgument('robot_description', default_value='', description=(
            'URDF XML of your own robot; empty: `robot`')),
        DeclareLaunchArgument('config', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'simulation.yaml']),
            description='ros__parameters YAML of the four nodes'),
        DeclareLaunchArgument('use_feedforward', default_value='true',
                              description='false: PD on M(q) only, for comparison'),
        OpaqueFunction(function=nodes),
    ])
