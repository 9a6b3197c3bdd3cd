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
"""``simulate``: integrate the forward dynamics, write a CSV and a PNG of the run."""

import re
import time

import numpy as np
from tqdm import tqdm

import robot_dynamics as rd
from robot_dynamics.cli.common import (
    CLIError, NOTES, add_model_argument, add_vector_argument, format_number, format_table,
    check_outputs, joint_vector, load_model, model_inputs, output_prefix,
)
from robot_dynamics.simulation.integrators import INTEGRATORS, SimulationError
from robot_dynamics.simulation.stability import stiff_damping

SIMULATE_EPILOG = """\
examples:
  robot-dynamics simulate puma560 --torque zero --duration 2 -o out/fall
  robot-dynamics simulate puma560 --torque gravity --deg --q0 0 30 -20 0 10 0 -o out/hold
  robot-dynamics simulate two_link --integrator semi_implicit_euler --dt 0.0005
  robot-dynamics simulate my_arm.urdf --integrator implicit --limits

--torque zero lets the arm fall under gravity (friction still acts); --torque gravity
applies the gravity compensation G(q) at every step, so an arm started at rest holds still.
Writes PREFIX.csv (columns t, q_<joint>…, qd_<joint>…, qdd_<joint>…, tau_<joint>…, energy;
SI units, rad) and PREFIX.png (q, qd, τ and total energy over time). Joint limits are hard
stops with --limits only. --integrator implicit is stable under any joint damping (real
URDFs such as the xArm7's have wrists too stiffly damped for rk4 at 1 ms); --integrator
implicit_coriolis is implicit in the Coriolis term too (fast spinning arms at a large --dt);
rk4 is the more accurate for undamped arms. The default stays rk4, checked before the run: when
the joint damping makes an explicit scheme (rk4, euler, semi_implicit_euler) unstable at the
start (lambda dt beyond its stability limit), the command refuses at once with an error that
names the stiff joint and the fix (--integrator implicit, or the largest stable --dt); a run
that diverges later stops with an error saying why. See docs/simulation.md.
"""

TORQUE_MODES = ('zero', 'gravity')


def add_parsers(subparsers, formatter):
    """Register ``simulate``."""
    parser = subparsers.add_parser(
        'simulate', help='integrate the forward dynamics; write CSV and PNG',
        description='Simulate the arm from (q0, qd0) under a torque law.',
        epilog=SIMULATE_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('--torque', choices=TORQUE_MODES, default='zero',
                        help='torque law: zero (free fall) or gravity (G(q) compensation)')
    parser.add_argument('--duration', type=float, default=2.0, metavar='S',
                        help='simulated time, s (default 2)')
    parser.add_argument('--dt', type=float, default=1e-3, metavar='S',
                        help='integration step, s (default 0.001)')
    parser.add_argument('--integrator', choices=sorted(INTEGRATORS), default='rk4',
                        help='time integrator (default rk4; implicit for stiff joint damping, '
                             'implicit_coriolis for fast spinning arms too)')
    parser.add_argument('--limits', action='store_true',
                        help='joint position limits act as hard stops')
    parser.add_argument('--q0', nargs='+', metavar='V',
                        help='initial joint positions: one value per joint, comma- or '
                             'space-separated (default: zeros; with --limits, zeros clipped '
                             'into each joint\'s limits, said on stderr)')
    add_vector_argument(parser, '--qd0', 'initial joint velocities')
    parser.add_argument('--deg', action='store_true', help='revolute q0/qd0 in deg and deg/s')
    parser.add_argument('--solver', metavar='NAME', help='registered solver (default rnea)')
    parser.add_argument('-o', '--output', metavar='PREFIX',
                        help='output prefix for PREFIX.csv and PREFIX.png (default sim)')
    parser.add_argument('--no-plot', action='store_true', help='write the CSV only')
    parser.add_argument('--no-progress', action='store_true', help='hide the progress bar')
    parser.set_defaults(handler=run_simulate)


class _ProgressTorque:
    """A torque law ``f(t, q, qd)`` that also advances a progress bar once per call."""

    def __init__(self, law, bar):
        self.law, self.bar = law, bar

    def __call__(self, t, q, qd):
        self.bar.update(1)
        return self.law(t, q, qd)


def torque_law(model, mode, solver=None):
    """Return the commanded torque law ``f(t, q, qd) -> (n,)`` of a ``--torque`` mode."""
    if mode == 'gravity':
        return lambda t, q, qd: rd.gravity_torques(model, q, solver=solver)
    zero = np.zeros(model.dof)
    return lambda t, q, qd: zero


def write_csv(path, trajectory, joint_names, energy=True):
    """Write t, q_<joint>…, qd_<joint>…, qdd_<joint>…, tau_<joint>… (and energy) as CSV."""
    columns = ['t'] + [f'{kind}_{name}' for kind in ('q', 'qd', 'qdd', 'tau')
                       for name in joint_names] + (['energy'] if energy else [])
    data = np.column_stack([trajectory.t, trajectory.q, trajectory.qd, trajectory.qdd,
                            trajectory.tau] + ([trajectory.energy] if energy else []))
    np.savetxt(path, data, delimiter=',', header=','.join(columns), comments='', fmt='%.17g')
    return path


def _run(model, q0, qd0, args):
    """Integrate: in one engine call by default, step by step (progress bar) with --solver."""
    if args.solver is None:
        torque = 'gravity' if args.torque == 'gravity' else np.zeros(model.dof)
        return rd.simulate(model, q0, qd0, torque, args.duration, args.dt, args.integrator,
                           position_limits=args.limits)
    steps = int(round(args.duration / args.dt))
    with tqdm(total=steps + 1, unit='step', desc=f'simulate {model.name}',
              disable=True if args.no_progress else None) as bar:
        return rd.simulate(model, q0, qd0, _ProgressTorque(
            torque_law(model, args.torque, args.solver), bar), args.duration, args.dt,
            args.integrator, solver=args.solver, position_limits=args.limits)


def run_simulate(args):
    """Simulate and write the CSV and PNG."""
    model = load_model(args)
    if not (np.isfinite(args.duration) and args.duration > 0):
        raise CLIError(f'--duration: must be a positive number of seconds, got {args.duration}')
    if not (np.isfinite(args.dt) and 0 < args.dt <= args.duration):
        raise CLIError(f'--dt: must be positive and at most --duration, got {args.dt}')
    q0 = joint_vector(model, '--q0', args.q0, args.deg)
    if args.limits and args.q0 is None:          # the default 0, moved into each joint's range
        q0 = np.clip(q0, model.lower_limit, model.upper_limit)
        moved = [f'{name}={value:g}' for name, value in zip(model.joint_names, q0) if value]
        if moved:
            NOTES.append('--limits: the default start q0 = 0 lies outside the limits of '
                         f'{len(moved)} joint(s), started at the nearest limit: '
                         f'{", ".join(moved)} (give --q0 to choose)')
    qd0 = joint_vector(model, '--qd0', args.qd0, args.deg)
    rd.solvers.get(args.solver)                      # unknown names fail before the run
    stiff = stiff_damping(model, q0, qd0, args.dt, args.integrator)
    if stiff:                                        # would diverge: say so before the run
        raise CLIError(in_cli_words(f'refused before the run: {stiff}'))
    prefix = output_prefix(args.output, 'sim')
    check_outputs([prefix + '.csv'] + ([] if args.no_plot else [prefix + '.png']),
                  model_inputs(args))
    start = time.perf_counter()
    try:
        trajectory = _run(model, q0, qd0, args)
    except (SimulationError, ValueError) as exc:
        raise CLIError(in_cli_words(str(exc))) from None
    elapsed = time.perf_counter() - start
    csv_path = write_csv(prefix + '.csv', trajectory, model.joint_names)
    written = [csv_path]
    if not args.no_plot:
        from robot_dynamics.simulation.plotting import plot_simulation
        written.append(plot_simulation(
            prefix + '.png', trajectory.t, trajectory.q, trajectory.qd, trajectory.tau,
            trajectory.energy, model.joint_names,
            title=f'{model.name}: torque {args.torque}, {args.integrator}, dt {args.dt} s'))
    _print_summary(model, args, trajectory, written, elapsed)
    return 0


#: The library's advice in Python syntax → this command's options (one place for all messages).
CLI_WORDS = ((r"integrator='(\w+)'", r'--integrator \1'),
             (r'(start within them or )?pass position_limits=False',
              'give --q0 within them or drop --limits'),
             (r'\bposition_limits\b', '--limits'),
             (r'\b(use a (?:smaller|larger) )dt\b', r'\1--dt'),
             (r'(?<![-\w])dt <= ', '--dt <= '),
             (r'^(q0|qd0|dt): ', r'--\1: '),
             (r'^duration: ', '--duration: '))


def in_cli_words(message):
    """Return a library message with its Python fixes given as this command's options."""
    for pattern, replacement in CLI_WORDS:
        message = re.sub(pattern, replacement, message)
    return message


def real_time_factor(simulated, elapsed):
    """Return simulated / elapsed time as '87x' or, below 10, two digits: '0.25x', '1.5x'."""
    ratio = simulated / max(elapsed, 1e-9)
    return f'{ratio:.0f}x' if ratio >= 10 else f'{ratio:.2g}x'


def _print_summary(model, args, trajectory, written, elapsed):
    drift = trajectory.energy - trajectory.energy[0]
    print(f'simulated {model.name} for {trajectory.t[-1]:.4f} s in {len(trajectory.t) - 1} '
          f'steps ({args.integrator}, dt {args.dt} s, torque {args.torque})')
    print(f'integration: {elapsed:.4f} s wall, {real_time_factor(trajectory.t[-1], elapsed)} '
          f'real time ({"the engine" if args.solver is None else "solver " + args.solver})')
    rows = [(name, format_number(trajectory.q[0, j], 6), format_number(trajectory.q[-1, j], 6),
             format_number(np.abs(trajectory.q[:, j] - trajectory.q[0, j]).max(), 9))
            for j, name in enumerate(model.joint_names)]
    print(format_table(['joint', 'q(0)', 'q(end)', 'max |q - q0|'], rows))
    print(f'energy: start {trajectory.energy[0]:.6f} J, end {trajectory.energy[-1]:.6f} J, '
          f'largest change {np.abs(drift).max():.3e} J')
    for path in written:
        print(f'wrote {path}')
