# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Soak test of dynamics_node: 1 kHz joint_states for minutes; drops, memory, latency, CPU.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/soak_dynamics_node.py [--duration 600] [--rate 1000]
        [--model puma560] [--node-arg fast_path:=false] [--output soak.md]

The dynamics node runs as a separate process (``python -m robot_dynamics.nodes.dynamics_node``,
joint_states with the default sensor-data QoS: best effort, keep last 5) in a private ROS
domain with localhost-only discovery. This process publishes ``joint_states`` at ``--rate`` Hz
(paced by the monotonic clock) and subscribes to ``~/gravity_torques``. Message k carries the
posture ``q_k`` (one of 1000 distinct postures, cycled); an answer is matched to its request by
finding the posture whose library gravity vector it equals (to 1e-9: a mismatch counts as a
wrong answer), so each latency is "publish of joint_states k → receipt of its gravity torques"
in this process, on one monotonic clock (both DDS hops and both executors included).

Reported: messages sent, answered, lost (sent − answered: what best-effort keep-last-5 lost or
the node skipped), wrong answers, latency p50/p99/p99.9/max, the node's resident memory
(VmRSS) at start (after a 10 s warm-up) and end plus its largest value, and the node's CPU
use (utime + stime from /proc, as % of one core) over the measured period, and the node's
own compute-time statistics from /diagnostics (the library call alone, without messaging).
"""

import argparse
import os
import pathlib
import random
import subprocess
import sys
import threading
import time
import uuid
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
POSTURES = 1000
WARM_UP = 10.0


def parse_arguments():
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--duration', type=float, default=600.0, help='measured seconds')
    parser.add_argument('--rate', type=float, default=1000.0, help='joint_states rate, Hz')
    parser.add_argument('--model', default='puma560', help='bundled model name')
    parser.add_argument('--node-arg', action='append', default=[],
                        help='extra node parameter name:=value (repeatable)')
    parser.add_argument('--output', help='also write the markdown report to this file')
    return parser.parse_args()


def postures(model):
    """``POSTURES`` distinct postures within the joint limits and their gravity torques."""
    import robot_dynamics as rd
    rng = np.random.default_rng(0)
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit, -np.pi)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit, np.pi)
    q = rng.uniform(0.8 * lower + 0.2 * upper, 0.2 * lower + 0.8 * upper, (POSTURES, model.dof))
    return q, rd.gravity_torques(model, q)


def read_proc(pid):
    """``(rss_bytes, cpu_seconds)`` of a process from /proc."""
    with open(f'/proc/{pid}/status') as handle:
        rss = next(int(line.split()[1]) * 1024 for line in handle if line.startswith('VmRSS'))
    with open(f'/proc/{pid}/stat') as handle:
        fields = handle.read().rsplit(')', 1)[1].split()
    ticks = os.sysconf('SC_CLK_TCK')
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def start_node(namespace, model_name, extra):
    """The dynamics node as a child process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get('PYTHONPATH', ''),
               PYTHONWARNINGS='ignore')
    command = [sys.executable, '-m', 'robot_dynamics.nodes.dynamics_node', '--ros-args',
               '-r', f'__ns:={namespace}', '-p', f'model:={model_name}',
               '-p', 'diagnostics_period:=1.0']
    for argument in extra:
        command += ['-p', argument]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


class Driver:
    """Publishes joint_states at a fixed rate; matches gravity answers to their requests."""

    def __init__(self, node, model, namespace):
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import JointState
        from std_msgs.msg import Float64MultiArray
        self.node, self.model = node, model
        self.q, self.gravity = postures(model)
        self.publisher = node.create_publisher(JointState, f'{namespace}/joint_states',
                                               qos_profile_sensor_data)
        node.create_subscription(Float64MultiArray, f'{namespace}/dynamics_node/gravity_torques',
                                 self.on_gravity, 1000)
        from diagnostic_msgs.msg import DiagnosticArray
        node.create_subscription(DiagnosticArray, '/diagnostics', self.on_diagnostics, 10)
        self.diagnostics = {}        # the node's last self-report
        self.message = JointState(name=list(model.joint_names))
        self.sent_at = {}            # sequence number -> monotonic ns of publish
        self.latest = np.full(POSTURES, -1, dtype=np.int64)   # posture -> last sequence sent
        self.sent = 0
        self.latencies = []          # ns, measured period only
        self.answered = self.wrong = 0
        self.measuring = False
        self.lock = threading.Lock()

    def publish(self, sequence):
        """Publish joint state number ``sequence``."""
        k = sequence % POSTURES
        self.message.position = self.q[k].tolist()
        self.message.header.stamp = self.node.get_clock().now().to_msg()
        with self.lock:
            self.latest[k] = sequence
            self.sent_at[sequence] = time.monotonic_ns()
        self.publisher.publish(self.message)

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
        with self.lock:
            sequence = int(self.latest[k])
            sent = self.sent_at.pop(sequence, None)
        if sent is None or not self.measuring:
            return
        if distances[k] > 1e-9 * max(1.0, np.abs(values).max()):
            self.wrong += 1
            return
        self.answered += 1
        self.latencies.append(now - sent)


def pace(driver, rate, stop, counters):
    """Publish at ``rate`` Hz on the monotonic clock until ``stop`` is set."""
    period = 1e9 / rate
    start = time.monotonic_ns()
    sequence = 0
    while not stop.is_set():
        target = start + sequence * period
        delay = (target - time.monotonic_ns()) * 1e-9
        if delay > 0:
            time.sleep(delay)
        driver.publish(sequence)
        if driver.measuring:
            counters['sent'] += 1
        sequence += 1


def report(args, result):
    """Markdown summary."""
    latencies = np.array(result['latencies']) * 1e-6
    diagnostics = result['diagnostics']
    percentiles = (np.percentile(latencies, [50, 99, 99.9]) if latencies.size
                   else [float('nan')] * 3)
    lines = [
        f"# dynamics_node soak: {args.model}, {args.rate:.0f} Hz, {args.duration:.0f} s measured",
        '',
        f"- node arguments: {' '.join(args.node_arg) or '(defaults)'}",
        f"- machine: {os.cpu_count()} cores, load average at the end "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"- joint_states sent: {result['sent']} ({result['sent'] / args.duration:.1f} Hz "
        'achieved)',
        f"- answered: {result['answered']}; lost: {result['sent'] - result['answered']} "
        f"({100.0 * (result['sent'] - result['answered']) / max(1, result['sent']):.3f} %); "
        f"wrong answers: {result['wrong']}",
        f'- latency joint_states → gravity_torques: p50 {percentiles[0]:.3f} ms, '
        f'p99 {percentiles[1]:.3f} ms, p99.9 {percentiles[2]:.3f} ms, '
        f"max {latencies.max() if latencies.size else float('nan'):.3f} ms",
        f"- node RSS: start {result['rss_start'] / 2 ** 20:.1f} MiB, end "
        f"{result['rss_end'] / 2 ** 20:.1f} MiB, max {result['rss_max'] / 2 ** 20:.1f} MiB",
        f"- node CPU: {result['cpu_percent']:.1f} % of one core",
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
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(100, 200))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.setdefault('AMENT_PREFIX_PATH', sys.prefix)
    sys.path.insert(0, str(ROOT))
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    import robot_dynamics as rd
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.load_model(args.model)
    namespace = '/soak' + uuid.uuid4().hex[:8]
    process = start_node(namespace, args.model, args.node_arg)
    rclpy.init()
    node = rclpy.create_node('soak_driver')
    driver = Driver(node, model, namespace)
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    stop, counters = threading.Event(), {'sent': 0}
    publisher = None
    samples = []
    try:
        deadline = time.monotonic() + 60.0
        while driver.publisher.get_subscription_count() == 0 and time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError('the node exited:\n' + process.stdout.read())
            time.sleep(0.1)
        publisher = threading.Thread(target=pace, args=(driver, args.rate, stop, counters),
                                     daemon=True)
        publisher.start()
        time.sleep(WARM_UP)
        rss_start, cpu_start = read_proc(process.pid)
        wall_start = time.monotonic()
        driver.measuring = True
        samples.append((0.0, rss_start))
        next_progress = 30.0
        while time.monotonic() - wall_start < args.duration:
            time.sleep(1.0)
            elapsed = time.monotonic() - wall_start
            rss, _ = read_proc(process.pid)
            samples.append((elapsed, rss))
            if elapsed >= next_progress:
                print(f'  {elapsed:5.0f} s: sent {counters["sent"]}, answered '
                      f'{driver.answered}, RSS {rss / 2 ** 20:.1f} MiB', flush=True)
                next_progress += 30.0
        driver.measuring = False
        rss_end, cpu_end = read_proc(process.pid)
        wall = time.monotonic() - wall_start
    finally:
        stop.set()
        if publisher is not None:
            publisher.join(timeout=2.0)
        time.sleep(0.2)
        process.terminate()
        try:
            output, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    result = dict(sent=counters['sent'], answered=driver.answered, wrong=driver.wrong,
                  latencies=driver.latencies, diagnostics=driver.diagnostics,
                  rss_start=rss_start, rss_end=rss_end, rss_max=max(r for _, r in samples),
                  cpu_percent=100.0 * (cpu_end - cpu_start) / wall,
                  exit='clean' if 'Traceback' not in output else 'TRACEBACK')
    text = report(args, result)
    print(text)
    if 'Traceback' in output:
        print(output[-3000:])
    if args.output:
        pathlib.Path(args.output).write_text(text + '\n')


if __name__ == '__main__':
    main()
