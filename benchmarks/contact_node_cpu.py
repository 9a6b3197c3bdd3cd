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
"""The dynamics node's CPU at 1 kHz with the contact observer against without it (issue 33).

Run on demand (not in CI)::

    .venv/bin/python benchmarks/contact_node_cpu.py [--seconds 15] [--rounds 3]
        [--rate 1000] [--model panda]

A publisher process sends ``joint_states`` (a smooth motion, efforts = the gravity torques)
at ``--rate`` Hz in a private ROS domain; the dynamics node runs as users run it (``python -m
robot_dynamics.nodes.dynamics_node``) with ``~/gravity_torques`` subscribed from this process.
Subjects, alternated in each round so that all see the same machine:

- ``off``: ``contacts_enabled: false`` (the node as before issue 33);
- ``observer``: the observer and the thresholds (``~/collision`` judged on every state);
- ``observer+torques``: the same with ``~/external_torques`` subscribed too (one more
  message per state).

``--in-process`` measures instead the node's joint-state callback alone, in this process
(``time.thread_time`` over ``--messages`` calls, no DDS): the cost the observer adds to what
the node does per state, independent of the machine's other load; subjects as above.

The CPU share of the node's process (``/proc``, user + system) over ``--seconds``, and its
CPU time per joint state sent (a loaded machine may not sustain the full rate: the share
alone would then compare different rates); both are quoted as ratios against ``off`` of the
same round (target <= 1.2).
"""

import argparse
import os
import pathlib
import sys
import time
import uuid

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'benchmarks'))

from node_subjects import (dynamics_node_arguments, measured_cpu,  # noqa: E402
                           quiet_model, receiver_graph, start_node, stop_nodes)

SUBJECTS = ('off', 'observer', 'observer+torques')
WARM_UP = 3.0


def publisher_main(namespace, rate, model_name, stop, sent):
    """Child process: joint_states of a smooth motion with efforts, paced at ``rate`` Hz."""
    import rclpy
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import JointState
    import robot_dynamics as rd
    model = quiet_model(model_name)
    rclpy.init()
    node = rclpy.create_node('contact_cpu_publisher')
    publisher = node.create_publisher(JointState, f'{namespace}/joint_states',
                                      qos_profile_sensor_data)
    while publisher.get_subscription_count() < 1 and not stop.is_set():
        time.sleep(0.05)
    middle = 0.5 * (np.nan_to_num(model.lower_limit) + np.nan_to_num(model.upper_limit))
    t = np.arange(int(2 * rate)) / rate                    # one period of 2 s, cycled
    q = middle + 0.2 * np.sin(np.pi * t)[:, None]
    rows = [(a.tolist(), [0.2 * np.pi * np.cos(np.pi * s)] * model.dof, e.tolist())
            for a, s, e in zip(q, t, rd.gravity_torques(model, q))]
    message = JointState(name=list(model.joint_names))
    period, start, k = 1e9 / rate, time.monotonic_ns(), 0
    while not stop.is_set():
        delay = (start + k * period - time.monotonic_ns()) * 1e-9
        if delay > 0:
            time.sleep(delay)
        message.position, message.velocity, message.effort = rows[k % len(rows)]
        message.header.stamp = node.get_clock().now().to_msg()
        publisher.publish(message)
        sent.value += 1
        k += 1
    node.destroy_node()
    rclpy.try_shutdown()


def start_subject(namespace, model_name, subject):
    """Start the dynamics node with or without the contact outputs."""
    return start_node('robot_dynamics.nodes.dynamics_node', dynamics_node_arguments(
        namespace, model_name, [f'contacts_enabled:={"false" if subject == "off" else "true"}',
                                'contact_thresholds:=[100.0]']))


def measure(subject, args, context, node):
    """Run one subject; return ``(CPU % of a core, joint states sent per s)``."""
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray
    namespace = '/cpu' + uuid.uuid4().hex[:8]
    stop = context.Event()
    process = start_subject(namespace, args.model, subject)
    answers = [0]
    subscriptions = [node.create_subscription(
        Float64MultiArray, f'{namespace}/dynamics_node/gravity_torques',
        lambda _: answers.__setitem__(0, answers[0] + 1), 100)]
    if subject == 'observer+torques':
        subscriptions.append(node.create_subscription(
            JointState, f'{namespace}/dynamics_node/external_torques', lambda _: None, 100))
    sent = context.Value('q', 0, lock=False)
    publisher = context.Process(target=publisher_main, daemon=True,
                                args=(namespace, args.rate, args.model, stop, sent))
    publisher.start()
    try:
        first = []
        cpu = measured_cpu([process.pid], args.seconds, lambda: answers[0] > 0, WARM_UP,
                           started=lambda: first.extend((sent.value, time.monotonic())))
        return cpu, (sent.value - first[0]) / (time.monotonic() - first[1])
    finally:
        stop.set()
        publisher.join(timeout=5.0)
        stop_nodes([process])
        for subscription in subscriptions:
            node.destroy_subscription(subscription)


def callback_cost(subject, model_name, messages):
    """Return the node's CPU µs per joint-state callback (median of 5 blocks), in-process."""
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray
    import robot_dynamics as rd
    from robot_dynamics.nodes.dynamics_node import DynamicsNode
    overrides = [Parameter('model', value=model_name),
                 Parameter('contacts_enabled', value=subject != 'off'),
                 Parameter('contact_thresholds', value=[100.0])]
    node = DynamicsNode(namespace='/cpu' + uuid.uuid4().hex[:8], parameter_overrides=overrides)
    listeners = [node.create_subscription(Float64MultiArray, 'dynamics_node/gravity_torques',
                                          lambda _: None, 10)]
    if subject == 'observer+torques':
        listeners.append(node.create_subscription(JointState, 'dynamics_node/external_torques',
                                                  lambda _: None, 10))
    model = node.model
    middle = 0.5 * (np.nan_to_num(model.lower_limit) + np.nan_to_num(model.upper_limit))
    msg = JointState(name=list(model.joint_names))
    blocks = []
    for block in range(6):
        start = time.thread_time()
        for k in range(messages // 5):
            q = middle + 0.2 * np.sin(np.pi * 1e-3 * k)
            msg.position, msg.velocity = q.tolist(), [0.1] * model.dof
            msg.effort = rd.gravity_torques(model, q).tolist()
            msg.header.stamp = node.get_clock().now().to_msg()
            node._on_joint_state(msg)
        blocks.append((time.thread_time() - start) / (messages // 5) * 1e6)
    node.destroy_node()
    return float(np.median(blocks[1:]))          # block 0 warms up


def in_process(args):
    """Print the callback cost per subject, alternated over the rounds, and the ratios."""
    import rclpy
    import robot_dynamics as rd
    rclpy.init()
    model = quiet_model(args.model)
    q = np.zeros((200, model.dof))
    start = time.thread_time()
    for row in q:
        rd.gravity_torques(model, row)          # the publisher's share, subtracted below
    efforts = (time.thread_time() - start) / len(q) * 1e6
    cost = {s: [] for s in SUBJECTS}
    for _ in range(args.rounds):
        for subject in SUBJECTS:
            cost[subject].append(callback_cost(subject, args.model, args.messages) - efforts)
    rclpy.try_shutdown()
    print(f'\n# dynamics_node joint-state callback, {args.model}, in-process, {args.rounds} '
          f'rounds x {args.messages} messages; 1-min load {os.getloadavg()[0]:.2f}\n')
    print('| subject | CPU µs per callback (median of rounds) | ratio to off (per round) |')
    print('| --- | --- | --- |')
    for subject in SUBJECTS:
        ratios = np.array(cost[subject]) / np.array(cost['off'])
        print(f'| {subject} | {np.median(cost[subject]):.0f} | {np.median(ratios):.2f} '
              f'({", ".join(f"{r:.2f}" for r in ratios)}) |')


def main(argv=None):
    """Measure the subjects in alternation; print the CPU shares and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--seconds', type=float, default=15.0)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--rate', type=float, default=1000.0)
    parser.add_argument('--model', default='panda')
    parser.add_argument('--in-process', action='store_true',
                        help="the node's callback alone, in this process (no DDS)")
    parser.add_argument('--messages', type=int, default=5000)
    args = parser.parse_args(argv)
    if args.in_process:
        return in_process(args)
    cpu = {s: [] for s in SUBJECTS}
    per = {s: [] for s in SUBJECTS}
    loads = [os.getloadavg()[0]]
    from rclpy.executors import SingleThreadedExecutor
    with receiver_graph('contact_cpu_receiver', executor_class=SingleThreadedExecutor) as (
            context, node):
        for round_ in range(args.rounds):
            for subject in SUBJECTS:
                share, rate = measure(subject, args, context, node)
                cpu[subject].append(share)
                per[subject].append(1e4 * share / max(rate, 1.0))      # µs per message
                loads.append(os.getloadavg()[0])
                print(f'  round {round_ + 1}, {subject}: {share:.1f} % of a core, '
                      f'{rate:.0f} joint states/s sent', flush=True)
    print(f'\n# dynamics_node CPU, {args.model} at {args.rate:.0f} Hz, {args.rounds} rounds x '
          f'{args.seconds:.0f} s; {os.cpu_count()} cores, 1-min load '
          f'{min(loads):.2f}-{max(loads):.2f}\n')
    print('| subject | CPU % of a core | ratio to off | CPU µs per message | ratio to off |')
    print('| --- | --- | --- | --- | --- |')
    for subject in SUBJECTS:
        shares = np.array(cpu[subject]) / np.array(cpu['off'])
        costs = np.array(per[subject]) / np.array(per['off'])
        print(f'| {subject} | {np.mean(cpu[subject]):.1f} | {np.median(shares):.2f} '
              f'({", ".join(f"{r:.2f}" for r in shares)}) | {np.mean(per[subject]):.0f} | '
              f'{np.median(costs):.2f} ({", ".join(f"{r:.2f}" for r in costs)}) |')


if __name__ == '__main__':
    main()
