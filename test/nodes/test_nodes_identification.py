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
"""Nodes for identification: the trajectory publisher's trajectory_file."""

import numpy as np
import pytest
from rclpy.parameter import Parameter
from trajectory_msgs.msg import JointTrajectory

import robot_dynamics as rd
from robot_dynamics.io.trajectory_yaml import joint_trajectory_yaml
from robot_dynamics.nodes.dynamics_node import LATCHED
from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher


def test_trajectory_publisher_sends_a_trajectory_file(ros, tmp_path):
    model = rd.load_model('two_link')
    names = list(model.joint_names)[::-1]                       # file order differs
    times = np.linspace(0.0, 2.0, 5)
    positions = np.column_stack([0.1 * times, -0.2 * times])
    path = tmp_path / 'move.yaml'
    path.write_text(joint_trajectory_yaml(names, times, positions,
                                          np.tile([0.1, -0.2], (5, 1)), np.zeros((5, 2)),
                                          comment='test move'))
    node = ros.add(TrajectoryPublisher(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='two_link'), Parameter('trajectory_file', value=str(path)),
        Parameter('start_delay', value=0.0)]))
    t, q, qd, qdd = node.waypoints()
    assert np.array_equal(t, times)
    assert np.array_equal(q, positions[:, ::-1]) and np.array_equal(qd[0], [-0.2, 0.1])
    got = []
    probe = ros.node()
    probe.create_subscription(JointTrajectory, 'desired_trajectory', got.append, LATCHED)
    assert ros.spin_until(lambda: got, timeout=5.0)
    assert list(got[0].joint_names) == list(model.joint_names)
    assert len(got[0].points) == 5 and got[0].points[-1].time_from_start.sec == 2


def test_trajectory_file_with_other_joints_is_refused(ros, tmp_path):
    path = tmp_path / 'wrong.yaml'
    path.write_text(joint_trajectory_yaml(['a', 'b'], [0.0, 1.0], np.zeros((2, 2))))
    with pytest.raises(ValueError, match='must be the model'):
        TrajectoryPublisher(namespace=ros.namespace, parameter_overrides=[
            Parameter('model', value='two_link'), Parameter('trajectory_file', value=str(path))])
