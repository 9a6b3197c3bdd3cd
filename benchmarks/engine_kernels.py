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
"""Time the engine's C kernels alone (no Python), this checkout against a baseline; markdown.

Run on demand (not in CI), e.g. before and after a change to ``engine/src``::

    git worktree add /tmp/base main
    .venv/bin/python benchmarks/engine_kernels.py --baseline /tmp/base [--rounds 5]

``engine_kernels.c`` is built with each tree's ``engine/src/*.c`` (the CPython binding left out)
and setup.py's flags, and the binaries run alternately, ``--rounds`` times each, on random chains
of 7, 30 and 100 joints and the bundled Panda: inverse dynamics, gravity, mass matrix, forward
dynamics, Coriolis matrix, the inverse- and forward-dynamics derivatives and the batch kernels of
two and four rows (a kernel the baseline lacks is left out). The table gives the best
time per call over every run of each tree and the ratio this / baseline: on a shared machine the
best of many interleaved timings is the steadiest figure (state the load with it).
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test')]   # test helpers; the installed package, not the tree

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.engine import pack  # noqa: E402
from robots import random_model  # noqa: E402

FLAGS = ['-O3', '-fno-math-errno', '-ffp-contract=off']   # setup.py's


def build(tree, target):
    """Compile the harness with ``tree``'s engine sources into ``target``."""
    src = pathlib.Path(tree) / 'robot_dynamics' / 'engine' / 'src'
    sources = [str(p) for p in sorted(src.glob('*.c'))
               if p.name != 'module.c' and not p.name.startswith('binding')]
    if not sources:
        raise SystemExit(f'engine_kernels: no engine sources under {src}')
    include = [f'-I{src}', f'-I{pathlib.Path(tree) / "robot_dynamics" / "codegen"}',
               f'-I{sysconfig.get_paths()["include"]}']
    subprocess.run([os.environ.get('CC', 'gcc'), *FLAGS, *include,
                    str(ROOT / 'benchmarks' / 'engine_kernels.c'), *sources, '-o', str(target),
                    '-lm', '-lpthread'], check=True)


def models(directory):
    """Pack the timed models into ``directory``: name -> file."""
    rng = np.random.default_rng(3)
    chosen = {f'chain {n}': random_model(rng, n, prismatic_fraction=0.2) for n in (7, 30, 100)}
    chosen['panda'] = rd.load_model('panda')
    files = {}
    for name, model in chosen.items():
        files[name] = os.path.join(directory, name.replace(' ', '') + '.bin')
        pack(model).tofile(files[name])
    return files


def best_times(binary, model, calls, timings):
    """Kernel -> ns per call of one run."""
    line = subprocess.run([str(binary), model, str(calls), str(timings)], check=True,
                          capture_output=True, text=True).stdout.split()
    return {k: float(v) for k, v in (item.split('=') for item in line)}


def main():
    """Build, run interleaved, print markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--baseline', help='another checkout (its robot_dynamics/engine/src)')
    parser.add_argument('--rounds', type=int, default=5, help='runs of each binary, alternated')
    parser.add_argument('--calls', type=int, default=1000, help='calls per timing')
    parser.add_argument('--timings', type=int, default=25, help='timings per kernel and run')
    args = parser.parse_args()
    if shutil.which(os.environ.get('CC', 'gcc')) is None:
        raise SystemExit('engine_kernels: needs a C compiler (gcc, or CC=...)')
    trees = {'this': ROOT} | ({'baseline': pathlib.Path(args.baseline)} if args.baseline else {})
    with tempfile.TemporaryDirectory() as directory:
        binaries = {name: pathlib.Path(directory) / name for name in trees}
        for name, tree in trees.items():
            build(tree, binaries[name])
        files = models(directory)
        best = {}
        for _ in range(args.rounds):
            for model, path in files.items():
                for name, binary in binaries.items():
                    for kernel, ns in best_times(binary, path, args.calls, args.timings).items():
                        key = (model, kernel, name)
                        best[key] = min(best.get(key, float('inf')), ns)
    print(f'Load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; best ns per call '
          f'over {args.rounds} interleaved runs of {args.timings} timings.\n')
    columns = ['this, ns'] + (['baseline, ns', 'this / baseline'] if args.baseline else [])
    print('| model | kernel | ' + ' | '.join(columns) + ' |')
    print('|---|---|' + '---:|' * len(columns))
    for model, kernel in dict.fromkeys((m, k) for m, k, _ in best):
        row = [f'{best[(model, kernel, "this")]:.0f}']
        if args.baseline and (model, kernel, 'baseline') not in best:
            row += ['', '']
        elif args.baseline:
            base = best[(model, kernel, 'baseline')]
            row += [f'{base:.0f}', f'{best[(model, kernel, "this")] / base:.3f}']
        print(f'| {model} | {kernel} | ' + ' | '.join(row) + ' |')


if __name__ == '__main__':
    main()
