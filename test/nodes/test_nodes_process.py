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
"""dynamics_node as a separate process (``python -m``), driven over DDS from the test."""

import os
import subprocess
import sys
import time
import uuid
import warnings

import numpy as np
import pytest


from rclpy.qos import qos_profile_sensor_data  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import Float64MultiArray  # noqa: E402

import robot_dynamics as rd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUMA = os.path.join(ROOT, 'urdf', 'puma560.urdf')


@pytest.fixture(params=['rclpy', 'cached'])
def dynamics_process(request):
    """``python -m robot_dynamics.nodes.dynamics_node`` in a namespace of its own.

    Once with ``ROBOT_DYNAMICS_EXECUTOR=rclpy`` and once with the default (cached); both are
    stopped with SIGTERM and must exit without a traceback.
    """
    namespace = '/p' + uuid.uuid4().hex[:10]
    env = dict(os.environ, PYTHONWARNINGS='ignore', ROBOT_DYNAMICS_EXECUTOR=request.param)
    process = subprocess.Popen(
        [sys.executable, '-m', 'robot_dynamics.nodes.dynamics_node', '--ros-args',
         '-r', f'__ns:={namespace}', '-p', f'urdf_file:={PUMA}',
         '-r', '~/feedforward_torques:=effort_controller/commands'],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    yield namespace
    process.terminate()
    try:
        output, _ = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    assert 'Traceback' not in output, output


def test_separate_process_answers_over_dds(ros, dynamics_process):
    namespace = dynamics_process
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.RobotModel.from_urdf(PUMA)
    node = ros.node('process_probe', namespace=namespace)
    states = node.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
    got = {'gravity': [], 'commands': []}
    node.create_subscription(Float64MultiArray, 'dynamics_node/gravity_torques',
                             got['gravity'].append, 10)
    node.create_subscription(Float64MultiArray, 'effort_controller/commands',
                             got['commands'].append, 10)
    q = np.array([0.1, -0.5, 0.3, 0.2, -0.4, 0.6])
    msg = JointState(name=list(model.joint_names), position=q.tolist())
    deadline = time.monotonic() + 30.0
    while not (got['gravity'] and got['commands']) and time.monotonic() < deadline:
        msg.header.stamp = node.get_clock().now().to_msg()
        states.publish(msg)
        ros.spin_for(0.1)
    assert got['gravity'] and got['commands'], 'no answer from the dynamics_node process'
    expected = rd.gravity_torques(model, q)
    np.testing.assert_allclose(got['gravity'][-1].data, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got['commands'][-1].data, expected, rtol=0, atol=1e-12)
