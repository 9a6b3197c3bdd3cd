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
"""The cached-wait-set executor serves subscriptions, timers, services and parameters."""

import threading
import time

from rcl_interfaces.msg import Parameter as ParameterMsg, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from std_msgs.msg import Float64
from std_srvs.srv import SetBool

from robot_dynamics.nodes.executors import CachedWaitSetExecutor

MESSAGES = 200


def _call(rclpy, node, client, request, context):
    """Call a service from ``node`` with a plain executor of its own; the response."""
    assert client.wait_for_service(timeout_sec=5.0)
    future = client.call_async(request)
    executor = SingleThreadedExecutor(context=context)
    rclpy.spin_until_future_complete(node, future, executor=executor, timeout_sec=5.0)
    executor.shutdown()
    assert future.done(), 'no response within 5 s'
    return future.result()


def _wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)
    return condition()


def test_serves_every_entity_kind_and_stops_on_shutdown(rclpy_session):
    rclpy = rclpy_session
    context = rclpy.Context()
    rclpy.init(context=context)
    server = rclpy.create_node('cached_probe', context=context)
    caller = rclpy.create_node('cached_probe_caller', context=context)
    received, late, ticks, requests = [], [], [], []
    server.declare_parameter('gain', 1.0)
    server.create_subscription(Float64, 'cached_probe_topic',
                               lambda msg: received.append(msg.data), 1000)
    server.create_timer(0.01, lambda: ticks.append(time.monotonic()))

    def on_set_bool(request, response):
        requests.append(request.data)
        response.success, response.message = True, f'got {request.data}'
        return response

    server.create_service(SetBool, 'cached_probe_service', on_set_bool)
    publisher = caller.create_publisher(Float64, 'cached_probe_topic', 1000)
    executor = CachedWaitSetExecutor(context=context)
    executor.add_node(server)
    stopped_by = []

    def spin():
        try:
            executor.spin()
        except ExternalShutdownException as error:  # the context shut down: a normal stop
            stopped_by.append(error)

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    try:
        assert _wait_for(lambda: publisher.get_subscription_count() == 1)
        for k in range(MESSAGES):
            publisher.publish(Float64(data=float(k)))
        assert _wait_for(lambda: len(received) == MESSAGES), f'{len(received)} of {MESSAGES}'
        assert received == [float(k) for k in range(MESSAGES)]

        response = _call(rclpy, caller, caller.create_client(SetBool, 'cached_probe_service'),
                         SetBool.Request(data=True), context)
        assert (response.success, response.message, requests) == (True, 'got True', [True])

        value = ParameterValue(type=ParameterType.PARAMETER_DOUBLE, double_value=2.5)
        request = SetParameters.Request(parameters=[ParameterMsg(name='gain', value=value)])
        client = caller.create_client(SetParameters, 'cached_probe/set_parameters')
        result = _call(rclpy, caller, client, request, context)
        assert result.results[0].successful
        assert server.get_parameter('gain').value == 2.5

        # An entity created while spinning is served (the cached wait set is rebuilt).
        server.create_subscription(Float64, 'cached_probe_topic',
                                   lambda msg: late.append(msg.data), 1000)
        assert _wait_for(lambda: publisher.get_subscription_count() == 2)
        publisher.publish(Float64(data=-1.0))
        assert _wait_for(lambda: late == [-1.0] and len(received) == MESSAGES + 1)

        count = len(ticks)
        assert _wait_for(lambda: len(ticks) >= count + 5), 'the 100 Hz timer stopped'
    finally:
        rclpy.shutdown(context=context)
        spinner.join(timeout=5.0)
        stopped = not spinner.is_alive()
        executor.shutdown()
        server.destroy_node()
        caller.destroy_node()
    assert stopped and stopped_by, 'spin() did not return after the context was shut down'
