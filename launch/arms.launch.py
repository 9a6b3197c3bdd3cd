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
"""Launch several arms in one process: ``ros2 launch robot_dynamics arms.launch.py``.

Starts one ``robot_dynamics_arms`` process serving every arm of ``arms`` (an arms file,
default: the package's config/arms.yaml: a namespace and a robot per arm, the nodes each arm
gets and their parameters; see robot_dynamics/bringup/arms_file.py). Each arm's nodes answer in its
namespace (``/left/dynamics_node/...``) as one node per process would. ``robot`` (a bundled
model name or a URDF/DH file; empty, the default: each arm's own) gives every arm that robot.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration, PathJoinSubstitution
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

PACKAGE = 'robot_dynamics'
EXECUTABLES = ('robot_dynamics_arms',)
CONFIGS = ()                  # the arms file is not a ros__parameters file: see arms.py


def generate_launch_description():
    """Declare the arms file argument and the one process that serves its arms."""
    return LaunchDescription([
        DeclareLaunchArgument('arms', default_value=PathJoinSubstitution(
            [FindPackageShare(PACKAGE), 'config', 'arms.yaml']),
            description='arms file: namespaces and robots, node kinds, their parameters'),
        DeclareLaunchArgument('robot', default_value='', description=(
            "every arm's robot (bundled name or URDF/DH file); empty: the arms file's")),
        Node(package=PACKAGE, executable=EXECUTABLES[0], output='screen',
             arguments=['--arms', LaunchConfiguration('arms'),
                        '--robot', LaunchConfiguration('robot')]),
    ])
