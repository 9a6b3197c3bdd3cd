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
"""The arms file of ``robot_dynamics_arms``: the arms, the nodes each gets, their parameters.

A dual-arm or multi-arm cell runs one dynamics node (and, in simulation, one simulator) per
arm, each in the arm's namespace (nodes/arms.py runs them in one process). The arms file
(YAML; default: the bundled ``config/arms.yaml``)::

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

from robot_dynamics.bringup.demo_graph import config_path, model_parameter, REMAPPINGS
from robot_dynamics.bringup.launch_arguments import check_namespace, clock_remapping
from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text

NODE_KINDS = ('simulation_node', 'dynamics_node')


def default_arms_file():
    """Path of the bundled config/arms.yaml."""
    return config_path('arms.yaml')


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


def arm_nodes(arms, nodes, parameters):
    """Return ``[(kind, namespace, parameters, remappings)]``: every arm's nodes, in arm order.

    Each node gets its kind's parameters and the arm's robot (:func:`model_parameter`), and
    the demo's remappings for its kind, with ``/clock`` moved into the namespace when the
    node runs on simulated time.
    """
    made = []
    for namespace, robot in arms:
        for kind in nodes:
            values = dict(parameters.get(kind, {}))
            values[model_parameter(robot)] = robot
            sim_time = values.get('use_sim_time', False) or values.get('publish_clock', False)
            made.append((kind, namespace, values,
                         REMAPPINGS[kind] + clock_remapping(namespace, sim_time)))
    return made
