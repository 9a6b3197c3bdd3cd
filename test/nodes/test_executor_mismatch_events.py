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
"""The mismatch events (incompatible QoS or type) are taken outside the wait, not lost.

CachedWaitSetExecutor never attaches them to its wait set (Fast DDS attached and detached each
one in every wait: 59 µs against 27 µs a ready wake in the dynamics node, docs/latency.md) and
takes them every ``MISMATCH_POLL_PERIOD`` s instead. Their callbacks still run, once per change,
for a node that spins idle too; a peer that matches calls none.
"""

import threading
import time

from rclpy.event_handler import PublisherEventCallbacks, SubscriptionEventCallbacks
from rclpy.qos import QoSProfile, ReliabilityPolicy
from std_msgs.msg import Float64

from robot_dynamics.nodes.executors import CachedWaitSetExecutor, MISMATCH_POLL_PERIOD

RELIABLE = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
BEST_EFFORT = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)


def _wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)
    return condition()


def test_mismatch_callbacks_run_once_per_change_for_an_idle_spinning_node(rclpy_session, ros):
    node = rclpy_session.create_node('mismatch_subject', namespace=ros.namespace)
    requested, offered = [], []
    node.create_subscription(Float64, 'mismatch_in', lambda m: None, RELIABLE,
                             event_callbacks=SubscriptionEventCallbacks(
                                 incompatible_qos=requested.append))
    node.create_publisher(Float64, 'mismatch_out', BEST_EFFORT,
                          event_callbacks=PublisherEventCallbacks(
                              incompatible_qos=offered.append))
    executor = CachedWaitSetExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)      # no traffic: idle
    spinner.start()
    probe = ros.node('mismatch_probe')
    try:
        probe.create_publisher(Float64, 'mismatch_in', RELIABLE)          # matches: no event
        probe.create_subscription(Float64, 'mismatch_out', lambda m: None, BEST_EFFORT)
        time.sleep(5 * MISMATCH_POLL_PERIOD)
        assert (requested, offered) == ([], [])
        endpoints = len([*node.publishers, *node.subscriptions])    # /parameter_events too
        assert len(executor._cache['polled']) == 2 * endpoints

        probe.create_publisher(Float64, 'mismatch_in', BEST_EFFORT)       # offers less
        probe.create_subscription(Float64, 'mismatch_out', lambda m: None, RELIABLE)
        assert _wait_for(lambda: requested and offered), 'a mismatch callback did not run'
        time.sleep(5 * MISMATCH_POLL_PERIOD)
        assert [event.total_count for event in requested] == [1]
        assert [event.total_count for event in offered] == [1]
        assert requested[0].total_count_change == offered[0].total_count_change == 1
    finally:
        executor.shutdown(timeout_sec=5.0)
        spinner.join(5.0)
        node.destroy_node()
