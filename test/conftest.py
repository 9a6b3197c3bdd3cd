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
"""Test-session setup: the installed package, an isolated ROS 2 graph, node-test helpers.

The tests exercise the package as built and installed (``pip install .``, ``colcon build``),
never the source tree, which has no compiled engine: ``python -m pytest`` (how colcon runs
the tests, from the package's source directory) puts the working directory first on
``sys.path``; it is taken off here, before anything imports ``robot_dynamics``, and child
processes get ``PYTHONSAFEPATH`` so that a ``python -m``/``-c`` started in the checkout does
not import it either.

Several test sessions may run on one machine at once; each gets a random ``ROS_DOMAIN_ID`` in
100–200 unless one is set (a user's or CI's choice is kept), and localhost-only discovery,
set before rclpy is imported anywhere (child processes inherit them). ``AMENT_PREFIX_PATH``
points at the virtual environment so message packages and this package's share directory
are found.
"""

import os
import random
import sys
import time
import uuid

import pytest

SOURCE_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _import_the_installed_package():
    """Take the checkout off ``sys.path``; refuse a session that imported it already."""
    sys.path[:] = [entry for entry in sys.path
                   if os.path.abspath(entry or os.curdir) != SOURCE_TREE]
    os.environ['PYTHONSAFEPATH'] = '1'
    module = sys.modules.get('robot_dynamics')
    where = os.path.abspath(getattr(module, '__file__', None) or os.curdir)
    if module is not None and where.startswith(SOURCE_TREE + os.sep):
        raise pytest.UsageError(
            f'robot_dynamics was imported from the source tree ({where}) before the tests '
            'started; the tests use the installed package: remove robot_dynamics from '
            'pytest.ini (pythonpath, filterwarnings) and from PYTHONPATH')


_import_the_installed_package()
if not os.environ.get('ROS_DOMAIN_ID', '').strip():
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(100, 200))
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ.setdefault('AMENT_PREFIX_PATH', sys.prefix)
os.environ.setdefault('RCUTILS_LOGGING_BUFFERED_STREAM', '1')


def pytest_configure(config):
    """Ignore the library's model warnings (tests that expect one catch it themselves)."""
    config.addinivalue_line('filterwarnings', 'ignore::robot_dynamics.errors.ModelWarning')


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
