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
"""Identification in the ROS graph: trajectory_file, the recorder, the end-to-end demo."""

import numpy as np
import pytest
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory
import yaml

import robot_dynamics as rd
from robot_dynamics.io.recordings import read_recording
from robot_dynamics.io.trajectory_yaml import joint_trajectory_yaml
from robot_dynamics.nodes.dynamics_node import LATCHED
from robot_dynamics.nodes.identification_demo import run_identification_demo, summary
from robot_dynamics.nodes.joint_state_recorder import JointStateRecorder
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


def test_joint_state_recorder_writes_a_bag(ros, tmp_path):
    output = tmp_path / 'bag'
    recorder = ros.add(JointStateRecorder(namespace=ros.namespace, parameter_overrides=[
        Parameter('output', value=str(output)), Parameter('storage', value='sqlite3')]))
    probe = ros.node()
    publisher = probe.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
    assert ros.spin_until(lambda: publisher.get_subscription_count() > 0)
    for k in range(20):
        msg = JointState(name=['a', 'b'], position=[0.1 * k, -0.1 * k], velocity=[],
                         effort=[float(k), 2.0 * k])
        msg.header.stamp.sec, msg.header.stamp.nanosec = 1, k * 10 ** 6
        publisher.publish(msg)
        ros.spin_for(0.01)
    msg = JointState(name=['a', 'b'], position=[0.0, 0.0])          # no effort: skipped
    publisher.publish(msg)
    assert ros.spin_until(lambda: len(recorder.buffer.rows) == 20)
    ros.spin_for(0.1)
    recorder.write()
    back = read_recording(output)
    assert back.joint_names == ('a', 'b') and back.velocity is None
    assert np.allclose(back.effort[:, 1], 2.0 * np.arange(20))
    assert np.allclose(back.t, 1.0 + 1e-3 * np.arange(20))


def test_identification_demo_end_to_end(tmp_path):
    """Excitation on the "true" simulated PUMA, bag, identification, tracking before/after."""
    demo = run_identification_demo(out=str(tmp_path), excitation_time=3.0, periods=1,
                                   publish_rate=500.0)
    loaded = rd.RobotModel.from_urdf(demo.files['identified'])
    assert loaded.warnings == loaded.notes         # no finding; the loader's friction note
    assert demo.result.validation.relative_error('physical') < 0.02
    nominal, identified, true = (demo.tracking_rms(w) for w in ('nominal', 'identified', 'true'))
    assert identified < nominal / 20                        # measured: ~1/150
    assert identified < 4.0 * true              # one period: 1.9-3.0; six (the default): 1.14
    assert 'identified / true tracking error' in summary(demo)
    with open(demo.files['params']) as handle:
        params = yaml.safe_load(handle)
    assert params['trajectory_publisher']['ros__parameters']['trajectory_file'].endswith(
        'excitation.yaml')
