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
"""Time of the torque feasibility check (and exact scale) per trajectory size.

The check runs inside the controller's goal callback and the dynamics node's trajectory
callback; MAX_SAMPLES bounds it. Prints the median of 5 runs per size::

    .venv/bin/python benchmarks/feasibility_check.py [--robot ur5]

(the installed package with its compiled engine; ``PYTHONPATH=.`` would time the source
tree's numpy fallback, and the script refuses it)

Measured with the installed package (shared 2-core machine, load 7, 2026-11-27, two runs):
11 points 1.4-1.8 ms, 101 points 24-26 ms, 1,001 and 10,001 points (20,000 samples) 56-78 and
62-63 ms. (The figures quoted before, 10 ms for 101 points and 36 ms for 10,001 at load 12,
were taken with ``PYTHONPATH=.``, whatever the source tree held then.)
"""

import argparse
import time
import warnings

import numpy as np

import robot_dynamics as rd
from harness import require_engine
from robot_dynamics.analysis import feasibility
from robot_dynamics.simulation.trajectory import standard_waypoints


def main():
    """Time check_trajectory on standard motions of 11 to 10,001 points."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--robot', default='ur5')
    args = parser.parse_args()
    require_engine()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.load_model(args.robot)
    print(f'{args.robot}: feasibility check of the standard motion (0.5 s moves)')
    print(f'{"points":>8} {"samples":>8} {"median ms":>10} {"us/sample":>10}')
    for moves in (10, 100, 1000, 10000):
        waypoints = standard_waypoints(model, move_time=0.5, moves=moves)
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            report = feasibility.check_trajectory(model, *waypoints)
            runs.append(time.perf_counter() - start)
        median = float(np.median(runs))
        print(f'{moves + 1:>8} {report.times.size:>8} {median * 1e3:>10.1f} '
              f'{median / report.times.size * 1e6:>10.2f}')


if __name__ == '__main__':
    main()
