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
"""Joint states answered while large URDFs alternate on ``robot_description`` (issue 22.6).

Run on demand (not in CI)::

    .venv/bin/python benchmarks/description_flood.py [--size-mb 11] [--duration 20]

A dynamics node runs as a separate process (``python -m robot_dynamics.nodes.dynamics_node``,
model from the ``robot_description`` topic) in a private ROS domain. This process publishes
joint states at ``--rate`` Hz (stamped now) and, every ``--period`` s, one of two URDFs of
``--size-mb`` MB each (the same 6-joint arm with different masses, padded with ignored
``<gazebo>`` elements), alternating; it counts the gravity torques received. Reported: the
fraction of joint states answered with and without the flood, and the model changes the node
logged. Before the fix the node parsed every text on its executor: 95 % of the joint states
went unanswered with 11 MB URDFs alternating at 1 Hz.
"""

import argparse
import os
import platform
import random
import subprocess
import sys
import time

import rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


def padded_urdf(masses, size_mb):
    """Return a 6-joint arm with ``masses``, padded to about ``size_mb`` MB (<gazebo>)."""
    links, joints = ['<link name="base"/>'], []
    for k, m in enumerate(masses, start=1):
        links.append(f'<link name="l{k}"><inertial><origin xyz="0.1 0 0"/><mass value="{m}"/>'
                     '<inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/>'
                     '</inertial></link>')
        parent = 'base' if k == 1 else f'l{k - 1}'
        joints.append(f'<joint name="j{k}" type="revolute"><parent link="{parent}"/><child '
                      f'link="l{k}"/><origin xyz="0.2 0 0"/><axis xyz="0 {k % 2} '
                      f'{(k + 1) % 2}"/><limit lower="-3" upper="3" effort="100" '
                      'velocity="2"/></joint>')
    pad = '<gazebo reference="l1"><material>Gazebo/Grey</material><mu1>0.2</mu1></gazebo>'
    count = int(size_mb * 1e6 / len(pad))
    return f'<robot name="arm">{"".join(links + joints)}{pad * count}</robot>'


def run(args, flood):
    """Return (states sent, gravity answers, node output) for one run."""
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(100, 200)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', PYTHONWARNINGS='ignore')
    os.environ.update({k: env[k] for k in ('ROS_DOMAIN_ID', 'ROS_AUTOMATIC_DISCOVERY_RANGE')})
    node = subprocess.Popen([sys.executable, '-m', 'robot_dynamics.nodes.dynamics_node'],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    rclpy.init()
    probe = rclpy.create_node('flood_probe')
    answers = []
    probe.create_subscription(Float64MultiArray, '/dynamics_node/gravity_torques',
                              answers.append, 100)
    states = probe.create_publisher(JointState, '/joint_states', qos_profile_sensor_data)
    description = probe.create_publisher(String, '/robot_description', LATCHED)
    texts = [padded_urdf([2.0, 1.5, 1.0, 0.5, 0.3, 0.2], args.size_mb),
             padded_urdf([4.0, 3.0, 2.0, 1.0, 0.6, 0.4], args.size_mb)]
    description.publish(String(data=texts[0]))
    message = JointState(name=[f'j{k}' for k in range(1, 7)], position=[0.1] * 6)
    start = time.monotonic()
    while not answers and time.monotonic() - start < 60:       # the model is loaded
        message.header.stamp = probe.get_clock().now().to_msg()
        states.publish(message)
        rclpy.spin_once(probe, timeout_sec=0.05)
    answers.clear()
    sent, k, start = 0, 0, time.monotonic()
    next_state, next_text = start, start + args.period
    while time.monotonic() - start < args.duration:
        now = time.monotonic()
        if now >= next_state:
            message.header.stamp = probe.get_clock().now().to_msg()
            states.publish(message)
            sent += 1
            next_state += 1.0 / args.rate
        if flood and now >= next_text:
            k += 1
            description.publish(String(data=texts[k % 2]))
            next_text += args.period
        rclpy.spin_once(probe, timeout_sec=0.0005)
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        rclpy.spin_once(probe, timeout_sec=0.01)
    probe.destroy_node()
    rclpy.shutdown()
    node.terminate()
    output = node.communicate(timeout=30)[0]
    return sent, len(answers), output


def main():
    """Run without and with the flood; print the fractions answered."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--size-mb', type=float, default=11.0)
    parser.add_argument('--period', type=float, default=1.0)
    parser.add_argument('--rate', type=float, default=200.0)
    parser.add_argument('--duration', type=float, default=20.0)
    args = parser.parse_args()
    print(f'machine: {platform.node()} {platform.machine()}, {os.cpu_count()} cores, load '
          f'{os.getloadavg()[0]:.1f}; {args.size_mb} MB URDFs every {args.period} s, joint '
          f'states at {args.rate} Hz for {args.duration} s')
    for flood in (False, True):
        sent, answered, output = run(args, flood)
        changes = output.count('model changed by the robot_description topic')
        print(f"{'with' if flood else 'without'} the flood: {answered}/{sent} joint states "
              f'answered ({100.0 * answered / max(sent, 1):.1f} %), {changes} model changes')


if __name__ == '__main__':
    main()
