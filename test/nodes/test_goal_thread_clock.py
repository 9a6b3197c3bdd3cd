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
"""The controller's goal thread follows simulated time without a /clock subscription (issue 36).

The side node that serves ``follow_joint_trajectory`` used to subscribe ``/clock`` itself: in
the idle demo graph each of the simulator's 200 clock messages a second woke the goal thread
and ran rclpy's time source a second time (518 wake-ups a second in the idle controller
against 186 in the dynamics node; benchmarks/idle_cpu.py). Its clock is now set by the
controller's time source: no subscription, the same time.
"""

from rclpy.parameter import Parameter
from rosgraph_msgs.msg import Clock

from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController


def test_goal_node_has_no_clock_subscription_and_follows_simulated_time(ros):
    clock_topic = f'{ros.namespace}/clock'
    controller = ros.add(JointTrajectoryController(
        namespace=ros.namespace, cli_args=['--ros-args', '-r', f'/clock:={clock_topic}'],
        parameter_overrides=[Parameter('model', value='puma560'),
                             Parameter('use_sim_time', value=True)]))
    goal_node = controller.goals.node
    assert [s.topic_name for s in goal_node.subscriptions] == []
    assert [s.topic_name for s in controller.subscriptions].count(clock_topic) == 1
    probe = ros.node('clock_source')
    publisher = probe.create_publisher(Clock, clock_topic, 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() == 1, timeout=30.0)
    for seconds in (12, 345):
        message = Clock()
        message.clock.sec = seconds
        assert ros.spin_until(lambda: publisher.publish(message) or
                              controller.get_clock().now().nanoseconds == seconds * 10**9,
                              timeout=30.0)
        assert goal_node.get_clock().now().nanoseconds == seconds * 10**9
        assert goal_node.get_clock().ros_time_is_active
    controller.set_parameters([Parameter('use_sim_time', value=False)])
    assert goal_node.get_clock().ros_time_is_active     # as before: kept results do not expire
    assert goal_node.get_clock().now().nanoseconds == 345 * 10**9
