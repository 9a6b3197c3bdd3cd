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
"""Test helpers for the node tests: a probe node around one dynamics node."""

import numpy as np
from geometry_msgs.msg import InertiaStamped
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.nodes.dynamics_node import DynamicsNode, LATCHED


class Probe:
    """A test node that publishes inputs to and records the outputs of one dynamics node."""

    def __init__(self, ros, target='dynamics_node'):
        self.ros = ros
        self.node = ros.node('probe')
        base = f'{ros.namespace}/{target}'
        self.joint_states = self.node.create_publisher(JointState, 'joint_states',
                                                       qos_profile_sensor_data)
        self.trajectory = self.node.create_publisher(JointTrajectory,
                                                     f'{base}/desired_trajectory', LATCHED)
        self.payload = self.node.create_publisher(InertiaStamped, f'{base}/payload', 10)
        self.received = {}
        for topic, kind in (('feedforward_torques', Float64MultiArray),
                            ('gravity_torques', Float64MultiArray),
                            ('mass_matrix', Float64MultiArray),
                            ('feedforward_joint_states', JointState),
                            ('gravity_joint_states', JointState)):
            self.received[topic] = []
            self.node.create_subscription(kind, f'{base}/{topic}',
                                          self.received[topic].append, 10)
        self.enable_gravity = self.node.create_client(SetBool,
                                                      f'{base}/enable_gravity_compensation')
        self.reload = self.node.create_client(Trigger, f'{base}/reload_model')

    def wait_connected(self, dynamics):
        """Spin until the dynamics node has discovered the probe's joint_states publisher."""
        assert self.ros.spin_until(lambda: self.joint_states.get_subscription_count() > 0
                                   and dynamics.pub_gravity.get_subscription_count() > 0)

    def clear(self):
        """Forget everything received so far."""
        for values in self.received.values():
            values.clear()

    def send_state(self, names, position, velocity=None, effort=None, stamp=True):
        """Publish one JointState (stamped now unless ``stamp`` is False or a Time)."""
        msg = JointState(name=list(names), position=[float(v) for v in position])
        if velocity is not None:
            msg.velocity = [float(v) for v in velocity]
        if effort is not None:
            msg.effort = [float(v) for v in effort]
        if stamp is True:
            msg.header.stamp = self.node.get_clock().now().to_msg()
        elif stamp:
            msg.header.stamp = stamp
        self.joint_states.publish(msg)

    def wait_outputs(self, count=1, timeout=5.0):
        """Spin until ``count`` messages arrived on every output topic."""
        return self.ros.spin_until(
            lambda: all(len(v) >= count for v in self.received.values()), timeout)


def make_dynamics(ros, urdf, **parameters):
    """Create a DynamicsNode in the test namespace with ``robot_description`` = ``urdf``."""
    overrides = [Parameter('robot_description', value=urdf)]
    overrides += [Parameter(k, value=v) for k, v in parameters.items()]
    return ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=overrides))


def vector(msg):
    """Float64MultiArray data as an array."""
    return np.array(msg.data)


def dropped_with(ros, node, publish, reason):
    """Publish one bad input; it must be counted as dropped with ``reason`` in last_error."""
    before = node.dropped
    publish()
    assert ros.spin_until(lambda: node.dropped > before), 'the bad input was not dropped'
    assert reason in node.last_error, node.last_error


def bundled(ros, name, **parameters):
    """Start a dynamics node on a bundled model; return it and a connected probe."""
    overrides = [Parameter('model', value=name)]
    overrides += [Parameter(k, value=v) for k, v in parameters.items()]
    node = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=overrides))
    probe = Probe(ros)
    probe.wait_connected(node)
    return node, probe
