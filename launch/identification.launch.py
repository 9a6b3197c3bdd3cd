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
without ``--prepare-only`` the demo runs every step in one process.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
               'trajectory_publisher', 'joint_state_recorder')
CONFIGS = ('config/simulation.yaml',)

# Keep in step with robot_dynamics.nodes.bringup.REMAPPINGS.
REMAPPINGS = {
    'simulation_node': [],
    'dynamics_node': [('~/desired_trajectory', 'desired_trajectory')],
    'joint_trajectory_controller': [
        ('desired_trajectory', 'dynamics_node/accepted_trajectory'),
        ('effort_commands', 'simulation_node/effort_commands')],
    'trajectory_publisher': [],
    'joint_state_recorder': [],
}


def generate_launch_description():
    """Declare the arguments and the five nodes."""
    config = LaunchConfiguration('config')
    params = LaunchConfiguration('params')
    robot = {'model': LaunchConfiguration('robot')}
    extra = {'simulation_node': {}, 'dynamics_node': robot, 'joint_trajectory_controller': robot,
             'trajectory_publisher': robot, 'joint_state_recorder': {}}
    nodes = [Node(package=PACKAGE, executable=name, name=name, output='screen',
                  parameters=[config, extra[name], params] if name != 'joint_state_recorder'
                  else [params], remappings=REMAPPINGS[name])
             for name in EXECUTABLES]
    return LaunchDescription([
        DeclareLaunchArgument('robot', default_value='puma560',
                              description='bundled model name: the nominal model'),
        DeclareLaunchArgument('params', description='ros__parameters YAML written by '
                              'robot_dynamics_identification_demo --prepare-only'),
        DeclareLaunchArgument('config', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'simulation.yaml']),
            description='ros__parameters YAML of the demo nodes'),
    ] + nodes)
