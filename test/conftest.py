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
"""Test-session setup: an isolated ROS 2 graph and helpers for the node tests.

Several test sessions may run on one machine at once; each gets a random ``ROS_DOMAIN_ID`` in
100–200 and localhost-only discovery, set before rclpy is imported anywhere (child processes
inherit them). ``AMENT_PREFIX_PATH`` points at the virtual environment so message packages
and this package's share directory are found.
"""

import os
import random
import sys
import time
import uuid

import pytest

os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(100, 200))
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ.setdefault('AMENT_PREFIX_PATH', sys.prefix)
os.environ.setdefault('RCUTILS_LOGGING_BUFFERED_STREAM', '1')


class RosGraph:
    """One test's nodes on a single-threaded executor, spun from the test's own thread."""

    def __init__(self, rclpy):
        from rclpy.executors import SingleThreadedExecutor
        self.rclpy = rclpy
        self.namespace = '/t' + uuid.uuid4().hex[:10]
        self.executor = SingleThreadedExecutor()
        self.nodes = []

    def add(self, node):
        """Add a node to the executor (and destroy it at the end of the test)."""
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    def node(self, name='probe', **kwargs):
        """Create a plain rclpy node in this test's namespace."""
        kwargs.setdefault('namespace', self.namespace)
        return self.add(self.rclpy.create_node(name, **kwargs))

    def spin_for(self, seconds):
        """Process callbacks for ``seconds`` of wall time."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.executor.spin_once(timeout_sec=0.005)

    def spin_until(self, predicate, timeout=5.0):
        """Process callbacks until ``predicate()`` is true; return its final value."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            self.executor.spin_once(timeout_sec=0.005)
        return predicate()

    def call(self, client, request, timeout=5.0):
        """Call a service and spin until the response arrives."""
        assert client.wait_for_service(timeout_sec=timeout), f'{client.srv_name} not available'
        future = client.call_async(request)
        self.spin_until(future.done, timeout)
        assert future.done(), f'{client.srv_name} did not answer'
        return future.result()

    def close(self):
        """Destroy every node of the test."""
        for node in self.nodes:
            self.executor.remove_node(node)
            node.destroy_node()
        self.executor.shutdown()


@pytest.fixture(scope='session')
def rclpy_session():
    """Initialise rclpy once for the session (the test environment installs ROS 2 wheels)."""
    import rclpy
    rclpy.init()
    yield rclpy
    rclpy.try_shutdown()


@pytest.fixture
def ros(rclpy_session):
    """Give each test a fresh :class:`RosGraph` in a namespace of its own."""
    graph = RosGraph(rclpy_session)
    yield graph
    graph.close()
