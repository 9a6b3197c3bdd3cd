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
"""Warm-up of ``rd.fast.compile`` in fresh processes: cold (empty cache) and cached.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/compile_cache_warmup.py [--repeat 3] [puma560 panda ur5]

Cold: a new process compiles into an empty cache directory (generate + gcc + record the
library's hash). Cached: a new process on that directory, which generates the source again
(the cache key is the SHA-256 of the exact source text), checks the library's recorded hash
and loads it (issue 22.2). Prints the medians in seconds as a markdown table, with the load.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

SCRIPT = '''
import sys, time, warnings
warnings.simplefilter('ignore')
import robot_dynamics as rd
model = rd.load_model(sys.argv[1])
start = time.perf_counter()
rd.fast.compile(model, backend='c')
print(time.perf_counter() - start)
'''


def timed(model, cache):
    """Return the seconds of one ``rd.fast.compile`` in a fresh process on ``cache``."""
    environment = dict(os.environ, ROBOT_DYNAMICS_CACHE=cache)
    environment.pop('ROBOT_DYNAMICS_NO_COMPILE', None)
    result = subprocess.run([sys.executable, '-c', SCRIPT, model], capture_output=True,
                            text=True, env=environment, check=True)
    return float(result.stdout.split()[-1])


def main():
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('models', nargs='*', default=['puma560', 'panda', 'ur5'])
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()
    print(f'load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores, median of '
          f'{args.repeat}\n')
    print('| model | cold, s | cached, s |\n|---|---:|---:|')
    for model in args.models:
        cold, cached = [], []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as directory:
                cache = os.path.join(directory, 'cache')
                cold.append(timed(model, cache))
                cached.append(timed(model, cache))
        print(f'| {model} | {statistics.median(cold):.2f} | {statistics.median(cached):.3f} |')


if __name__ == '__main__':
    main()
