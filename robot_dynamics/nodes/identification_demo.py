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

1. The "real" robot: the simulation node runs a model whose parameters differ from the
   nominal URDF (:func:`as_built`: masses +20 %, viscous and Coulomb friction, physical
   inertias), written with the URDF writer to ``OUT/<robot>_true.urdf``.
2. An excitation is designed on the nominal model (``OUT/excitation.yaml``) and tracked by the
   computed-torque controller with the nominal model's feed-forward (dynamics node); the
   joint-state recorder writes the simulator's ``joint_states`` (position, velocity, applied
   effort) to the bag ``OUT/excitation_bag`` (MCAP).
3. :func:`robot_dynamics.identification.identify` reads the bag and writes
   ``OUT/<robot>_identified.urdf``, the report and ``OUT/identification.png``. The simulator
   reports the torque it held over the last control period, so efforts are low-passed like
   the positions (20 Hz) and moved back half a period (``effort_delay``).
4. The standard test trajectory is tracked three times, the dynamics node loaded with the
   nominal, the identified and the true URDF; the RMS tracking errors are compared.
"""

import argparse
import os
import shutil
import time
import warnings

import rclpy  # noqa: F401  (the demo runs the ROS graph: nodes/bringup.py)

import robot_dynamics as rd
from robot_dynamics.identification import identify
from robot_dynamics.identification.demo import (IdentificationDemo, commands, prepare,
                                                summary, write_text)
from robot_dynamics.identification.report import plot_validation
from robot_dynamics.io.urdf_writer import model_to_urdf
from robot_dynamics.nodes.bringup import run_demo
from robot_dynamics.nodes.parameters import parameter_overrides
from robot_dynamics.nodes.joint_state_recorder import JointStateRecorder


def run_identification_demo(robot='puma560', out='out/identification', excitation_time=30.0,
                            periods=6, publish_rate=500.0, seed=0, wall_timeout=900.0):
    """Run the four steps of the module docstring; return an :class:`IdentificationDemo`."""
    nominal, files, parameters = prepare(robot, out, excitation_time, periods, publish_rate,
                                         seed)
    if os.path.exists(files['bag']):
        shutil.rmtree(files['bag'])
    recorders = []

    def recorder(context, namespace):
        recorders.append(JointStateRecorder(
            context=context, namespace=namespace, parameter_overrides=parameter_overrides(
                parameters['joint_state_recorder'])))
        return recorders[0]
    run_demo(robot, extra={name: parameters[name] for name in (
        'simulation_node', 'dynamics_node', 'trajectory_publisher')},
        observers=[recorder], wall_timeout=wall_timeout)
    recorders[0].write()

    result = identify(nominal, files['bag'], torque_cutoff=20.0,
                      effort_delay=0.5 / publish_rate)
    write_text(files['identified'], model_to_urdf(
        result.model, comment=f'{robot} identified from {files["bag"]}'))
    plot_validation(result, files['plot'], title=f'{robot}: validation torques')
    tracking = {}
    for which in ('nominal', 'identified', 'true'):
        tracking[which] = run_demo(robot, extra={
            'simulation_node': {'urdf_file': files['true'], 'publish_rate': publish_rate},
            'dynamics_node': {'urdf_file': files[which]},
            'joint_trajectory_controller': {'urdf_file': files[which]}},
            wall_timeout=wall_timeout)
    return IdentificationDemo(result, tracking, files)


def main(argv=None):
    """Console-script entry point ``robot_dynamics_identification_demo``."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--robot', default='puma560', help='bundled model name')
    parser.add_argument('--out', default='out/identification', help='output directory')
    parser.add_argument('--excitation-time', type=float, default=30.0,
                        help='wall seconds for the excitation design (default 30)')
    parser.add_argument('--periods', type=int, default=6,
                        help='excitation periods to run (default 6)')
    parser.add_argument('--publish-rate', type=float, default=500.0,
                        help='joint_states and control rate, Hz (default 500)')
    parser.add_argument('--prepare-only', action='store_true',
                        help='write the files and print the launch-file workflow, run nothing')
    args, _ = parser.parse_known_args(argv)
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
