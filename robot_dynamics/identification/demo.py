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
"""The identification demo's files and summary: what is run is in the ROS graph (nodes/).

:func:`prepare` writes the demo's "real" robot (the nominal model as built:
:func:`~robot_dynamics.identification.physical.as_built`), the nominal URDF, the excitation
designed on the nominal model and the nodes' parameters; :func:`summary` prints the
identification report and the tracking errors of the runs with each model; :func:`commands`
the launch-file workflow. ``robot_dynamics_identification_demo``
(``robot_dynamics/nodes/identification_demo.py``) runs the graph between them.
"""

import argparse
from dataclasses import dataclass
import os

import numpy as np
import yaml

from robot_dynamics.identification.estimation import identify
from robot_dynamics.identification.excitation import design_excitation
from robot_dynamics.identification.physical import as_built
from robot_dynamics.identification.report import plot_validation, report_lines
from robot_dynamics.io.trajectory_yaml import joint_trajectory_yaml
from robot_dynamics.io.urdf_writer import model_to_urdf
from robot_dynamics.model.bundled import load_model


@dataclass
class IdentificationDemo:
    """Outcome: the identification result and the tracking runs {'nominal', ...: TrackingRun}."""

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
    nominal = load_model(robot)
    os.makedirs(out, exist_ok=True)
    files = {'true': os.path.join(out, f'{robot}_true.urdf'),
             'nominal': os.path.join(out, f'{robot}_nominal.urdf'),
             'identified': os.path.join(out, f'{robot}_identified.urdf'),
             'excitation': os.path.join(out, 'excitation.yaml'),
             'params': os.path.join(out, 'params.yaml'),
             'bag': os.path.join(out, 'excitation_bag'),
             'plot': os.path.join(out, 'identification.png')}
    write_text(files['true'], model_to_urdf(as_built(nominal),
                                            comment=f'{robot} as built (demo truth)'))
    write_text(files['nominal'], model_to_urdf(nominal, comment=f'{robot} nominal'))
    excitation = design_excitation(nominal, time_limit=excitation_time, seed=seed)
    t, q, qd, qdd = excitation.trajectory.sample(0.05, periods)
    write_text(files['excitation'], joint_trajectory_yaml(
        nominal.joint_names, t, q, qd, qdd,
        f'excitation for {robot}, condition number {excitation.condition:.4g}'))
    parameters = {
        'simulation_node': {'urdf_file': os.path.abspath(files['true']),
                            'publish_rate': float(publish_rate),
                            'initial_positions': q[0].tolist()},
        'dynamics_node': {'urdf_file': os.path.abspath(files['nominal'])},
        'trajectory_publisher': {'trajectory_file': os.path.abspath(files['excitation'])},
        'joint_state_recorder': {'output': os.path.abspath(files['bag']), 'storage': 'mcap'}}
    write_text(files['params'], yaml.safe_dump(
        {node: {'ros__parameters': values} for node, values in parameters.items()}))
    return nominal, files, parameters


def identify_from_bag(robot, nominal, files, publish_rate):
    """Identify ``nominal``'s parameters from the excitation bag; write the URDF and the plot.

    The simulator reports the torque it held over the last control period: efforts are
    low-passed like the positions (20 Hz) and moved back half a period (``effort_delay``).
    """
    result = identify(nominal, files['bag'], torque_cutoff=20.0,
                      effort_delay=0.5 / publish_rate)
    write_text(files['identified'], model_to_urdf(
        result.model, comment=f'{robot} identified from {files["bag"]}'))
    plot_validation(result, files['plot'], title=f'{robot}: validation torques')
    return result


def tracking_parameters(files, which, publish_rate):
    """Return the nodes' parameters of the tracking run with the ``which`` URDF on the truth."""
    return {'simulation_node': {'urdf_file': files['true'], 'publish_rate': publish_rate},
            'dynamics_node': {'urdf_file': files[which]},
            'joint_trajectory_controller': {'urdf_file': files[which]}}


def demo_arguments(description, argv=None):
    """Parse the demo's command line (``robot_dynamics_identification_demo --help``)."""
    parser = argparse.ArgumentParser(description=description)
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
    return parser.parse_known_args(argv)[0]


def commands(robot, files, publish_rate):
    """Return the shell commands of the launch-file workflow for prepared ``files``."""
    return [f'ros2 launch robot_dynamics identification.launch.py robot:={robot} '
            f'params:={files["params"]}',
            f'robot-dynamics identify {robot} {files["bag"]} -o {files["identified"]} '
            f'--torque-cutoff 20 --effort-delay {0.5 / publish_rate:g}',
            f'ros2 launch robot_dynamics simulation.launch.py robot:={robot}   # with '
            f'dynamics_node urdf_file:={files["identified"]}']


def write_text(path, text):
    """Write ``text`` to ``path``."""
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
