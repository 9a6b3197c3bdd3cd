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
"""Several arms in one process (``robot_dynamics_arms``): each answers in its own namespace."""

import os
import pathlib
import signal
import subprocess
import sys
import time
import uuid

import numpy as np
import pytest
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

import robot_dynamics as rd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


ROS2 = pathlib.Path(sys.executable).with_name('ros2')


def start_arms(tmp_path, arms, how, nodes=('dynamics_node',)):
    """Start ``arms`` as ``how`` says: ``module`` (``python -m``) or ``launch`` (ros2 launch)."""
    path = tmp_path / 'arms.yaml'
    lines = ['arms:'] + [f'  {namespace.strip("/")}: {robot}' for namespace, robot in arms]
    lines += [f'nodes: [{", ".join(nodes)}]', 'parameters:',
              '  dynamics_node: {joint_states_qos: sensor_data}']
    path.write_text('\n'.join(lines) + '\n')
    env = dict(os.environ, PYTHONWARNINGS='ignore')
    command = ([sys.executable, '-m', 'robot_dynamics.nodes.arms', '--arms', str(path)]
               if how == 'module' else
               [str(ROS2), 'launch', 'robot_dynamics', 'arms.launch.py', f'arms:={path}'])
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def stop(process):
    """SIGINT (Ctrl-C), then the output; it must end, without a traceback."""
    process.send_signal(signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        raise AssertionError(f'robot_dynamics_arms ignored SIGINT:\n{output}')
    assert 'Traceback' not in output, output
    return output


@pytest.mark.parametrize('how', ['module', 'launch'])
def test_two_arms_in_one_process_answer_on_their_own_namespaces(ros, tmp_path, how):
    if how == 'launch' and not ROS2.exists():
        pytest.skip('ros2 (launch, launch_ros) is not installed beside this Python')
    base = '/a' + uuid.uuid4().hex[:8]
    arms = [(f'{base}/left', 'puma560'), (f'{base}/right', 'two_link')]
    process = start_arms(tmp_path, arms, how)
    try:
        node = ros.node('arms_probe', namespace='/')
        got, publishers, postures = {}, {}, {}
        for k, (namespace, robot) in enumerate(arms):
            model = rd.load_model(robot)
            got[namespace] = []
            publishers[namespace] = (node.create_publisher(
                JointState, f'{namespace}/joint_states', qos_profile_sensor_data), model)
            node.create_subscription(Float64MultiArray,
                                     f'{namespace}/dynamics_node/gravity_torques',
                                     got[namespace].append, 10)
            postures[namespace] = np.linspace(0.1, 0.4, model.dof) * (1 + k)
        deadline = time.monotonic() + 60.0
        while not all(got.values()) and time.monotonic() < deadline:
            for namespace, (publisher, model) in publishers.items():
                message = JointState(name=list(model.joint_names),
                                     position=postures[namespace].tolist())
                message.header.stamp = node.get_clock().now().to_msg()
                publisher.publish(message)
            ros.spin_for(0.1)
        assert all(got.values()), f'no answer on {[n for n, g in got.items() if not g]}'
        for namespace, (_, model) in publishers.items():
            expected = rd.gravity_torques(model, postures[namespace])
            assert len(got[namespace][-1].data) == model.dof
            np.testing.assert_allclose(got[namespace][-1].data, expected, rtol=0, atol=1e-9)
        names = node.get_node_names_and_namespaces()
        assert {('dynamics_node', namespace) for namespace, _ in arms} <= set(names)
    finally:
        stop(process)
