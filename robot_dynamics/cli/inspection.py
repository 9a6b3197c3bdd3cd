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
"""``info``, ``check``, ``verify``, ``opcount``: what a model is, how the solvers compare."""

import os

import numpy as np

import robot_dynamics as rd
from robot_dynamics.cli.common import (
    CLIError, NOTES, add_model_argument, format_number, format_table, friction_note,
    from_radians, load_model, load_model_and_warnings, print_json,
)
from robot_dynamics.model.bundled import bundled_notes
from robot_dynamics.model.friction import EXTRA_FIELDS

INFO_EPILOG = """\
examples:
  robot-dynamics info puma560
  robot-dynamics info my_arm.urdf --deg
  robot-dynamics info arm_dh.yaml --json

Lists every moving joint (type, axis in its own frame, position/velocity/effort limits,
viscous and Coulomb friction, reflected rotor inertia = rotor_inertia * gear_ratio²), every
link's mass and centre of mass, the total mass, gravity, and the model's warnings.
"""

CHECK_EPILOG = """\
examples:
  robot-dynamics check puma560
  robot-dynamics check my_arm.urdf --strict

Lists every note and warning of a model: the loader's (URDF elements it tolerated, locked side
branches, <dynamics> friction, zero-width <limit>s) and the model's own (massless links,
inertias off the triangle inequality, implausible links). A bundled model's notes as shipped
are known and documented in docs/models.md (the nodes log them as one INFO line). With
--strict, exit code 1 if any other warning is found.
"""

VERIFY_EPILOG = """\
examples:
  robot-dynamics verify puma560
  robot-dynamics verify my_arm.urdf --json

Runs every registered solver on random states of the model (random velocities,
accelerations and tip wrench) and prints its largest discrepancy from the reference
recursive Newton-Euler, and of its strobed mass matrix from the composite-rigid-body one;
then the Lagrange-Euler M(q), C(q, qd) qd and G(q) against Newton-Euler's. Exit code 1 if
anything disagrees beyond the tolerance (relative to max(1, |reference|)).
"""

OPCOUNT_EPILOG = """\
examples:
  robot-dynamics opcount
  robot-dynamics opcount --n-max 12
  robot-dynamics opcount puma560

Prints the multiplication/addition counts of the seed papers' tables next to the counted
closed-form formulas, for n = 1 … N-MAX joints; with MODEL, the counts for that model.
"""


def add_parsers(subparsers, formatter):
    """Register ``info``, ``verify`` and ``opcount``."""
    info = subparsers.add_parser('info', help='joints, limits, friction, masses, warnings',
                                 description='Describe a model.', epilog=INFO_EPILOG,
                                 formatter_class=formatter)
    add_model_argument(info)
    info.add_argument('--deg', action='store_true', help='revolute limits in degrees')
    info.add_argument('--json', action='store_true', help='machine-readable JSON output')
    info.set_defaults(handler=run_info)

    check = subparsers.add_parser('check', help='every note and warning of a model',
                                  description='List the notes and warnings of a model.',
                                  epilog=CHECK_EPILOG, formatter_class=formatter)
    add_model_argument(check)
    check.add_argument('--strict', action='store_true',
                       help='exit code 1 if a warning is not a known note of a bundled model')
    check.add_argument('--json', action='store_true', help='machine-readable JSON output')
    check.set_defaults(handler=run_check)

    verify = subparsers.add_parser('verify', help='check every solver against the reference',
                                   description='Compare every registered solver.',
                                   epilog=VERIFY_EPILOG, formatter_class=formatter)
    add_model_argument(verify)
    verify.add_argument('--samples', type=int, default=20, metavar='N',
                        help='random states (default 20)')
    verify.add_argument('--seed', type=int, default=0, help='random seed (default 0)')
    verify.add_argument('--tolerance', type=float, default=1e-9,
                        help='largest accepted relative error (default 1e-9)')
    verify.add_argument('--json', action='store_true', help='machine-readable JSON output')
    verify.set_defaults(handler=run_verify)

    opcount = subparsers.add_parser('opcount', help='operation counts of the formulations',
                                    description='Operation counts: seed tables and formulas.',
                                    epilog=OPCOUNT_EPILOG, formatter_class=formatter)
    add_model_argument(opcount, optional=True)
    opcount.add_argument('--n-max', type=int, default=12, metavar='N',
                         help='largest number of joints in the table, >= 6 (default 12)')
    opcount.set_defaults(handler=run_opcount)


# ---------------------------------------------------------------------- info
def model_summary(model, degrees=False):
    """Return a dict describing ``model`` (the ``info`` output)."""
    def position(values):
        return from_radians(model, values) if degrees else np.asarray(values)
    joints = []
    for i, name in enumerate(model.joint_names):
        joints.append({
            'name': name, 'type': model.joint_types[i], 'axis': model.axis[i],
            'lower': position(model.lower_limit)[i], 'upper': position(model.upper_limit)[i],
            'velocity_limit': position(model.velocity_limit)[i],
            'effort_limit': model.effort_limit[i],
            'viscous_friction': model.viscous_friction[i],
            'coulomb_friction': model.coulomb_friction[i],
            'rotor_inertia': model.rotor_inertia[i], 'gear_ratio': model.gear_ratio[i],
            'reflected_inertia': model.reflected_inertia[i],
            **{name: getattr(model, name)[i] for name in EXTRA_FIELDS},
        })
    links = [{'name': name, 'mass': model.mass[i], 'com': model.com[i],
              'inertia': model.inertia[i]} for i, name in enumerate(model.link_names)]
    return {'name': model.name, 'source': model.source, 'dof': model.dof,
            'base_link': model.base_link, 'tip_link': model.tip_link,
            'gravity': model.gravity, 'total_mass': model.total_mass,
            'angle_unit': 'deg' if degrees else 'rad', 'joints': joints, 'links': links,
            'warnings': list(model.warnings)}


def run_info(args):
    """Print the model description."""
    model, found = load_model_and_warnings(args)
    summary = model_summary(model, args.deg)
    summary['warnings'] = found
    summary['locked_joints'] = dict(model.locked_joints)
    summary['chain_choice'] = model.chain_choice
    NOTES.extend(filter(None, [friction_note(args, model)]))
    if args.json:
        print_json(summary)
        return 0

    def num(x, digits=4):
        return format_number(x, digits)
    unit = summary['angle_unit']
    print(f'model {model.name}: {model.dof} moving joints, base {model.base_link!r}, '
          f'tip {model.tip_link!r}')
    if model.source:
        print(f'source: {model.source}')
    if model.chain_choice:
        print(model.chain_choice)
    print(f'gravity: {model.gravity.tolist()} m/s²\n')
    rows = [(j['name'], j['type'], ' '.join(num(a, 3) for a in j['axis']), num(j['lower']),
             num(j['upper']), num(j['velocity_limit']), num(j['effort_limit']),
             num(j['viscous_friction']), num(j['coulomb_friction']),
             num(j['reflected_inertia'], 6)) for j in summary['joints']]
    print(f'joints (limits in {unit}, m; velocity {unit}/s, m/s; effort N m, N; rotor = '
          'reflected rotor inertia, kg m²):')
    print(format_table(['joint', 'type', 'axis', 'lower', 'upper', 'velocity', 'effort',
                        'viscous', 'coulomb', 'rotor'], rows))
    _print_friction_law(summary, num)
    print('\nlinks (mass kg, centre of mass m in the link frame):')
    rows = [(link['name'], num(link['mass']), ' '.join(num(c) for c in link['com']))
            for link in summary['links']]
    print(format_table(['link', 'mass', 'com'], rows))
    print(f'\ntotal mass: {num(model.total_mass)} kg')
    if model.locked_joints:
        print('locked side-branch joints (rad, m; change with --lock NAME=VALUE): '
              + ', '.join(f'{k}={num(v)}' for k, v in model.locked_joints.items()))
    print('warnings: none' if not found else 'warnings:')
    for warning in found:
        print(f'  - {warning}')
    sidecar = unused_sidecar(args)
    if sidecar:
        print(f'note: {sidecar} lies beside the model and is not included; add --friction '
              f'{sidecar} for its friction law')
    return 0


def _print_friction_law(summary, num):
    """Print the friction law's terms beyond viscous and Coulomb, when a joint has any."""
    if not any(j[name] for j in summary['joints'] for name in EXTRA_FIELDS):
        return
    print('\nfriction law beyond viscous/Coulomb (N m or N; velocities rad/s or m/s; '
          'docs/models.md):')
    rows = [(j['name'], *(num(j[name]) for name in EXTRA_FIELDS)) for j in summary['joints']]
    print(format_table(['joint', *(name.replace('_friction', '') for name in EXTRA_FIELDS)],
                       rows))


def unused_sidecar(args):
    """Return the ``MODEL.friction.yaml`` beside a URDF model file, unless --friction is given."""
    path = str(args.model or '')
    if getattr(args, 'friction', None) or not path.lower().endswith('.urdf'):
        return None
    sidecar = path[:-len('.urdf')] + '.friction.yaml'
    return sidecar if os.path.isfile(sidecar) else None


# ---------------------------------------------------------------------- check
def run_check(args):
    """Print every note and warning; a bundled model's known ones apart."""
    model, found = load_model_and_warnings(args)
    shipped = bundled_notes(args.model) if args.model in rd.BUNDLED_MODELS else ()
    shipped = {' '.join(note.split()) for note in shipped}
    known = [message for message in found if message in shipped]
    others = [message for message in found if message not in shipped]
    if args.json:
        print_json({'model': model.name, 'known': known, 'warnings': others})
    else:
        print(f'model {model.name}: {model.dof} joints, base {model.base_link!r}, tip '
              f'{model.tip_link!r}')
        if known:
            print(f'{len(known)} note(s) known for the bundled model {args.model!r}, documented '
                  'in docs/models.md:')
            print('\n'.join(f'  - {message}' for message in known))
        if others:
            print(f'{len(others)} warning(s):')
            print('\n'.join(f'  - {message}' for message in others))
        if not found:
            print('no notes or warnings')
    return 1 if args.strict and others else 0


# ---------------------------------------------------------------------- verify
def run_verify(args):
    """Print the largest discrepancy of every solver (:func:`robot_dynamics.analysis.verify`)."""
    model = load_model(args)
    if args.samples < 1:
        raise CLIError(f'--samples: must be >= 1, got {args.samples}')
    report = rd.verify(model, samples=args.samples, seed=args.seed, tolerance=args.tolerance)
    if args.json:
        print_json(dict(report, ok=report.ok))
        return 0 if report.ok else 1
    print(f'model {model.name}: {model.dof} joints, {report.states} random states with tip '
          f'wrench (seed {report.seed}); errors relative to max(1, |reference|), tolerance '
          f'{report.tolerance:.0e}')
    rows = [(r.solver, f'{r.max_abs_error:.3e}', f'{r.torque_error:.3e}',
             f'{r.mass_matrix_error:.3e}', 'ok' if r.ok else 'FAIL') for r in report.results]
    print(format_table(['solver', 'max |tau - tau_rnea|', 'relative', 'M strobed vs CRBA',
                        'status'], rows))
    if report.lagrange_terms:
        print('\nLagrange-Euler terms against Newton-Euler (relative):')
        print(format_table(['term', 'error', 'status'], [
            (term, f'{error:.3e}', 'ok' if error <= report.tolerance else 'FAIL')
            for term, error in report.lagrange_terms.items()]))
    print('\nall solvers agree' if report.ok else '\nDISAGREEMENT beyond the tolerance')
    return 0 if report.ok else 1


# ---------------------------------------------------------------------- opcount
def run_opcount(args):
    """Print the operation-count table, and with MODEL the counts for that model."""
    from robot_dynamics.analysis import opcount
    if args.n_max < 6:
        raise CLIError(f'--n-max: must be >= 6 (the fitted formulas need the points and the '
                       f'table compares at n = 6), got {args.n_max}')
    print(f'Operation counts for one state, general n-link arms, n = 1 … {args.n_max}:\n')
    print(opcount.table_markdown(args.n_max))
    if args.model:
        model = load_model(args)
        print(f'\nCounts for {model.name} ({model.dof} joints, one state, the model\'s own '
              'constants):\n')
        print(model_counts_markdown(model))
    return 0


def model_counts_markdown(model):
    """Markdown table of multiplications and additions of every solver on ``model``."""
    from robot_dynamics.analysis import opcount
    lines = ['| solver | multiplications | additions |', '|---|---|---|']
    for name in rd.solvers.available():
        try:
            tally = opcount.count_operations(name, model)
        except Exception as exc:  # a solver that cannot run on counted numbers
            lines.append(f'| `{name}` | cannot be counted: {" ".join(str(exc).split())} | |')
            continue
        lines.append(f'| `{name}` | {tally.mul} | {tally.add} |')
    return '\n'.join(lines)
