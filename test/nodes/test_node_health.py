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
"""The nodes' /diagnostics never say OK while silent; logs throttled per reason (trial 2).

Reproductions: the joint_trajectory_controller said OK "following" 14 s after the simulator
died (it checked that a joint state was ever received, not its age); its WARN "commands
saturated" stayed for the node's life after one saturated command; one rejection's throttled
log hid another's ("no points" never appeared).
"""

import numpy as np
import rclpy.logging
from diagnostic_msgs.msg import DiagnosticStatus
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

from robot_dynamics.control.command_bounds import Saturation
from robot_dynamics.control.trajectory import DesiredTrajectory
from robot_dynamics.control.health import ThrottledLog
from ros_graph import ControllerRig
from test_command_bounds import TrajectoryRig

WARN, ERROR, OK = DiagnosticStatus.WARN, DiagnosticStatus.ERROR, DiagnosticStatus.OK


def test_saturation_is_reported_over_a_window_and_clears_when_it_stops():
    saturation = Saturation(['a', 'b'], np.array([10.0, 1.0]))
    saturation.apply(np.array([20.0, 2.0]), now=100.0)
    saturation.apply(np.array([20.0, 0.5]), now=100.5)
    assert saturation.recent(1.0, now=100.6) == {'a': 2, 'b': 1}
    assert saturation.recent(1.0, now=101.2) == {'a': 1}
    assert saturation.recent(1.0, now=102.0) == {}
    assert saturation.summary() == {'a': 2, 'b': 1}            # the life's total stays


def test_the_throttled_log_writes_warnings_and_errors_through_an_rclpy_logger():
    """One call site per severity: rclpy refuses two from one site (ValueError)."""
    log = ThrottledLog(rclpy.logging.get_logger('test_node_health'))
    assert log.warning('one reason') and log.error('another reason')
    assert log.warning('a third') and not log.warning('a third')


def test_trajectory_controller_is_not_ok_while_silent_and_says_why(ros):
    rig = TrajectoryRig(ros)
    controller = rig.controller
    assert controller.health()[0] == WARN and 'no joint_states received yet' in \
        controller.health()[1]
    rig.step(np.zeros(6), np.zeros(6))
    assert controller.health() == (OK, 'holding')
    rig.diagnostics.clear()                    # the simulator dies: nothing arrives any more
    assert ros.spin_until(lambda: any(
        s.level == WARN and s.message.startswith('no recent joint_states: the last arrived')
        for a in rig.diagnostics for s in a.status if 'joint_trajectory_controller' in s.name),
        timeout=6.0), [s.message for a in rig.diagnostics for s in a.status]
    levels = [s.level for a in rig.diagnostics for s in a.status
              if 'joint_trajectory_controller' in s.name]
    assert OK not in levels[levels.index(WARN):]      # never OK again once silent (an OK in
    #                                                   flight from before may come first)
    values = {v.key: v.value for v in rig.diagnostics[-1].status[0].values}
    assert float(values['joint_states_age_s']) > 1.0


def test_trajectory_controller_receiving_but_commanding_nothing_is_error(ros):
    rig = TrajectoryRig(ros)
    rig.step(np.zeros(6), np.zeros(6))
    controller = rig.controller
    controller.commands.last -= 5.0            # every state since refused (say, 1e300)
    controller._drop('joint_states: position of joint x is 1e+300; nothing commanded')
    level, text = controller.health()
    assert level == ERROR and 'not publishing effort_commands (for 5.' in text
    assert text.endswith('nothing commanded')


def test_another_devices_joint_states_do_not_count_as_the_arms(ros):
    """A gripper's messages alone: WARN "no recent joint_states", not ERROR "receiving"."""
    rig = TrajectoryRig(ros)
    rig.step(np.zeros(6), np.zeros(6))
    controller = rig.controller
    controller.inputs.last['joint_states'] -= 5.0     # the arm's driver died 5 s ago ...
    controller.commands.last -= 5.0
    for _ in range(5):                                 # ... the gripper's goes on
        rig.states.publish(JointState(name=['finger_joint'], position=[0.01]))
        ros.spin_for(0.02)
    level, text = controller.health()
    assert level == WARN and text.startswith('no recent joint_states: the last arrived 5.')


def test_trajectory_controller_saturation_warn_clears_when_saturation_stops(ros):
    rig = TrajectoryRig(ros, kp=[3e5], kd=[0.0])
    rig.step(np.zeros(6), np.zeros(6))
    rig.step(np.full(6, 0.01), np.zeros(6))        # saturated (3e5 x 0.01 rad/s^2 x M)
    level, text = rig.controller.health()
    assert level == WARN and 'commands saturated at the effort limits in the last' in text
    for _ in range(1000):                          # back at the hold, in limits, 100 Hz
        rig.step(np.zeros(6), np.zeros(6))
        ros.spin_for(0.01)
        if rig.controller.health()[0] == OK:
            break
    assert rig.controller.health() == (OK, 'holding')
    assert sum(rig.controller.saturation.count.values()) > 0   # the total is still reported


def test_an_infeasible_trajectory_warns_while_it_runs_not_after(ros):
    rig = TrajectoryRig(ros, feasibility='warn')
    rig.step(np.zeros(6), np.zeros(6))
    controller = rig.controller
    controller.last_feasibility = 'joint elbow_joint would need 600 N m'
    now = controller.state[2]
    controller.follower.follow(DesiredTrajectory(now, np.array([0.0, 1.0]),
                                                 np.zeros((2, 6))))    # following it
    assert controller.health() == (WARN, 'infeasible trajectory executed: joint elbow_joint '
                                         'would need 600 N m')
    controller.follower.follow(DesiredTrajectory(now - 2 * 10 ** 9, np.array([0.0, 1.0]),
                                                 np.zeros((2, 6))))    # ended: holding its end
    assert controller.health() == (OK, 'holding')


def test_computed_torque_controller_names_the_silent_dynamics_output(ros):
    rig = ControllerRig(ros, joints=['a', 'b', 'c'], kp=[10.0], kd=[0.0])
    controller = rig.controller
    assert controller.health()[0] == WARN
    rig.feedforward.publish(Float64MultiArray(data=[0.0, 0.0, 0.0]))
    rig.step(['a', 'b', 'c'], [0.0] * 3, np.eye(3))
    assert ros.spin_until(lambda: rig.commands)
    assert controller.health() == (OK, 'controlling')
    controller.inputs.last['mass_matrix'] -= 5.0               # the dynamics node stopped
    level, text = controller.health()
    assert level == WARN and text.startswith('no recent mass_matrix: the last arrived 5.')
    assert 'dynamics node' in text
