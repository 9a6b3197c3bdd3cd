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
"""``torque``, ``mass-matrix`` and ``gravity``: the dynamics terms at one state."""

import robot_dynamics as rd
from robot_dynamics.cli.common import (
    add_model_argument, add_vector_argument, effort_units, format_number, format_table,
    joint_vector, load_model, parse_numbers, print_json,
)

TORQUE_EPILOG = """\
examples:
  robot-dynamics torque puma560 --q 0,0.5,-0.3,0,0.2,0 --qd 0.1,0,0,0,0,0 --qdd 0 0 0 0 0 0
  robot-dynamics torque puma560 --deg --q 0 30 -20 0 10 0 --solver rnea --json
  robot-dynamics torque two_link --q 0.3 0.2 --f-tip 0 0 10 0 0 0

Revolute values are rad, rad/s, rad/s² (deg, deg/s, deg/s² with --deg); prismatic values
are m, m/s, m/s². Lists may start with a negative value: --q -0.5,1.0 or --q -0.5 1.0.
--f-tip is the wrench [fx fy fz nx ny nz] the tool exerts on its environment, in the tool
frame (N, N m). Torques include gravity, friction and rotor inertia.
"""

MASS_EPILOG = """\
examples:
  robot-dynamics mass-matrix puma560 --q 0,0.5,-0.3,0,0.2,0
  robot-dynamics mass-matrix two_link --deg --q 30 45 --json
"""

GRAVITY_EPILOG = """\
examples:
  robot-dynamics gravity puma560 --q 0,0.5,-0.3,0,0.2,0
  robot-dynamics gravity stanford --deg --q 0 90 0.2 0 0 0 --json
"""


def _common_options(parser, state_flags):
    add_model_argument(parser)
    for flag, what in state_flags:
        add_vector_argument(parser, flag, what, required=(flag == '--q'))
    parser.add_argument('--deg', action='store_true',
                        help='revolute values in degrees (deg, deg/s, deg/s²)')
    parser.add_argument('--solver', metavar='NAME',
                        help='registered solver (see `robot-dynamics verify`); default rnea')
    parser.add_argument('--precision', type=int, default=6, metavar='DIGITS',
                        help='decimals printed in the table (default 6)')
    parser.add_argument('--json', action='store_true', help='machine-readable JSON output')


def add_parsers(subparsers, formatter):
    """Register the three subcommands."""
    torque = subparsers.add_parser(
        'torque', help='inverse dynamics: joint torques for q, qd, qdd',
        description='Joint torques/forces tau = M(q) qdd + V(q, qd) + G(q) + F(qd) + Jᵀ f_tip.',
        epilog=TORQUE_EPILOG, formatter_class=formatter)
    _common_options(torque, [('--q', 'joint positions'), ('--qd', 'joint velocities'),
                             ('--qdd', 'joint accelerations')])
    torque.add_argument('--f-tip', nargs='+', metavar='V',
                        help='tool wrench fx fy fz nx ny nz (N, N m, tool frame)')
    torque.set_defaults(handler=run_torque)

    mass = subparsers.add_parser(
        'mass-matrix', help='joint-space inertia matrix M(q)',
        description='Joint-space inertia matrix M(q), rotor inertia included (CRBA, or '
                    'strobing through --solver).',
        epilog=MASS_EPILOG, formatter_class=formatter)
    _common_options(mass, [('--q', 'joint positions')])
    mass.set_defaults(handler=run_mass_matrix)

    gravity = subparsers.add_parser(
        'gravity', help='gravity torques G(q)',
        description='Joint torques/forces that hold the arm still against gravity, G(q).',
        epilog=GRAVITY_EPILOG, formatter_class=formatter)
    _common_options(gravity, [('--q', 'joint positions')])
    gravity.set_defaults(handler=run_gravity)


def _state(args, model, *flags):
    return [joint_vector(model, '--' + flag.replace('_', '-'), getattr(args, flag), args.deg)
            for flag in flags]


def _print_vector(model, title, values, args):
    units = effort_units(model)
    rows = [(name, kind, format_number(v, args.precision), unit)
            for name, kind, v, unit in zip(model.joint_names, model.joint_types, values, units)]
    print(f'{title}  (model {model.name}, solver {args.solver or "rnea"})')
    print(format_table(['joint', 'type', title, 'unit'], rows))


def run_torque(args):
    """Print the inverse dynamics at one state."""
    model = load_model(args)
    q, qd, qdd = _state(args, model, 'q', 'qd', 'qdd')
    f_tip = parse_numbers('--f-tip', args.f_tip, 6)
    tau = rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip, solver=args.solver)
    if args.json:
        print_json({'model': model.name, 'solver': args.solver or 'rnea',
                    'joint_names': model.joint_names, 'q': q, 'qd': qd, 'qdd': qdd,
                    'f_tip': f_tip, 'tau': tau})
        return 0
    _print_vector(model, 'tau', tau, args)
    return 0


def run_gravity(args):
    """Print the gravity torques at one configuration."""
    model = load_model(args)
    (q,) = _state(args, model, 'q')
    tau = rd.gravity_torques(model, q, solver=args.solver)
    if args.json:
        print_json({'model': model.name, 'solver': args.solver or 'rnea',
                    'joint_names': model.joint_names, 'q': q, 'gravity_torques': tau})
        return 0
    _print_vector(model, 'G(q)', tau, args)
    return 0


def run_mass_matrix(args):
    """Print the mass matrix at one configuration."""
    model = load_model(args)
    (q,) = _state(args, model, 'q')
    M = rd.mass_matrix(model, q, solver=args.solver)
    if args.json:
        print_json({'model': model.name, 'solver': args.solver or 'crba',
                    'joint_names': model.joint_names, 'q': q, 'mass_matrix': M})
        return 0
    print(f'M(q)  (model {model.name}, {args.solver or "crba"}; kg m², kg m, kg)')
    rows = [[name] + [format_number(v, args.precision) for v in row]
            for name, row in zip(model.joint_names, M)]
    print(format_table([''] + list(model.joint_names), rows))
    return 0
