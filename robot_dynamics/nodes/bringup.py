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

The simulator, the dynamics node, the joint-trajectory controller and the trajectory publisher
run on one executor (the nodes' own, ``process.make_executor``) with the parameters and
remappings of :mod:`robot_dynamics.bringup.demo_graph`; the command line and its reports are
:mod:`robot_dynamics.bringup.command_lines`'s::

    robot_dynamics_bringup --robot puma560 --plot out/demo.png [--no-feedforward]
"""

import time

import rclpy

from robot_dynamics.bringup.command_lines import bringup_main
from robot_dynamics.bringup.demo_graph import (demo_parameters, REMAPPINGS, SETTLE, tracking_run,
                                               unfinished)
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.nodes.executors import spin_surviving
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
from robot_dynamics.nodes.parameters import node_arguments
from robot_dynamics.nodes.process import make_executor
from robot_dynamics.nodes.simulation_node import SimulationNode
from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher
from robot_dynamics.simulation.integrators import SimulationError

NODE_CLASSES = {'simulation_node': SimulationNode, 'dynamics_node': DynamicsNode,
                'joint_trajectory_controller': JointTrajectoryController,
                'trajectory_publisher': TrajectoryPublisher}


def make_nodes(context, robot, feedforward=True, config=None, namespace='', extra=None):
    """Create the four demo nodes with the config's parameters; returns ``{name: node}``."""
    return {name: NODE_CLASSES[name](context=context, namespace=namespace or None,
                                     **node_arguments(values, REMAPPINGS[name]))
            for name, values in demo_parameters(robot, feedforward, config, extra).items()}


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
            raise SimulationError(simulator.error)
        controller = nodes['joint_trajectory_controller']
        if not controller.followed:
            reason = nodes['dynamics_node'].last_error or controller.last_error or 'no reason'
            raise RuntimeError(f'the demo trajectory never reached the controller: {reason}')
        start = None if trajectory.end is None else trajectory.start.nanoseconds * 1e-9
        return tracking_run(controller.log, start, controller.joint_names,
                            nodes['dynamics_node'].record.statistics.durations,
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


def main(argv=None):
    """Console-script entry point ``robot_dynamics_bringup``."""
    return bringup_main(argv, run_demo)


if __name__ == '__main__':
    raise SystemExit(main())
