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
"""The node benchmarks run: each starts its subjects, measures and prints its table.

They run on demand (docs/latency.md, docs/contacts.md) and start the nodes as modules by name
(``python -m robot_dynamics.nodes...``) through ``soak_dynamics_node.start_node``; a module
moved or a parameter renamed would otherwise surface only when someone next measures. Each
runs here for a second at a low rate: every subject answers, and the table has a row for each.
"""

import pathlib
import re
import subprocess
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).resolve().parents[1] / 'benchmarks'
RUNS = {
    'latency_dynamics_node.py': (['--seconds', '1', '--rounds', '1', '--rate', '100'],
                                 ['floor', 'node[default]']),
    'arms_one_process.py': (['--arms', '2', '--seconds', '1', '--rounds', '1', '--rate', '100'],
                            ['2 | one', '2 | per-arm']),
    'arms_one_process.py --cell': (['--arms', '2', '--seconds', '1', '--rounds', '1', '--rate',
                                    '100'], ['2 | one', '2 | per-arm']),
    'contact_node_cpu.py': (['--seconds', '1', '--rounds', '1', '--rate', '100'],
                            ['off', 'observer', 'observer+torques']),
}


@pytest.mark.parametrize('script', sorted(RUNS))
def test_the_benchmark_measures_every_subject(script):
    arguments, rows = RUNS[script]
    name, *options = script.split()                 # 'NAME.py --option': a variant
    run = subprocess.run([sys.executable, str(BENCHMARKS / name), *options, *arguments],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    for row in rows:
        line = next((line for line in run.stdout.splitlines()
                     if line.startswith(f'| {row} |')), None)
        assert line is not None, f'no row {row!r} in:\n{run.stdout}'
        answered = re.search(r'\| (\d+) of (\d+) \|', line)
        if answered:                       # the latency tables: every subject answered
            assert int(answered.group(1)) > 0, line
        else:                              # the CPU table: a share measured
            assert float(line.split('|')[2]) > 0.0, line
