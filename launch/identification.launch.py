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
"""Launch an excitation run on a "true" simulated robot and record it for identification.

The simulation demo's graph (simulation_node, dynamics_node, joint_trajectory_controller,
trajectory_publisher; config/simulation.yaml, the same remappings) plus joint_state_recorder,
with the parameters of ``params`` on top: the simulator runs the "true" robot's URDF from its
first excitation point, the dynamics node keeps the nominal ``robot``, the trajectory
publisher sends the excitation, the recorder writes ``joint_states`` to a bag. Prepare
``params`` (and the files it names) with::

    robot_dynamics_identification_demo --robot puma560 --out out/id --prepare-only

which prints this launch command and the ``robot-dynamics identify`` command that follows it;
without ``--prepare-only`` the demo runs every step in one process. Arguments ``robot``,
``params``, ``config``, ``use_sim_time`` (true, the default) and ``namespace``, as in
simulation.launch.py; they are checked before any node starts (non-zero exit, clear message).
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare
from robot_dynamics.bringup.launch_arguments import (check_bool, check_namespace, check_robot,
                                                     clock_remapping)

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
               'trajectory_publisher', 'joint_state_recorder')
CONFIGS = ('config/simulation.yaml',)

# Keep in step with robot_dynamics.bringup.demo_graph.REMAPPINGS.
REMAPPINGS = {
    'simulation_node': [],
    'dynamics_node': [('~/desired_trajectory', 'desired_trajectory')],
    'joint_trajectory_controller': [
        ('desired_trajectory', 'dynamics_node/accepted_trajectory'),
        ('effort_commands', 'simulation_node/effort_commands')],
    'trajectory_publisher': [],
    'joint_state_recorder': [],
}


def nodes(context):
    """Return the five nodes once every argument has been checked."""
    def argument(name):
        return LaunchConfiguration(name).perform(context)
    robot = check_robot(argument('robot'))
    use_sim_time = check_bool('use_sim_time', argument('use_sim_time'))
    namespace = check_namespace(argument('namespace'))
    params, config = argument('params'), argument('config')
    for name, path in (('params', params), ('config', config)):
        if not os.path.isfile(path):
            raise ValueError(f'{name}:={path!r} is not a file; prepare it with '
                             'robot_dynamics_identification_demo --prepare-only')
    extra = {'simulation_node': {}, 'dynamics_node': {'model': robot},
             'joint_trajectory_controller': {'model': robot},
             'trajectory_publisher': {'model': robot}, 'joint_state_recorder': {}}
    clock = clock_remapping(namespace, use_sim_time)
    return [Node(package=PACKAGE, executable=name, name=name, namespace=namespace,
                 output='screen',
                 parameters=([config, extra[name], params] if name != 'joint_state_recorder'
                             else [params]) + [timing(name, use_sim_time)],
                 remappings=REMAPPINGS[name] + clock)
            for name in EXECUTABLES]


def timing(name, use_sim_time):
    """Clock parameters: the simulator publishes /clock (on wall time itself) or not at all."""
    if name == 'simulation_node':
        return {'publish_clock': use_sim_time, 'use_sim_time': False}
    return {'use_sim_time': use_sim_time}


def generate_launch_description():
    """Declare the arguments, then the nodes (started only if the arguments are valid)."""
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560',
                              description='bundled model name: the nominal model'),
        DeclareLaunchArgument('params', description='ros__parameters YAML written by '
                              'robot_dynamics_identification_demo --prepare-only'),
        DeclareLaunchArgument('config', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'simulation.yaml']),
            description='ros__parameters YAML of the demo nodes'),
        DeclareLaunchArgument('use_sim_time', default_value='true', description=(
            'true: the simulator publishes /clock and every other node runs on it; false: '
            'all on wall time')),
        DeclareLaunchArgument('namespace', default_value='', description=(
            'namespace of every node; with simulated time /clock becomes <namespace>/clock')),
        OpaqueFunction(function=nodes),
    ])
