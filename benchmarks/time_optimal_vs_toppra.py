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
"""rd.time_optimal against toppra on the same paths: duration, dense limit excess, compute time.

Same path (the clamped chord-length cubic spline through random waypoints: toppra's
``SplineInterpolator(bc_type='clamped')`` is the same scipy ``CubicSpline``), same limits, same
rigid-body dynamics (toppra's ``JointTorqueConstraint`` calls ``rd.inverse_dynamics``, the
models have no friction). toppra as its docs recommend: 401 grid points, the interpolation
discretisation for the torque constraint, the seidel solver, ``ParametrizeConstAccel``
("guarantees constraint satisfaction"); its default ``ParametrizeSpline`` output is measured
too. Excess: ``max |τ| / τ_max`` and ``max |q̇| / q̇_max`` over every 1 kHz sample of each output,
torques by ``rd.inverse_dynamics`` (ours also checked against Pinocchio's RNEA). Compute:
each repeat times ours (samples every 1 ms, checked) and toppra (``compute_trajectory``, then
sampling its output at 1 kHz) back to back, in CPU time of the process (``process_time``:
steadier than wall time on the shared machine; the engine's threads count in it); medians
and the median of the per-repeat ratios.

    python benchmarks/time_optimal_vs_toppra.py [--repeat 7] [--write-doc docs/trajectory.md]

``--write-doc`` replaces the text between the ``time-optimal-benchmark`` markers of the file
with this run's output, its date, commit and load.
"""

import argparse
import datetime
import importlib.metadata
import os
import pathlib
import subprocess
import sys
import time
import warnings

import numpy as np
import pinocchio as pin

from harness import load, machine, pinocchio, require_engine

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.analysis.path_dynamics import spline_path  # noqa: E402
from toppra_reference import toppra_timing, waypoints  # noqa: E402  (test/, on the path)

MARK = 'time-optimal-benchmark'
#: (arm, payload kg, velocity limits x URDF): torque-bound (payload, fast joints), speed-bound.
CASES = [('ur5', 5.0, 3.0), ('ur5', 0.0, 1.0), ('panda', 3.0, 3.0), ('panda', 0.0, 1.0)]
SEEDS = (0, 1, 2)


def excess(model, vmax, qd, tau):
    """``max |τ| / τ_max`` and ``max |q̇| / q̇_max`` over the samples."""
    return float((np.abs(tau) / model.effort_limit).max()), float((np.abs(qd) / vmax).max())


def pinocchio_gap(model, q, qd, qdd, tau):
    """Largest ``|τ_rd - τ_pin|`` over the samples relative to the largest ``|τ|``."""
    pm, data = pinocchio(model)
    ref = np.array([pin.rnea(pm, data, *row) for row in zip(q, qd, qdd)])
    return float(np.abs(ref - tau).max() / np.abs(tau).max())


def one_case(arm, payload, vscale, seed, repeat):
    """One row of the table (a dict)."""
    model = load(arm)
    model = model.with_payload(payload) if payload else model
    vmax = vscale * model.velocity_limit
    path = spline_path(waypoints(model, seed))
    ours_s, theirs_s, full_s = [], [], []
    for _ in range(repeat):
        start = time.process_time()
        result = rd.time_optimal_retiming(model, path, velocity_limits=vmax)
        ours_s.append(time.process_time() - start)
        duration, (t, q, qd, qdd), solve, total = toppra_timing(model, path, vmax,
                                                                clock=time.process_time)
        theirs_s.append(solve)
        full_s.append(total)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    spline = toppra_timing(model, path, vmax, 'ParametrizeSpline')[1]
    tau_spline = rd.inverse_dynamics(model, *spline[1:])
    ours_s, theirs_s, full_s = map(np.array, (ours_s, theirs_s, full_s))
    return dict(
        case=f'{arm} {model.dof}j {payload:g} kg v x{vscale:g} #{seed}',
        T_ours=result.duration, T_toppra=float(duration),
        ours=excess(model, vmax, result.qd, result.tau),
        toppra=excess(model, vmax, qd, tau),
        spline=excess(model, vmax, spline[2], tau_spline),
        ms_ours=1e3 * np.median(ours_s), ms_toppra=1e3 * np.median(theirs_s),
        ms_full=1e3 * np.median(full_s), vs_solve=float(np.median(ours_s / theirs_s)),
        vs_full=float(np.median(ours_s / full_s)),
        pin=pinocchio_gap(model, result.q, result.qd, result.qdd, result.tau))


def table(rows):
    """Return the report's lines."""
    head = (f'{"case":<28} {"T ours":>8} {"T toppra":>8} {"dT":>7}  {"tau/lim ours":>12} '
            f'{"toppra":>7} {"spline":>7}  {"qd/lim ours":>11} {"toppra":>7} {"spline":>7}  '
            f'{"cpu ms":>7} {"toppra":>7} {"+1kHz":>7} {"ours/toppra":>11} {"/+1kHz":>7}')
    lines = [head, '-' * len(head)]
    for r in rows:
        lines.append(
            f'{r["case"]:<28} {r["T_ours"]:8.4f} {r["T_toppra"]:8.4f} '
            f'{100 * (r["T_ours"] / r["T_toppra"] - 1):+6.2f}%  {r["ours"][0]:12.6f} '
            f'{r["toppra"][0]:7.4f} {r["spline"][0]:7.4f}  {r["ours"][1]:11.6f} '
            f'{r["toppra"][1]:7.4f} {r["spline"][1]:7.4f}  {r["ms_ours"]:7.2f} '
            f'{r["ms_toppra"]:7.2f} {r["ms_full"]:7.2f} {r["vs_solve"]:11.2f} '
            f'{r["vs_full"]:7.2f}')
    worst = max(max(r['ours']) for r in rows)
    lines += ['', f'ours: worst ratio to a limit at any 1 kHz sample {worst:.9f}; duration vs '
              f'toppra {min(r["T_ours"] / r["T_toppra"] for r in rows) - 1:+.2%} .. '
              f'{max(r["T_ours"] / r["T_toppra"] for r in rows) - 1:+.2%}; CPU time ours/toppra '
              f'median {np.median([r["vs_solve"] for r in rows]):.2f} (toppra solve only), '
              f'{np.median([r["vs_full"] for r in rows]):.2f} (toppra solve + sampling at '
              f'1 kHz); torques vs Pinocchio RNEA: {max(r["pin"] for r in rows):.1e} relative']
    return lines


def write_doc(path, lines, repeat):
    """Replace the text between the markers of ``path`` with this run's output."""
    text = pathlib.Path(path).read_text(encoding='utf-8')
    begin, end = f'<!-- {MARK} -->', f'<!-- /{MARK} -->'
    if begin not in text or end not in text:
        sys.exit(f'{path}: no {begin} ... {end} markers')
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True,
                            text=True, cwd=pathlib.Path(path).parent).stdout.strip()
    stamp = (f'`python benchmarks/time_optimal_vs_toppra.py --repeat {repeat}` on '
             f'{datetime.date.today()}, commit {commit}, load average '
             f'{os.getloadavg()[0]:.1f} ({machine()}, toppra '
             f'{importlib.metadata.version("toppra")}):')
    block = '\n'.join([begin, stamp, '', '```', *lines, '```', end])
    head, rest = text.split(begin, 1)
    pathlib.Path(path).write_text(head + block + rest.split(end, 1)[1], encoding='utf-8')


def main():
    """Run every case; print the table (and write it into a doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--write-doc', metavar='FILE.md')
    args = parser.parse_args()
    require_engine()
    warnings.simplefilter('ignore')
    rows = [one_case(*case, seed, args.repeat) for case in CASES for seed in SEEDS]
    lines = table(rows)
    print('\n'.join(lines))
    if args.write_doc:
        write_doc(args.write_doc, lines, args.repeat)


if __name__ == '__main__':
    main()
