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
"""The one-process demo's graph: its nodes, their parameters and remappings, its record.

What ``robot_dynamics_bringup`` (nodes/bringup.py) and launch/simulation.launch.py start: the
simulator, the dynamics node, the joint-trajectory controller and the trajectory publisher,
with the parameters of ``config/simulation.yaml`` (its ``ros__parameters`` sections) and the
launch file's remappings.
"""

import os

import numpy as np

from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text
from robot_dynamics.model.bundled import BUNDLED_MODELS, data_path
from robot_dynamics.simulation.tracking import TrackingRun

SETTLE = 0.3        # simulated s recorded after the end of the motion

# The demo's nodes in the order they start, and their remappings: launch/simulation.launch.py's
# (relative names: they follow a namespace).
REMAPPINGS = {
    'simulation_node': [],
    'dynamics_node': [('~/desired_trajectory', 'desired_trajectory')],
    'joint_trajectory_controller': [
        ('desired_trajectory', 'dynamics_node/accepted_trajectory'),
        ('effort_commands', 'simulation_node/effort_commands')],
    'trajectory_publisher': [],
}


def config_path(name='simulation.yaml'):
    """Path of a bundled config file (installed share directory, else the source tree)."""
    try:
        return data_path(os.path.join('config', name))
    except FileNotFoundError:
        source_tree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
            __file__))))
        return os.path.join(source_tree, 'config', name)


def load_parameters(path):
    """``{node_name: {parameter: value}}`` from a ``ros__parameters`` YAML file.

    Keys may carry a namespace or a wildcard (``/**/dynamics_node``); the node name is the
    last part.
    """
    document = load_yaml(read_yaml_text(path), str(path)) or {}
    return {node.rstrip('/').rsplit('/', 1)[-1]: (body or {}).get('ros__parameters', {})
            for node, body in document.items()}


def model_parameter(robot):
    """Return the parameter for ``robot``: ``model`` (bundled name), ``dh_file``, ``urdf_file``."""
    if robot in BUNDLED_MODELS:
        return 'model'
    return 'dh_file' if str(robot).endswith(('.yaml', '.yml')) else 'urdf_file'


def demo_parameters(robot, feedforward=True, config=None, extra=None):
    """Return ``{node name: {parameter: value}}`` of the demo's nodes, in start order.

    The config's ``ros__parameters`` (default: the bundled config/simulation.yaml), the robot
    (:func:`model_parameter`), the controller's feed-forward and recording, then ``extra``
    (``{node name: {parameter: value}}``) over them.
    """
    parameters = load_parameters(config or config_path())
    nodes = {}
    for name in REMAPPINGS:
        values = dict(parameters.get(name, {}))
        values[model_parameter(robot)] = robot
        if name == 'joint_trajectory_controller':
            values.update(use_feedforward=feedforward, record=True)
        values.update((extra or {}).get(name, {}))
        nodes[name] = values
    return nodes


def unfinished(end, sim_time, wall_timeout):
    """Return why a demo run did not finish in ``wall_timeout`` wall seconds."""
    if end is None:
        return (f'demo: the trajectory publisher published no motion in {wall_timeout} s '
                f'(simulated time {sim_time:.2f} s)')
    if sim_time < end:
        return f'demo did not reach t = {end:.2f} s in {wall_timeout} s (t = {sim_time:.2f} s)'
    return f'demo: its observers were not done after {wall_timeout} s (t = {sim_time:.2f} s)'


def tracking_run(log, start, joint_names, compute_times, wall_time, sim_time, feedforward):
    """Return the :class:`TrackingRun` of the controller's record from ``start`` (s) on.

    ``log``: the controller's rows ``(t, q_d, q, tau)``; ``start``: the motion's start, None
    if none was published. Raises ``RuntimeError`` when nothing was recorded since.
    """
    rows = [row for row in log if start is not None and row[0] >= start]
    if not rows:
        raise RuntimeError('the controller recorded nothing: the graph did not connect')
    t, q_desired, q, tau = (np.array(column) for column in zip(*rows))
    return TrackingRun(joint_names, t, q_desired, q, tau, np.array(compute_times), wall_time,
                       sim_time, feedforward)
