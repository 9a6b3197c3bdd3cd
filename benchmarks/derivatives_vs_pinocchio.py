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
"""Benchmark the analytic derivatives against Pinocchio's, same run; prints markdown.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/derivatives_vs_pinocchio.py [--repeat 7] [--quick] [--write-docs]

Timed as a user calls them: ``rd.inverse_dynamics_derivatives`` and
``rd.forward_dynamics_derivatives`` per call from Python (input checks and the three returned
matrices included) against ``pin.computeRNEADerivatives`` and ``pin.computeABADerivatives``
timed right after, at a new state each repeat; the bundled 6- and 7-joint arms and random
chains of 15, 30, 60 and 100 joints. Ratios are ours / Pinocchio's, median [min, max] over the
repeats. Batches: 10,000 states in one call against a Python loop of Pinocchio's call, and
500 states (a call shorter than the scheduler's time slice on a loaded machine). The
machine's load average is printed with the tables (2 cores shared with other work).
``--write-docs`` puts the tables, with date, commit, machine and load, into
docs/derivatives.md's block (:mod:`doc_tables`).
"""

import argparse
import os
import pathlib
import sys

import numpy as np
import pinocchio as pin

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / 'test'), str(HERE)]   # the installed package, not the tree

import robot_dynamics as rd  # noqa: E402
from doc_tables import provenance, write_block  # noqa: E402
from harness import batch_against_loop, load, machine, paired, ratio_text  # noqa: E402
from robots import pinocchio_configuration, random_model  # noqa: E402

ARMS = ('ur5', 'panda')
CHAINS = (15, 30, 60, 100)
FUNCTIONS = ('ID derivatives', 'FD derivatives')


def table_rows():
    """Table → the rows' first cells, in the order main() prints them (tests read it)."""
    models = [f'{name} ({load(name).dof})' for name in ARMS] + [f'chain ({n})' for n in CHAINS]
    batch = [(name, label) for name in ARMS for label in FUNCTIONS]
    return [[(model, label) for model in models for label in FUNCTIONS], batch, batch]


def pairs(model, pm, pd, q, qd, x):
    """Operation → (ours, Pinocchio's) callables at one state (``x``: qdd or tau)."""
    c = pinocchio_configuration(pm, q)
    return {
        'ID derivatives': (lambda: rd.inverse_dynamics_derivatives(model, q, qd, x),
                           lambda: pin.computeRNEADerivatives(pm, pd, c, qd, x)),
        'FD derivatives': (lambda: rd.forward_dynamics_derivatives(model, q, qd, x),
                           lambda: pin.computeABADerivatives(pm, pd, c, qd, x)),
    }


def compare(model, repeat, number, seed=0):
    """Operation → (our µs, Pinocchio µs, ratios) over ``repeat`` states."""
    return paired(pairs, model, repeat, number, seed)


def single_table(repeat, number):
    """Markdown: per-call times and ratios, arms and chains."""
    lines = ['| model (dof) | function | ours, µs | Pinocchio, µs | ours / Pinocchio |',
             '|---|---|---:|---:|---:|']
    models = [(f'{name} ({load(name).dof})', load(name)) for name in ARMS]
    models += [(f'chain ({n})', random_model(np.random.default_rng(n), n,
                                             prismatic_fraction=0.2)) for n in CHAINS]
    for label, model in models:
        calls = max(20, number * 7 // model.dof)
        for operation, (ours, theirs, ratios) in compare(model, repeat, calls).items():
            lines.append(f'| {label} | {operation} | {np.median(ours):.2f} | '
                         f'{np.median(theirs):.2f} | {ratio_text(ratios)} |')
    return lines


def batch_table(repeat, rows):
    """Markdown: ``rows`` states in one call against a Python loop of Pinocchio's call."""
    lines = [f'| arm | function | batch of {rows:,}: ours, ms | Pinocchio loop, ms | '
             'ours / loop |', '|---|---|---:|---:|---:|']
    for name in ARMS:
        functions = {'ID derivatives': (rd.inverse_dynamics_derivatives,
                                        pin.computeRNEADerivatives),
                     'FD derivatives': (rd.forward_dynamics_derivatives,
                                        pin.computeABADerivatives)}
        for label, (ours, theirs, ratios) in batch_against_loop(load(name), functions, rows,
                                                                repeat, best_of=2).items():
            lines.append(f'| {name} | {label} | {np.median(ours):.1f} | '
                         f'{np.median(theirs):.1f} | {ratio_text(ratios)} |')
    return lines


def main():
    """Print the tables (``--write-docs``: also into docs/derivatives.md's block)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--quick', action='store_true', help='fewer calls, 2,000-state batch')
    parser.add_argument('--write-docs', action='store_true',
                        help="replace docs/derivatives.md's generated block with these tables")
    args = parser.parse_args()
    number = 200 if args.quick else 2000
    command = ('python benchmarks/derivatives_vs_pinocchio.py --repeat '
               f'{args.repeat}{" --quick" if args.quick else ""}')
    print(f'load average before: {os.getloadavg()}\n')
    out = single_table(args.repeat, number) + ['']
    print('\n'.join(out), flush=True)
    out += batch_table(max(2, args.repeat // 3), 2000 if args.quick else 10_000) + ['']
    out += batch_table(args.repeat, 500)                          # shorter than a time slice
    out.insert(0, provenance(command, f'{machine()}; engine threads '
                                      f'{rd.engine.ENGINE.THREADS}') + '\n')
    print('\n'.join(out))
    if args.write_docs:
        write_block('docs/derivatives.md', 'derivatives_vs_pinocchio', out)


if __name__ == '__main__':
    main()
