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
"""Executors compared off the latency path: the one-process demo's speed, surviving a raise.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/executors.py [--rounds 2] [--executor cached ...]

For each executor (``ROBOT_DYNAMICS_EXECUTOR``: ``cached``, ``rclpy``, ``events``, ``multi``),
measured alternately per round:

- ``demo s``: wall seconds of ``robot_dynamics_bringup``'s closed loop (puma560, the bundled
  config, simulated time in lockstep) for the whole motion, in a fresh process;
- ``survives``: a node process spun as every node is (``process.spin``) with one timer that
  raises every 50 ms and one that counts at 10 Hz, for 8 s (start-up included): the count
  shows whether the node went on, and SIGTERM must end the process within 10 s.

The latency and CPU of the dynamics node at 1 kHz: ``latency_dynamics_node.py --executor``.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

EXECUTORS = ('cached', 'rclpy', 'events', 'multi')

SURVIVOR = r'''
import sys, time, rclpy
from robot_dynamics.nodes import process
rclpy.init()
node = rclpy.create_node('survivor')
ticks = []
def bad():
    raise RuntimeError('raised on purpose')
def good():
    ticks.append(1)
    print('ticks', len(ticks), flush=True)
node.create_timer(0.05, bad)
node.create_timer(0.1, good)
process.spin(node, process.make_executor())
'''


def demo_seconds(executor):
    """Wall seconds of the one-process demo on ``executor`` (a fresh interpreter)."""
    code = ('import time, warnings; warnings.simplefilter("ignore"); '
            'from robot_dynamics.nodes.bringup import run_demo; '
            'r = run_demo("puma560"); print("WALL", r.wall_time, r.sim_time)')
    env = dict(os.environ, ROBOT_DYNAMICS_EXECUTOR=executor, PYTHONWARNINGS='ignore')
    try:
        run = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                             text=True, timeout=300, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        print(f'  {executor}: the demo did not end in 300 s')
        return float('nan')
    line = next((line for line in run.stdout.splitlines() if line.startswith('WALL')), None)
    if line is None:
        errors = [text for text in run.stderr.splitlines()
                  if 'WARN' not in text and 'INFO' not in text]
        print(f'  {executor}: the demo failed (exit {run.returncode}): '
              + ' | '.join(errors[-6:]))
        return float('nan')
    return float(line.split()[1])


def survives(executor):
    """Return (ticks of the good timer in ~2 s, exit on SIGTERM within 10 s)."""
    env = dict(os.environ, ROBOT_DYNAMICS_EXECUTOR=executor, PYTHONWARNINGS='ignore')
    process = subprocess.Popen([sys.executable, '-c', SURVIVOR], env=env, text=True,
                               cwd=tempfile.gettempdir(),
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    time.sleep(8.0)                     # start-up, then 2 s of ticks at least
    process.terminate()
    try:
        out, _ = process.communicate(timeout=10)
        stopped = True
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
        stopped = False
    ticks = [int(line.split()[1]) for line in out.splitlines() if line.startswith('ticks')]
    return (max(ticks) if ticks else 0), stopped


def main(argv=None):
    """Measure and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--executor', action='append', default=[])
    args = parser.parse_args(argv)
    names = args.executor or list(EXECUTORS)
    os.environ.setdefault('ROS_DOMAIN_ID', str(60 + os.getpid() % 40))
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    seconds = {name: [] for name in names}
    survival = {}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name in names:
            seconds[name].append(demo_seconds(name))
            loads.append(os.getloadavg()[0])
            print(f'  {name}: demo {seconds[name][-1]:.1f} s', flush=True)
    for name in names:
        survival[name] = survives(name)
    print(f'\n1-min load average {min(loads):.2f}-{max(loads):.2f}\n')
    print('| executor | demo wall s (median of rounds) | / cached | good timer ticks in 8 s '
          'beside a raising timer | SIGTERM ends it |')
    print('| --- | --- | --- | --- | --- |')
    reference = np.nanmedian(seconds[names[0]])
    for name in names:
        median = np.nanmedian(seconds[name]) if not np.all(np.isnan(seconds[name])) \
            else float('nan')
        ticks, stopped = survival[name]
        print(f'| {name} | {median:.1f} | {median / reference:.2f} | {ticks} | '
              f'{"yes" if stopped else "no"} |')


if __name__ == '__main__':
    main()
