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
"""A stopped controller leaves the interpreter's teardown nothing to destroy twice.

Ctrl-C of ``simulation.launch.py`` printed ``Executor.__del__`` → ``_sigint_gc.destroy()`` →
``InvalidHandle: cannot use Destroyable because destruction was requested`` from the
controller (2 of 2 local runs and a CI run with the executor of a018f5d). The goal thread's
executor was never shut down, so rclpy's ``Executor.__del__`` destroyed its SIGINT guard
condition at teardown; in cyclic garbage the guard condition's own ``__del__`` may run
first, and the second destruction raises. Which runs first depends on what else the process
allocated, so the launch test caught it only sometimes; here that order is forced.
"""

import pytest
from rclpy.executors import Executor, SingleThreadedExecutor
from rclpy.parameter import Parameter

from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
from robot_dynamics.nodes.process import shut_down


def teardown_in_the_bad_order(executor):
    """Run the SIGINT guard condition's ``__del__`` before the executor's, as teardown may."""
    guard = executor._sigint_gc
    if guard is not None:
        guard.__del__()
    Executor.__del__(executor)


def test_an_executor_left_running_fails_the_bad_order(ros):
    executor = SingleThreadedExecutor()
    with pytest.raises(Exception, match='destruction was requested'):
        teardown_in_the_bad_order(executor)      # what the controller's goal thread left
    executor._sigint_gc = None                   # (already destroyed: no second report)


def test_a_shut_down_executor_survives_the_bad_order(ros):
    executor = SingleThreadedExecutor()
    shut_down(executor)
    teardown_in_the_bad_order(executor)
    shut_down(None)                              # nothing to shut down: no error


def test_the_controllers_goal_thread_survives_the_bad_order(ros):
    controller = JointTrajectoryController(
        namespace=ros.namespace, parameter_overrides=[Parameter('model', value='puma560')])
    executor = controller.goals._executor
    controller.destroy_node()
    teardown_in_the_bad_order(executor)
