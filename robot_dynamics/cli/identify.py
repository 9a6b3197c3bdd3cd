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
"""``identify``: a plausible model from a recorded run, scored against other models."""

import os
import sys
import warnings

import numpy as np

import robot_dynamics as rd
from robot_dynamics.errors import bounded
from robot_dynamics.cli.common import (
    CLIError, NOTES, add_model_argument, check_outputs, load_model, model_inputs, print_json,
)
from robot_dynamics.contacts.recording import write_identified_thresholds
from robot_dynamics.identification import identify
from robot_dynamics.identification.friction_laws import LAWS
from robot_dynamics.identification.plausible import Bounds, ConvexProgramError
from robot_dynamics.identification.quality import MAX_ERROR
from robot_dynamics.identification.heldout import score_files
from robot_dynamics.identification.report import (
    held_out_columns, plot_validation, report_lines, validate_models,
)
from robot_dynamics.io.friction_yaml import friction_yaml
from robot_dynamics.io.recordings import RecordingError, read_recording
from robot_dynamics.io.urdf_writer import model_to_urdf
from robot_dynamics.model.friction import has_extra_friction

IDENTIFY_EPILOG = """\
examples:
  robot-dynamics identify puma560 run_bag/ -o out/identified.urdf
  robot-dynamics identify my_arm.urdf run.mcap -o arm_identified.urdf --topic /joint_states
  robot-dynamics identify my_arm.urdf run.csv -o arm.urdf --validation check.mcap --json
  robot-dynamics identify my_arm.urdf run.csv -o arm.urdf --total-mass 17:19 \\
      --validate cad.urdf --validate vendor.urdf,vendor.friction.yaml

DATA is a rosbag2 directory, a .db3 (sqlite3) or .mcap file of sensor_msgs/JointState
(position and effort, velocity used when it agrees; joints matched by name) or a CSV file
(t, q_<joint>, tau_<joint>, optionally qd_<joint>). The position filter's cut-off and each
joint's friction law are chosen by cross-validation on the estimation data; the base
parameters by weighted least squares with block-bootstrap standard deviations; then a
physically consistent and plausible model (a convex program: real bodies, close to MODEL
where the data do not decide, within the mass and centre-of-mass bounds), written as URDF
(viscous and Coulomb friction as <dynamics>, rotor inertia as <transmission>) and, when a
joint's friction law needs more, FILE.friction.yaml (read back with --friction, and by the
nodes' friction_file parameter; the URDF then holds the viscous and Coulomb friction that
fit best alone), and FILE.contacts.yaml, the identified model's collision thresholds learnt
on DATA (read by robot-dynamics contacts; docs/contacts.md). Prints the windows used, the
parameter table, per link nominal vs identified mass, centre of mass and inertia, the torque
error on the held-out stretch (the recorded samples of the last --validation fraction, never
fitted) of the files written, read back (URDF alone, URDF + friction file), of MODEL and of
every --validate model, and every warning (also on stderr: every term the physical model
moves beyond 2 sd). Refuses (exit 2) a model whose torque error exceeds --max-error: it
explains almost nothing. Never writes over an input (the recording or a file inside its
folder, MODEL, --validate models and sidecars, --friction), --force or not, nor over an
existing file without --force. See docs/identification.md.
"""


def add_identify_parser(subparsers, formatter):
    """Register ``identify``."""
    parser = subparsers.add_parser(
        'identify', help='identify the inertial and friction parameters from a recording',
        description='Identify a model from a recorded run and write it as URDF.',
        epilog=IDENTIFY_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('data', metavar='DATA', help='rosbag2 directory, .db3, .mcap or .csv')
    parser.add_argument('-o', '--output', metavar='FILE.urdf', default='identified.urdf',
                        help='identified model (default identified.urdf)')
    parser.add_argument('--topic', help='JointState topic (default: the one with the model\'s '
                        'joints; of several, the one with their efforts, then the fastest)')
    parser.add_argument('--validation', default='0.2', metavar='F|DATA',
                        help='fraction of the time span held back at the end, or another '
                             'recording (default 0.2)')
    parser.add_argument('--validate', action='append', default=[], metavar='MODEL[,FRICTION]',
                        help='also score this model (URDF, DH or bundled name; optionally '
                             'with its friction sidecar) on the validation samples; '
                             'repeatable')
    parser.add_argument('--cutoff', default='auto', metavar='HZ|auto',
                        help='position low-pass cut-off, Hz (default auto: cross-validated '
                             'among 3, 5, 8, 12, 20 Hz)')
    parser.add_argument('--torque-cutoff', type=float, default=None, metavar='HZ',
                        help='also low-pass the efforts (default: unfiltered)')
    parser.add_argument('--effort-delay', type=float, default=0.0, metavar='S',
                        help='efforts are stamped this late (e.g. half the control period '
                             'for torques held between samples); default 0')
    parser.add_argument('--velocity', default='auto',
                        choices=('auto', 'recorded', 'differentiated'),
                        help='q-dot from the recorded velocity where it agrees with the '
                             'positions (auto), always, or never')
    parser.add_argument('--friction-law', default='auto', metavar='LAW|JOINT=LAW,...',
                        help=f'friction law: auto (cross-validated per joint) or one of '
                             f'{", ".join(LAWS)}, for all joints or per joint')
    parser.add_argument('--joint-terms', default='FV,FC,IA', metavar='LIST',
                        help='joint parameters to identify among FV (viscous), FC (Coulomb), '
                             'IA (rotor inertia); the others come from MODEL (default all)')
    parser.add_argument('--total-mass', metavar='KG[:KG]',
                        help='total mass of the moving links, or a band (default: 0.5 to 2 '
                             'times MODEL\'s); a single value allows +-5 %%')
    parser.add_argument('--link-mass-factor', type=float, default=5.0, metavar='F',
                        help='each link\'s mass within [m/F, F m] of MODEL\'s (default 5)')
    parser.add_argument('--com-margin', type=float, default=0.1, metavar='M',
                        help='centre of mass within this margin of the link\'s box, m '
                             '(default 0.1; negative: no box)')
    parser.add_argument('--max-error', type=float, default=100 * MAX_ERROR, metavar='PERCENT',
                        help='refuse a model whose torque error (cross-validated, or on the '
                             'validation samples) exceeds this %% of the torque RMS: it '
                             'explains almost nothing (default %(default)g; inf: never)')
    parser.add_argument('--prior-weight', type=float, default=1.0, metavar='W',
                        help='pull towards MODEL where the data do not decide (default 1)')
    parser.add_argument('--no-weighting', action='store_true',
                        help='ordinary instead of weighted least squares')
    parser.add_argument('--no-compliance', action='store_true',
                        help='do not fit the joint compliance seen by motor-side encoders')
    parser.add_argument('--plot', metavar='FILE.png',
                        help='measured vs predicted torques (default: FILE with .png)')
    parser.add_argument('--no-plot', action='store_true', help='write no plot')
    parser.add_argument('--force', action='store_true',
                        help='replace output files that exist (never an input)')
    parser.add_argument('--json', action='store_true', help='machine-readable report')
    parser.set_defaults(handler=run_identify)


def options(args):
    """identify() keywords from the command line, checked."""
    terms = tuple(t.strip().upper() for t in args.joint_terms.split(',') if t.strip())
    cutoff = args.cutoff
    if cutoff != 'auto':
        try:
            cutoff = float(cutoff)
        except ValueError:
            raise CLIError(f'--cutoff: {cutoff!r} is neither a number of Hz nor auto') from None
    if not args.max_error > 0:
        raise CLIError(f'--max-error: {args.max_error}; give a percentage > 0 (inf: never '
                       'refuse)')
    law = args.friction_law
    if '=' in law:
        law = dict(item.split('=', 1) for item in law.split(','))
    return dict(weighted=not args.no_weighting, joint_terms=terms, cutoff=cutoff,
                torque_cutoff=args.torque_cutoff, effort_delay=args.effort_delay,
                velocity=args.velocity, friction=law, bounds=bounds(args),
                compliance=not args.no_compliance,
                max_error=None if np.isinf(args.max_error) else args.max_error / 100)


def bounds(args):
    """Return the plausibility bounds of the command line."""
    total = None
    if args.total_mass:
        try:
            values = [float(x) for x in args.total_mass.split(':')]
        except ValueError:
            values = []
        if len(values) not in (1, 2) or not all(v > 0 for v in values):
            raise CLIError(f'--total-mass: {args.total_mass!r}; give KG or LOW:HIGH (kg > 0)')
        total = (0.95 * values[0], 1.05 * values[0]) if len(values) == 1 else tuple(values)
    return Bounds(total_mass=total, link_mass_factor=args.link_mass_factor,
                  com_margin=None if args.com_margin < 0 else args.com_margin,
                  prior_weight=args.prior_weight)


def other_models(args):
    """{label: model} of ``--validate MODEL[,FRICTION]``; their warnings counted in a note."""
    models = {}
    for item in args.validate:
        path, _, friction = item.partition(',')
        with warnings.catch_warnings():          # counted below, as MODEL's are
            warnings.simplefilter('ignore', rd.ModelWarning)
            model = rd.load_model(path, friction=friction or None)
        models[os.path.basename(path)] = model
        if model.warnings:
            NOTES.append(f'--validate model {path!r} has {len(model.warnings)} warning(s); see '
                         f'`robot-dynamics info {path}`')
    return models


def identify_inputs(args, validation):
    """Return ``(what, path)`` of every file ``identify`` reads: never one of its outputs."""
    inputs = [('recording', args.data)] + [
        (f'nominal {what}', path) for what, path in model_inputs(args)]
    if isinstance(validation, str):
        inputs.append(('validation recording', validation))
    for item in args.validate:
        path, _, friction = item.partition(',')
        inputs.append(('model to validate', path))
        if friction:
            inputs.append(('friction file to validate', friction))
    return inputs


def run_identify(args):
    """Identify, write the URDF, sidecar and plot, print the report and warnings."""
    model = load_model(args)
    try:
        validation = float(args.validation)
    except ValueError:
        validation = args.validation
    stem = os.path.splitext(args.output)[0]
    plot = None if args.no_plot else args.plot or stem + '.png'
    sidecar = stem + '.friction.yaml'
    contacts = stem + '.contacts.yaml'
    check_outputs([args.output, sidecar, contacts] + ([plot] if plot else []),
                  identify_inputs(args, validation), args.force)
    others = other_models(args)
    try:
        data = read_recording(args.data, args.topic, model.joint_names)
        if isinstance(validation, str):
            validation = read_recording(validation, args.topic, model.joint_names)
        result = identify(model, data, validation=validation, **options(args))
        if others:
            validate_models(result, others)
    except (RecordingError, ConvexProgramError) as exc:
        raise CLIError(str(exc)) from None
    written = write_outputs(args, model, result, plot, sidecar)
    contacts, notes = write_identified_thresholds(result.model, data, contacts,
                                                  comment=f'for {args.output}')
    written.append(contacts)
    NOTES.extend(notes)
    if args.json or not sys.stdout.isatty():       # else the report on screen has them
        for warning in result.warnings:
            print(f'robot-dynamics identify: WARNING: {bounded(warning)}', file=sys.stderr)
    if args.json:
        print_json(json_report(model, result, written))
        return 0
    print('\n'.join(report_lines(result)))
    for path in written:
        print(f'wrote {path}')
    return 0


def write_outputs(args, model, result, plot, sidecar):
    """Write the URDF, the friction sidecar (when needed) and the plot; return the paths.

    The URDF holds ``result.urdf_model`` (viscous and Coulomb friction only), the sidecar the
    whole law; the held-out errors are then measured on the files read back.
    """
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    rich = has_extra_friction(result.model)
    comment = (f'identified by robot-dynamics identify from {args.data} (nominal model '
               f'{args.model})' + (f'; the joints\' whole friction law is in {sidecar}: load '
                                   'it with the friction option, RobotModel.with_friction or '
                                   'the nodes\' friction_file parameter; the damping and '
                                   'friction here fit best without it' if rich else ''))
    with open(args.output, 'w') as handle:
        handle.write(model_to_urdf(result.urdf_model, comment=comment,
                                   sidecar=sidecar if rich else ''))
    written = [args.output]
    if rich:
        laws = {name: law.law for name, law in zip(model.joint_names, result.laws)}
        with open(sidecar, 'w') as handle:
            handle.write(friction_yaml(result.model, laws, comment=f'for {args.output}'))
        written.append(sidecar)
    if result.validation is not None:
        score_files(result, args.output, sidecar if rich else None)
    if plot and result.validation is not None:
        written.append(plot_validation(result, plot, title=f'{model.name}: validation '
                                       'torques, measured vs nominal and identified model'))
    return written


def json_report(model, result, written):
    """Return the --json document."""
    check = result.validation
    labels = ['nominal', 'base', 'physical', 'urdf', 'written'] + (
        [] if check is None else list(check.others))
    ranges = result.details.get('mass_ranges')
    ranges = np.full((model.dof, 2), np.nan) if ranges is None else ranges
    definitions = list(result.base.definitions) + ['friction law term'] * (
        len(result.names) - result.base.count)
    return {
        'model': model.name, 'data': result.data.lines(), 'windows': result.windows,
        'friction_laws': {name: law.describe() for name, law in zip(model.joint_names,
                                                                    result.laws)},
        'base_parameters': [
            {'name': name, 'definition': definition, 'nominal': nominal, 'identified': theta,
             'std': std, 'relative_std_percent': rel, 'physical': physical}
            for name, definition, nominal, theta, std, rel, physical in zip(
                result.names, definitions, result.nominal, result.theta, result.std,
                result.relative_std, result.physical_theta)],
        'links': [{'link': name, 'mass_nominal': result.nominal_model.mass[i],
                   'mass': result.model.mass[i], 'com_nominal': result.nominal_model.com[i],
                   'com': result.model.com[i], 'mass_range': ranges[i]}
                  for i, name in enumerate(model.link_names)],
        'joint_stiffness': result.details['compliance'].stiffness,
        'total_mass': {'nominal': result.nominal_model.total_mass,
                       'identified': result.model.total_mass},
        'validation': None if check is None else {
            'stretch': check.stretch, 'samples': len(check.t), 'windows':
            result.windows.get('validation'), 'columns': held_out_columns(result),
            'joints': model.joint_names, 'measured_rms': check.measured_rms,
            **{f'error_rms_{w}': check.error_rms(w) for w in labels},
            **{f'relative_error_{w}': check.relative_error(w) for w in labels}},
        'warnings': list(result.warnings), 'timings': result.timings, 'files': written}
