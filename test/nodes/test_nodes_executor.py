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
"""The multi-threaded executor of the one-process bringup never re-submits a queued task."""

import collections
import threading
import time

from std_msgs.msg import Float64

from robot_dynamics.nodes.executors import QueueAwareMultiThreadedExecutor


def test_every_task_is_submitted_once_and_runs(rclpy_session):
    rclpy = rclpy_session
    context = rclpy.Context()
    rclpy.init(context=context)
    executor = QueueAwareMultiThreadedExecutor(num_threads=2, context=context)
    node = rclpy.create_node('executor_probe', context=context)
    received, ticks = [], []
    lock = threading.Lock()

    def on_message(msg):
        with lock:
            received.append(msg.data)

    def on_tick():
        with lock:
            ticks.append(1)
        publisher.publish(Float64(data=float(len(ticks))))

    publisher = node.create_publisher(Float64, 'executor_probe_topic', 10)
    node.create_subscription(Float64, 'executor_probe_topic', on_message, 10)
    node.create_timer(0.002, on_tick)
    submitted = []                      # the tasks themselves: ids stay unique while held
    submit = executor._executor.submit

    def counting_submit(function, task):
        submitted.append(task)
        return submit(function, task)

    executor._executor.submit = counting_submit
    executor.add_node(node)
    deadline = time.monotonic() + 30.0      # generous: a loaded machine may be slow
    try:
        while len(received) < 50 and time.monotonic() < deadline:
            executor.spin_once(timeout_sec=0.01)
    finally:
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
    assert len(received) >= 50, f'only {len(received)} messages in 30 s'
    counts = collections.Counter(id(task) for task in submitted)
    assert submitted and max(counts.values()) == 1, 'a queued task was submitted again'
    assert len(ticks) >= len(received)
