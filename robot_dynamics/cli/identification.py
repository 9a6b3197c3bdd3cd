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
"""``excite`` and ``identify``: an optimal excitation trajectory; a model from a recorded run.

``identify`` lives in :mod:`robot_dynamics.cli.identify`.
"""

import numpy as np

from robot_dynamics.cli.common import (
    CLIError, add_model_argument, check_outputs, format_number, format_table, load_model,
    model_inputs, output_prefix, print_json,
)
from robot_dynamics.cli.identify import add_identify_parser
from robot_dynamics.identification import ExcitationLimits, design_excitation
from robot_dynamics.io.trajectory_yaml import joint_trajectory_yaml

EXCITE_EPILOG = """\
examples:
  robot-dynamics excite puma560 -o out/excitation
  robot-dynamics excite my_arm.urdf -o out/excite --period 12 --harmonics 6 --time-limit 60
  ros2 topic pub --once /dynamics_node/desired_trajectory \\
      trajectory_msgs/msg/JointTrajectory "$(cat out/excitation.yaml)"

Designs a periodic finite-Fourier-series trajectory per joint (starting and ending at rest)
that minimises the condition number of the base regressor within the joint position limits
(minus --position-margin), --velocity-fraction of the velocity limits, --max-acceleration
and --effort-fraction of the effort limits (nominal model). Writes PREFIX.yaml (a
trajectory_msgs/JointTrajectory as `ros2 topic pub` and the trajectory publisher's
trajectory_file read it: a point every --dt s with positions, velocities, accelerations) and
PREFIX.csv (t, q_*, qd_*, qdd_* at 1 ms). See docs/identification.md.
"""


def add_parsers(subparsers, formatter):
    """Register ``excite`` and ``identify``."""
    parser = subparsers.add_parser(
        'excite', help='design an optimal excitation trajectory for identification',
        description='Design a periodic excitation trajectory (minimum condition number).',
        epilog=EXCITE_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('-o', '--output', metavar='PREFIX', default='excitation',
                        help='writes PREFIX.yaml and PREFIX.csv (default excitation)')
    parser.add_argument('--period', type=float, default=10.0, metavar='S',
                        help='period of the trajectory, s (default 10)')
    parser.add_argument('--harmonics', type=int, default=5, help='harmonics (default 5)')
    parser.add_argument('--time-limit', type=float, default=30.0, metavar='S',
                        help='wall seconds for the optimisation (default 30)')
    parser.add_argument('--position-margin', type=float, default=0.05, metavar='F',
                        help='fraction of each joint range kept free at both ends (0.05)')
    parser.add_argument('--velocity-fraction', type=float, default=0.8, metavar='F',
                        help='fraction of the velocity limits used (0.8)')
    parser.add_argument('--max-acceleration', type=float, default=None, metavar='A',
                        help='acceleration limit, rad/s^2 or m/s^2 (default 10 or 2)')
    parser.add_argument('--effort-fraction', type=float, default=0.9, metavar='F',
                        help='fraction of the effort limits used (0.9)')
    parser.add_argument('--dt', type=float, default=0.05, metavar='S',
                        help='spacing of the YAML points, s (default 0.05)')
    parser.add_argument('--seed', type=int, default=0, help='random starts seed (0)')
    parser.add_argument('--json', action='store_true', help='machine-readable report')
    parser.set_defaults(handler=run_excite)

    add_identify_parser(subparsers, formatter)


# ---------------------------------------------------------------------- excite
def run_excite(args):
    """Design the excitation, write YAML and CSV, print the condition number and peaks."""
    model = load_model(args)
    for flag, value, low, high in (('--period', args.period, 0, np.inf),
                                   ('--harmonics', args.harmonics, 2, 50),
                                   ('--time-limit', args.time_limit, 0, np.inf),
                                   ('--position-margin', args.position_margin, 0, 0.5),
                                   ('--velocity-fraction', args.velocity_fraction, 0, 1),
                                   ('--effort-fraction', args.effort_fraction, 0, np.inf),
                                   ('--dt', args.dt, 0, args.period)):
        if not (np.isfinite(value) and low < value <= high) and not (
                flag == '--position-margin' and value == 0):
            raise CLIError(f'{flag}: {value} is outside ({low}, {high}]')
    limits = ExcitationLimits.from_model(model, args.position_margin, args.velocity_fraction,
                                         args.max_acceleration, args.effort_fraction)
    prefix = output_prefix(args.output, 'excitation', ('.png', '.csv', '.yaml', '.yml'))
    check_outputs([prefix + '.yaml', prefix + '.csv'], model_inputs(args))
    result = design_excitation(model, period=args.period, harmonics=args.harmonics,
                               limits=limits, time_limit=args.time_limit, seed=args.seed)
    trajectory = result.trajectory
    t, q, qd, qdd = trajectory.sample(args.dt)
    comment = (f'robot-dynamics excite {args.model}: periodic excitation for identification\n'
               f'condition number of the base regressor {result.condition:.4g}; period '
               f'{trajectory.period} s, {trajectory.harmonics} harmonics\n'
               'q_j(t) = q0_j + sum_l a_jl/(l w) sin(l w t) - b_jl/(l w) cos(l w t), '
               'w = 2 pi / period\n'
               f'q0: {trajectory.q0.tolist()}\na: {trajectory.a.tolist()}\n'
               f'b: {trajectory.b.tolist()}')
    with open(prefix + '.yaml', 'w') as handle:
        handle.write(joint_trajectory_yaml(model.joint_names, t, q, qd, qdd, comment))
    fine = trajectory.sample(0.001)
    names = model.joint_names
    header = ','.join(['t'] + [f'{p}_{n}' for p in ('q', 'qd', 'qdd') for n in names])
    np.savetxt(prefix + '.csv', np.column_stack(fine), delimiter=',', header=header,
               comments='')
    written = [prefix + '.yaml', prefix + '.csv']
    peaks = [np.abs(x).max(0) for x in fine[2:]]
    if args.json:
        print_json({'model': model.name, 'condition_number': result.condition,
                    'initial_condition_number': result.initial_condition,
                    'period': trajectory.period, 'harmonics': trajectory.harmonics,
                    'q0': trajectory.q0, 'a': trajectory.a, 'b': trajectory.b,
                    'peak_abs_qd': peaks[0], 'peak_abs_qdd': peaks[1], 'files': written,
                    'evaluations': result.evaluations, 'seconds': result.elapsed})
        return 0
    print(f'{model.name}: excitation of period {trajectory.period} s, {trajectory.harmonics} '
          f'harmonics; condition number of the base regressor {result.condition:.4g} '
          f'(best random start {result.initial_condition:.4g}; {result.evaluations} '
          f'evaluations in {result.elapsed:.1f} s)')
    rows = [(name, format_number(q[:, j].min(), 4), format_number(q[:, j].max(), 4),
             format_number(peaks[0][j], 4), format_number(limits.velocity[j], 4),
             format_number(peaks[1][j], 4), format_number(limits.acceleration[j], 4))
            for j, name in enumerate(names)]
    print(format_table(['joint', 'min q', 'max q', 'peak |qd|', 'qd limit', 'peak |qdd|',
                        'qdd limit'], rows))
    for path in written:
        print(f'wrote {path}')
    return 0
