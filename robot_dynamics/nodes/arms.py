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

A dual-arm or multi-arm cell runs one dynamics node (and, in simulation, one simulator) per
arm, each in the arm's namespace. One process per node costs a Python interpreter, a DDS
participant and an executor each; ``robot_dynamics_arms`` builds the nodes of every arm as
objects in one process and spins them on one executor (docs/latency.md: CPU per arm and
latency for 1, 2 and 4 arms against one process per arm)::

    robot_dynamics_arms --arms config/arms.yaml [--robot ur5]
    ros2 launch robot_dynamics arms.launch.py arms:=config/arms.yaml [robot:=ur5]

The arms file (YAML; default: the bundled ``config/arms.yaml``)::

    arms:                        # namespace: bundled model name, or a URDF or DH file
      left: panda
      right: panda
    nodes: [dynamics_node]       # what each arm gets: dynamics_node and/or simulation_node
    parameters:                  # per node kind, for every arm (ros__parameters values)
      dynamics_node: {publish_mode: on_message}

Each node is named as its own executable names it (``/left/dynamics_node``), so topics,
parameters and services are those of one node per process under ``namespace:=left``.
With simulated time (``use_sim_time`` / ``publish_clock`` true), each arm's ``/clock`` is
remapped to ``<namespace>/clock``, as launch/simulation.launch.py does.
"""

import argparse
import os
import sys

from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text
from robot_dynamics.nodes.launch_arguments import check_namespace, clock_remapping
from robot_dynamics.nodes.parameters import parameter_overrides

NODE_KINDS = ('simulation_node', 'dynamics_node')


def read_arms(path):
    """Return ``(arms, nodes, parameters)`` from an arms file, checked.

    ``arms``: ``[(namespace, robot)]``; ``nodes``: node kinds each arm gets; ``parameters``:
    ``{kind: {name: value}}``. Raises ``ValueError`` naming what is wrong.
    """
    document = load_yaml(read_yaml_text(path), str(path)) or {}
    arms = document.get('arms') or {}
    if not isinstance(arms, dict) or not arms:
        raise ValueError(f"{path}: 'arms' must map namespaces to robots, e.g. arms: {{left: "
                         'panda, right: panda}')
    checked = [(check_namespace(str(name)), str(robot)) for name, robot in arms.items()]
    if any(not namespace for namespace, _ in checked):
        raise ValueError(f'{path}: every arm needs a namespace')
    nodes = document.get('nodes') or ['dynamics_node']
    unknown = sorted(set(nodes) - set(NODE_KINDS))
    if unknown:
        raise ValueError(f'{path}: unknown node kinds {unknown}: use {list(NODE_KINDS)}')
    parameters = document.get('parameters') or {}
    unknown = sorted(set(parameters) - set(NODE_KINDS))
    if unknown:
        raise ValueError(f'{path}: parameters for unknown node kinds {unknown}')
    return checked, list(nodes), {kind: dict(values or {}) for kind, values in
                                  parameters.items()}


def make_arm_nodes(arms, nodes, parameters, context=None):
    """Create every arm's nodes (in their namespaces); returns them in arm order."""
    from robot_dynamics.nodes.bringup import REMAPPINGS, model_parameter
    from robot_dynamics.nodes.dynamics_node import DynamicsNode
    from robot_dynamics.nodes.simulation_node import SimulationNode
    classes = {'simulation_node': SimulationNode, 'dynamics_node': DynamicsNode}
    made = []
    for namespace, robot in arms:
        for kind in nodes:
            values = dict(parameters.get(kind, {}))
            values[model_parameter(robot)] = robot
            sim_time = values.get('use_sim_time', False) or values.get('publish_clock', False)
            remaps = REMAPPINGS[kind] + clock_remapping(namespace, sim_time)
            arguments = [arg for source, target in remaps
                         for arg in ('-r', f'{source}:={target}')]
            made.append(classes[kind](
                context=context, namespace=namespace,
                parameter_overrides=parameter_overrides(values),
                cli_args=['--ros-args'] + arguments if arguments else None))
    return made


def default_arms_file():
    """Path of the bundled config/arms.yaml."""
    from robot_dynamics.nodes.bringup import config_path
    return config_path('arms.yaml')


def main(argv=None):
    """Console-script entry point ``robot_dynamics_arms``."""
    from robot_dynamics.nodes.process import run_nodes
    argv = sys.argv[1:] if argv is None else argv
    own = argv[:argv.index('--ros-args')] if '--ros-args' in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--arms', default=None,
                        help='arms file (default: the bundled config/arms.yaml)')
    parser.add_argument('--robot', default='',
                        help="every arm's robot (bundled name or file; default: the file's)")
    args = parser.parse_args(own)
    path = args.arms or default_arms_file()
    if not os.path.isfile(path):
        parser.error(f'--arms {path}: no such file')
    try:
        arms, nodes, parameters = read_arms(path)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    if args.robot.strip():
        arms = [(namespace, args.robot.strip()) for namespace, _ in arms]
    run_nodes(lambda: make_arm_nodes(arms, nodes, parameters),
              ['robot_dynamics_arms'] + argv[len(own):])
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
