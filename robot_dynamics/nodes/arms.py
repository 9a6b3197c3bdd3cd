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
"""Several arms in one process: each arm's nodes, all of them on one executor.

::

    robot_dynamics_arms --arms config/arms.yaml [--robot ur5]
    ros2 launch robot_dynamics arms.launch.py arms:=config/arms.yaml [robot:=ur5]

Why one process (one interpreter, DDS participant and executor for all) and what it saves
against one process per arm: docs/latency.md, "Several arms in one process". The arms file,
its checks and each arm's nodes: :mod:`robot_dynamics.bringup.arms_file`.
"""

import sys

from rclpy.node import Node

from robot_dynamics.bringup.arms_file import arm_nodes
from robot_dynamics.bringup.command_lines import arms_arguments
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.nodes.parameters import node_arguments
from robot_dynamics.nodes.process import run_nodes
from robot_dynamics.nodes.simulation_node import SimulationNode

NODE_CLASSES = {'simulation_node': SimulationNode, 'dynamics_node': DynamicsNode}


def make_arm_nodes(arms, nodes, parameters, context=None) -> list[Node]:
    """Create every arm's nodes (in their namespaces, in ``context``); return them in order."""
    return [NODE_CLASSES[kind](context=context, namespace=namespace,
                               **node_arguments(values, remappings))
            for kind, namespace, values, remappings in arm_nodes(arms, nodes, parameters)]


def main(argv=None):
    """Console-script entry point ``robot_dynamics_arms``."""
    argv = sys.argv[1:] if argv is None else argv
    arms, nodes, parameters, ros_arguments = arms_arguments(argv)
    run_nodes(lambda: make_arm_nodes(arms, nodes, parameters),
              ['robot_dynamics_arms'] + ros_arguments)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
