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
"""Soak test of dynamics_node: 1 kHz joint_states for minutes; drops, memory, latency, CPU.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/soak_dynamics_node.py [--duration 600] [--rate 1000]
        [--model puma560] [--qos reliable] [--node-arg fast_path:=false] [--output soak.md]

The dynamics node runs as a separate process (``python -m robot_dynamics.nodes.dynamics_node``,
joint_states with the sensor-data QoS, best effort keep last 5, or with ``--qos reliable``
the node's reliable profile, keep last 500, on both sides) in a private ROS domain with
localhost-only discovery. Beside it, a *floor* process runs an rclpy node whose joint_states
subscription (same QoS) has an empty callback, spun by rclpy's ``SingleThreadedExecutor``
(``--floor-executor cached``: by the nodes' default executor instead): its CPU, measured over
the same period, is what receiving alone costs at this rate on this machine in this run, and
the node's CPU is reported as a multiple of it (target <= 1.3). Only ``~/gravity_torques``
is subscribed, so the node computes and publishes only that output (``publish_unsubscribed``
false).

This process publishes ``joint_states`` at ``--rate`` Hz from a child process (paced by the
monotonic clock) and receives ``~/gravity_torques`` in this one, so that neither side slows
the other. Message k carries the posture ``q_k`` (one of 1000
distinct postures, cycled) and its send time goes to shared memory; an answer is matched to its
request by finding the posture whose library gravity vector it equals (to 1e-9: a mismatch
counts as a wrong answer), so each latency is "publish of joint_states k → receipt of its
gravity torques" on the system-wide monotonic clock (both DDS hops, the node and the
receiver's executor included).

Reported: messages sent, answered, lost (sent − answered: what best-effort keep-last-5 lost or
the node skipped), inputs lost before the node (all sent − the node's ``received_messages``,
warm-up included), wrong answers, latency p50/p99/p99.9/max, the node's resident memory
(VmRSS) at start (after a 10 s warm-up) and end plus its largest value, and the node's CPU
use (utime + stime from /proc, as % of one core) over the measured period, and the node's
own compute-time statistics from /diagnostics (the library call alone, without messaging).
"""

import argparse
import os
import pathlib
import sys
import threading
import time
import uuid

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'benchmarks'))

from node_subjects import (dynamics_node_arguments, private_graph, quiet_model,  # noqa: E402
                           read_proc, start_node, stop_nodes)
POSTURES = 1000
WARM_UP = 10.0


def parse_arguments():
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--duration', type=float, default=600.0, help='measured seconds')
    parser.add_argument('--rate', type=float, default=1000.0, help='joint_states rate, Hz')
    parser.add_argument('--model', default='puma560', help='bundled model name')
    parser.add_argument('--qos', choices=('sensor_data', 'reliable'), default='sensor_data',
                        help='joint_states QoS of publisher, node and floor')
    parser.add_argument('--floor-executor', choices=('rclpy', 'cached'), default='rclpy',
                        help='executor of the empty-subscriber floor process')
    parser.add_argument('--node-arg', action='append', default=[],
                        help='extra node parameter name:=value (repeatable)')
    parser.add_argument('--output', help='also write the markdown report to this file')
    return parser.parse_args()


def postures(model):
    """``POSTURES`` distinct postures of one smooth closed motion and their gravity torques.

    Joint ``j`` follows ``centre + amplitude (0.75 sin(a) + 0.25 sin(2 a + 1))``, ``a = 2 pi k
    / POSTURES + phase_j``: one period per cycle of postures (1 s at 1 kHz), so consecutive
    messages move each joint by at most ``1.25 x 2 pi amplitude / POSTURES`` (3.7 mrad), far
    below what the node's jump filter refuses (2 x 1.5 x its velocity limit x (dt + 1 ms);
    at most 0.3 of it on every bundled robot); random postures jumped between messages and the
    filter dropped nearly all of them (issue 35). Distinct phases per joint, and the second
    harmonic (``q(a + pi)`` is not ``-q(a)``, whose gravity a planar arm cannot tell apart),
    keep the answers distinct, so that each is matched to its request by value.
    """
    import robot_dynamics as rd
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit, -np.pi)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit, np.pi)
    centre = 0.5 * (lower + upper)
    amplitude = np.minimum(0.5, 0.3 * (upper - lower))
    phase = 2.0 * np.pi * (np.arange(model.dof) + 1) / (model.dof + 1.5)
    angle = 2.0 * np.pi * np.arange(POSTURES)[:, None] / POSTURES + phase
    q = centre + amplitude * (0.75 * np.sin(angle) + 0.25 * np.sin(2.0 * angle + 1.0))
    return q, rd.gravity_torques(model, q)


def qos_profile(name):
    """Return the joint_states QoS: sensor data (best effort, last 5) or the node's reliable."""
    from rclpy.qos import qos_profile_sensor_data

    from robot_dynamics.nodes.dynamics_node import RELIABLE_STATES
    return RELIABLE_STATES if name == 'reliable' else qos_profile_sensor_data


def floor_main(namespace, qos, stop, executor_name):
    """Child process: an rclpy node with an empty joint_states callback (the CPU floor)."""
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from sensor_msgs.msg import JointState

    from robot_dynamics.nodes.executors import CachedWaitSetExecutor
    rclpy.init()
    node = rclpy.create_node('soak_floor')
    node.create_subscription(JointState, f'{namespace}/joint_states', lambda msg: None,
                             qos_profile(qos))
    executors = {'rclpy': SingleThreadedExecutor, 'cached': CachedWaitSetExecutor}
    executor = executors[executor_name]()
    executor.add_node(node)
    while not stop.is_set():
        executor.spin_once(timeout_sec=0.1)
    node.destroy_node()
    rclpy.try_shutdown()


def publisher_main(namespace, rate, names, table, shared, stop, qos, subscribers=2):
    """Child process: publish joint_states at ``rate`` Hz, paced on the monotonic clock.

    Starts once ``subscribers`` subscriptions matched. Posture ``k = sequence % POSTURES`` goes
    out with ``shared.send_ns[k]`` (monotonic ns, a system-wide clock) and
    ``shared.sequence[k]`` written just before the publish.
    """
    cell_publisher_main([namespace], rate, names, table, [shared], stop, qos, subscribers)


def cell_publisher_main(namespaces, rate, names, table, shared, stop, qos, subscribers=2):
    """Child process: :func:`publisher_main` for several arms, all published in each cycle.

    As a multi-arm cell's driver does (one control loop, one state per arm per cycle): arm
    ``i``'s state goes to ``namespaces[i]/joint_states``, recorded in ``shared[i]``.
    """
    import rclpy
    from sensor_msgs.msg import JointState
    rclpy.init()
    node = rclpy.create_node('soak_publisher')
    publishers = [node.create_publisher(JointState, f'{namespace}/joint_states',
                                        qos_profile(qos)) for namespace in namespaces]
    while min(p.get_subscription_count() for p in publishers) < subscribers \
            and not stop.is_set():
        time.sleep(0.05)
    message = JointState(name=list(names))
    rows = [list(map(float, row)) for row in np.frombuffer(table).reshape(POSTURES, -1)]
    period = 1e9 / rate
    start = time.monotonic_ns()
    sequence = 0
    while not stop.is_set():
        delay = (start + sequence * period - time.monotonic_ns()) * 1e-9
        if delay > 0:
            time.sleep(delay)
        k = sequence % POSTURES
        message.position = rows[k]
        message.header.stamp = node.get_clock().now().to_msg()
        for publisher, arm in zip(publishers, shared):
            arm.sequence[k] = sequence
            arm.send_ns[k] = time.monotonic_ns()
            publisher.publish(message)
            arm.sent_total.value += 1
            if arm.measuring.value:
                if arm.first_sequence.value < 0:
                    arm.first_sequence.value = sequence
                arm.last_sequence.value = sequence
                arm.sent.value += 1
        sequence += 1
    node.destroy_node()
    rclpy.try_shutdown()


class Shared:
    """Arrays shared with the publisher process (no locks: one writer per field)."""

    def __init__(self, context):
        self.send_ns = context.RawArray('q', POSTURES)
        self.sequence = context.RawArray('q', [-1] * POSTURES)
        self.sent = context.RawValue('q', 0)
        self.sent_total = context.RawValue('q', 0)
        self.first_sequence = context.RawValue('q', -1)    # the measured window of requests
        self.last_sequence = context.RawValue('q', -1)
        self.measuring = context.RawValue('b', 0)


class Receiver:
    """Matches gravity answers to their requests by value and records the latency."""

    def __init__(self, node, gravity, shared, topic):
        from diagnostic_msgs.msg import DiagnosticArray
        from std_msgs.msg import Float64MultiArray
        self.gravity, self.shared = gravity, shared   # the expected answer to each posture
        node.create_subscription(Float64MultiArray, topic, self.on_gravity, 1000)
        node.create_subscription(DiagnosticArray, '/diagnostics', self.on_diagnostics, 10)
        self.diagnostics = {}        # the node's last self-report
        self.answered_sequence = np.full(POSTURES, -1, dtype=np.int64)
        self.latencies = []          # ns, measured period only
        self.answered = self.wrong = self.stale = 0

    def on_diagnostics(self, msg):
        """Keep the dynamics node's last diagnostic values."""
        for status in msg.status:
            if status.name.endswith(': dynamics'):
                self.diagnostics = {kv.key: kv.value for kv in status.values}

    def on_gravity(self, msg):
        """Match an answer to its request by its value; record the latency."""
        now = time.monotonic_ns()
        values = np.asarray(msg.data)
        distances = np.abs(self.gravity - values).max(axis=1)
        k = int(np.argmin(distances))
        sent, sequence = self.shared.send_ns[k], self.shared.sequence[k]
        first, last = self.shared.first_sequence.value, self.shared.last_sequence.value
        if first < 0 or sequence < first or (not self.shared.measuring.value
                                             and sequence > last):
            return                   # a request sent outside the measured window
        if distances[k] > 1e-9 * max(1.0, np.abs(values).max()):
            self.wrong += 1
            return
        if sequence == self.answered_sequence[k] or sequence < 0:
            self.stale += 1          # an answer older than one cycle of postures (> 1 s)
            return
        self.answered_sequence[k] = sequence
        self.answered += 1
        self.latencies.append(now - sent)


def report(args, result):
    """Markdown summary."""
    latencies = np.array(result['latencies']) * 1e-6
    diagnostics = result['diagnostics']
    percentiles = (np.percentile(latencies, [50, 99, 99.9]) if latencies.size
                   else [float('nan')] * 3)
    lines = [
        f"# dynamics_node soak: {args.model}, {args.rate:.0f} Hz, {args.duration:.0f} s measured",
        '',
        f"- node arguments: {' '.join(args.node_arg) or '(defaults)'}; joint_states QoS "
        f"{args.qos}; executor {os.environ.get('ROBOT_DYNAMICS_EXECUTOR', 'cached')}",
        f"- machine: {os.cpu_count()} cores, load average at the end "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- joint_states sent: {result['sent']} ({result['sent'] / args.duration:.1f} Hz "
        'achieved)',
        f"- answered: {result['answered']}; lost: {result['sent'] - result['answered']} "
        f"({100.0 * (result['sent'] - result['answered']) / max(1, result['sent']):.3f} %); "
        f"wrong answers: {result['wrong']}; answers later than 1 s: {result['stale']}",
        f"- inputs lost before the node (whole run, warm-up included): "
        f"{result['sent_total'] - int(diagnostics.get('received_messages', 0))} of "
        f"{result['sent_total']} sent",
        f'- latency joint_states → gravity_torques: p50 {percentiles[0]:.3f} ms, '
        f'p99 {percentiles[1]:.3f} ms, p99.9 {percentiles[2]:.3f} ms, '
        f"max {latencies.max() if latencies.size else float('nan'):.3f} ms",
        f"- node RSS: start {result['rss_start'] / 2 ** 20:.1f} MiB, end "
        f"{result['rss_end'] / 2 ** 20:.1f} MiB, max {result['rss_max'] / 2 ** 20:.1f} MiB",
        f"- node CPU: {result['cpu_percent']:.1f} % of one core; empty rclpy subscriber "
        f"({args.floor_executor} executor) in the same run: {result['floor_percent']:.1f} %; "
        f"ratio {result['cpu_percent'] / max(result['floor_percent'], 1e-9):.2f} "
        '(target <= 1.3)',
        f"- node's own report (/diagnostics, last 2000 messages): compute time mean "
        f"{diagnostics.get('compute_time_mean_ms', '?')} ms, p99 "
        f"{diagnostics.get('compute_time_p99_ms', '?')} ms, max "
        f"{diagnostics.get('compute_time_max_ms', '?')} ms; input rate "
        f"{diagnostics.get('input_rate_hz', '?')} Hz; dropped (bad input) "
        f"{diagnostics.get('dropped_messages', '?')}",
        f"- node exit: {result['exit']}",
    ]
    return '\n'.join(lines)


def main():
    """Run the soak and print the report."""
    args = parse_arguments()
    private_graph()
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    model = quiet_model(args.model)
    namespace = '/soak' + uuid.uuid4().hex[:8]
    process = start_node('robot_dynamics.nodes.dynamics_node', dynamics_node_arguments(
        namespace, args.model, ['diagnostics_period:=1.0', f'joint_states_qos:={args.qos}',
                                *args.node_arg]), capture=True)
    import multiprocessing
    context = multiprocessing.get_context('spawn')
    shared, stop = Shared(context), context.Event()
    floor = context.Process(target=floor_main, daemon=True,
                            args=(namespace, args.qos, stop, args.floor_executor))
    floor.start()
    q_table, gravity = postures(model)
    table = context.RawArray('d', q_table.size)
    np.frombuffer(table)[:] = q_table.reshape(-1)
    rclpy.init()
    node = rclpy.create_node('soak_receiver')
    receiver = Receiver(node, gravity, shared, f'{namespace}/dynamics_node/gravity_torques')
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    publisher = context.Process(target=publisher_main, args=(
        namespace, args.rate, model.joint_names, table, shared, stop, args.qos), daemon=True)
    publisher.start()
    samples = []
    try:
        deadline = time.monotonic() + 60.0
        while shared.sequence[0] < 0 and time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError('the node exited:\n' + process.stdout.read())
            time.sleep(0.1)
        time.sleep(WARM_UP)
        rss_start, cpu_start = read_proc(process.pid)
        _, floor_start = read_proc(floor.pid)
        wall_start = time.monotonic()
        shared.measuring.value = 1
        samples.append((0.0, rss_start))
        next_progress = 30.0
        while time.monotonic() - wall_start < args.duration:
            time.sleep(1.0)
            elapsed = time.monotonic() - wall_start
            rss, _ = read_proc(process.pid)
            samples.append((elapsed, rss))
            if elapsed >= next_progress:
                print(f'  {elapsed:5.0f} s: sent {shared.sent.value}, answered '
                      f'{receiver.answered}, RSS {rss / 2 ** 20:.1f} MiB', flush=True)
                next_progress += 30.0
        shared.measuring.value = 0
        rss_end, cpu_end = read_proc(process.pid)
        _, floor_end = read_proc(floor.pid)
        wall = time.monotonic() - wall_start
    finally:
        stop.set()
        publisher.join(timeout=5.0)
        floor.join(timeout=5.0)
        time.sleep(2.5)                  # the node's last /diagnostics counts every input
        output, = stop_nodes([process])
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    result = dict(sent=shared.sent.value, sent_total=shared.sent_total.value,
                  answered=receiver.answered, wrong=receiver.wrong,
                  stale=receiver.stale, latencies=receiver.latencies,
                  diagnostics=receiver.diagnostics,
                  rss_start=rss_start, rss_end=rss_end, rss_max=max(r for _, r in samples),
                  cpu_percent=100.0 * (cpu_end - cpu_start) / wall,
                  floor_percent=100.0 * (floor_end - floor_start) / wall,
                  exit='clean' if 'Traceback' not in output else 'TRACEBACK')
    text = report(args, result)
    print(text)
    if 'Traceback' in output:
        print(output[-3000:])
    if args.output:
        pathlib.Path(args.output).write_text(text + '\n')


if __name__ == '__main__':
    main()
