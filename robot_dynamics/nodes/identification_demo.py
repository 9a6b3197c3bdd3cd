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
from dataclasses import dataclass
import os
import shutil
import time
import warnings

import numpy as np
import yaml

import robot_dynamics as rd
from robot_dynamics.identification import design_excitation, identify
from robot_dynamics.identification.physical import as_built
from robot_dynamics.identification.report import plot_validation, report_lines
from robot_dynamics.io.trajectory_yaml import joint_trajectory_yaml
from robot_dynamics.io.urdf_writer import model_to_urdf
from robot_dynamics.nodes.bringup import run_demo
from robot_dynamics.nodes.parameters import parameter_overrides
from robot_dynamics.nodes.joint_state_recorder import JointStateRecorder


@dataclass
class IdentificationDemo:
    """Outcome: the identification result and the tracking runs {'nominal', ...: DemoResult}."""

    result: object
    tracking: dict
    files: dict

    def tracking_rms(self, which):
        """Overall RMS tracking error (all joints) of run ``which``, rad."""
        return float(np.sqrt(np.mean(self.tracking[which].rms_error ** 2)))


def prepare(robot='puma560', out='out/identification', excitation_time=30.0, periods=6,
            publish_rate=500.0, seed=0):
    """Write the true and nominal URDFs, the excitation and the launch parameters.

    Returns the nominal model, the files ``{name: path}`` and the node parameters
    ``{node: {name: value}}`` of the excitation run (also written to ``OUT/params.yaml``).
    """
    nominal = rd.load_model(robot)
    os.makedirs(out, exist_ok=True)
    files = {'true': os.path.join(out, f'{robot}_true.urdf'),
             'nominal': os.path.join(out, f'{robot}_nominal.urdf'),
             'identified': os.path.join(out, f'{robot}_identified.urdf'),
             'excitation': os.path.join(out, 'excitation.yaml'),
             'params': os.path.join(out, 'params.yaml'),
             'bag': os.path.join(out, 'excitation_bag'),
             'plot': os.path.join(out, 'identification.png')}
    _write(files['true'], model_to_urdf(as_built(nominal),
                                        comment=f'{robot} as built (demo truth)'))
    _write(files['nominal'], model_to_urdf(nominal, comment=f'{robot} nominal'))
    excitation = design_excitation(nominal, time_limit=excitation_time, seed=seed)
    t, q, qd, qdd = excitation.trajectory.sample(0.05, periods)
    _write(files['excitation'], joint_trajectory_yaml(
        nominal.joint_names, t, q, qd, qdd,
        f'excitation for {robot}, condition number {excitation.condition:.4g}'))
    parameters = {
        'simulation_node': {'urdf_file': os.path.abspath(files['true']),
                            'publish_rate': float(publish_rate),
                            'initial_positions': q[0].tolist()},
        'dynamics_node': {'urdf_file': os.path.abspath(files['nominal'])},
        'trajectory_publisher': {'trajectory_file': os.path.abspath(files['excitation'])},
        'joint_state_recorder': {'output': os.path.abspath(files['bag']), 'storage': 'mcap'}}
    _write(files['params'], yaml.safe_dump(
        {node: {'ros__parameters': values} for node, values in parameters.items()}))
    return nominal, files, parameters


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
    _write(files['identified'], model_to_urdf(
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


def commands(robot, files, publish_rate):
    """Return the shell commands of the launch-file workflow for prepared ``files``."""
    return [f'ros2 launch robot_dynamics identification.launch.py robot:={robot} '
            f'params:={files["params"]}',
            f'robot-dynamics identify {robot} {files["bag"]} -o {files["identified"]} '
            f'--torque-cutoff 20 --effort-delay {0.5 / publish_rate:g}',
            f'ros2 launch robot_dynamics simulation.launch.py robot:={robot}   # with '
            f'dynamics_node urdf_file:={files["identified"]}']


def _write(path, text):
    with open(path, 'w') as handle:
        handle.write(text)


def summary(demo):
    """Printable summary: identification report, then the tracking errors."""
    lines = report_lines(demo.result) + ['', 'tracking the standard trajectory (computed '
                                             'torque) on the true robot, RMS error per joint:']
    names = demo.tracking['true'].joint_names
    lines.append('  ' + f'{"model":<11}' + ''.join(f'{n:>11}' for n in names) + f'{"all":>11}')
    for which, run in demo.tracking.items():
        lines.append('  ' + f'{which:<11}' + ''.join(f'{e:11.3e}' for e in run.rms_error)
                     + f'{demo.tracking_rms(which):11.3e}')
    ratio = demo.tracking_rms('identified') / demo.tracking_rms('true')
    lines.append(f'identified / true tracking error: {ratio:.3f} (nominal / true: '
                 f'{demo.tracking_rms("nominal") / demo.tracking_rms("true"):.1f})')
    lines += [f'wrote {path}' for path in demo.files.values()]
    return '\n'.join(lines)


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
