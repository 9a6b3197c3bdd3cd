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
"""Position jumps refused by the nodes: a spoofer on joint_states (trial 2)."""

import numpy as np

from robot_dynamics.simulation.tracking import report
from robots import quiet_bundled
from ros_graph import demo_with

UR5 = quiet_bundled('ur5')
NAMES = list(UR5.joint_names)


def test_dynamics_node_drops_a_spoofed_jump_and_keeps_running(ros):
    from rclpy.time import Time
    from ros_graph import bundled, dropped_with
    dynamics, probe = bundled(ros, 'ur5')
    probe.send_state(NAMES, np.zeros(6))
    assert probe.wait_outputs()
    stamp = dynamics.state[2] + 1e-3                 # 1 ms after the last state
    spoof = Time(nanoseconds=int(round(stamp * 1e9))).to_msg()
    dropped_with(ros, dynamics, lambda: probe.send_state(NAMES, np.full(6, 0.3), stamp=spoof),
                 f'joint_states dropped: position[{NAMES[0]}] jumps 0.3 in 0.001 s')
    np.testing.assert_array_equal(dynamics.state[0], np.zeros(6))
    probe.clear()
    probe.send_state(NAMES, np.full(6, 1e-3))         # the real driver goes on
    assert probe.wait_outputs()
    np.testing.assert_array_equal(dynamics.state[0], np.full(6, 1e-3))


class Spoofer:
    """Observer of the demo graph: after each real joint state, 3 fake ones 0.15 ms apart.

    Trial 2's attack, in process: ``[0.3]*6`` stamped just after the simulator's state.
    """

    def __init__(self, context, namespace, start=0.3, end=1.0):
        import rclpy
        from sensor_msgs.msg import JointState
        self.node = rclpy.create_node('spoofer', context=context, namespace=namespace)
        self.window, self.sent, self.joint_state = (start, end), 0, JointState
        self.publisher = self.node.create_publisher(JointState, 'joint_states', 10)
        self.node.create_subscription(JointState, 'joint_states', self._on_state, 10)

    def _on_state(self, msg):
        from rclpy.time import Time
        if msg.header.frame_id == 'spoof':
            return
        t = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        if not self.window[0] <= t <= self.window[1]:
            return
        for m in range(1, 4):
            fake = self.joint_state(name=list(msg.name), position=[0.3] * len(msg.name))
            fake.header.frame_id = 'spoof'
            fake.header.stamp = Time(nanoseconds=int(round((t + 1.5e-4 * m) * 1e9))).to_msg()
            self.publisher.publish(fake)
            self.sent += 1


def test_a_spoofed_flood_does_not_move_the_closed_loop(ros):
    """The UR5 demo graph under the flood: the controller keeps tracking its trajectory.

    A joint without a velocity limit (the PUMA 560's) is bounded by 1000 rad/s only: the
    check cannot tell 0.3 rad in 0.15 ms there (docs/robustness.md).
    """
    # lockstep_timeout 2 s (config: 0.1): on a loaded machine the simulator must not step on
    # without the controller's answer (0.12 rad errors seen at load 10, none of the flood's)
    result, spoofer = demo_with(Spoofer, 'ur5', wall_timeout=120.0,
                                simulation={'lockstep_timeout': 2.0})
    assert spoofer.sent > 100, 'the flood did not run'
    assert result.max_error.max() < 0.05, report(result)
