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
"""Bounded controller commands (issue 22.5) and the trajectory controller's control law.

Reproductions: a 1e300 feed-forward gave 1e300 effort commands; a negative-definite mass
matrix gave positive feedback (+1e4 N m). Oracle of the control law: Pinocchio's RNEA.
"""

import re

import numpy as np
import pinocchio as pin
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from trajectory_msgs.msg import JointTrajectory

import robot_dynamics as rd
from robot_dynamics.nodes.qos import LATCHED
from robot_dynamics.nodes.joint_trajectory_controller import JointTrajectoryController
from robots import pinocchio_configuration
from ros_graph import ControllerRig


def test_absurd_feedforward_publishes_nothing(ros):
    rig = ControllerRig(ros, joints=['a', 'b', 'c'], kp=[10.0], kd=[0.0])
    rig.feedforward.publish(Float64MultiArray(data=[1e300, 0.0, 0.0]))
    rig.step(['a', 'b', 'c'], [0.0] * 3, np.eye(3))
    assert ros.spin_until(lambda: 'feedforward_torques[0] = 1e+300' in
                          rig.controller.last_error), rig.controller.last_error
    assert not rig.commands, 'a 1e300 feed-forward must not reach the actuators'


def test_negative_definite_mass_matrix_is_refused(ros):
    rig = ControllerRig(ros, joints=['a', 'b', 'c'], kp=[100.0], kd=[0.0],
                        use_feedforward=False)
    rig.step(['a', 'b', 'c'], [0.0] * 3, np.eye(3))          # holds here: 0
    rig.commands.clear()
    ros.spin_for(0.01)               # 1 rad after 10 ms: a plausible move, not a jump
    rig.step(['a', 'b', 'c'], [-1.0] * 3, -100.0 * np.eye(3))
    assert ros.spin_until(lambda: 'not positive definite' in rig.controller.last_error)
    assert not rig.commands
    rig.step(['a', 'b', 'c'], [-1.0] * 3, np.eye(3))         # a good one goes through
    assert ros.spin_until(lambda: rig.commands)
    np.testing.assert_allclose(rig.commands[-1], [100.0] * 3, rtol=0, atol=1e-12)


def test_effort_limits_saturate_the_old_controller(ros):
    rig = ControllerRig(ros, joints=['a', 'b', 'c'], kp=[100.0], kd=[0.0],
                        use_feedforward=False, effort_limits=[5.0, 50.0, 500.0])
    rig.step(['a', 'b', 'c'], [0.0] * 3, np.eye(3))          # holds here: 0
    ros.spin_for(0.01)
    rig.step(['a', 'b', 'c'], [-1.0] * 3, np.eye(3))
    assert ros.spin_until(lambda: len(rig.commands) > 1)
    np.testing.assert_array_equal(rig.commands[-1], [5.0, 50.0, 100.0])
    assert 'saturated' in rig.controller.last_error
    diagnostics = []
    ros.node('listener').create_subscription(DiagnosticArray, '/diagnostics',
                                             diagnostics.append, 10)
    counted = re.compile(r"\{'a': (\d+), 'b': \1\}")       # a and b as often, c never

    def warned():             # the WARN lasts a window (1 s): steps go on until it is seen
        rig.step(['a', 'b', 'c'], [-1.0] * 3, np.eye(3))
        return any(s.level == DiagnosticStatus.WARN and counted.search(s.message)
                   for a in diagnostics for s in a.status
                   if 'computed_torque_controller' in s.name)
    assert ros.spin_until(warned, timeout=10.0), [s.message for a in diagnostics
                                                  for s in a.status]


class TrajectoryRig:
    """A joint_trajectory_controller on the UR5, driven by hand."""

    def __init__(self, ros, **parameters):
        self.ros = ros
        overrides = [Parameter('model', value='ur5')] + [
            Parameter(k, value=v) for k, v in parameters.items()]
        self.controller = ros.add(JointTrajectoryController(namespace=ros.namespace,
                                                            parameter_overrides=overrides))
        node = ros.node('rig')
        self.states = node.create_publisher(JointState, 'joint_states', qos_profile_sensor_data)
        self.trajectory = node.create_publisher(JointTrajectory, 'desired_trajectory', LATCHED)
        self.commands, self.diagnostics = [], []
        node.create_subscription(Float64MultiArray, 'effort_commands',
                                 lambda msg: self.commands.append(np.array(msg.data)), 10)
        node.create_subscription(DiagnosticArray, '/diagnostics', self.diagnostics.append, 10)
        self.names = list(self.controller.joint_names)
        assert ros.spin_until(lambda: self.states.get_subscription_count() > 0)

    def step(self, q, qd):
        """Send one joint state; return the command it produced."""
        count = len(self.commands)
        self.states.publish(JointState(name=self.names, position=list(q), velocity=list(qd)))
        assert self.ros.spin_until(lambda: len(self.commands) > count)
        return self.commands[-1]


def test_computed_torque_law_matches_pinocchio(ros):
    rig = TrajectoryRig(ros, kp=[9.0], kd=[4.0])
    model = rd.load_model('ur5')
    q0 = np.array([0.1, -0.4, 0.3, 0.2, -0.1, 0.05])
    rig.step(q0, np.zeros(6))                                  # sets the hold at q0
    q, qd = q0 + 0.01 * np.arange(6), np.linspace(-0.2, 0.2, 6)
    ros.spin_for(0.05)         # 0.05 rad: plausible after 5 ms (joint_state_jumps.py)
    command = rig.step(q, qd)
    with open(rd.data_path(rd.BUNDLED_MODELS['ur5']), encoding='utf-8') as handle:
        pin_model = pin.buildModelFromXML(handle.read())
    v = 9.0 * (q0 - q) + 4.0 * (0.0 - qd)
    expected = pin.rnea(pin_model, pin_model.createData(), pinocchio_configuration(pin_model, q),
                        qd, v) + model.reflected_inertia * v \
        + rd.friction_torques(model, np.zeros(6))          # friction at the desired (hold) q̇
    np.testing.assert_allclose(command, expected, rtol=0, atol=1e-9)


def test_trajectory_controller_saturates_at_the_urdf_limits_and_says_so(ros):
    rig = TrajectoryRig(ros, kp=[3e5], kd=[0.0])
    model = rd.load_model('ur5')
    rig.step(np.zeros(6), np.zeros(6))
    ros.spin_for(0.1)          # 0.5 rad within ~1 ms would be an implausible jump, dropped
    command = rig.step(np.full(6, 0.5), np.zeros(6))            # 0.5 rad from the hold
    np.testing.assert_array_equal(np.abs(command), model.effort_limit)

    def warned():             # the WARN lasts a window: saturating steps until it is seen
        rig.step(np.full(6, 0.5), np.zeros(6))
        return any(s.level == DiagnosticStatus.WARN and 'saturated' in s.message
                   for a in rig.diagnostics for s in a.status
                   if 'joint_trajectory_controller' in s.name)
    assert ros.spin_until(warned, timeout=10.0)


def test_without_control_msgs_the_controller_says_so_and_follows_topics(tmp_path):
    """The action needs control_msgs; where it is absent the topic path still runs."""
    import os
    import subprocess
    import sys
    script = tmp_path / 'no_control_msgs.py'
    script.write_text(
        'import sys\n'
        "sys.modules['control_msgs'] = None\n"
        'import rclpy\n'
        'from rclpy.parameter import Parameter\n'
        'from robot_dynamics.nodes import joint_trajectory_controller as j\n'
        'rclpy.init()\n'
        "node = j.JointTrajectoryController(parameter_overrides=[Parameter('model', "
        "value='ur5')])\n"
        "print('ACTION', node.goals, 'TOPIC', sum(len(i.subscriptions) for i in "
        "node.trajectory_inputs))\n"
        'print(j.CONTROL_MSGS_MISSING)\n'
        'node.destroy_node()\n'
        'rclpy.shutdown()\n')
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=str(tmp_path),
                          env=dict(os.environ))        # the installed package
    assert done.returncode == 0, done.stderr
    assert 'ACTION None TOPIC 4' in done.stdout
    assert 'control_msgs is not installed' in done.stdout
    assert 'install ros-jazzy-control-msgs' in done.stdout + done.stderr
