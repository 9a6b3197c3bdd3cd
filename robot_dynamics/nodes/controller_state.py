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
"""``~/controller_state`` and the action feedback of the trajectory controller, rate-limited.

As upstream: ``reference`` the desired state, ``feedback`` the measured one, ``error`` their
difference, ``output`` the command (here efforts: ``output.effort``), in the order of the
controller's ``joints``; ``speed_scaling_factor`` is ``1 / k`` of a goal slowed by ``k``.
Published at ``state_publish_rate`` of joint-state time.
"""

from control_msgs.action import FollowJointTrajectory
from control_msgs.msg import JointTrajectoryControllerState
from trajectory_msgs.msg import JointTrajectoryPoint


def _point(positions=(), velocities=(), accelerations=(), effort=()):
    return JointTrajectoryPoint(positions=list(map(float, positions)),
                                velocities=list(map(float, velocities)),
                                accelerations=list(map(float, accelerations)),
                                effort=list(map(float, effort)))


class ControllerState:
    """Publish the controller's state and the running goal's feedback at most at a rate."""

    def __init__(self, node, names, order):
        self._node, self._names, self._order = node, list(names), order
        self._publisher = node.create_publisher(JointTrajectoryControllerState,
                                                '~/controller_state', 10)
        self._last_ns = None

    def publish(self, now_ns, q, qd, desired, command, goal):
        """Publish for the state ``q, qd`` (model order) if the period has passed."""
        period = 1e9 / self._node.get_parameter('state_publish_rate').value
        if self._last_ns is not None and 0 <= now_ns - self._last_ns < period:
            return
        self._last_ns = now_ns
        o = self._order
        q_d, qd_d, qdd_d = desired
        state = JointTrajectoryControllerState(joint_names=self._names)
        state.header.stamp.sec, state.header.stamp.nanosec = divmod(now_ns, 10 ** 9)
        state.reference = _point(q_d[o], qd_d[o], qdd_d[o])
        state.feedback = _point(q[o], qd[o])
        state.error = _point((q_d - q)[o], (qd_d - qd)[o])
        state.output = _point(effort=command[o])
        state.speed_scaling_factor = 1.0 / goal.scale if goal is not None else 1.0
        self._publisher.publish(state)
        if goal is not None and goal.handle.is_active:
            feedback = FollowJointTrajectory.Feedback(joint_names=self._names)
            feedback.header = state.header
            feedback.desired, feedback.actual, feedback.error = (
                state.reference, state.feedback, state.error)
            goal.handle.publish_feedback(feedback)
