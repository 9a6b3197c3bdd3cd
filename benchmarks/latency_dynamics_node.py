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
"""End-to-end latency: joint_states → dynamics_node → gravity_torques, beside an empty relay.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/latency_dynamics_node.py [--seconds 20] [--rounds 3]
        [--rate 1000] [--model puma560] [--background 0.2] [--executor rclpy]
        [--baseline ../main] [--output latency.md]

Three processes per measurement, in a private ROS domain with localhost-only discovery: a
publisher sends ``joint_states`` at ``--rate`` Hz paced on wall time (the monotonic clock,
stamped with the wall clock, the sensor-data QoS), the *subject* answers each one, and this
process receives the answers (in a thread, on the nodes' ``CachedWaitSetExecutor``: with
rclpy's own, the receiver fell behind 1 kHz on a loaded machine and measured its own
queue). Latency is
"publish of joint_states k → receipt of its answer" on the system-wide monotonic clock: both
DDS hops, both executors and the subject's work. Answers are matched to their request by value
(1000 distinct postures, cycled; see ``soak_dynamics_node.py``), and a wrong value is counted.

Subjects, measured alternately in each round so that both see the same machine:

- ``floor``: an empty rclpy relay node in its own process (spun by rclpy's
  ``SingleThreadedExecutor``; ``--floor-executor cached``: by the nodes' one) whose callback
  republishes the positions as a ``Float64MultiArray``: what two hops of rclpy messaging cost
  here and now.
- ``node[EXECUTOR]``: the dynamics node as users run it (``python -m
  robot_dynamics.nodes.dynamics_node -p model:=...``) with ``ROBOT_DYNAMICS_EXECUTOR`` set to
  each ``--executor`` (default: the node's default), only ``~/gravity_torques`` subscribed;
  with ``--baseline DIR`` also the node of another built source tree (before/after a change).

``--background F`` adds a process that is busy a fraction F of every 10 ms (a stand-in for the
rest of a robot's software), so that a run can be made at a stated load; the machine line gives
the cores, the processor and the range of the 1-minute load average during the run. On a
machine shared with other jobs, ``--nice -15`` or ``--realtime 10`` (as root) runs every process
of the benchmark, the background one included, before those jobs, which then weigh on the
result far less than the load average says (every process here sleeps between messages, so
none can hold a core). Results are quoted as ratios against the floor of the same run.
"""

import argparse
import os
import pathlib
import platform
import sys
import time
import uuid

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'benchmarks'))

from node_subjects import (add_round, dynamics_node_arguments, measured_cpu,  # noqa: E402
                           quiet_model, receiver_graph, start_node, stop_nodes)
from soak_dynamics_node import Receiver, Shared, postures, publisher_main  # noqa: E402

WARM_UP = 3.0
QOS = 'sensor_data'


def parse_arguments(argv=None):
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--seconds', type=float, default=20.0,
                        help='measured seconds per subject and round')
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--rate', type=float, default=1000.0, help='joint_states rate, Hz')
    parser.add_argument('--model', default='puma560', help='bundled model name')
    parser.add_argument('--executor', action='append', default=[],
                        help="the node's ROBOT_DYNAMICS_EXECUTOR (repeatable; default: unset)")
    parser.add_argument('--floor-executor', choices=('rclpy', 'cached'), default='rclpy')
    parser.add_argument('--baseline', metavar='SOURCE_TREE',
                        help='also measure the node of another checkout (built), e.g. main')
    parser.add_argument('--background', type=float, default=0.0,
                        help='busy fraction (0-1) of one extra process, the stated load')
    parser.add_argument('--nice', type=int, default=0,
                        help='niceness added to every process of the benchmark (as root, -15 '
                        'gives them the CPU before the other jobs of a shared machine)')
    parser.add_argument('--realtime', type=int, default=0, metavar='PRIORITY',
                        help='run every process of the benchmark SCHED_FIFO at this priority '
                        '(root; 0: the normal scheduler)')
    parser.add_argument('--output', help='also write the markdown report to this file')
    return parser.parse_args(argv)


def relay_main(namespace, stop, executor_name):
    """Child process: the floor, an rclpy node republishing each joint state's positions."""
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray
    rclpy.init()
    node = rclpy.create_node('relay', namespace=namespace)
    publisher = node.create_publisher(Float64MultiArray, 'relay/answer', 10)
    answer = Float64MultiArray()

    def relay(msg):
        answer.data = msg.position
        publisher.publish(answer)

    node.create_subscription(JointState, 'joint_states', relay, qos_profile_sensor_data)
    from robot_dynamics.nodes.executors import CachedWaitSetExecutor
    executor = {'rclpy': SingleThreadedExecutor, 'cached': CachedWaitSetExecutor}[executor_name]()
    executor.add_node(node)
    while not stop.is_set():
        executor.spin_once(timeout_sec=0.1)
    node.destroy_node()
    rclpy.try_shutdown()


def busy_main(fraction, stop):
    """Child process: busy ``fraction`` of every 10 ms, asleep for the rest."""
    while not stop.is_set():
        start = time.monotonic()
        while time.monotonic() - start < 0.01 * fraction:
            pass
        time.sleep(0.01 * (1.0 - fraction))


def start_subject(namespace, model_name, executor, root=None):
    """Start the dynamics node as users do, ``executor`` (None: the default), from ``root``."""
    return start_node('robot_dynamics.nodes.dynamics_node', dynamics_node_arguments(
        namespace, model_name, [f'joint_states_qos:={QOS}']), root=root, executor=executor)


def measure(subject, args, context, node, model, tables):
    """Run one subject for ``args.seconds``; latencies (ns), counts and its CPU share."""
    namespace = '/lat' + uuid.uuid4().hex[:8]
    stop = context.Event()
    if subject == 'floor':
        process = context.Process(target=relay_main, daemon=True,
                                  args=(namespace, stop, args.floor_executor))
        process.start()
        topic, expected = f'{namespace}/relay/answer', tables['positions']
    elif subject == 'baseline':
        process = start_subject(namespace, args.model, None, args.baseline)
        topic, expected = f'{namespace}/dynamics_node/gravity_torques', tables['gravity']
    else:
        process = start_subject(namespace, args.model, subject)
        topic, expected = f'{namespace}/dynamics_node/gravity_torques', tables['gravity']
    shared = Shared(context)
    receiver = Receiver(node, expected, shared, topic)
    table = context.RawArray('d', tables['positions'].size)
    np.frombuffer(table)[:] = tables['positions'].reshape(-1)
    publisher = context.Process(target=publisher_main, daemon=True, args=(
        namespace, args.rate, model.joint_names, table, shared, stop, QOS, 1))
    publisher.start()
    try:
        cpu = measured_cpu([process.pid], args.seconds, lambda: shared.sequence[0] >= 0,
                           WARM_UP, [shared.measuring])
        time.sleep(0.2)                     # the last answers
    finally:
        stop.set()
        publisher.join(timeout=5.0)
        if subject == 'floor':
            process.join(timeout=5.0)
        else:
            stop_nodes([process])
    return dict(latencies=list(receiver.latencies), sent=shared.sent.value,
                answered=receiver.answered, wrong=receiver.wrong, cpu=cpu)


def machine_line(loads):
    """Cores, processor, Python, and the 1-minute load averages seen during the run."""
    processor = next((line.split(':', 1)[1].strip() for line in open('/proc/cpuinfo')
                      if line.startswith('model name')), platform.processor())
    rmw = os.environ.get('RMW_IMPLEMENTATION', 'rmw_fastrtps_cpp')
    return (f'{os.cpu_count()} cores ({processor}), Linux {platform.release()}, Python '
            f'{platform.python_version()}, {rmw}; 1-min load average '
            f'{min(loads):.2f}-{max(loads):.2f} during the run')


def report(args, results, loads):
    """Markdown table: percentiles per subject and their ratios against the floor."""
    floor = np.array(results['floor']['latencies']) * 1e-6
    floor_p50, floor_p99 = np.percentile(floor, [50, 99])
    lines = [f'# dynamics_node latency: {args.model}, joint_states at {args.rate:.0f} Hz, '
             f'{args.rounds} rounds x {args.seconds:.0f} s per subject', '',
             f'- machine: {machine_line(loads)}',
             f'- background load: one process busy {100 * args.background:.0f} % of the time; '
             f'the benchmark\'s processes at niceness {os.nice(0)}, '
             f'{"SCHED_FIFO " + str(args.realtime) if args.realtime else "normal scheduling"}',
             '', '| subject | answered | wrong | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms '
             '| p50 / floor | p99 / floor | CPU % of a core |', '|' + ' --- |' * 11]
    for subject, result in results.items():
        ms = np.array(result['latencies']) * 1e-6
        p50, p90, p99, p999 = np.percentile(ms, [50, 90, 99, 99.9])
        lines.append(
            f"| {subject} | {result['answered']} of {result['sent']} | {result['wrong']} | "
            f'{p50:.3f} | {p90:.3f} | {p99:.3f} | {p999:.2f} | {ms.max():.2f} | '
            f'{p50 / floor_p50:.2f} | {p99 / floor_p99:.2f} | {np.mean(result["cpu"]):.1f} |')
    return '\n'.join(lines)


def main(argv=None):
    """Measure every subject in alternation and print the report."""
    args = parse_arguments(argv)
    if args.nice:
        os.nice(args.nice)                  # inherited by every process started below
    model = quiet_model(args.model)
    positions, gravity = postures(model)
    tables = {'positions': positions, 'gravity': gravity}
    subjects = ['floor'] + (args.executor or ['']) + (['baseline'] if args.baseline else [])
    names = {'floor': 'floor', 'baseline': f'node of {args.baseline}'}
    results = {names.get(s, f'node[{s or "default"}]'):
               dict(latencies=[], sent=0, answered=0, wrong=0, cpu=[]) for s in subjects}
    loads = [os.getloadavg()[0]]
    with receiver_graph('latency_receiver', args.realtime) as (context, node):
        stop_background = context.Event()
        if args.background > 0:
            context.Process(target=busy_main, args=(args.background, stop_background),
                            daemon=True).start()
        try:
            for round_ in range(args.rounds):
                for subject, key in zip(subjects, results):
                    result = measure(subject, args, context, node, model, tables)
                    add_round(results[key], result)
                    loads.append(os.getloadavg()[0])
                    print(f'  round {round_ + 1}, {key}: {result["answered"]} answers, p50 '
                          f'{np.percentile(result["latencies"], 50) * 1e-6:.3f} ms',
                          flush=True)
        finally:
            stop_background.set()
    text = report(args, results, loads)
    print(text)
    if args.output:
        pathlib.Path(args.output).write_text(text + '\n')


if __name__ == '__main__':
    main()
