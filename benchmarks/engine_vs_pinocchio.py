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
"""Benchmark the public functions (the compiled engine) against Pinocchio, same run; markdown.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/engine_vs_pinocchio.py [--repeat 7] [--quick] [--write-docs]

What a user calls is timed: ``rd.inverse_dynamics``, ``rd.gravity_torques``,
``rd.mass_matrix``, ``rd.forward_dynamics``, ``rd.coriolis_matrix`` per call from Python (input
checks included), each repeat at a new state drawn over the full joint range (q in [-π, π], q̇
and q̈ in [-2, 2]), against ``pin.rnea``, ``computeGeneralizedGravity``, ``crba``, ``aba`` and
``computeCoriolisMatrix`` timed right after it in the same repeat. Ratios are ours /
Pinocchio's (below 1: faster), median and [min, max] over the repeats: on a shared machine the
ratio of two back-to-back timings is steadier than either time. Also: every public batch
function on 10,000 states (inverse dynamics, gravity, mass matrix, forward dynamics, both
derivatives) against a Python loop of Pinocchio's call; random chains of 15-100 joints; the
cold first call in a fresh process; 10 s of simulation at 1 ms with RK4 through ``rd.simulate``
and ``robot-dynamics simulate``, and MuJoCo's ``mj_step`` (if installed) on the UR5 (MuJoCo
refuses the PUMA 560's link inertias, which violate the triangle inequality). ``--write-docs``
puts the tables, with date, commit, machine and load, into docs/performance.md's block
(:mod:`doc_tables`).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pinocchio as pin

from doc_tables import provenance, write_block
from harness import (batch_against_loop, child_options, load, machine, paired, pinocchio,
                     ratio_text, require_engine, seconds)
import robot_dynamics as rd
from robots import pinocchio_configuration, random_model

ARMS = ('puma560', 'panda', 'ur5')
CHAINS = (15, 30, 50, 100)
PER_CALL = ('inverse dynamics', 'gravity', 'mass matrix', 'forward dynamics', 'Coriolis matrix')
#: Every public batch function: (ours on (N, n) arrays, Pinocchio's call on one state).
BATCHES = {
    'inverse dynamics': (rd.inverse_dynamics, pin.rnea),
    'gravity': (lambda model, Q, QD, X: rd.gravity_torques(model, Q),
                lambda pm, pd, c, v, a: pin.computeGeneralizedGravity(pm, pd, c)),
    'mass matrix': (lambda model, Q, QD, X: rd.mass_matrix(model, Q),
                    lambda pm, pd, c, v, a: pin.crba(pm, pd, c)),
    'forward dynamics': (rd.forward_dynamics, pin.aba),
    'ID derivatives': (rd.inverse_dynamics_derivatives, pin.computeRNEADerivatives),
    'FD derivatives': (rd.forward_dynamics_derivatives, pin.computeABADerivatives),
}
COLD_ARMS = ARMS


def table_rows():
    """Table title → the rows' first cells, in the order main() prints them (tests read it)."""
    return {'Per call from Python': [(f'{name} ({load(name).dof})', op) for name in ARMS
                                     for op in PER_CALL],
            'Batch': [(f'{name} ({load(name).dof})', op) for name in ARMS for op in BATCHES],
            'Long random chains (ours / Pinocchio)': [(str(n),) for n in CHAINS],
            'Cold start (fresh process)': [(name,) for name in COLD_ARMS]}


def pairs(model, pm, pd, q, qd, qdd):
    """Operation → (ours, Pinocchio's) callables at one state (the order of PER_CALL)."""
    c = pinocchio_configuration(pm, q)
    return {
        'inverse dynamics': (lambda: rd.inverse_dynamics(model, q, qd, qdd),
                             lambda: pin.rnea(pm, pd, c, qd, qdd)),
        'gravity': (lambda: rd.gravity_torques(model, q),
                    lambda: pin.computeGeneralizedGravity(pm, pd, c)),
        'mass matrix': (lambda: rd.mass_matrix(model, q), lambda: pin.crba(pm, pd, c)),
        'forward dynamics': (lambda: rd.forward_dynamics(model, q, qd, qdd),
                             lambda: pin.aba(pm, pd, c, qd, qdd)),
        'Coriolis matrix': (lambda: rd.coriolis_matrix(model, q, qd),
                            lambda: pin.computeCoriolisMatrix(pm, pd, c, qd)),
    }


def compare(model, repeat, number, seed=0):
    """Operation → (our µs, Pinocchio µs, ratios over the repeats)."""
    return paired(pairs, model, repeat, number, seed)


def per_call_table(repeat, number):
    """Markdown: per-call times and ratios for the bundled arms."""
    lines = ['| arm (dof) | function | ours, µs | Pinocchio, µs | ours / Pinocchio |',
             '|---|---|---:|---:|---:|']
    for name in ARMS:
        model = load(name)
        results = compare(model, repeat, number)
        assert tuple(results) == PER_CALL, 'PER_CALL names what pairs() measures'
        for operation, (ours, theirs, ratios) in results.items():
            lines.append(f'| {name} ({model.dof}) | {operation} | {np.median(ours):.2f} | '
                         f'{np.median(theirs):.2f} | {ratio_text(ratios)} |')
    return lines


def batch_table(repeat, rows=10_000):
    """Markdown: every batch function on ``rows`` states against a Python loop of Pinocchio's.

    Each repeat draws new states and times ours (best of 3) then the loop (best of 2) right
    after, function by function.
    """
    lines = [f'| arm (dof) | function | batch of {rows:,}: ours, ms | Pinocchio loop, ms | '
             'ours / loop |', '|---|---|---:|---:|---:|']
    for name in ARMS:
        model = load(name)
        for label, (ours, theirs, ratios) in batch_against_loop(model, BATCHES, rows,
                                                                repeat).items():
            lines.append(f'| {name} ({model.dof}) | {label} | {np.median(ours):.2f} | '
                         f'{np.median(theirs):.2f} | {ratio_text(ratios)} |')
    return lines


def chain_table(repeat, number):
    """Markdown: ratios on random chains (revolute and prismatic joints, general axes)."""
    operations = ['inverse dynamics', 'gravity', 'mass matrix', 'forward dynamics',
                  'Coriolis matrix']
    lines = ['| joints | ' + ' | '.join(operations) + ' |',
             '|---:|' + '---:|' * len(operations)]
    for n in CHAINS:
        model = random_model(np.random.default_rng(n), n, prismatic_fraction=0.2)
        results = compare(model, repeat, max(20, number // n), seed=n)
        cells = [ratio_text(results[op][2]) for op in operations]
        lines.append(f'| {n} | ' + ' | '.join(cells) + ' |')
    return lines


COLD = '''
import sys, time
t0 = time.perf_counter()
import numpy as np
import robot_dynamics as rd
t1 = time.perf_counter()
model = rd.load_model(sys.argv[1])
t2 = time.perf_counter()
rd.inverse_dynamics(model, np.zeros(model.dof), np.zeros(model.dof), np.zeros(model.dof))
t3 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
'''


def cold_table(repeat):
    """Markdown: fresh processes: import, model load, first call (ms, medians)."""
    lines = ['| arm | import robot_dynamics, ms | load the model, ms | first call, ms |',
             '|---|---:|---:|---:|']
    for name in COLD_ARMS:
        runs = [subprocess.run([sys.executable, '-W', 'ignore', '-c', COLD, name], check=True,
                               capture_output=True, text=True,
                               **child_options()).stdout.split()
                for _ in range(repeat)]
        imported, loaded, first = np.median(np.array(runs, dtype=float), axis=0)
        lines.append(f'| {name} | {imported:.0f} | {loaded:.1f} | {first:.2f} |')
    return lines


def simulation_lines(repeat):
    """Markdown: 10 s at 1 ms with RK4 through the API, the CLI, and MuJoCo if installed."""
    puma = load('puma560')
    q0 = np.radians([10, -40, 30, 5, 20, -15])
    api = [seconds(lambda: rd.simulate(puma, q0, np.zeros(6), 'gravity', 10.0, 1e-3), 1)
           for _ in range(repeat)]
    cli = []
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, '-m', 'robot_dynamics', 'simulate', 'puma560', '--duration',
                 '10', '--torque', 'gravity', '--no-plot', '--no-progress', '-o',
                 os.path.join(directory, 'sim')], check=True, capture_output=True, text=True,
                **child_options()).stdout
            cli.append(float(re.search(r'integration: ([\d.]+) s wall', out).group(1)))
    lines = [f'- `rd.simulate(puma, q0, qd0, \'gravity\', 10.0, 1e-3)` (RK4, 10,000 steps): '
             f'{np.median(api) * 1e3:.0f} ms [{min(api) * 1e3:.0f}, {max(api) * 1e3:.0f}], '
             f'{10 / np.median(api):.0f}× real time',
             f'- `robot-dynamics simulate puma560 --duration 10 --torque gravity` integration: '
             f'{np.median(cli) * 1e3:.0f} ms [{min(cli) * 1e3:.0f}, {max(cli) * 1e3:.0f}]']
    return lines + mujoco_lines(repeat)


def mujoco_lines(repeat):
    """UR5, 10 s at 1 ms, RK4: mj_step in MuJoCo's own rollout loop against rd.simulate."""
    try:
        import mujoco
        from mujoco import rollout
    except ImportError:
        return ['- MuJoCo not installed: `pip install mujoco` adds its `mj_step` line']
    ur5 = load('ur5').without_joint_effects()
    mj = mujoco.MjModel.from_xml_string(ur5.to_urdf())
    mj.opt.timestep, mj.opt.integrator = 1e-3, mujoco.mjtIntegrator.mjINT_RK4
    data = mujoco.MjData(mj)
    data.qpos[:] = 0.3
    initial = np.zeros(mujoco.mj_stateSize(mj, mujoco.mjtState.mjSTATE_FULLPHYSICS))
    mujoco.mj_getState(mj, data, initial, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    theirs = [seconds(lambda: rollout.rollout(mj, data, initial[None], nstep=10_000), 1)
              for _ in range(repeat)]
    ours = [seconds(lambda: rd.simulate(ur5, np.full(6, 0.3), np.zeros(6), np.zeros(6), 10.0,
                                        1e-3), 1) for _ in range(repeat)]
    return [f'- UR5 (rigid), 10 s, RK4 at 1 ms: `rd.simulate` {np.median(ours) * 1e3:.0f} ms, '
            f'MuJoCo {mujoco.__version__} `rollout` of `mj_step` {np.median(theirs) * 1e3:.0f} '
            f'ms (ratio {np.median(ours) / np.median(theirs):.2f}; MuJoCo also runs its '
            'collision and constraint pipeline)']


def main():
    """Run every table and print markdown (``--write-docs``: also into docs/performance.md)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--quick', action='store_true', help='fewer calls per timing')
    parser.add_argument('--write-docs', action='store_true',
                        help="replace docs/performance.md's generated block with these tables")
    args = parser.parse_args()
    number = 500 if args.quick else 5000
    where = require_engine()
    command = ('python benchmarks/engine_vs_pinocchio.py --repeat '
               f'{args.repeat}{" --quick" if args.quick else ""}')
    print(f'Package: {where}; engine threads {rd.engine.ENGINE.THREADS}\n')
    out = []
    for title, lines in (('Per call from Python', lambda: per_call_table(args.repeat, number)),
                         ('Batch', lambda: batch_table(max(3, args.repeat // 2))),
                         ('Long random chains (ours / Pinocchio)',
                          lambda: chain_table(args.repeat, number)),
                         ('Cold start (fresh process)', lambda: cold_table(args.repeat)),
                         ('Simulation', lambda: simulation_lines(args.repeat))):
        part = [f'**{title}**', '', *lines(), '']
        print('\n'.join(part), flush=True)
        out += part
    out.insert(0, provenance(command, f'{machine()}; engine threads '
                                      f'{rd.engine.ENGINE.THREADS}') + '\n')
    print(out[0])
    if args.write_docs:
        write_block('docs/performance.md', 'engine_vs_pinocchio', out)


if __name__ == '__main__':
    main()
