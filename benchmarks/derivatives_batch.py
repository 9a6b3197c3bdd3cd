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
"""Where a batch of derivatives spends its time beyond the rows' arithmetic; one line of JSON.

Run on demand (not in CI), one process per engine build and thread count, alternated::

    ROBOT_DYNAMICS_THREADS=1 .venv/bin/python benchmarks/derivatives_batch.py [--rows 10000]

Times (best of ``--repeat``, ms; on one engine thread the calling thread's processor time) for
the Panda: the public batch call
``rd.inverse_dynamics_derivatives`` / ``rd.forward_dynamics_derivatives`` on ``--rows`` states;
the same rows as batches of 64 (their output stays in the cache: the rows' arithmetic with little
memory traffic); allocating and first touching an array of the result's size (page faults);
reading it once (a scan of the result); and a Python loop over Pinocchio's
``computeRNEADerivatives`` / ``computeABADerivatives`` on the same states.
"""

import argparse
import json
import os
import pathlib
import sys
import time

import numpy as np
import pinocchio as pin

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / 'test'), str(HERE)]

import robot_dynamics as rd  # noqa: E402
from engine_vs_pinocchio import load, pinocchio, state  # noqa: E402
from robots import pinocchio_configuration  # noqa: E402


def best(fn, repeat):
    """Best time of ``repeat`` calls, ms.

    On one engine thread the calling thread's processor time (the time preempted by the
    machine's other work left out), else wall time.
    """
    clock = time.thread_time if rd.engine.ENGINE.THREADS == 1 else time.perf_counter
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return min(times) * 1e3


def pieces(rows, repeat):
    """Name → best ms."""
    model = load('panda')
    pm, pd = pinocchio(model)
    Q, QD, X = state(np.random.default_rng(1), model.dof, rows)
    configs = [pinocchio_configuration(pm, q) for q in Q]
    size = rows * 3 * model.dof ** 2
    out = {}
    for label, ours, theirs in (('ID', rd.inverse_dynamics_derivatives,
                                 pin.computeRNEADerivatives),
                                ('FD', rd.forward_dynamics_derivatives,
                                 pin.computeABADerivatives)):
        out[f'{label} batch'] = best(lambda ours=ours: ours(model, Q, QD, X), repeat)
        out[f'{label} in 64s'] = best(lambda ours=ours: [
            ours(model, Q[i:i + 64], QD[i:i + 64], X[i:i + 64]) for i in range(0, rows, 64)],
            repeat)

        def loop(theirs=theirs):
            for c, v, a in zip(configs, QD, X):
                theirs(pm, pd, c, v, a)
        out[f'{label} Pinocchio loop'] = best(loop, max(2, repeat // 3))
    out['allocate + touch'] = best(lambda: np.ones(size), repeat)
    block = np.ones(size)
    out['read result once'] = best(lambda: np.isfinite(block).all(), repeat)
    return out


def main():
    """Print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rows', type=int, default=10_000)
    parser.add_argument('--repeat', type=int, default=9)
    parser.add_argument('--label', default='')
    args = parser.parse_args()
    result = {'label': args.label, 'threads': rd.engine.ENGINE.THREADS,
              'load': os.getloadavg()[0]}
    result.update({k: round(v, 3) for k, v in pieces(args.rows, args.repeat).items()})
    print(json.dumps(result))


if __name__ == '__main__':
    main()
