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
"""Shared pieces of the command line: model loading, vector arguments, tables, JSON."""

import json
import math
import os
import re
import warnings

import numpy as np

import robot_dynamics as rd

MODEL_HELP = ('a URDF file, a DH YAML file, or a bundled model name (%s)'
              % ', '.join(sorted(rd.BUNDLED_MODELS)))


class CLIError(ValueError):
    """A user error: printed as one line, exit code 2."""


def add_model_argument(parser, optional=False):
    """Add the positional MODEL argument and the URDF chain options.

    ``--base-link``, ``--tip-link`` choose the chain of a URDF tree; ``--lock NAME=VALUE``
    (repeatable) sets a locked side-branch joint's position, or holds a chain joint fixed
    there, rad or m (docs/models.md).
    """
    if optional:
        parser.add_argument('model', metavar='MODEL', nargs='?', help=MODEL_HELP)
    else:
        parser.add_argument('model', metavar='MODEL', help=MODEL_HELP)
    group = parser.add_argument_group('URDF chain')
    group.add_argument('--base-link', metavar='LINK',
                       help='first link of the chain (default: the root link)')
    group.add_argument('--tip-link', metavar='LINK', help='last link of the chain (default: '
                       'the end of the longest moving path, see docs/models.md)')
    group.add_argument('--lock', metavar='NAME=VALUE', action='append', default=[],
                       help='position of a locked side-branch joint (a gripper finger, the '
                            'other arm; default: 0 clipped into its limits), or of a chain '
                            'joint to hold fixed there, rad or m; repeatable')
    group.add_argument('--no-urdf-friction', dest='urdf_friction', action='store_false',
                       help="leave out the URDF's <dynamics damping friction> (included by "
                            'default, as the URDF describes the robot; Pinocchio and KDL '
                            'ignore it; docs/models.md)')
    parser.add_argument('--friction', metavar='FILE.yaml',
                        help='joint friction law beyond the URDF\'s damping/friction (offset, '
                             'asymmetric, smooth, Stribeck), e.g. the .friction.yaml that '
                             'identify writes')


def add_vector_argument(parser, flag, what, required=False):
    """Add ``--flag V [V ...]``: n numbers separated by commas and/or spaces."""
    default = '' if required else ' (default: zeros)'
    parser.add_argument(flag, nargs='+', metavar='V', required=required,
                        help=f'{what}: one value per joint, comma- or space-separated{default}')


def chain_options(args):
    """``load_model`` keywords from ``--base-link``, ``--tip-link``, ``--lock`` (URDF only)."""
    options = {}
    if getattr(args, 'base_link', None):
        options['base_link'] = args.base_link
    if getattr(args, 'tip_link', None):
        options['tip_link'] = args.tip_link
    locked = {}
    for item in getattr(args, 'lock', None) or []:
        name, sep, value = item.partition('=')
        try:
            locked[name.strip()] = float(value)
        except ValueError:
            sep = ''
        if not sep or not name.strip():
            raise CLIError(f'--lock: {item!r} is not NAME=VALUE; give e.g. '
                           '--lock finger_joint1=0.04 (rad or m)')
    if locked:
        options['locked_joints'] = locked
    if not getattr(args, 'urdf_friction', True):
        options['urdf_friction'] = False
    path = str(rd.BUNDLED_MODELS.get(args.model, args.model))
    if options and path.endswith(('.yaml', '.yml')):
        raise CLIError('--base-link, --tip-link, --lock and --no-urdf-friction apply to URDF '
                       f'models; {args.model!r} is a DH table')
    return options


def load_model_and_warnings(args):
    """Load ``args.model`` with the chain options; return it and its warnings (one line each).

    The warnings are :attr:`RobotModel.warnings`, the one list every command, ``info`` and
    Python count (issue 36): the loader's notes (URDF friction included, locked joints, a
    doubtful chain or tool frame) and the model's checks (massless links, inertias that
    violate the triangle inequality, ...). Other warnings pass through.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.load_model(args.model, **chain_options(args))
        friction = getattr(args, 'friction', None)
        if friction:
            model = model.with_friction(friction)
    for warning in caught:
        if not issubclass(warning.category, rd.ModelWarning):
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)
    return model, [' '.join(m.split()) for m in model.warnings]


# One-line notes printed on stderr after a command succeeds (not after an error).
NOTES = []


def load_model(args):
    """Load ``args.model`` (chain options too); note URDF friction, warnings, locked joints."""
    model, found = load_model_and_warnings(args)
    NOTES.extend(model_notes(args, model, found))
    return model


def model_notes(args, model, found):
    """Return the stderr notes of a loaded model: URDF friction, warning count, locked joints."""
    notes = [friction_note(args, model)] if urdf_friction_joints(args, model) else []
    if found:
        notes.append(f'model {model.name!r} has {len(found)} warning(s); see '
                     f'`robot-dynamics check {args.model}`')
    if model.locked_joints:
        notes.append(f'{len(model.locked_joints)} side-branch joint(s) locked: '
                     + ', '.join(f'{k}={v:g}' for k, v in model.locked_joints.items())
                     + ' (change with --lock NAME=VALUE)')
    return notes


def friction_note(args, model):
    """Return the line saying URDF friction is in the numbers ('' without any)."""
    joints = urdf_friction_joints(args, model)
    return (f'URDF friction included on {joints} joint(s); --no-urdf-friction to match '
            'Pinocchio') if joints else ''


def urdf_friction_joints(args, model):
    """Count the joints whose URDF ``<dynamics damping friction>`` is in ``model`` (0: none).

    A URDF model loaded without ``--no-urdf-friction`` and without a ``--friction`` sidecar
    (which sets the friction law itself) counts its joints with viscous or Coulomb friction.
    """
    if model.source != 'urdf' or getattr(args, 'friction', None) or \
            not getattr(args, 'urdf_friction', True):
        return 0
    return int(np.count_nonzero((model.viscous_friction != 0) | (model.coulomb_friction != 0)))


def parse_numbers(flag, tokens, count, names=None):
    """Parse ``tokens`` (strings with commas/spaces) into ``count`` floats, or fail in one line."""
    if tokens is None:
        return None
    text = ' '.join(tokens)
    parts = [p for p in re.split(r'[,\s]+', text.strip()) if p]
    values = []
    for part in parts:
        try:
            values.append(float(part))
        except ValueError:
            raise CLIError(f'{flag}: {part!r} is not a number; give {count} numbers separated '
                           'by commas or spaces') from None
    if len(values) != count:
        target = f' (one per joint of {list(names)})' if names is not None else ''
        raise CLIError(f'{flag}: expected {count} values{target}, got {len(values)}; '
                       f'give exactly {count} numbers')
    array = np.array(values)
    if not np.all(np.isfinite(array)):
        raise CLIError(f'{flag}: values must be finite numbers, got {values}')
    return array


def joint_vector(model, flag, tokens, degrees=False, default_zero=True):
    """Return an (n,) joint vector from ``--flag`` tokens (revolute entries from degrees)."""
    values = parse_numbers(flag, tokens, model.dof, model.joint_names)
    if values is None:
        if not default_zero:
            raise CLIError(f'{flag}: required; give {model.dof} values for joints '
                           f'{list(model.joint_names)}')
        return np.zeros(model.dof)
    return to_radians(model, values) if degrees else values


def to_radians(model, values):
    """Convert the revolute entries of a joint vector (or (N, n) array) from deg to rad."""
    return np.where(model.is_revolute, np.radians(values), values)


def from_radians(model, values):
    """Convert the revolute entries of a joint vector (or (N, n) array) from rad to deg."""
    return np.where(model.is_revolute, np.degrees(values), values)


def effort_units(model):
    """'N m' for revolute joints, 'N' for prismatic ones (n,)."""
    return ['N m' if r else 'N' for r in model.is_revolute]


def format_number(value, precision):
    """Fixed-point text with ``precision`` decimals; 'inf'/'-inf' for unbounded values."""
    value = float(value)
    if math.isinf(value):
        return 'inf' if value > 0 else '-inf'
    text = f'{value:.{precision}f}'
    return '0.' + '0' * precision if re.fullmatch(r'-0\.0*', text) else text


def format_table(headers, rows):
    """Plain-text table: first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return '  '.join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    rule = '  '.join('-' * w for w in widths)
    return '\n'.join([line(cells[0]), rule] + [line(row) for row in cells[1:]])


def jsonable(value):
    """Arrays to lists, non-finite floats to None (JSON has no inf), recursively."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def print_json(payload):
    """Print ``payload`` as indented JSON (floats round-trip exactly)."""
    print(json.dumps(jsonable(payload), indent=2))


def output_prefix(path, default, extensions=('.png', '.csv')):
    """Output prefix: ``path`` (or ``default``) without one of the ``extensions``."""
    prefix = path or default
    root, ext = os.path.splitext(prefix)
    return root if ext.lower() in extensions else prefix


def model_inputs(args):
    """Return ``(what, path)`` of the files MODEL (bundled: its file) and ``--friction`` name."""
    found = []
    if getattr(args, 'model', None):
        bundled = rd.BUNDLED_MODELS.get(args.model)
        found.append(('model MODEL', rd.data_path(bundled) if bundled else args.model))
    if getattr(args, 'friction', None):
        found.append(('friction file --friction', args.friction))
    return found


def check_outputs(outputs, inputs, force=True):
    """Refuse outputs that would destroy an input; create the outputs' folders.

    ``outputs``: every path the command will write; ``inputs``: ``(what, path)`` of every file
    or folder it reads. One rule for every command (issue 30): an output that is an input,
    resolves to one (symlinks, ``..``, hard links) or lies inside an input folder (a rosbag2
    directory) is refused, ``--force`` or not. With ``force=False`` an output that exists is
    refused too. Checked before any work, so a refused run costs nothing and writes nothing.
    """
    for k, output in enumerate(outputs):
        twice = next((other for other in outputs[:k] if overwrites(output, other) == 'is'), None)
        if twice is not None:
            raise CLIError(f'outputs {twice} and {output} are the same file: one would replace '
                           'the other; give different paths (-o, --plot)')
        for what, source in inputs:
            relation = overwrites(output, source)
            if relation:
                raise CLIError(f'output {output} {relation} the {what} ({source}); writing it '
                               'would destroy the input: give another output path')
        if os.path.exists(output) and not force:
            raise CLIError(f'output {output} exists; give another file with -o/--plot, or '
                           '--force to replace it')
    for output in outputs:
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)


def overwrites(output, source):
    """Say how writing ``output`` would replace ``source``: 'is', 'lies inside', or ''.

    Both paths are resolved (``os.path.realpath``: symlinks and ``..``); ``os.path.samefile``
    also catches hard links and case-insensitive file systems when both exist.
    """
    target, real = os.path.realpath(output), os.path.realpath(source)
    if target == real:
        return 'is'
    try:
        if os.path.samefile(output, source):
            return 'is'
    except OSError:                               # one of them does not exist (yet)
        pass
    if os.path.isdir(real) and target.startswith(os.path.join(real, '')):
        return 'lies inside'
    return ''
