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
"""Idle CPU of the demo graph: the launch file's four nodes once the arm stands still.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/idle_cpu.py [--settle 15] [--seconds 20] [--rounds 1]
        [--baseline ../main/.venv] [--realtime 10]

Starts ``ros2 launch robot_dynamics simulation.launch.py`` in a private ROS domain, waits
``--settle`` s (the demo's motion is over by then: start_delay 0.5 s + 4 moves of 1 s), then
reads each node process's CPU time and wake-ups (voluntary context switches, all threads) over
``--seconds``: % of a core and wake-ups per second per node, and their sum (issue 36: the idle
graph used half a core). The graph is stopped with SIGINT, as Ctrl-C does, and every process
of it is checked gone (SIGKILL for any left).
"""

import argparse
import os
import pathlib
import random
import signal
import subprocess
import sys
import time

NODES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
         'trajectory_publisher')


def children(pid):
    """Every descendant pid of ``pid`` (from /proc)."""
    parents = {}
    for entry in pathlib.Path('/proc').iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / 'stat').read_text().rsplit(')', 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def sample(pid):
    """``(cpu seconds, voluntary context switches over all threads)`` of a process."""
    fields = pathlib.Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    switches = 0
    for task in pathlib.Path(f'/proc/{pid}/task').iterdir():
        try:
            for line in (task / 'status').read_text().splitlines():
                if line.startswith('voluntary_ctxt_switches'):
                    switches += int(line.split()[1])
        except OSError:
            continue
    return cpu, switches


def node_pids(launch_pid):
    """``{node name: pid}`` of the launch's node processes."""
    found = {}
    for pid in children(launch_pid):
        try:
            command = pathlib.Path(f'/proc/{pid}/cmdline').read_bytes().split(b'\0')
        except OSError:
            continue
        text = ' '.join(part.decode(errors='replace') for part in command)
        for name in NODES:
            if f'__node:={name}' in text:
                found[name] = pid
    return found


def run_once(args, venv):
    """One launch from ``venv``: ``{node: (cpu %, wake-ups / s)}``."""
    ros2 = str(pathlib.Path(venv, 'bin', 'ros2'))
    env = dict(os.environ, AMENT_PREFIX_PATH=str(venv))
    launch = subprocess.Popen([ros2, 'launch', 'robot_dynamics', 'simulation.launch.py'],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True, env=env)
    try:
        time.sleep(args.settle)
        pids = node_pids(launch.pid)
        before = {name: sample(pid) for name, pid in pids.items()}
        wall = time.monotonic()
        time.sleep(args.seconds)
        after = {name: sample(pid) for name, pid in pids.items()}
        elapsed = time.monotonic() - wall
        return {name: (100.0 * (after[name][0] - before[name][0]) / elapsed,
                       (after[name][1] - before[name][1]) / elapsed) for name in pids}
    finally:
        everything = children(launch.pid)
        launch.send_signal(signal.SIGINT)
        try:
            launch.wait(timeout=20)
        except subprocess.TimeoutExpired:
            launch.kill()
        for pid in everything:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def main(argv=None):
    """Measure and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--settle', type=float, default=15.0)
    parser.add_argument('--seconds', type=float, default=20.0)
    parser.add_argument('--rounds', type=int, default=1)
    parser.add_argument('--baseline', metavar='VENV',
                        help='also measure the package installed in another virtual '
                        'environment (its bin/ros2), alternating with this one')
    parser.add_argument('--realtime', type=int, default=0, metavar='PRIORITY',
                        help='run every process SCHED_FIFO at this priority (root; 0: normal)')
    args = parser.parse_args(argv)
    if args.realtime:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(args.realtime))
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(100, 200))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.setdefault('AMENT_PREFIX_PATH', sys.prefix)
    venvs = {'this tree': sys.prefix}
    if args.baseline:
        venvs['baseline'] = args.baseline
    loads = [os.getloadavg()[0]]
    rounds = {label: [] for label in venvs}
    for _ in range(args.rounds):
        for label, venv in venvs.items():
            rounds[label].append(run_once(args, venv))
            loads.append(os.getloadavg()[0])
    print(f'idle demo graph, {args.rounds} round(s) x {args.seconds:.0f} s after '
          f'{args.settle:.0f} s each, alternating; {os.cpu_count()} cores, 1-min load '
          f'{min(loads):.2f}-{max(loads):.2f}\n')
    print('| node | ' + ' | '.join(f'{label}: CPU % | {label}: wake-ups / s'
                                   for label in venvs) + ' |')
    print('|' + ' --- |' * (1 + 2 * len(venvs)))
    for name in NODES + ('all',):
        cells = []
        for label in venvs:
            if name == 'all':
                values = [(sum(v[0] for v in r.values()), sum(v[1] for v in r.values()))
                          for r in rounds[label]]
            else:
                values = [r[name] for r in rounds[label] if name in r]
            cells += [f'{median([v[0] for v in values]):.1f}',
                      f'{median([v[1] for v in values]):.0f}'] if values else ['-', '-']
        print(f'| {name} | ' + ' | '.join(cells) + ' |')


def median(values):
    """Return the median of a non-empty list."""
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else 0.5 * (values[middle - 1] + values[middle])


if __name__ == '__main__':
    main()
