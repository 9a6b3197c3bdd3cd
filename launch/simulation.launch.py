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
it takes precedence over ``robot`` for every node), ``friction_file`` (the friction file
``robot-dynamics identify`` writes next to the URDF, for every node: the joints' whole
friction law), ``config``, ``use_feedforward`` (true or
false), ``use_sim_time`` (true, the default: the simulator publishes /clock and every other
node runs on it; false: all on wall time) and ``namespace`` (every node in it; with simulated
time ``/clock`` is remapped to ``<namespace>/clock``, so two arms keep their own time). The
arguments are checked before any node starts: a bad value (an unknown ``robot``) ends the
launch with an error, a non-zero exit and no node left running.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from launch_ros.substitutions import FindPackageShare
from robot_dynamics.bringup.launch_arguments import (check_bool, check_friction_file,
                                                     check_namespace, check_robot, clock_remapping)

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
               'trajectory_publisher')
CONFIGS = ('config/simulation.yaml',)

# Keep in step with robot_dynamics.bringup.demo_graph.REMAPPINGS.
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
    def argument(name):
        return LaunchConfiguration(name).perform(context)
    description = argument('robot_description')
    description = description if description.strip() else ''
    robot = check_robot(argument('robot'), required=not description)
    use_feedforward = check_bool('use_feedforward', argument('use_feedforward'))
    use_sim_time = check_bool('use_sim_time', argument('use_sim_time'))
    return robot, description, use_feedforward, use_sim_time, \
        check_namespace(argument('namespace')), check_friction_file(argument('friction_file'))


def timing(name, use_sim_time):
    """Clock parameters: the simulator publishes /clock (on wall time itself) or not at all."""
    if name == 'simulation_node':
        return {'publish_clock': use_sim_time, 'use_sim_time': False}
    return {'use_sim_time': use_sim_time}


def nodes(context):
    """Return the four nodes once every argument has been checked."""
    robot, description, use_feedforward, use_sim_time, namespace, friction = \
        checked_arguments(context)
    config = LaunchConfiguration('config').perform(context)
    source = ({'robot_description': ParameterValue(description, value_type=str), 'model': ''}
              if description else {'model': robot})
    if friction:
        source['friction_file'] = ParameterValue(friction, value_type=str)
    extra = {'simulation_node': source, 'dynamics_node': source, 'trajectory_publisher': source,
             'joint_trajectory_controller': {**source, 'use_feedforward': use_feedforward}}
    clock = clock_remapping(namespace, use_sim_time)
    return [Node(package=PACKAGE, executable=name, name=name, namespace=namespace,
                 output='screen', parameters=[config, extra[name], timing(name, use_sim_time)],
                 remappings=REMAPPINGS[name] + clock)
            for name in EXECUTABLES]


def generate_launch_description():
    """Declare the arguments, then the nodes (started only if the arguments are valid)."""
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560',
                              description='bundled model name'),
        DeclareLaunchArgument('robot_description', default_value='', description=(
            'URDF XML of your own robot; empty: `robot`')),
        DeclareLaunchArgument('friction_file', default_value='', description=(
            "friction file (identify's FILE.friction.yaml) for every node: the joints' whole "
            "friction law; empty: the model's own friction")),
        DeclareLaunchArgument('config', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'simulation.yaml']),
            description='ros__parameters YAML of the four nodes'),
        DeclareLaunchArgument('use_feedforward', default_value='true',
                              description='false: PD on M(q) only, for comparison'),
        DeclareLaunchArgument('use_sim_time', default_value='true', description=(
            'true: the simulator publishes /clock and every other node runs on it; false: '
            'every node on wall time, joint_states stamped with the wall clock')),
        DeclareLaunchArgument('namespace', default_value='', description=(
            'namespace of every node (two arms in one domain: namespace:=arm1, arm2; each '
            'gets its own <namespace>/clock)')),
        OpaqueFunction(function=nodes),
    ])
