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
"""Identification in the ROS graph, end to end, in one process.

What launch/identification.launch.py starts, plus the steps after it::

    robot_dynamics_identification_demo --robot puma560 --out out/identification

The four steps (a simulated "real" robot ``as_built``, an excitation recorded to a bag,
``identify`` on it, three tracking runs compared): docs/identification.md, "In the ROS graph:
the demo"; their plain parts are :mod:`robot_dynamics.identification.demo`.
"""

import os
import shutil
import time
import warnings

import rclpy

import robot_dynamics as rd
from robot_dynamics.identification.demo import (IdentificationDemo, commands, demo_arguments,
                                                identify_from_bag, prepare, summary,
                                                tracking_parameters)
from robot_dynamics.nodes.bringup import run_demo
from robot_dynamics.nodes.parameters import parameter_overrides
from robot_dynamics.nodes.joint_state_recorder import JointStateRecorder


def run_identification_demo(robot='puma560', out='out/identification', excitation_time=30.0,
                            periods=6, publish_rate=500.0, seed=0, wall_timeout=900.0):
    """Run the four steps (docs/identification.md); return an :class:`IdentificationDemo`."""
    nominal, files, parameters = prepare(robot, out, excitation_time, periods, publish_rate,
                                         seed)
    if os.path.exists(files['bag']):
        shutil.rmtree(files['bag'])
    recorders = []

    def recorder(context: rclpy.Context, namespace):   # an observer of bringup.run_demo
        recorders.append(JointStateRecorder(
            context=context, namespace=namespace, parameter_overrides=parameter_overrides(
                parameters['joint_state_recorder'])))
        return recorders[0]
    run_demo(robot, extra={name: parameters[name] for name in (
        'simulation_node', 'dynamics_node', 'trajectory_publisher')},
        observers=[recorder], wall_timeout=wall_timeout)
    recorders[0].write()

    result = identify_from_bag(robot, nominal, files, publish_rate)
    tracking = {which: run_demo(robot, extra=tracking_parameters(files, which, publish_rate),
                                wall_timeout=wall_timeout)
                for which in ('nominal', 'identified', 'true')}
    return IdentificationDemo(result, tracking, files)


def main(argv=None):
    """Console-script entry point ``robot_dynamics_identification_demo``."""
    args = demo_arguments(__doc__.split('\n')[0], argv)
    warnings.simplefilter('ignore', rd.ModelWarning)
    started = time.monotonic()
    if args.prepare_only:
        _, files, _ = prepare(args.robot, args.out, args.excitation_time, args.periods,
                              args.publish_rate)
        print('\n'.join(commands(args.robot, files, args.publish_rate)))
        return 0
    demo = run_identification_demo(args.robot, args.out, args.excitation_time, args.periods,
                                   args.publish_rate)
    print(summary(demo))
    print(f'demo took {time.monotonic() - started:.0f} s')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
