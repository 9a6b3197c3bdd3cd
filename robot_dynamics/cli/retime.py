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
"""``trajectory --retime``: the file's path at the fastest timing within the limits.

The path is the file's motion (:func:`robot_dynamics.analysis.retime.retime_goal`: its Hermite
interpolant when the waypoints have velocities, else the clamped chord-length cubic spline
through its points), timed by :mod:`robot_dynamics.analysis.time_optimal` with the model's
URDF velocity and effort limits (times ``1 - --retime-margin``), sampled every ``--dt``.
Writes ``PREFIX_retimed.csv`` (``t, q_*, qd_*, qdd_*, tau_*``), ``PREFIX_retimed.yaml`` (the
``waypoints`` schema this command reads: times, positions, velocities, accelerations) and
``PREFIX_retimed.png`` (every joint's torque against its limit, before and after).
"""

from types import SimpleNamespace

import numpy as np

import robot_dynamics as rd
from robot_dynamics.analysis.retime import retime_goal
from robot_dynamics.cli.common import CLIError
from robot_dynamics.errors import InfeasiblePathError


def retime(model, args, times, positions, velocities, accelerations):
    """Return the :class:`~robot_dynamics.analysis.retime.RetimedGoal` of the file's motion."""
    margin = args.retime_margin
    if not 0.0 <= margin < 1.0:
        raise CLIError(f'--retime-margin: {margin} must be in [0, 1), e.g. 0.05 for 5 %')
    if not np.any(np.isfinite(model.effort_limit) | np.isfinite(model.velocity_limit)):
        raise CLIError(f'--retime: model {model.name!r} has no effort or velocity limits; '
                       'give a URDF with <limit effort=... velocity=...>')
    try:
        return retime_goal(model, times, positions, velocities, accelerations,
                           velocity_limits=(1.0 - margin) * model.velocity_limit,
                           torque_limits=(1.0 - margin) * model.effort_limit, dt=args.dt)
    except (InfeasiblePathError, ValueError) as exc:
        raise CLIError(f'{args.file}: --retime: {exc}') from None


def write_outputs(model, args, prefix, goal, before, names):
    """Write the CSV, YAML and plot of ``--retime``; return the paths written."""
    from robot_dynamics.cli.simulation import write_csv
    t, q, qd, qdd = (goal.times - goal.times[0], goal.positions, goal.velocities,
                     goal.accelerations)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    motion = SimpleNamespace(t=t, q=q, qd=qd, qdd=qdd, tau=tau)     # the columns write_csv reads
    written = [write_csv(prefix + '_retimed.csv', motion, names, energy=False)]
    path = prefix + '_retimed.yaml'
    with open(path, 'w', encoding='utf-8') as stream:
        stream.write(waypoints_yaml(names, t, q, qd, qdd, f'{model.name}: {args.file} '
                                    f'retimed, {t[-1]:.6g} s'))
    written.append(path)
    if not args.no_plot:
        written.append(plot_before_after(prefix + '_retimed.png', model, before, (t, tau),
                                         f'{model.name}: {args.file}'))
    return written, tau


def waypoints_yaml(names, t, q, qd, qdd, comment):
    """YAML of the ``waypoints`` schema (rad, s) with every value to 17 digits."""
    def rows(values):
        return '\n'.join('    - [' + ', '.join(repr(float(v)) for v in row) + ']'
                         for row in values)
    return (f'# {comment}\njoint_names: [{", ".join(names)}]\ninterpolation: quintic\n'
            f'waypoints:\n  times: [{", ".join(repr(float(v)) for v in t)}]\n'
            f'  positions:\n{rows(q)}\n  velocities:\n{rows(qd)}\n'
            f'  accelerations:\n{rows(qdd)}\n')


def plot_before_after(path, model, before, after, title):
    """Plot each joint's torque against ±its effort limit, before and after; return ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    import os
    figure = Figure(figsize=(10, 6), layout='constrained')
    FigureCanvasAgg(figure)
    axes = figure.subplots(2, 1, sharey=True)
    for axis, (t, tau), what in zip(axes, (before, after), ('as given', 'retimed')):
        for j, name in enumerate(model.joint_names):
            (line,) = axis.plot(t, tau[:, j], label=name, linewidth=1.2)
            if np.isfinite(model.effort_limit[j]):
                for sign in (1, -1):
                    axis.axhline(sign * model.effort_limit[j], color=line.get_color(),
                                 linestyle='--', linewidth=0.8, alpha=0.6)
        axis.set_title(f'{what}: {t[-1] - t[0]:.4g} s', fontsize='small')
        axis.set_ylabel('τ [N m, N]')
        axis.grid(True, alpha=0.3)
    axes[0].legend(loc='upper right', fontsize='small', ncol=min(6, model.dof))
    axes[-1].set_xlabel('time [s]')
    figure.suptitle(f'{title}: joint torques and effort limits (dashed)')
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path, dpi=100)
    return path


def report_lines(goal, tau, model):
    """Return the lines ``--retime`` prints."""
    with np.errstate(divide='ignore', invalid='ignore'):
        share = np.where(np.isfinite(model.effort_limit),
                         np.abs(tau).max(axis=0) / model.effort_limit, 0.0)
    return [f'retimed: {goal.original_duration:.4f} s -> {goal.duration:.4f} s, '
            f'{goal.times.size} waypoints every {goal.times[1] - goal.times[0]:.4g} s; peak '
            f'|tau|/limit {share.max():.4f} (joint {model.joint_names[int(np.argmax(share))]}); '
            f'{goal.message()}']
