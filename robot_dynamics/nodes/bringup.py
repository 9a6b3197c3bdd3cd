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
"""Start the simulation demo in one process: what launch/simulation.launch.py starts.

The simulator, the dynamics node, the computed-torque controller and the trajectory publisher
run on one executor (the nodes' own, ``process.make_executor``) with the parameters of
``config/simulation.yaml`` (its ``ros__parameters`` sections, passed as parameter overrides)
and the launch file's remappings.
After the run it prints the tracking error per joint and the dynamics node's compute time, and
can plot desired vs actual positions and torques::

    robot_dynamics_bringup --robot puma560 --plot out/demo.png [--no-feedforward]
"""

import argparse
import os
import time

import numpy as np

import robot_dynamics as rd
from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text
from robot_dynamics.nodes.parameters import parameter_overrides
from robot_dynamics.simulation.tracking import TrackingRun, plot, report

SETTLE = 0.3        # simulated s recorded after the end of the motion

# Remappings shared with launch/simulation.launch.py (relative names: they follow a namespace).
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
        return rd.data_path(os.path.join('config', name))
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
    if robot in rd.BUNDLED_MODELS:
        return 'model'
    return 'dh_file' if str(robot).endswith(('.yaml', '.yml')) else 'urdf_file'


def make_nodes(context, robot, feedforward=True, config=None, namespace='', extra=None):
    """Create the four demo nodes with the config's parameters; returns ``{name: node}``."""
    from robot_dynamics.nodes.dynamics_node import DynamicsNode
    from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
    from robot_dynamics.nodes.simulation_node import SimulationNode
    from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher

    classes = {'simulation_node': SimulationNode, 'dynamics_node': DynamicsNode,
               'joint_trajectory_controller': JointTrajectoryController,
               'trajectory_publisher': TrajectoryPublisher}
    parameters = load_parameters(config or config_path())
    nodes = {}
    for name, node_class in classes.items():
        values = dict(parameters.get(name, {}))
        values[model_parameter(robot)] = robot
        if name == 'joint_trajectory_controller':
            values.update(use_feedforward=feedforward, record=True)
        values.update((extra or {}).get(name, {}))
        remaps = [arg for source, target in REMAPPINGS[name]
                  for arg in ('-r', f'{source}:={target}')]
        nodes[name] = node_class(
            context=context, namespace=namespace or None,
            parameter_overrides=parameter_overrides(values),
            cli_args=['--ros-args'] + remaps if remaps else None)
    return nodes


def unfinished(end, sim_time, wall_timeout):
    """Return why a demo run did not finish in ``wall_timeout`` wall seconds."""
    if end is None:
        return (f'demo: the trajectory publisher published no motion in {wall_timeout} s '
                f'(simulated time {sim_time:.2f} s)')
    if sim_time < end:
        return f'demo did not reach t = {end:.2f} s in {wall_timeout} s (t = {sim_time:.2f} s)'
    return f'demo: its observers were not done after {wall_timeout} s (t = {sim_time:.2f} s)'


def run_demo(robot='puma560', duration=None, feedforward=True, config=None, namespace='',
             extra=None, wall_timeout=300.0, observers=(), until=None):
    """Run the closed loop for ``duration`` simulated seconds, by default the motion + 0.3 s.

    By default the run lasts until :data:`SETTLE` simulated seconds after the end of the
    trajectory publisher's motion (its ``end``), which starts ``start_delay`` after the
    publisher's timer first sees the clock: seconds late on a loaded machine, so a run to
    ``start_delay`` + the motion's duration would cut the motion short. ``observers``: factories
    ``factory(context, namespace) -> node`` of extra nodes (such as a joint-state recorder)
    spun on the same executor and destroyed with the demo's nodes. ``until``: a callable; the
    run goes on until it also returns true (an observer's condition). ``wall_timeout``: wall
    seconds for all of it (``TimeoutError``).
    """
    import rclpy
    from robot_dynamics.nodes.executors import spin_surviving
    from robot_dynamics.nodes.process import make_executor
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = make_executor(context)
    nodes = {}
    try:
        nodes = make_nodes(context, robot, feedforward, config, namespace, extra)
        for k, factory in enumerate(observers):
            nodes[f'observer{k}'] = factory(context, namespace or None)
        for node in nodes.values():
            executor.add_node(node)
        simulator = nodes['simulation_node'].simulator
        trajectory = nodes['trajectory_publisher']
        if trajectory.waypoints() is None:
            raise RuntimeError(f'the demo motion was refused, nothing to run: '
                               f'{trajectory.refused}')
        end = duration
        wall_start = time.monotonic()
        while not simulator.failed:
            if end is None and trajectory.end is not None:      # its first motion, published
                end = trajectory.end.nanoseconds * 1e-9 + SETTLE
            if end is not None and simulator.sim_time >= end and (until is None or until()):
                break
            spin_surviving(executor, timeout_sec=0.01)     # a callback's exception is logged
            if time.monotonic() - wall_start > wall_timeout:
                raise TimeoutError(unfinished(end, simulator.sim_time, wall_timeout))
        if simulator.failed:
            raise rd.SimulationError(simulator.error)
        controller = nodes['joint_trajectory_controller']
        if not controller.followed:
            reason = nodes['dynamics_node'].last_error or controller.last_error or 'no reason'
            raise RuntimeError(f'the demo trajectory never reached the controller: {reason}')
        log = [row for row in controller.log
               if trajectory.end is not None and row[0] >= trajectory.start.nanoseconds * 1e-9]
        if not log:
            raise RuntimeError('the controller recorded nothing: the graph did not connect')
        t, q_desired, q, tau = (np.array(column) for column in zip(*log))
        return TrackingRun(controller.joint_names, t, q_desired, q, tau,
                           np.array(nodes['dynamics_node'].statistics.durations),
                           time.monotonic() - wall_start, simulator.sim_time, feedforward)
    finally:
        for node in nodes.values():
            executor.remove_node(node)
        for _ in range(3):                  # let dispatched callbacks finish first
            executor.spin_once(timeout_sec=0.02)
        executor.shutdown()
        for node in nodes.values():
            node.destroy_node()
        rclpy.try_shutdown(context=context)


def check_robot(robot):
    """Return an error line for a ``--robot`` that is neither bundled nor a file, else None."""
    if robot in rd.BUNDLED_MODELS or os.path.isfile(robot):
        return None
    return (f'robot_dynamics_bringup: error: --robot {robot!r} is neither a bundled model '
            f'({", ".join(sorted(rd.BUNDLED_MODELS))}) nor a URDF/DH file')


def main(argv=None):
    """Console-script entry point ``robot_dynamics_bringup``."""
    import sys
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--robot', default='puma560', help='bundled model name or file')
    parser.add_argument('--duration', type=float, default=None,
                        help='simulated seconds (default: the trajectory plus 0.3 s)')
    parser.add_argument('--plot', default=None, help='write a PNG plot here')
    parser.add_argument('--no-feedforward', action='store_true',
                        help='disable the feed-forward torques (PD on M only)')
    parser.add_argument('--compare', action='store_true',
                        help='also run without feed-forward, print the error ratio and plot both')
    parser.add_argument('--config', default=None, help='ros__parameters YAML '
                        '(default: the bundled config/simulation.yaml)')
    args, _ = parser.parse_known_args(argv)
    error = check_robot(args.robot)
    if error:
        print(error, file=sys.stderr)
        return 2
    try:
        return demo(args)
    except (rd.SimulationError, rd.ModelError, TimeoutError, RuntimeError, OSError) as exc:
        print(f'robot_dynamics_bringup: error: {" ".join(str(exc).split())}', file=sys.stderr)
        return 1


def demo(args):
    """Run the demo as ``args`` ask, print the reports, write the plot."""
    result = run_demo(args.robot, args.duration, not args.no_feedforward, args.config)
    mode = 'without' if args.no_feedforward else 'with'
    print(report(result, f'[{args.robot}, {mode} feed-forward] '))
    baseline = None
    if args.compare and not args.no_feedforward:
        baseline = run_demo(args.robot, args.duration, False, args.config)
        print(report(baseline, f'[{args.robot}, without feed-forward] '))
        ratio = np.sqrt(np.mean(baseline.rms_error ** 2)) / np.sqrt(np.mean(
            result.rms_error ** 2))
        print(f'feed-forward reduces the overall RMS tracking error {ratio:.1f}x')
    if args.plot:
        plot(result, args.plot, f'{args.robot}: computed-torque control', baseline)
        print(f'plot written to {args.plot}')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
