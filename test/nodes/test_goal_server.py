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
"""The trajectory controller's action on its own thread (issue 30, MED 1 and 2; issue 31 LOW).

A 1e6-point goal stopped the effort commands for 13.5 s: rclpy converts a request to Python
objects (12 us a point) before any code of ours sees it. Here the control loop runs in this
test's executor, the goals in the controller's goal thread: commands go on while a goal
too large to accept is converted and rejected.
"""

import subprocess
import sys
import time

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from rclpy.action import ActionClient
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from robot_dynamics.model import bounds
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController

control_msgs = pytest.importorskip('control_msgs.action', reason='control_msgs not installed')
FJT = control_msgs.FollowJointTrajectory


class Rig:
    """A UR5 controller, joint states at 200 Hz from a timer, commands timed, a client."""

    def __init__(self, ros):
        self.ros = ros
        self.controller = ros.add(JointTrajectoryController(     # a loaded machine may stall
            namespace=ros.namespace, parameter_overrides=[           # this thread for seconds
                Parameter('model', value='ur5'), Parameter('stale_timeout', value=5.0)]))
        self.names = list(self.controller.joint_names)
        node = self.node = ros.node('rig')
        self.states = node.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
        self.command_times = []
        node.create_subscription(Float64MultiArray, 'effort_commands',
                                 lambda msg: self.command_times.append(time.monotonic()), 100)
        node.create_timer(0.005, self._state)
        self.client = ActionClient(node, FJT, f'{ros.namespace}/joint_trajectory_controller/'
                                   'follow_joint_trajectory')
        assert self.client.wait_for_server(timeout_sec=30)
        assert ros.spin_until(lambda: len(self.command_times) > 20, 30)

    def _state(self):
        msg = JointState(name=self.names, position=[0.0] * 6, velocity=[0.0] * 6)
        msg.header.stamp = self.node.get_clock().now().to_msg()
        self.states.publish(msg)

    def send(self, goal, timeout=60):
        """Send ``goal``; return the accepted handle or None if rejected."""
        future = self.client.send_goal_async(goal)
        assert self.ros.spin_until(future.done, timeout)
        handle = future.result()
        return handle if handle.accepted else None

    def result(self, handle, timeout=60):
        future = handle.get_result_async()
        assert self.ros.spin_until(future.done, timeout)
        return future.result().status, future.result().result


def goal_of(names, count, spacing=0.01):
    """Return a goal of ``count`` points holding 0, ``spacing`` s apart."""
    trajectory = JointTrajectory(joint_names=names)
    point = JointTrajectoryPoint(positions=[0.0] * len(names))
    trajectory.points = [point] * count
    for k in range(count):
        trajectory.points[k] = JointTrajectoryPoint(positions=[0.0] * len(names))
        seconds, nanoseconds = divmod(int((k + 1) * spacing * 1e9), 10 ** 9)
        trajectory.points[k].time_from_start.sec = seconds
        trajectory.points[k].time_from_start.nanosec = nanoseconds
    return FJT.Goal(trajectory=trajectory)


CLIENT = """
import sys
import rclpy
from rclpy.action import ActionClient
from control_msgs.action import FollowJointTrajectory as FJT
from trajectory_msgs.msg import JointTrajectoryPoint
rclpy.init()
node = rclpy.create_node('huge_goal_client')
client = ActionClient(node, FJT, sys.argv[1])
assert client.wait_for_server(timeout_sec=60)
goal = FJT.Goal()
goal.trajectory.joint_names = sys.argv[2].split(',')
goal.trajectory.points = [JointTrajectoryPoint(positions=[0.0] * 6)
                          for _ in range(int(sys.argv[3]))]
future = client.send_goal_async(goal)
rclpy.spin_until_future_complete(node, future, timeout_sec=120)
print('ACCEPTED' if future.result().accepted else 'REJECTED')
"""


def test_commands_go_on_while_a_huge_goal_is_converted_and_rejected(ros):
    """A client in another process sends 150,000 points: 1.2-1.8 s of conversion here."""
    rig = Rig(ros)
    before, started = len(rig.command_times), time.monotonic()
    client = subprocess.Popen(
        [sys.executable, '-c', CLIENT,
         f'{ros.namespace}/joint_trajectory_controller/follow_joint_trajectory',
         ','.join(rig.names), str(15 * bounds.MAX_TRAJECTORY_POINTS)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert ros.spin_until(lambda: client.poll() is not None, 120), 'the client did not end'
    ended = time.monotonic()
    assert 'REJECTED' in client.stdout.read()
    assert rig.controller.goals.rejected == 1
    times = np.concatenate([[started], rig.command_times[before:], [ended]])
    # A loop stopped by the conversion (12 us a point: 1.8 s, a third of the client's run at
    # the least) would show one gap that long. The controller's turns: 5 ms of interpreter,
    # the garbage collector's passes over the new objects (up to ~0.3 s, gc.callbacks).
    assert np.diff(times).max() < 0.25 * (ended - started), (np.diff(times).max(),
                                                             ended - started)
    ok = rig.send(goal_of(rig.names, bounds.MAX_TRAJECTORY_POINTS, spacing=0.001))
    assert ok is not None, 'exactly MAX_TRAJECTORY_POINTS points are accepted'
    status, result = rig.result(ok)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    assert result.error_string == 'Goal successfully reached!'


def test_a_refused_goal_quotes_a_huge_name_short_and_keeps_nothing(ros):
    rig = Rig(ros)
    goal = goal_of(['x' * 10 ** 6] + rig.names[1:], 1)
    handle = rig.send(goal)
    status, result = rig.result(handle)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == FJT.Result.INVALID_JOINTS
    assert len(result.error_string) <= 1000 and '1000000 characters' in result.error_string
    assert handle_request(rig.controller, handle).trajectory.points == []   # released


def handle_request(controller, client_handle):
    """Return the server's copy of a goal request (by goal id)."""
    handles = controller.goals.action._goal_handles
    return handles[bytes(client_handle.goal_id.uuid)].request


def test_an_active_goal_is_aborted_when_the_controller_shuts_down(ros):
    rig = Rig(ros)
    handle = rig.send(goal_of(rig.names, 10, spacing=1.0))                 # 10 s
    assert handle is not None
    rig.ros.spin_until(lambda: rig.controller.active is not None)
    result = handle.get_result_async()
    rig.controller.destroy_node()
    ros.nodes.remove(rig.controller)
    ros.executor.remove_node(rig.controller)
    assert ros.spin_until(result.done, 30)
    assert result.result().status == GoalStatus.STATUS_ABORTED
    assert 'shutting down' in result.result().result.error_string
