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
"""Several 7-joint arms at 1 kHz: all in one process against one process per arm.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/arms_one_process.py [--arms 1 2 4] [--seconds 15]
        [--rounds 2] [--model panda] [--rate 1000]

For each arm count N, two subjects measured alternately in each round, in a private ROS
domain: ``one``: ``python -m robot_dynamics.nodes.arms`` serving N dynamics nodes (one per
namespace) on one executor; ``per-arm``: N ``python -m robot_dynamics.nodes.dynamics_node``
processes. Each arm gets its own publisher process (joint_states at ``--rate`` Hz, a smooth
motion, sensor-data QoS: ``soak_dynamics_node.publisher_main``), each on its own clock; with
``--cell`` one publisher process sends every arm's state in each cycle, back to back, as a
multi-arm cell's driver does (``soak_dynamics_node.cell_publisher_main``). This process
receives every arm's ``gravity_torques`` (matched by value, ``soak_dynamics_node.Receiver``).
Reported: CPU per arm (the subject processes' CPU / N, % of a core), CPU per answer (µs: it
stays fair when a saturated machine leaves messages unanswered), latency median and p99 over
all arms, answers / sent, and the ratios one / per-arm of both CPU figures in the same round.
"""

import argparse
import os
import pathlib
import sys
import tempfile
import time
import uuid

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'benchmarks'))

from node_subjects import (add_round, dynamics_node_arguments, measured_cpu,  # noqa: E402
                           quiet_model, receiver_graph, start_node, stop_nodes)
from soak_dynamics_node import (cell_publisher_main, postures, publisher_main,  # noqa: E402
                                Receiver, Shared)

WARM_UP = 4.0
QOS = 'sensor_data'


def start_subject(kind, namespaces, model_name):
    """Start the subject's processes; returns the list of Popen."""
    if kind == 'one':
        path = pathlib.Path(tempfile.mkdtemp()) / 'arms.yaml'
        path.write_text('arms:\n' + ''.join(f'  {ns.strip("/")}: {model_name}\n'
                                            for ns in namespaces)
                        + 'nodes: [dynamics_node]\nparameters:\n  dynamics_node: '
                        f'{{joint_states_qos: {QOS}}}\n')
        return [start_node('robot_dynamics.nodes.arms', ['--arms', str(path)])]
    return [start_node('robot_dynamics.nodes.dynamics_node', dynamics_node_arguments(
        ns, model_name, [f'joint_states_qos:={QOS}'])) for ns in namespaces]


def measure(kind, count, args, context, node, model, tables):
    """Run ``count`` arms as ``kind`` for ``args.seconds``; latencies, counts, CPU per arm."""
    base = '/arms' + uuid.uuid4().hex[:8]
    namespaces = [f'{base}/arm{k}' for k in range(count)]
    processes = start_subject(kind, namespaces, args.model)
    stop = context.Event()
    shared = [Shared(context) for _ in namespaces]
    receivers = [Receiver(node, tables['gravity'], s, f'{ns}/dynamics_node/gravity_torques')
                 for s, ns in zip(shared, namespaces)]
    table = context.RawArray('d', tables['positions'].size)
    np.frombuffer(table)[:] = tables['positions'].reshape(-1)
    if args.cell:
        publishers = [context.Process(target=cell_publisher_main, daemon=True, args=(
            namespaces, args.rate, model.joint_names, table, shared, stop, QOS, 1))]
    else:
        publishers = [context.Process(target=publisher_main, daemon=True, args=(
            ns, args.rate, model.joint_names, table, s, stop, QOS, 1))
            for s, ns in zip(shared, namespaces)]
    for publisher in publishers:
        publisher.start()
    try:
        cpu = measured_cpu([p.pid for p in processes], args.seconds,
                           lambda: all(s.sequence[0] >= 0 for s in shared), WARM_UP,
                           [s.measuring for s in shared]) / count
        time.sleep(0.2)
    finally:
        stop.set()
        for publisher in publishers:
            publisher.join(timeout=5.0)
        stop_nodes(processes)
    latencies = [x for r in receivers for x in r.latencies]
    answered = sum(r.answered for r in receivers)
    per_answer = cpu * 1e4 * args.seconds * count / max(answered, 1)   # % → µs per answer
    return dict(latencies=latencies, sent=sum(s.sent.value for s in shared),
                answered=answered, cpu=cpu, per_answer=per_answer)


def main(argv=None):
    """Measure every arm count and layout alternately; print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--arms', type=int, nargs='+', default=[1, 2, 4])
    parser.add_argument('--seconds', type=float, default=15.0)
    parser.add_argument('--rounds', type=int, default=2)
    parser.add_argument('--rate', type=float, default=1000.0)
    parser.add_argument('--model', default='panda')
    parser.add_argument('--cell', action='store_true',
                        help="one publisher sends every arm's state in each cycle")
    parser.add_argument('--realtime', type=int, default=0, metavar='PRIORITY',
                        help='run every process SCHED_FIFO at this priority (root; 0: normal)')
    args = parser.parse_args(argv)
    model = quiet_model(args.model)
    positions, gravity = postures(model)
    tables = {'positions': positions, 'gravity': gravity}
    results = {(kind, n): dict(latencies=[], sent=0, answered=0, cpu=[], per_answer=[])
               for n in args.arms for kind in ('one', 'per-arm')}
    loads = [os.getloadavg()[0]]
    with receiver_graph('arms_receiver', args.realtime) as (context, node):
        for round_ in range(args.rounds):
            for count in args.arms:
                for kind in ('one', 'per-arm'):
                    result = measure(kind, count, args, context, node, model, tables)
                    add_round(results[kind, count], result)
                    loads.append(os.getloadavg()[0])
                    print(f'  round {round_ + 1}, {count} arm(s), {kind}: CPU/arm '
                          f'{result["cpu"]:.1f} % ({result["per_answer"]:.0f} us per answer), '
                          f'{result["answered"]} of {result["sent"]}',
                          flush=True)
    publishers = 'one publisher for the cell' if args.cell else 'a publisher per arm'
    print(f'\n{args.model}, joint_states at {args.rate:.0f} Hz per arm, {args.rounds} rounds x '
          f'{args.seconds:.0f} s, {publishers}; '
          f'{os.cpu_count()} cores, 1-min load '
          f'{min(loads):.2f}-{max(loads):.2f}\n')
    print('| arms | layout | answered | p50 ms | p99 ms | CPU per arm % | one / per-arm '
          '| CPU per answer µs | one / per-arm |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for count in args.arms:
        per_arm = {key: np.array(results['per-arm', count][key]) for key in ('cpu', 'per_answer')}
        for kind in ('one', 'per-arm'):
            r = results[kind, count]
            ms = np.array(r['latencies']) * 1e-6
            p50, p99 = np.percentile(ms, [50, 99]) if ms.size else (np.nan, np.nan)
            ratio, answer_ratio = (np.median(np.array(r[key]) / per_arm[key])
                                   for key in ('cpu', 'per_answer'))
            print(f"| {count} | {kind} | {r['answered']} of {r['sent']} | {p50:.3f} | "
                  f"{p99:.3f} | {np.median(r['cpu']):.1f} | {ratio:.2f} | "
                  f"{np.median(r['per_answer']):.0f} | {answer_ratio:.2f} |")


if __name__ == '__main__':
    main()
