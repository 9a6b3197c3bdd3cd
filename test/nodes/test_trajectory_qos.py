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
"""``~/desired_trajectory`` connects to plain (volatile) publishers and to latched ones.

A volatile publisher (``ros2 topic pub``, most planners) never matches a transient-local
subscription; a latched publisher that published before the node started is only heard by one.
The dynamics node and the controller subscribe both ways and pass each message on once.
"""

import numpy as np
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import serialize_message
from trajectory_msgs.msg import JointTrajectory

import robot_dynamics as rd
from robot_dynamics.model import bounds
from robot_dynamics.nodes import trajectory_input
from robot_dynamics.nodes.trajectory_input import oversized_trajectory
from robot_dynamics.nodes.computed_torque_controller import ComputedTorqueController
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.dynamics_node import DynamicsNode

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


def arrived(node):
    """Tell whether the dynamics node took a trajectory (kept for the first joint state)."""
    return node._trajectory is not None or node._pending_trajectory is not None


def two_link_trajectory():
    """Return a two-point JointTrajectory of the bundled two-link arm, starting on receipt."""
    names = list(rd.load_model('two_link').joint_names)
    return trajectory_message(names, np.array([0.0, 1.0]), np.array([[0.0, 0.0], [0.3, -0.2]]))


def counted(node):
    """Count the trajectories the node's input passes on (and still apply them)."""
    calls = []
    forward = node.trajectory_input._callback
    node.trajectory_input._callback = lambda message: (calls.append(message), forward(message))
    return calls


def dynamics_node(ros):
    """Start a dynamics node on the bundled two-link arm in the test's namespace."""
    return ros.add(DynamicsNode(namespace=ros.namespace,
                                parameter_overrides=[Parameter('model', value='two_link')]))


def test_volatile_publisher_reaches_the_dynamics_node(ros):
    node = dynamics_node(ros)
    calls = counted(node)
    probe = ros.node('volatile_probe')
    publisher = probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() >= 1, 10.0), \
        'a volatile publisher does not match ~/desired_trajectory'
    publisher.publish(two_link_trajectory())
    assert ros.spin_until(lambda: arrived(node), 10.0)
    ros.spin_for(0.3)
    assert len(calls) == 1


def test_latched_trajectory_published_before_the_node_starts_arrives_once(ros):
    probe = ros.node('latched_probe')
    publisher = probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory',
                                       LATCHED)
    publisher.publish(two_link_trajectory())
    node = dynamics_node(ros)
    calls = counted(node)
    assert ros.spin_until(lambda: arrived(node), 10.0), \
        'a late-joining node must still get the latched trajectory'
    ros.spin_for(0.3)
    assert len(calls) == 1, 'the latched copy on the volatile subscription was passed on again'


def test_volatile_publisher_reaches_the_controller(ros):
    controller = ros.add(ComputedTorqueController(namespace=ros.namespace))
    probe = ros.node('volatile_probe')
    publisher = probe.create_publisher(JointTrajectory, 'desired_trajectory', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() >= 1, 10.0)
    publisher.publish(two_link_trajectory())
    assert ros.spin_until(lambda: controller.loop.pending is not None, 10.0)


def test_latched_publisher_matching_both_subscriptions_is_passed_on_once(ros):
    node = dynamics_node(ros)
    calls = counted(node)
    probe = ros.node('latched_probe')
    publisher = probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory',
                                       LATCHED)
    assert ros.spin_until(lambda: publisher.get_subscription_count() >= 2, 10.0)
    publisher.publish(two_link_trajectory())
    assert ros.spin_until(lambda: calls, 10.0)
    ros.spin_for(0.3)
    assert len(calls) == 1


class Recorder:
    """A logger that keeps (level, text) pairs."""

    def __init__(self):
        self.lines = []

    def debug(self, text):
        self.lines.append(('debug', text))

    def warning(self, text):
        self.lines.append(('warning', text))


def test_a_volatile_publisher_is_not_reported_as_lost_but_a_best_effort_one_is(ros):
    """The default "No messages will be received from it" would be false for a volatile one."""
    node = dynamics_node(ros)
    node.trajectory_input._logger = recorder = Recorder()
    probe = ros.node('volatile_probe')
    volatile = probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory', 10)
    assert ros.spin_until(lambda: recorder.lines, 10.0)
    assert recorder.lines[0][0] == 'debug' and 'volatile subscription' in recorder.lines[0][1]
    volatile.publish(two_link_trajectory())
    assert ros.spin_until(lambda: arrived(node), 10.0)
    best_effort = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
    probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory', best_effort)
    assert ros.spin_until(lambda: any(level == 'warning' for level, _ in recorder.lines), 10.0)
    warning = next(text for level, text in recorder.lines if level == 'warning')
    assert 'RELIABILITY' in warning and 'publish it reliable' in warning


def test_an_oversized_trajectory_is_refused_from_its_bytes():
    """Point and name counts read from the CDR bytes, with no deserialising; misreads pass."""
    names = ['joint_a', 'joint_b']
    for points, refused in ((10, False), (bounds.MAX_TRAJECTORY_POINTS, False),
                            (bounds.MAX_TRAJECTORY_POINTS + 1, True)):
        msg = trajectory_message(names, np.arange(points) * 0.01, np.zeros((points, 2)))
        msg.header.frame_id = 'base'                   # odd length: alignment after it
        reason = oversized_trajectory(serialize_message(msg))
        assert bool(reason) == refused, reason
    assert f'{bounds.MAX_TRAJECTORY_POINTS + 1} points' in reason
    many_names = JointTrajectory(joint_names=['j'] * (bounds.MAX_JOINT_NAMES + 1))
    assert 'joint_names' in oversized_trajectory(serialize_message(many_names))
    assert oversized_trajectory(b'\x00\x01\x00\x00' + b'\xff' * 40) == ''   # counts impossible


def test_the_dynamics_node_refuses_it_without_deserialising(ros, monkeypatch):
    node = dynamics_node(ros)
    deserialised = []
    original = trajectory_input.deserialize_message
    monkeypatch.setattr(trajectory_input, 'deserialize_message',
                        lambda data, kind: deserialised.append(len(data)) or original(data, kind))
    probe = ros.node('volatile_probe')
    publisher = probe.create_publisher(JointTrajectory, 'dynamics_node/desired_trajectory', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() >= 1, 10.0)
    points = bounds.MAX_TRAJECTORY_POINTS + 1
    publisher.publish(trajectory_message(['joint1', 'joint2'], np.arange(points) * 1e-3,
                                         np.zeros((points, 2))))
    assert ros.spin_until(lambda: node.dropped, 10.0)
    assert 'rejected before deserialising' in node.last_error
    assert f'{points} points' in node.last_error
    assert deserialised == [] and node._trajectory is None
