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
"""Benchmark the compiled fast path against Pinocchio in the same run; print markdown.

Run on demand (not in CI), on an otherwise idle machine::

    .venv/bin/python benchmarks/fast_path_vs_pinocchio.py [--repeat 7] [--quick] [--write-docs]

Every figure is the median over ``--repeat`` runs of a timed loop, per call from Python
(arrays in, array out), at states over the full joint range (q in [-π, π], q̇ and q̈ in
[-2, 2]). Ratios are our time divided by Pinocchio's (< 1: we are faster), median [min,
max] over the repeats. ``--write-docs`` puts the tables, with date, commit, machine and load,
into docs/codegen.md's block (:mod:`doc_tables`).
Models: the bundled PUMA 560, Panda (7 joints) and UR5, rigid-body parts (Pinocchio has no
friction); random general chains of 15, 30 and 50 revolute joints for the scaling table.
The installed package is timed, in this process and in the warm-up's child processes; a
package without its compiled engine (a source tree) is refused (``harness.require_engine``).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import timeit
import warnings

import numpy as np
import pinocchio as pin

from doc_tables import provenance, write_block
from harness import child_options, machine, pinocchio, require_engine
import robot_dynamics as rd
from robot_dynamics.codegen import compiled
from robots import pinocchio_configuration, random_model


def per_call(function, repeat, number):
    """Median seconds per call of ``function()`` over ``repeat`` loops of ``number`` calls."""
    function()
    return float(np.median(timeit.repeat(function, number=number, repeat=repeat))) / number


def back_to_back(ours, theirs, repeat, number):
    """Median seconds per call of each, and Pinocchio/ours per repeat (timed back to back).

    Each figure is the best of 3 loops (drops loops another process interrupted); the ratio
    of two back-to-back timings is steadier than either time on a shared machine.
    """
    rows = []
    for _ in range(repeat):
        a = min(timeit.repeat(ours, number=number, repeat=3)) / number
        b = min(timeit.repeat(theirs, number=number, repeat=3)) / number
        rows.append((a, b, b / a))
    a, b, ratio = np.array(rows).T
    return float(np.median(a)), float(np.median(b)), ratio


def spread(ratio):
    """``0.23× [0.21, 0.25]``: ours / Pinocchio, median and range over the repeats."""
    ratio = 1.0 / np.asarray(ratio)
    return f'{np.median(ratio):.2f}× [{ratio.min():.2f}, {ratio.max():.2f}]'


ARMS = ('puma560', 'panda', 'ur5')
QUANTITIES = ('inverse dynamics', 'mass matrix', 'gravity vector', 'forward dynamics')
SIZES = (15, 30, 50)


def table_rows(quick=False):
    """Table → the rows' first cells, in the order main() prints them (tests read it)."""
    dof = {name: load(name).dof for name in ARMS}
    return [[(f'{name} ({dof[name]})', quantity) for name in ARMS for quantity in QUANTITIES]
            + [(f'{name} ({dof[name]})', 'inverse dynamics, batch of 10000') for name in ARMS],
            [(str(n),) for n in (SIZES[:2] if quick else SIZES)],
            [(name,) for name in ARMS]]


def full_range(rng, shape):
    """States over the full joint range: ``q`` in [-π, π], ``qd`` and ``qdd`` in [-2, 2]."""
    return rng.uniform(-np.pi, np.pi, shape), rng.uniform(-2, 2, shape), rng.uniform(-2, 2, shape)


def load(name):
    """Bundled model, rigid-body part, warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rd.load_model(name).without_joint_effects()


def per_call_rows(name, repeat, number):
    """Rows (quantity, ours µs, Pinocchio µs) for one bundled model, with a sanity check."""
    model = load(name)
    fast = rd.fast.compile(model)
    pm, pd = pinocchio(model)
    rng = np.random.default_rng(0)
    n = model.dof
    q, qd, qdd = full_range(rng, n)
    qp = pinocchio_configuration(pm, q)
    tau = fast.inverse_dynamics(q, qd, qdd)
    assert np.allclose(tau, pin.rnea(pm, pd, qp, qd, qdd), atol=1e-9)
    assert np.allclose(fast.forward_dynamics(q, qd, tau), pin.aba(pm, pd, qp, qd, tau),
                       atol=1e-8)
    cases = [
        ('inverse dynamics', lambda: fast.inverse_dynamics(q, qd, qdd),
         'pin.rnea', lambda: pin.rnea(pm, pd, qp, qd, qdd)),
        ('mass matrix', lambda: fast.mass_matrix(q),
         'pin.crba', lambda: pin.crba(pm, pd, qp)),
        ('gravity vector', lambda: fast.gravity(q),
         'pin.computeGeneralizedGravity', lambda: pin.computeGeneralizedGravity(pm, pd, qp)),
        ('forward dynamics', lambda: fast.forward_dynamics(q, qd, tau),
         'pin.aba', lambda: pin.aba(pm, pd, qp, qd, tau)),
    ]
    rows = []
    assert tuple(case[0] for case in cases) == QUANTITIES
    for quantity, ours, label, theirs in cases:
        ours(), theirs()
        a, b, ratio = back_to_back(ours, theirs, repeat, number)
        rows.append((f'{name} ({n})', quantity, a, label, b, ratio))
    return rows


def batch_rows(name, repeat, size=10000):
    """One call on a batch of ``size`` states against a Python loop over pin.rnea."""
    model = load(name)
    fast = rd.fast.compile(model)
    pm, pd = pinocchio(model)
    rng = np.random.default_rng(1)
    Q, QD, QDD = full_range(rng, (size, model.dof))
    QP = np.array([pinocchio_configuration(pm, q) for q in Q])

    def loop():
        for k in range(size):
            pin.rnea(pm, pd, QP[k], QD[k], QDD[k])
    ours, theirs, ratio = back_to_back(lambda: fast.inverse_dynamics(Q, QD, QDD), loop,
                                       max(3, repeat // 2), 1)
    return (f'{name} ({model.dof})', f'inverse dynamics, batch of {size}', ours,
            'pin.rnea in a Python loop', theirs, ratio)


def scaling_rows(repeat, number, sizes):
    """µs per inverse-dynamics call on random general chains (generated and reference C)."""
    rows = []
    for n in sizes:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            model = random_model(np.random.default_rng(n), n, prismatic_fraction=0.0)
        saved = os.environ.get('ROBOT_DYNAMICS_CACHE')
        with tempfile.TemporaryDirectory() as cache:       # a cold build, timed
            os.environ['ROBOT_DYNAMICS_CACHE'] = cache
            start = time.perf_counter()
            code = rd.generate(model, functions=('inverse_dynamics',))
            module = compiled.build(code)
            build = time.perf_counter() - start
        os.environ.pop('ROBOT_DYNAMICS_CACHE')
        if saved is not None:
            os.environ['ROBOT_DYNAMICS_CACHE'] = saved
        reference = rd.fast.compile(model, method='reference')
        pm, pd = pinocchio(model)
        rng = np.random.default_rng(2)
        q, qd, qdd = full_range(rng, n)
        qp = pinocchio_configuration(pm, q)
        expected = pin.rnea(pm, pd, qp, qd, qdd)
        assert np.allclose(module.inverse_dynamics(q, qd, qdd), expected, atol=1e-8)
        assert np.allclose(reference.inverse_dynamics(q, qd, qdd), expected, atol=1e-8)
        generated, rnea, _ = back_to_back(lambda: module.inverse_dynamics(q, qd, qdd),
                                          lambda: pin.rnea(pm, pd, qp, qd, qdd), repeat, number)
        engine, _, _ = back_to_back(lambda: reference.inverse_dynamics(q, qd, qdd),
                                    lambda: pin.rnea(pm, pd, qp, qd, qdd), repeat, number)
        M, crba, _ = back_to_back(lambda: reference.mass_matrix(q),
                                  lambda: pin.crba(pm, pd, qp), repeat, number)
        FD, aba, _ = back_to_back(lambda: reference.forward_dynamics(q, qd, qdd),
                                  lambda: pin.aba(pm, pd, qp, qd, qdd), repeat, number)
        times, M_times = [generated, engine, rnea], [M, crba, FD, aba]
        rows.append((n, code.multiplications, code.additions, build, times, M_times))
    return rows


def warm_up(name):
    """Seconds for rd.fast.compile: cold (empty cache) and cached (a new process)."""
    snippet = ('import time, warnings; warnings.simplefilter("ignore"); '
               'import robot_dynamics as rd; m = rd.load_model(%r); '
               't = time.perf_counter(); rd.fast.compile(m); '
               'print(time.perf_counter() - t)' % name)
    with tempfile.TemporaryDirectory() as cache:
        options = child_options(ROBOT_DYNAMICS_CACHE=cache)     # the installed package
        run = [sys.executable, '-c', snippet]
        cold = float(subprocess.run(run, capture_output=True, text=True, check=True,
                                    **options).stdout)
        cached = float(subprocess.run(run, capture_output=True, text=True, check=True,
                                      **options).stdout)
    return cold, cached


def main(argv=None):
    """Run every benchmark and print the markdown report (``--write-docs``: into the docs)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--repeat', type=int, default=7, help='timed runs per figure')
    parser.add_argument('--number', type=int, default=20000, help='calls per timed run')
    parser.add_argument('--quick', action='store_true', help='fewer calls, 15 and 30 only')
    parser.add_argument('--write-docs', action='store_true',
                        help="replace docs/codegen.md's generated block with these tables")
    args = parser.parse_args(argv)
    number = 2000 if args.quick else args.number
    sizes = SIZES[:2] if args.quick else SIZES
    where = require_engine()          # the installed package with its engine, not the tree
    options = [a for a in (argv or sys.argv[1:]) if a != '--write-docs']
    command = ' '.join(['python benchmarks/fast_path_vs_pinocchio.py'] + options)
    print(f'Package: {where}\n')
    out = ['| model (dof) | quantity | robot_dynamics fast path, µs | Pinocchio | Pinocchio, µs '
           '| ours / Pinocchio [range] |', '|---|---|---:|---|---:|---:|']
    for name in ARMS:
        for model, quantity, ours, label, theirs, ratio in per_call_rows(name, args.repeat,
                                                                         number):
            out.append(f'| {model} | {quantity} | {ours * 1e6:.3f} | `{label}` | '
                       f'{theirs * 1e6:.3f} | {spread(ratio)} |')
            print(out[-1], flush=True)
    for name in ARMS:
        model, quantity, ours, label, theirs, ratio = batch_rows(name, args.repeat)
        out.append(f'| {model} | {quantity} | {ours * 1e6:.0f} | {label} | {theirs * 1e6:.0f} '
                   f'| {spread(ratio)} |')
    out += ['', 'Scaling, random general chains (µs per call; generated = straight-line C of '
            'the customised model; reference = the engine, `method=\'reference\'`: loop-based C '
            'RNEA and CRBA, forward dynamics by CRBA + Cholesky below 9 joints and ABA from 9):',
            '', '| joints | generated ID mul/add | generate+compile, s | generated ID | '
            'reference ID | `pin.rnea` | reference M | `pin.crba` | reference FD | `pin.aba` |',
            '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    for n, mul, add, build, t, m in scaling_rows(args.repeat, max(500, number // 10), sizes):
        out.append(f'| {n} | {mul}/{add} | {build:.1f} | {t[0] * 1e6:.2f} | {t[1] * 1e6:.2f} | '
                   f'{t[2] * 1e6:.2f} | {m[0] * 1e6:.2f} | {m[1] * 1e6:.2f} | '
                   f'{m[2] * 1e6:.2f} | {m[3] * 1e6:.2f} |')
    out += ['', 'Warm-up of `rd.fast.compile` (generate + compile with gcc, then load from the '
            'disk cache in a new process):', '', '| model | cold, s | cached, s |',
            '|---|---:|---:|']
    for name in ARMS:
        cold, cached = warm_up(name)
        out.append(f'| {name} | {cold:.2f} | {cached:.4f} |')
    out.insert(0, provenance(command, machine()) + '\n')
    print('\n'.join(out))
    if args.write_docs:
        write_block('docs/codegen.md', 'fast_path_vs_pinocchio', out)


if __name__ == '__main__':
    main()
