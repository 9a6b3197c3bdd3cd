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
"""CachedWaitSetExecutor survives every change of a node's entities that rclpy allows.

Each test builds the executor's cache (the wait set holds every handle), changes the node's
entities while it is cached (created, destroyed through the node or behind its back, from the
test or from inside a callback such as a parameter service) and checks that the executor raises
nothing, serves what was added and no longer serves what was removed. Issue 20 item 1: switching
``use_sim_time`` destroyed the time source's ``/clock`` subscription while cached and every
later ``spin_once`` raised ``InvalidHandle``.
"""

import time

import pytest
from rcl_interfaces.msg import Parameter as ParameterMsg, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from rclpy.clock import ClockType
from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock
from std_msgs.msg import Float64
from std_srvs.srv import SetBool
from trajectory_msgs.msg import JointTrajectoryPoint

from robot_dynamics.nodes.executors import CachedWaitSetExecutor


class Subject:
    """A node spun by a CachedWaitSetExecutor beside the test's probe (spun by rclpy's)."""

    def __init__(self, ros, name='subject'):
        self.ros = ros
        self.failures = []
        self.node = ros.rclpy.create_node(name, namespace=ros.namespace)
        self.node.callback_failed = lambda what, exc: self.failures.append((what, exc))
        self.executor = CachedWaitSetExecutor()
        self.executor.add_node(self.node)
        self.probe = ros.node('probe')

    def spin_until(self, predicate, timeout=5.0):
        """Spin both executors until ``predicate()``; every spin of the subject must return."""
        end = time.monotonic() + timeout
        while not predicate() and time.monotonic() < end:
            self.executor.spin_once(timeout_sec=0.002)
            self.ros.executor.spin_once(timeout_sec=0.002)
        return predicate()

    def spin_for(self, seconds):
        """Spin both executors for ``seconds``."""
        self.spin_until(lambda: False, seconds)

    def cached(self):
        """Spin until the subject's wait set is built and holds every handle."""
        assert self.spin_until(lambda: self.executor._cache is not None
                               and not getattr(self.executor, '_changed', False))

    def call(self, client, request):
        """Call a service from the probe, spinning both executors."""
        assert self.spin_until(client.service_is_ready), f'{client.srv_name} not available'
        future = client.call_async(request)
        assert self.spin_until(future.done), f'{client.srv_name} did not answer'
        return future.result()

    def close(self):
        self.executor.remove_node(self.node)
        self.executor.shutdown()
        self.node.destroy_node()


@pytest.fixture
def subject(ros):
    subject = Subject(ros)
    yield subject
    subject.close()
    assert not subject.failures, subject.failures


def set_use_sim_time(subject, value):
    """Set the subject's use_sim_time through its parameter service, as ``ros2 param set``."""
    client = subject.probe.create_client(
        SetParameters, f'{subject.node.get_fully_qualified_name()}/set_parameters')
    parameter = ParameterMsg(name='use_sim_time', value=ParameterValue(
        type=ParameterType.PARAMETER_BOOL, bool_value=value))
    result = subject.call(client, SetParameters.Request(parameters=[parameter]))
    subject.probe.destroy_client(client)
    assert result.results[0].successful, result.results[0].reason


def test_use_sim_time_switched_at_run_time_through_the_parameter_service(subject):
    """Switched on, off, on: the clock follows /clock exactly while on, wall time otherwise."""
    clock = subject.probe.create_publisher(Clock, '/clock', 10)
    ticks = []
    subject.node.create_timer(0.005, lambda: ticks.append(1), clock=None)
    subject.cached()
    for value, seconds in ((True, 41), (False, None), (True, 42), (False, None), (True, 43)):
        set_use_sim_time(subject, value)
        if seconds is None:
            assert subject.spin_until(lambda: abs(
                subject.node.get_clock().now().nanoseconds * 1e-9 - time.time()) < 1.0)
            continue
        assert subject.spin_until(lambda: clock.get_subscription_count() >= 1)
        message = Clock()
        message.clock.sec = seconds
        assert subject.spin_until(lambda: clock.publish(message) or
                                  subject.node.get_clock().now().nanoseconds == seconds * 10 ** 9)
    assert subject.node.get_clock().clock_type == ClockType.ROS_TIME
    count = len(ticks)
    set_use_sim_time(subject, False)
    assert subject.spin_until(lambda: len(ticks) >= count + 5), 'the wall-time timer stopped'


def test_subscriptions_added_and_destroyed(subject):
    publisher = subject.probe.create_publisher(Float64, 'topic', 10)
    first, second = [], []
    subject.node.create_subscription(Float64, 'topic', lambda m: first.append(m.data), 10)
    subject.cached()
    late = subject.node.create_subscription(Float64, 'topic', lambda m: second.append(m.data), 10)
    assert subject.spin_until(lambda: publisher.get_subscription_count() == 2)
    publisher.publish(Float64(data=1.0))
    assert subject.spin_until(lambda: first == [1.0] and second == [1.0])
    subject.node.destroy_subscription(late)
    subject.spin_for(0.05)
    publisher.publish(Float64(data=2.0))
    assert subject.spin_until(lambda: first == [1.0, 2.0])
    subject.spin_for(0.05)
    assert second == [1.0], 'a destroyed subscription was still served'


def test_a_subscription_destroyed_behind_the_nodes_back(subject):
    """``entity.destroy()`` tells no executor: its handle refuses use, the cache rebuilds."""
    publisher = subject.probe.create_publisher(Float64, 'topic', 10)
    kept, dropped = [], []
    subject.node.create_subscription(Float64, 'topic', lambda m: kept.append(m.data), 10)
    doomed = subject.node.create_subscription(Float64, 'topic',
                                              lambda m: dropped.append(m.data), 10)
    subject.cached()
    doomed.destroy()
    for k in range(3):
        publisher.publish(Float64(data=float(k)))
        assert subject.spin_until(lambda: len(kept) == k + 1)
    assert dropped == []


def test_timers_added_and_destroyed(subject):
    ticks = {'kept': 0, 'late': 0}

    def tick(name):
        ticks[name] += 1

    subject.node.create_timer(0.005, lambda: tick('kept'))
    subject.cached()
    late = subject.node.create_timer(0.005, lambda: tick('late'))
    assert subject.spin_until(lambda: ticks['late'] >= 3)
    subject.node.destroy_timer(late)
    subject.spin_for(0.02)
    stopped_at, kept = ticks['late'], ticks['kept']
    assert subject.spin_until(lambda: ticks['kept'] >= kept + 5)
    assert ticks['late'] == stopped_at, 'a destroyed timer still fired'


def test_services_and_clients_added_and_destroyed(subject):
    def answer(request, response):
        response.success, response.message = True, f'got {request.data}'
        return response

    subject.cached()
    service = subject.node.create_service(SetBool, 'service', answer)
    client = subject.probe.create_client(SetBool, 'service')
    assert subject.call(client, SetBool.Request(data=True)).message == 'got True'
    # a client of the subject's node, created while cached, gets its response
    own = subject.node.create_client(SetBool, 'service')
    future = own.call_async(SetBool.Request(data=False))
    assert subject.spin_until(future.done) and future.result().message == 'got False'
    subject.node.destroy_client(own)
    subject.node.destroy_service(service)
    assert subject.spin_until(lambda: not client.service_is_ready())
    subject.spin_for(0.05)


def test_guard_conditions_added_triggered_and_destroyed(subject):
    called = []
    subject.cached()
    guard = subject.node.create_guard_condition(lambda: called.append(1))
    guard.trigger()
    assert subject.spin_until(lambda: called == [1])
    subject.node.destroy_guard_condition(guard)
    subject.spin_for(0.05)
    assert called == [1]


def test_qos_event_waitables_added_and_destroyed(subject):
    """A subscription with an event callback (a Waitable) added, told of an incompatible QoS."""
    events = []
    subject.cached()
    reliable = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
    subscription = subject.node.create_subscription(
        Float64, 'events', lambda m: None, reliable,
        event_callbacks=SubscriptionEventCallbacks(incompatible_qos=events.append))
    best_effort = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
    subject.probe.create_publisher(Float64, 'events', best_effort)
    assert subject.spin_until(lambda: events), 'the incompatible-QoS event was not served'
    subject.node.destroy_subscription(subscription)
    subject.spin_for(0.05)


def test_nodes_added_and_removed(subject, ros):
    other = ros.rclpy.create_node('other', namespace=ros.namespace)
    ticks = []
    other.create_timer(0.005, lambda: ticks.append(1))
    subject.cached()
    subject.executor.add_node(other)
    assert subject.spin_until(lambda: len(ticks) >= 3)
    subject.executor.remove_node(other)
    subject.spin_for(0.02)
    count = len(ticks)
    subject.spin_for(0.05)
    other.destroy_node()
    assert len(ticks) == count, 'a removed node was still served'


def test_an_exception_in_any_callback_is_reported_and_the_others_run(ros):
    subject = Subject(ros)
    try:
        publisher = subject.probe.create_publisher(Float64, 'topic', 10)
        received = []

        def fail(msg):
            raise RuntimeError(f'injected {msg.data}')

        subject.node.create_subscription(Float64, 'topic', fail, 10)
        subject.node.create_subscription(Float64, 'topic', lambda m: received.append(m.data), 10)
        assert subject.spin_until(lambda: publisher.get_subscription_count() == 2)
        for k in range(3):
            publisher.publish(Float64(data=float(k)))
        assert subject.spin_until(lambda: len(received) == 3 and len(subject.failures) == 3)
        what, exc = subject.failures[0]
        assert what == f"subscription '{ros.namespace}/topic'"
        assert isinstance(exc, RuntimeError) and str(exc) == 'injected 0.0'
    finally:
        subject.close()


def test_an_action_server_created_at_run_time_serves_goal_feedback_cancel_and_result(subject):
    """rclpy.action.ActionServer (a Waitable) on the cached executor, as a controller serves it.

    The execute callback is a coroutine that publishes feedback and awaits a timer between
    steps, so that the single-threaded executor serves cancel requests meanwhile.
    """
    action = pytest.importorskip('control_msgs.action', reason='control_msgs comes from the '
                                 "project's wheels (../shared/wheels, scripts/setup_venv.sh)")
    from rclpy.action import ActionClient, ActionServer, CancelResponse
    from rclpy.task import Future
    FollowJointTrajectory = action.FollowJointTrajectory
    steps = []
    subject.cached()

    async def execute(goal_handle):
        points = len(goal_handle.request.trajectory.points)
        for step in range(points):
            if goal_handle.is_cancel_requested:
                goal_handle.canceled()
                return FollowJointTrajectory.Result(error_string=f'canceled at {step}')
            feedback = FollowJointTrajectory.Feedback(joint_names=[f'step{step}'])
            goal_handle.publish_feedback(feedback)
            steps.append(step)
            done = Future()
            timer = subject.node.create_timer(0.01, lambda: done.set_result(True))
            await done
            subject.node.destroy_timer(timer)
        goal_handle.succeed()
        return FollowJointTrajectory.Result(error_string=f'done after {points}')

    server = ActionServer(subject.node, FollowJointTrajectory, 'follow', execute,
                          cancel_callback=lambda request: CancelResponse.ACCEPT)
    client = ActionClient(subject.probe, FollowJointTrajectory, 'follow')
    assert subject.spin_until(client.server_is_ready)

    def send(points):
        feedback = []
        goal = FollowJointTrajectory.Goal()
        goal.trajectory.points = [JointTrajectoryPoint() for _ in range(points)]
        future = client.send_goal_async(goal, feedback_callback=lambda m: feedback.append(
            m.feedback.joint_names[0]))
        assert subject.spin_until(future.done)
        handle = future.result()
        assert handle.accepted
        return handle, feedback

    handle, feedback = send(3)
    result = handle.get_result_async()
    assert subject.spin_until(result.done)
    assert result.result().result.error_string == 'done after 3'
    assert subject.spin_until(lambda: feedback == ['step0', 'step1', 'step2'])

    handle, feedback = send(1000)
    assert subject.spin_until(lambda: len(feedback) >= 2)
    cancel = handle.cancel_goal_async()
    assert subject.spin_until(cancel.done) and len(cancel.result().goals_canceling) == 1
    result = handle.get_result_async()
    assert subject.spin_until(result.done)
    assert result.result().result.error_string.startswith('canceled at ')
    assert len(steps) < 3 + 100, 'the goal ran on after its cancel'
    server.destroy()
    client.destroy()
    subject.spin_for(0.05)


def test_an_exception_in_a_qos_event_callback_is_reported_and_the_node_goes_on(ros):
    subject = Subject(ros)
    try:
        received = []

        def fail(event):
            raise RuntimeError('injected in the event callback')

        reliable = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)
        subject.node.create_subscription(
            Float64, 'events', received.append, reliable,
            event_callbacks=SubscriptionEventCallbacks(incompatible_qos=fail))
        best_effort = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
        subject.probe.create_publisher(Float64, 'events', best_effort)
        assert subject.spin_until(lambda: subject.failures), 'the event callback never ran'
        what, exc = subject.failures[0]
        assert what == 'waitable EventHandler' and str(exc) == 'injected in the event callback'
        publisher = subject.probe.create_publisher(Float64, 'events', reliable)
        assert subject.spin_until(lambda: publisher.publish(Float64(data=1.0)) or received)
    finally:
        subject.close()
