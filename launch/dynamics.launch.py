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
"""Launch dynamics_node for a robot: ``ros2 launch robot_dynamics dynamics.launch.py``.

Without arguments the node takes the model from the ``robot_description`` topic, as
robot_state_publisher publishes it: the robot the user actually runs. Arguments:
``robot_description`` (URDF XML, passed as a string), ``robot`` (a bundled model such as
``puma560``, used when no robot_description is given), ``friction_file`` (the friction file
``robot-dynamics identify`` writes next to the URDF: the joints' whole friction law),
``config`` (ros__parameters YAML, keys
``/**/dynamics_node`` so that it applies in any namespace), ``namespace``,
``feedforward_topic`` to remap ``~/feedforward_torques`` onto an effort controller's
``~/commands``, e.g. ``feedforward_topic:=/effort_controller/commands``, and ``use_sim_time``
(true or false; empty, the default: the config's value, else false).
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare
from robot_dynamics.bringup.launch_arguments import (check_bool, check_friction_file,
                                                     check_namespace, check_robot)

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('dynamics_node',)
CONFIGS = ('config/dynamics.yaml',)


def string_parameter(argument):
    """Pass a launch argument as a string parameter, never parsed as YAML."""
    return ParameterValue(LaunchConfiguration(argument), value_type=str)


def generate_launch_description():
    """Declare the arguments and the dynamics node."""
    default_config = PathJoinSubstitution([FindPackageShare(PACKAGE), 'config',
                                           'dynamics.yaml'])
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='', description=(
            'bundled model name, e.g. puma560; empty: robot_description, else the '
            'robot_description topic')),
        DeclareLaunchArgument('config', default_value=default_config,
                              description='ros__parameters YAML of dynamics_node'),
        DeclareLaunchArgument('robot_description', default_value='', description=(
            'URDF XML; empty: `robot`, else the robot_description topic')),
        DeclareLaunchArgument('friction_file', default_value='', description=(
            "friction file (identify's FILE.friction.yaml): the joints' whole friction law; "
            'empty: the model\'s own friction')),
        DeclareLaunchArgument('namespace', default_value='',
                              description='namespace of the node'),
        DeclareLaunchArgument('feedforward_topic', default_value='~/feedforward_torques',
                              description='where to publish the feed-forward torques'),
        DeclareLaunchArgument('use_sim_time', default_value='', description=(
            'true: the node runs on /clock; empty: the config decides (default false)')),
        OpaqueFunction(function=dynamics_node),
    ])


def dynamics_node(context):
    """Return the node; ``use_sim_time``, when given, after the config so that it wins."""
    parameters = [LaunchConfiguration('config'),
                  {'model': string_parameter('robot'),
                   'robot_description': string_parameter('robot_description')}]
    check_robot(LaunchConfiguration('robot').perform(context), required=False)
    friction = check_friction_file(LaunchConfiguration('friction_file').perform(context))
    if friction:
        parameters.append({'friction_file': ParameterValue(friction, value_type=str)})
    use_sim_time = check_bool('use_sim_time',
                              LaunchConfiguration('use_sim_time').perform(context),
                              allow_empty=True)
    if use_sim_time is not None:
        parameters.append({'use_sim_time': use_sim_time})
    namespace = check_namespace(LaunchConfiguration('namespace').perform(context))
    return [Node(package=PACKAGE, executable='dynamics_node', name='dynamics_node',
                 namespace=namespace, output='screen',
                 parameters=parameters,
                 remappings=[('~/feedforward_torques',
                              LaunchConfiguration('feedforward_topic'))])]
