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
"""CachedWaitSetExecutor shut down, or a node removed, from another thread while it spins.

The executor held its cached handles in use and released them in ``shutdown`` at once, while
the spinning thread's wait still used them: the base class then destroyed the guard condition
under the wait, and the process died with SIGSEGV (CI, ``benchmarks/arms_one_process.py``).
rclpy's own executor is shut down this way by users (spin in a thread, shutdown from main).
"""

import subprocess
import sys
import textwrap
import threading
import time

from std_msgs.msg import Float64

from robot_dynamics.nodes.executors import CachedWaitSetExecutor

# Spins in a thread and shuts down (or removes the node) from the main thread, 30 times; before
# the fix every run of 30 died with SIGSEGV. A crash would take pytest down: a process of its own.
SCRIPT = textwrap.dedent('''
    import sys, threading, time
    import rclpy
    from std_msgs.msg import Float64
    from robot_dynamics.nodes.executors import CachedWaitSetExecutor
    rclpy.init()
    for k in range(30):
        node = rclpy.create_node(f'shutdown_probe_{k}')
        node.create_subscription(Float64, 'shutdown_probe', lambda message: None, 10)
        node.create_timer(0.5, lambda: None)
        executor = CachedWaitSetExecutor()
        executor.add_node(node)
        spinner = threading.Thread(target=executor.spin, daemon=True)
        spinner.start()
        time.sleep(0.01 + 0.001 * (k % 7))             # inside its wait
        if sys.argv[1] == 'remove_node':
            executor.remove_node(node)
            time.sleep(0.005)
        assert executor.shutdown(timeout_sec=5.0)
        spinner.join(5.0)
        assert not spinner.is_alive(), 'spin() did not end after shutdown'
        node.destroy_node()
    rclpy.shutdown()
    print('30 shutdowns')
''')


def _run(how):
    return subprocess.run([sys.executable, '-c', SCRIPT, how], capture_output=True, text=True,
                          timeout=120)


def test_shutdown_from_another_thread_waits_for_the_wait_to_end():
    result = _run('shutdown')
    assert result.returncode == 0, f'return code {result.returncode}: {result.stderr[-2000:]}'
    assert result.stdout.strip() == '30 shutdowns'


def test_removing_the_node_from_another_thread_while_it_spins():
    result = _run('remove_node')
    assert result.returncode == 0, f'return code {result.returncode}: {result.stderr[-2000:]}'
    assert result.stdout.strip() == '30 shutdowns'


def test_shutdown_times_out_while_a_callback_runs_and_destroys_nothing(rclpy_session):
    rclpy = rclpy_session
    node = rclpy.create_node('shutdown_slow_callback')
    started, release, served = threading.Event(), threading.Event(), []

    def slow(message):
        started.set()
        release.wait(5.0)
        served.append(message.data)

    node.create_subscription(Float64, 'shutdown_slow', slow, 10)
    publisher = node.create_publisher(Float64, 'shutdown_slow', 10)
    executor = CachedWaitSetExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    try:
        deadline = time.monotonic() + 5.0
        while not started.is_set() and time.monotonic() < deadline:
            publisher.publish(Float64(data=1.0))
            time.sleep(0.01)
        assert started.is_set(), 'the subscription was never served'
        assert executor.shutdown(timeout_sec=0.05) is False    # the callback still runs
        assert executor._guard is not None and executor._cache is not None
        release.set()
        assert executor.shutdown(timeout_sec=5.0) is True
        spinner.join(5.0)
        assert not spinner.is_alive()
        assert executor._guard is None and executor._cache is None
        assert served[:1] == [1.0]
    finally:
        release.set()
        node.destroy_node()
