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
"""``trajectory``: feed-forward torques along a smooth motion, checked against the limits."""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.analysis import feasibility
from robot_dynamics.cli import retime
from robot_dynamics.cli.common import (
    CLIError, add_model_argument, check_outputs, format_number, format_table, load_model,
    model_inputs, output_prefix, print_json, to_radians,
)
from robot_dynamics.io.yaml_loader import load_yaml, read_yaml_text

SCHEMA = """\
FILE.yaml schema (one of `waypoints` or `samples`):

  units: rad                # optional: rad (default) or deg; deg applies to revolute joints
  interpolation: quintic    # optional: quintic (default) or cubic; --interpolation overrides
  joint_names: [j1, j2]     # optional: the column order of the rows below (default: the
                            # model's joint order); must name every joint once
  waypoints:                # points the motion passes through
    times: [0.0, 1.0, 2.5]            # s, strictly increasing, at least 2
    positions:                        # one row per time, one column per joint (rad, m)
      - [0.0, 0.0]
      - [0.5, -0.3]
      - [0.0, 0.0]
    velocities: [[0, 0], [0.2, 0], [0, 0]]   # optional, rad/s, m/s
    accelerations: [[0, 0], [0, 0], [0, 0]]  # optional (with velocities), rad/s², m/s²

  samples:                  # instead of waypoints: a sampled trajectory
    times: [0.0, 0.01, 0.02, ...]     # or `dt: 0.01` for evenly spaced rows
    positions: [[...], [...], ...]    # at least 6 rows for quintic, 4 for cubic

Interpolation: waypoints without velocities use one spline through all of them (degree 5,
or 3) that starts and ends at rest (zero velocity, and zero acceleration for quintic);
waypoints with velocities use piecewise Hermite polynomials (quintic with the given or zero
accelerations, or cubic); samples use a not-a-knot spline through every sample.
"""

TRAJECTORY_EPILOG = """\
examples:
  robot-dynamics trajectory puma560 move.yaml
  robot-dynamics trajectory puma560 move.yaml --interpolation cubic --dt 0.002 -o out/move
  robot-dynamics trajectory my_arm.urdf samples.yaml --json --strict

Computes q, qd, qdd on a grid of --dt seconds, the feed-forward torques
tau = M qdd + V + G + F (inverse dynamics), writes PREFIX.csv (t, q_*, qd_*, qdd_*, tau_*)
and PREFIX.png (q, qd, tau with dashed limits), and reports every joint and time span where
|tau| exceeds the effort limit, |qd| the velocity limit, or q leaves [lower, upper].
Exit code 1 with --strict when a limit is exceeded.

--check-effort also computes the smallest slow-down k >= 1 that brings every torque within
(1 - --margin) of its effort limit and every speed within its velocity limit (exact time
scaling, Hollerbach 1984: robot_dynamics.analysis.feasibility), prints the worst excess as
"joint J would need X N m at t = T s; the effort limit is L N m; slowed by kx it fits", says
when gravity alone exceeds a limit (no k helps), writes PREFIX_effort.png (|tau|/tau_max per
joint over time) and exits with code 1 when the motion does not fit as it is.

--retime writes the path of the file's motion at its fastest timing within the URDF
velocity and effort limits (time-optimal, robot_dynamics.analysis.time_optimal; every sample
of --dt within the limits, friction included): PREFIX_retimed.csv, PREFIX_retimed.yaml (the
waypoints schema below, every --dt) and PREFIX_retimed.png (each joint's torque against its
limit, before and after). --retime-margin F keeps F of each limit in reserve.

""" + SCHEMA

_TOP_KEYS = {'units', 'interpolation', 'joint_names', 'waypoints', 'samples', 'description'}
_SECTION_KEYS = {'waypoints': {'times', 'positions', 'velocities', 'accelerations'},
                 'samples': {'times', 'dt', 'positions'}}


def add_parsers(subparsers, formatter):
    """Register ``trajectory``."""
    parser = subparsers.add_parser(
        'trajectory', help='feed-forward torques along waypoints; limit check',
        description='Feed-forward torques along a smooth joint trajectory read from YAML.',
        epilog=TRAJECTORY_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('file', metavar='FILE.yaml', help='waypoints or samples (schema below)')
    parser.add_argument('--interpolation', choices=('quintic', 'cubic'),
                        help="spline degree (default: the file's, else quintic)")
    parser.add_argument('--dt', type=float, default=0.005, metavar='S',
                        help='sampling step of the output, s (default 0.005)')
    parser.add_argument('--solver', metavar='NAME', help='registered solver (default rnea)')
    parser.add_argument('-o', '--output', metavar='PREFIX',
                        help='output prefix for PREFIX.csv and PREFIX.png (default trajectory)')
    parser.add_argument('--no-plot', action='store_true', help='write the CSV only')
    parser.add_argument('--json', action='store_true', help='machine-readable JSON report')
    parser.add_argument('--strict', action='store_true',
                        help='exit with code 1 when a limit is exceeded')
    parser.add_argument('--check-effort', action='store_true',
                        help='torque feasibility: the slow-down that fits, |tau|/tau_max plot')
    parser.add_argument('--payload', metavar='KG[,X,Y,Z]', default=None,
                        help='a point-mass payload at the tool (kg; centre of mass in the tool '
                        'frame, m), for the torques and --check-effort')
    parser.add_argument('--margin', type=float, default=feasibility.DEFAULT_MARGIN,
                        metavar='F', help='fraction of each effort limit kept in reserve by '
                        '--check-effort (default 0.05)')
    parser.add_argument('--retime', action='store_true',
                        help='time-optimal retiming of the path within the URDF velocity and '
                        'effort limits: PREFIX_retimed.csv, .yaml and .png (before/after)')
    parser.add_argument('--retime-margin', type=float, default=0.0, metavar='F',
                        help='fraction of each limit kept in reserve by --retime (default 0)')
    parser.set_defaults(handler=run_trajectory)


# ---------------------------------------------------------------------- reading the file
def _matrix(path, field, value, rows, n):
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise CLIError(f'{path}: {field}: expected a list of rows of {n} numbers') from None
    if array.ndim != 2 or array.shape[1] != n:
        raise CLIError(f'{path}: {field}: expected rows of {n} numbers (one per joint), got '
                       f'shape {array.shape}; give one column per joint')
    if rows is not None and array.shape[0] != rows:
        raise CLIError(f'{path}: {field}: {array.shape[0]} rows but {rows} times; give one '
                       'row per time')
    if not np.all(np.isfinite(array)):
        raise CLIError(f'{path}: {field}: contains NaN or inf; give finite numbers')
    return array


def _times(path, field, section):
    if 'times' in section:
        times = np.array(section['times'], dtype=float).reshape(-1)
    elif 'dt' in section:
        dt = float(section['dt'])
        if not dt > 0:
            raise CLIError(f'{path}: {field}.dt: must be a positive number of seconds')
        times = dt * np.arange(len(section.get('positions') or []))
    else:
        raise CLIError(f'{path}: {field}.times: missing; give a list of times in seconds')
    if times.size < 2 or np.any(np.diff(times) <= 0) or not np.all(np.isfinite(times)):
        raise CLIError(f'{path}: {field}.times: need at least 2 strictly increasing times')
    return times


def read_trajectory_file(path, model):
    """Read FILE.yaml; return kind, times (K,), positions, velocities, accelerations, degree.

    Rows are reordered to the model's joint order and converted to rad.
    """
    document = load_yaml(read_yaml_text(path, str(path), CLIError), str(path), CLIError)
    if not isinstance(document, dict):
        raise CLIError(f'{path}: expected a mapping with `waypoints` or `samples`')
    unknown = set(document) - _TOP_KEYS
    if unknown:
        raise CLIError(f'{path}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_TOP_KEYS)}')
    kinds = [k for k in ('waypoints', 'samples') if k in document]
    if len(kinds) != 1:
        raise CLIError(f'{path}: give exactly one of `waypoints` or `samples`')
    kind = kinds[0]
    section = document[kind]
    if not isinstance(section, dict):
        raise CLIError(f'{path}: {kind}: expected a mapping with times and positions')
    unknown = set(section) - _SECTION_KEYS[kind]
    if unknown:
        raise CLIError(f'{path}: {kind}: unknown key(s) {sorted(unknown)}; allowed: '
                       f'{sorted(_SECTION_KEYS[kind])}')
    order = _column_order(path, document.get('joint_names'), model)
    times = _times(path, kind, section)
    if 'positions' not in section:
        raise CLIError(f'{path}: {kind}.positions: missing; give one row per time')
    arrays = {}
    for name in ('positions', 'velocities', 'accelerations'):
        if section.get(name) is not None:
            arrays[name] = _matrix(path, f'{kind}.{name}', section[name], times.size,
                                   model.dof)[:, order]
    if 'accelerations' in arrays and 'velocities' not in arrays:
        raise CLIError(f'{path}: {kind}.accelerations: given without velocities; add '
                       'velocities too')
    units = document.get('units', 'rad')
    if units not in ('rad', 'deg'):
        raise CLIError(f'{path}: units: {units!r}; use rad or deg')
    if units == 'deg':
        arrays = {name: to_radians(model, value) for name, value in arrays.items()}
    degree = document.get('interpolation', 'quintic')
    if degree not in ('quintic', 'cubic'):
        raise CLIError(f'{path}: interpolation: {degree!r}; use quintic or cubic')
    return (kind, times, arrays['positions'], arrays.get('velocities'),
            arrays.get('accelerations'), degree)


def _column_order(path, names, model):
    if names is None:
        return np.arange(model.dof)
    names = [str(n) for n in names]
    if sorted(names) != sorted(model.joint_names):
        raise CLIError(f'{path}: joint_names: {names} must name each of the model\'s joints '
                       f'{list(model.joint_names)} exactly once')
    return np.array([names.index(name) for name in model.joint_names])


# ---------------------------------------------------------------------- interpolation
def interpolate(kind, times, positions, velocities, accelerations, degree, t):
    """Positions, velocities, accelerations (T, n) of the smooth motion at times ``t`` (T,)."""
    from scipy.interpolate import BPoly, make_interp_spline     # 0.4 s import: only when used
    k = 5 if degree == 'quintic' else 3
    n = positions.shape[1]
    if kind == 'waypoints' and velocities is not None:
        if k == 5 and accelerations is None:
            accelerations = np.zeros_like(positions)
        derivatives = [positions, velocities] + ([accelerations] if k == 5 else [])
        splines = [BPoly.from_derivatives(times, np.stack([d[:, j] for d in derivatives], 1))
                   for j in range(n)]
        return tuple(np.column_stack([s.derivative(order)(t) if order else s(t)
                                      for s in splines]) for order in range(3))
    if kind == 'waypoints':
        rest = [(1, np.zeros(n))] + ([(2, np.zeros(n))] if k == 5 else [])
        spline = make_interp_spline(times, positions, k=k, bc_type=(rest, rest))
    else:
        if times.size < k + 1:
            raise CLIError(f'samples: {times.size} rows are too few for a {degree} spline; '
                           f'give at least {k + 1} or use --interpolation cubic')
        spline = make_interp_spline(times, positions, k=k)
    return spline(t), spline(t, 1), spline(t, 2)


# ---------------------------------------------------------------------- limits
def violations(t, values, limit, joint_names, what, low=None):
    """Time spans where ``values`` (T, n) leave ``[-limit, limit]`` (or ``[low, limit]``)."""
    found = []
    for j, name in enumerate(joint_names):
        lower = -limit[j] if low is None else low[j]
        slack = 1e-9 * max(1.0, abs(lower), abs(limit[j]))        # a waypoint on a limit is in
        outside = (values[:, j] > limit[j] + slack) | (values[:, j] < lower - slack)
        if not outside.any():
            continue
        edges = np.flatnonzero(np.diff(np.concatenate([[0], outside.astype(int), [0]])))
        for start, stop in zip(edges[::2], edges[1::2]):
            span = slice(start, stop)
            excess = np.maximum(values[span, j] - limit[j], lower - values[span, j])
            worst = start + int(np.argmax(excess))
            found.append({'joint': name, 'quantity': what, 'start': t[start],
                          'end': t[stop - 1], 'worst_time': t[worst],
                          'worst_value': values[worst, j], 'lower': lower, 'upper': limit[j]})
    return found


def run_trajectory(args):
    """Compute the feed-forward torques, write CSV and PNG, report limit violations."""
    from robot_dynamics.cli.simulation import write_csv
    model = with_payload(load_model(args), args.payload)
    prefix = output_prefix(args.output, 'trajectory')
    plots = [] if args.no_plot else ['.png'] + (['_effort.png'] if args.check_effort else [])
    check_outputs([prefix + suffix for suffix in ['.csv'] + plots],
                  model_inputs(args) + [('trajectory file FILE.yaml', args.file)])
    kind, times, positions, velocities, accelerations, degree = read_trajectory_file(
        args.file, model)
    degree = args.interpolation or degree
    if not (np.isfinite(args.dt) and args.dt > 0):
        raise CLIError(f'--dt: must be a positive number of seconds, got {args.dt}')
    steps = max(1, int(round((times[-1] - times[0]) / args.dt)))
    _check_size(model, args, times, steps)
    t = np.linspace(times[0], times[-1], steps + 1)
    q, qd, qdd = interpolate(kind, times, positions, velocities, accelerations, degree, t)
    tau = rd.inverse_dynamics(model, q, qd, qdd, solver=args.solver)
    names = model.joint_names
    found = (violations(t, tau, model.effort_limit, names, 'effort')
             + violations(t, qd, model.velocity_limit, names, 'velocity')
             + violations(t, q, model.upper_limit, names, 'position', model.lower_limit))
    motion = _Motion(t, q, qd, qdd, tau)
    written = [write_csv(prefix + '.csv', motion, names, energy=False)]
    if not args.no_plot:
        from robot_dynamics.simulation.plotting import plot_trajectory
        written.append(plot_trajectory(prefix + '.png', t, q, qd, tau, names,
                                       model.velocity_limit, model.effort_limit,
                                       title=f'{model.name}: {args.file} ({degree})'))
    report = _check_effort(model, args, prefix, t, q, qd, qdd, written)
    retimed = _retime(model, args, prefix, (times, positions, velocities, accelerations),
                      (t - t[0], tau), written)
    if args.json:
        print_json({'model': model.name, 'file': args.file, 'interpolation': degree,
                    'joint_names': names, 'peak_abs_tau': np.abs(tau).max(0),
                    'peak_abs_qd': np.abs(qd).max(0), 'violations': found,
                    'files': written, **_effort_json(report), **retimed[1]})
    else:
        _print_report(model, args, degree, t, qd, tau, found, written)
        if report is not None:
            print(f'effort check: {report.message()}')
        for line in retimed[0]:
            print(line)
    infeasible = report is not None and not report.feasible
    return 1 if (args.strict and found) or infeasible else 0


def with_payload(model, text):
    """Return ``model`` with the ``--payload KG[,X,Y,Z]`` point mass (unchanged for None)."""
    if text is None:
        return model
    try:
        values = [float(v) for v in str(text).split(',')]
    except ValueError:
        values = []
    if len(values) not in (1, 4) or not all(np.isfinite(values)) or values[0] < 0:
        raise CLIError(f'--payload: {text!r}; give KG or KG,X,Y,Z (kg >= 0, m), e.g. 2.5,0,0,0.05')
    return model.with_payload(values[0], values[1:] if len(values) == 4 else (0.0, 0.0, 0.0))


def _check_effort(model, args, prefix, t, q, qd, qdd, written):
    """Run the feasibility check of ``--check-effort`` (None without it); plot the ratios."""
    if not args.check_effort:
        return None
    if not 0.0 <= args.margin < 1.0:
        raise CLIError(f'--margin: {args.margin} must be in [0, 1), e.g. 0.05 for 5 %')
    if not np.any(np.isfinite(model.effort_limit) | np.isfinite(model.velocity_limit)):
        raise CLIError(f'--check-effort: model {model.name!r} has no effort or velocity '
                       'limits (none given, or 0: unknown, as in an exporter\'s all-zero '
                       '<limit>); give a URDF with <limit effort=... velocity=...>')
    report = feasibility.check_samples(model, t - t[0], q, qd, qdd, args.margin)
    if not args.no_plot:
        written.append(plot_effort_ratio(prefix + '_effort.png', report,
                                         title=f'{model.name}: {args.file}'))
    return report


def _retime(model, args, prefix, waypoints, before, written):
    """Run ``--retime`` (nothing without it): the lines to print and the JSON entries."""
    if not args.retime:
        return [], {}
    goal = retime.retime(model, args, *waypoints)
    files, tau = retime.write_outputs(model, args, prefix, goal, before, model.joint_names)
    written.extend(files)
    return retime.report_lines(goal, tau, model), {
        'retime': {'duration_before': goal.original_duration, 'duration': goal.duration,
                   'waypoints': int(goal.times.size), 'peak_abs_tau': np.abs(tau).max(0),
                   'sample_peak_ratio': goal.sample_peak,
                   'interpolation_peak_ratio': goal.interpolation_peak, 'files': files}}


def _effort_json(report):
    if report is None:
        return {}
    return {'effort_check': {
        'feasible': report.feasible, 'scale': report.scale, 'margin': report.margin,
        'message': report.message(), 'peak_effort_ratio': report.effort_ratio.max(0),
        'violations': [vars(v) for v in report.violations]}}


def plot_effort_ratio(path, report, title=''):
    """Plot ``|tau| / tau_max`` per joint over time with the limit and the margin; return path."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    import os
    figure, axis = plt.subplots(figsize=(10, 4.5))
    for j, name in enumerate(report.joint_names):
        axis.plot(report.times, report.effort_ratio[:, j], label=name)
    axis.axhline(1.0, color='k', linestyle='--', label='effort limit')
    axis.axhline(1.0 - report.margin, color='grey', linestyle=':', label='limit - margin')
    axis.set_xlabel('time (s)')
    axis.set_ylabel('|tau| / tau_max')
    axis.set_title(f'{title}\n{report.message()}', fontsize='small')
    axis.legend(fontsize='x-small', loc='upper left', bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _check_size(model, args, times, steps):
    """Refuse, before sampling, a motion whose samples would exceed the recording bound."""
    from robot_dynamics.simulation.integrators import check_recording_size
    try:
        check_recording_size(model, times[-1] - times[0], args.dt, steps,
                             fix='split the motion into shorter files or use a larger --dt')
    except ValueError as exc:
        raise CLIError(f'{args.file}: {exc}') from None


class _Motion:
    """The columns ``write_csv`` reads."""

    def __init__(self, t, q, qd, qdd, tau):
        self.t, self.q, self.qd, self.qdd, self.tau = t, q, qd, qdd, tau


def _exceeded(found, joint):
    kinds = dict.fromkeys(v['quantity'] for v in found if v['joint'] == joint)
    return ','.join(kinds) or '-'


def _print_report(model, args, degree, t, qd, tau, found, written):
    print(f'{model.name}: {args.file}, {degree} interpolation, {t.size} samples over '
          f'{t[-1] - t[0]:.4f} s')
    rows = [(name, format_number(np.abs(qd[:, j]).max(), 4),
             format_number(model.velocity_limit[j], 4), format_number(np.abs(tau[:, j]).max(), 4),
             format_number(model.effort_limit[j], 4),
             _exceeded(found, name))
            for j, name in enumerate(model.joint_names)]
    print(format_table(['joint', 'peak |qd|', 'qd limit', 'peak |tau|', 'effort limit',
                        'exceeded'], rows))
    if not found:
        print('all samples within the position, velocity and effort limits')
    for v in found:
        print(f'{v["joint"]}: {v["quantity"]} outside [{v["lower"]:.6g}, {v["upper"]:.6g}] '
              f'from t = {v["start"]:.4f} s to {v["end"]:.4f} s (worst {v["worst_value"]:.6g} '
              f'at t = {v["worst_time"]:.4f} s)')
    for path in written:
        print(f'wrote {path}')
