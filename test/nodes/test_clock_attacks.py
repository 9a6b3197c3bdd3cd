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
"""A hostile ``/clock`` and ``use_sim_time`` switched at run time kill no node (issues 20, 22).

One ``/clock`` message with negative seconds made rclpy's time source raise ``ValueError`` in a
callback rclpy installs itself, and the executor ended the process: the dynamics node, the
controller, the simulator and the one-process demo. Switching ``use_sim_time`` at run time ended
every node with ``InvalidHandle``. Each test sends the attacks (negative seconds, nanoseconds of
1e9 and more, a jump backwards) and checks that the nodes log it, keep their clock where the bad
message would have moved it, and go on answering.
"""

import os
import subprocess
import sys
import time
import uuid
import warnings

import numpy as np
import pytest
from rcl_interfaces.msg import Parameter as ParameterMsg, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

import robot_dynamics as rd
from robot_dynamics.simulation.tracking import report
from robot_dynamics.nodes.computed_torque_controller import ComputedTorqueController
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.nodes.executors import CachedWaitSetExecutor
from robot_dynamics.nodes.simulation_node import SimulationNode
from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher
from ros_graph import demo_with

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NEGATIVE = "subscription '/clock' failed: ValueError: Seconds value must not be negative"
Q = np.array([0.1, -0.5, 0.3, 0.2, -0.4, 0.6])


def clock(sec, nanosec=0):
    """Return a ``/clock`` message (``sec`` may be negative: the field is an int32)."""
    message = Clock()
    message.clock.sec, message.clock.nanosec = sec, nanosec
    return message


# (message, the node's clock afterwards in ns): negative seconds are refused by rclpy's time
# source (the clock stays), nanoseconds >= 1e9 are carried into the seconds, a jump backwards
# is a simulator reset and is followed.
ATTACKS = [(clock(100), 100 * 10 ** 9), (clock(-5), 100 * 10 ** 9),
           (clock(-2 ** 31, 999_999_999), 100 * 10 ** 9),
           (clock(100, 2_500_000_000), 102_500_000_000),
           (clock(101, 2 ** 32 - 1), 101 * 10 ** 9 + 2 ** 32 - 1),
           (clock(50), 50 * 10 ** 9), (clock(51), 51 * 10 ** 9)]


def quiet_puma():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rd.load_model('puma560')


def spin_until(executors, predicate, timeout=5.0):
    """Spin every executor in turn until ``predicate()``."""
    end = time.monotonic() + timeout
    while not predicate() and time.monotonic() < end:
        for executor in executors:
            executor.spin_once(timeout_sec=0.002)
    return predicate()


def test_the_dynamics_node_survives_every_clock_attack_and_keeps_answering(ros):
    model = quiet_puma()
    node = DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='puma560'), Parameter('use_sim_time', value=True)])
    executor = CachedWaitSetExecutor()
    executor.add_node(node)
    executors = [executor, ros.executor]
    probe = ros.node('clock_probe')
    clock_publisher = probe.create_publisher(Clock, '/clock', 10)
    states = probe.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
    gravity = []
    probe.create_subscription(Float64MultiArray, 'dynamics_node/gravity_torques',
                              gravity.append, 10)
    try:
        assert spin_until(executors, lambda: clock_publisher.get_subscription_count() >= 1
                          and states.get_subscription_count() >= 1)
        for message, expected_ns in ATTACKS:
            node.last_error = ''
            refused = message.clock.sec < 0
            assert spin_until(executors, lambda: clock_publisher.publish(message) or (
                node.last_error == NEGATIVE if refused
                else node.get_clock().now().nanoseconds == expected_ns)), \
                (message, node.get_clock().now(), node.last_error)
            assert node.get_clock().now().nanoseconds == expected_ns
            gravity.clear()
            state = JointState(name=list(model.joint_names), position=Q.tolist())  # stamp 0: now
            assert spin_until(executors, lambda: states.publish(state) or gravity)
            np.testing.assert_allclose(gravity[-1].data, rd.gravity_torques(model, Q),
                                       rtol=0, atol=1e-12)
    finally:
        executor.remove_node(node)
        executor.shutdown()
        node.destroy_node()


def test_the_demo_nodes_log_a_negative_clock_and_go_on(ros):
    """Simulator, controller and trajectory publisher on sim time, one hostile /clock each."""
    overrides = [Parameter('use_sim_time', value=True)]
    model = [Parameter('model', value='puma560')]
    nodes = [SimulationNode(namespace=ros.namespace, parameter_overrides=overrides + model + [
                 Parameter('publish_clock', value=False)]),
             ComputedTorqueController(namespace=ros.namespace, parameter_overrides=overrides),
             TrajectoryPublisher(namespace=ros.namespace, parameter_overrides=overrides + model)]
    executor = CachedWaitSetExecutor()
    for node in nodes:
        executor.add_node(node)
    probe = ros.node('clock_probe')
    clock_publisher = probe.create_publisher(Clock, '/clock', 10)
    errors = {node.get_name(): [] for node in nodes}
    for node in nodes:
        node.callback_failed = lambda what, exc, name=node.get_name(): errors[name].append(
            f'{what} failed: {type(exc).__name__}: {exc}')
    try:
        assert spin_until([executor, ros.executor],
                          lambda: clock_publisher.get_subscription_count() >= len(nodes))
        assert spin_until([executor, ros.executor], lambda: clock_publisher.publish(clock(-5))
                          or all(errors.values()))
        clock_publisher.publish(clock(7))
        assert spin_until([executor, ros.executor], lambda: all(
            node.get_clock().now().nanoseconds == 7 * 10 ** 9 for node in nodes))
    finally:
        for node in nodes:
            executor.remove_node(node)
            node.destroy_node()
        executor.shutdown()
    assert all(messages[0] == NEGATIVE for messages in errors.values()), errors


class ClockAttacker:
    """An observer of the one-process demo that publishes a hostile /clock every 50 ms."""

    def __init__(self, context, namespace):
        import rclpy
        self.node = rclpy.create_node('clock_attacker', context=context, namespace=namespace)
        self.publisher = self.node.create_publisher(Clock, '/clock', 10)
        self.sent = 0
        self.node.create_timer(0.05, self.attack)

    def attack(self):
        self.publisher.publish(clock(-5 - self.sent, 2_000_000_000))
        self.sent += 1


def test_the_one_process_demo_survives_a_negative_clock():
    result, attacker = demo_with(ClockAttacker)
    assert attacker.sent >= 5, 'the attack did not run'
    assert result.max_error.max() < 0.05, report(result)


class SimTimeSwitcher:
    """An observer of the demo that sets the dynamics node's use_sim_time false, then true."""

    def __init__(self, context, namespace):
        import rclpy
        self.node = rclpy.create_node('sim_time_switcher', context=context, namespace=namespace)
        self.client = self.node.create_client(SetParameters, 'dynamics_node/set_parameters')
        self.values, self.replies = [False, True], []
        self.node.create_timer(0.2, self.switch)

    def switch(self):
        if not self.values or not self.client.service_is_ready():
            return
        parameter = ParameterMsg(name='use_sim_time', value=ParameterValue(
            type=ParameterType.PARAMETER_BOOL, bool_value=self.values.pop(0)))
        future = self.client.call_async(SetParameters.Request(parameters=[parameter]))
        future.add_done_callback(lambda done: self.replies.append(done.result()))


def test_the_one_process_demo_survives_use_sim_time_switched_at_run_time():
    result, switcher = demo_with(SimTimeSwitcher, until=lambda switcher: len(
        switcher.replies) == 2)           # both replies, however late the service came up
    replies = switcher.replies
    assert len(replies) == 2 and all(reply.results[0].successful for reply in replies)
    assert np.isfinite(result.q).all() and result.t.size > 100, report(result)


@pytest.fixture(params=['cached', 'rclpy'])
def sim_time_process(request):
    """``python -m robot_dynamics.nodes.dynamics_node`` with ``use_sim_time:=true``.

    Once with each executor ``run()`` offers; both are stopped with SIGTERM and must exit
    without a traceback.
    """
    namespace = '/c' + uuid.uuid4().hex[:10]
    env = dict(os.environ, PYTHONWARNINGS='ignore', ROBOT_DYNAMICS_EXECUTOR=request.param)
    process = subprocess.Popen(
        [sys.executable, '-m', 'robot_dynamics.nodes.dynamics_node', '--ros-args',
         '-r', f'__ns:={namespace}', '-p', 'model:=puma560', '-p', 'use_sim_time:=true'],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    outcome = {}
    yield namespace, process, outcome
    process.terminate()
    try:
        outcome['output'], _ = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        outcome['output'], _ = process.communicate()
    assert 'Traceback' not in outcome['output'], outcome['output']


def test_a_node_process_survives_clock_attacks_and_use_sim_time_switches(ros, sim_time_process):
    namespace, process, _ = sim_time_process
    model = quiet_puma()
    probe = ros.node('process_probe', namespace=namespace)
    clock_publisher = probe.create_publisher(Clock, '/clock', 10)
    states = probe.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
    gravity = []
    probe.create_subscription(Float64MultiArray, 'dynamics_node/gravity_torques',
                              gravity.append, 10)
    parameters = probe.create_client(SetParameters, 'dynamics_node/set_parameters')

    def answers():
        gravity.clear()
        state = JointState(name=list(model.joint_names), position=Q.tolist())
        deadline = time.monotonic() + 30.0
        while not gravity and time.monotonic() < deadline and process.poll() is None:
            states.publish(state)
            ros.spin_for(0.05)
        return bool(gravity)

    def set_use_sim_time(value):
        parameter = ParameterMsg(name='use_sim_time', value=ParameterValue(
            type=ParameterType.PARAMETER_BOOL, bool_value=value))
        result = ros.call(parameters, SetParameters.Request(parameters=[parameter]), 30.0)
        assert result.results[0].successful

    assert ros.spin_until(lambda: clock_publisher.get_subscription_count() >= 1, 30.0)
    clock_publisher.publish(clock(100))
    assert answers(), 'no answer on sim time'
    for message, _ in ATTACKS[1:]:
        clock_publisher.publish(message)
        ros.spin_for(0.05)
    assert answers(), f'no answer after the clock attacks (exit code {process.poll()})'
    for value in (False, True, False):
        set_use_sim_time(value)
        assert answers(), f'no answer after use_sim_time:={value} (exit {process.poll()})'
    assert process.poll() is None


def test_spin_surviving_logs_what_rclpys_executor_raises_and_names_the_callback(ros):
    """The time source's ValueError, raised by rclpy's executor from spin_once, is logged."""
    from rclpy.executors import SingleThreadedExecutor

    from robot_dynamics.nodes.executors import spin_surviving
    node = ros.rclpy.create_node('surviving', namespace=ros.namespace,
                                 parameter_overrides=[Parameter('use_sim_time', value=True)])
    reports = []
    node.callback_failed = lambda what, exc: reports.append(f'{what}: {exc}')
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    clock_publisher = ros.node('clock_probe').create_publisher(Clock, '/clock', 10)
    try:
        assert ros.spin_until(lambda: clock_publisher.get_subscription_count() >= 1)
        end = time.monotonic() + 5.0
        while not reports and time.monotonic() < end:
            clock_publisher.publish(clock(-1))
            spin_surviving(executor, node, timeout_sec=0.01)
        assert reports and reports[0].startswith('callback clock_callback (time_source.py:')
        assert reports[0].endswith(': Seconds value must not be negative'), reports
        while node.get_clock().now().nanoseconds != 3 * 10 ** 9 and time.monotonic() < end:
            clock_publisher.publish(clock(3))
            spin_surviving(executor, node, timeout_sec=0.01)
        assert node.get_clock().now().nanoseconds == 3 * 10 ** 9, 'the clock stopped'
    finally:
        executor.remove_node(node)
        executor.shutdown()
        node.destroy_node()
