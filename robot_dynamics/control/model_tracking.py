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
"""The joint_trajectory_controller's control step with its own model, without ROS.

:class:`ModelTracker` holds the model, the joint states merged by name (implausible values and
jumps refused: :class:`~robot_dynamics.control.joint_states.JointStateMerge`), the goal
lifecycle (:class:`~robot_dynamics.control.goal_lifecycle.GoalLifecycle`) and the command
bound (the URDF effort limits); :meth:`~ModelTracker.command` is one step of computed torque
(:func:`~robot_dynamics.control.tracking.feedback_torque`, Craig §10.5), gravity only while
a contact makes the arm comply.
"""

from robot_dynamics.api import gravity_torques
from robot_dynamics.control.command_bounds import Saturation
from robot_dynamics.control.controller_settings import Setting, check_gains
from robot_dynamics.control.goal_lifecycle import GoalLifecycle
from robot_dynamics.control.joint_states import JointStateMerge, message_joint_limit
from robot_dynamics.control.policies import POLICIES
from robot_dynamics.control.reactions import NOTHING
from robot_dynamics.control.tracking import feedback_torque
from robot_dynamics.model import bounds

SETTINGS = (Setting('use_feedforward', True, 'false: tau = M(q)(Kp e + Kd de) only (no model '
                    'terms), for comparison'),)


def check_model(model):
    """Return ``model``; raise ValueError for none, or one of too many joints for a node."""
    if model is None:
        raise ValueError('joint_trajectory_controller needs a model: set robot_description, '
                         'urdf_file, dh_file or model')
    if model.dof > bounds.MAX_NODE_JOINTS:
        raise ValueError(bounds.too_many_joints(model))
    return model


def check_settings(joint_names, kp, kd, policy):
    """Raise ValueError for gains that are not 1 or n finite values >= 0, or a bad policy."""
    check_gains('kp', kp, joint_names)
    check_gains('kd', kd, joint_names)
    if policy not in POLICIES:
        raise ValueError(f'feasibility: {policy!r}; use one of {POLICIES}')


class ModelTracker:
    """A model, its merged joint states, the goal running and the bounded command."""

    def __init__(self, model, end, warn):
        self.model = model
        self.joint_names = list(model.joint_names)
        self.merge = JointStateMerge.for_model(model)      # refuses implausible jumps
        self.state_bounds = bounds.StateBounds(model)
        self.message_limit = message_joint_limit(model)
        self.saturation = Saturation(self.joint_names, model.effort_limit)
        self.lifecycle = GoalLifecycle(end, warn)

    def command(self, q, qd, now_ns, kp, kd, feedforward=True, reaction=NOTHING, why=''):
        """Return ``(command, desired, goal)`` for the state ``q, qd`` at ``now_ns``.

        ``reaction``: the collision reaction of this step (``why``: its text, the abort's);
        ``command`` is saturated at the effort limits (BadInput: not finite, nothing to send);
        ``goal``: the ActiveGoal running, judged by :meth:`judge` once the command is out.
        """
        desired, goal = self.lifecycle.step(q, qd, now_ns, reaction.abort and why,
                                            reaction.hold)
        tau = gravity_torques(self.model, q) if reaction.gravity_only else \
            feedback_torque(self.model, q, qd, desired, kp, kd, feedforward)
        return self.saturation.apply(tau), desired, goal

    def status(self, window, infeasible=''):
        """Return ``(warning, text)``: how the tracking went in the last ``window`` s.

        A warning: commands saturated, or ``infeasible`` (a motion beyond the limits executed,
        feasibility ``warn``) while it runs; else 'following' or 'holding'.
        """
        saturated = self.saturation.recent(window)
        if saturated:
            return True, (f'commands saturated at the effort limits in the last {window:.1f} '
                          f's: {saturated}')
        state = self.lifecycle.state
        following = state is not None and self.lifecycle.follower.moving(state[2])
        if following and infeasible:
            return True, f'infeasible trajectory executed: {infeasible}'
        return False, 'following' if following else 'holding'

    def judge(self, goal, q, qd, desired, now_ns, policy):
        """End ``goal`` if the state decides it (success, a tolerance violated)."""
        if goal is not None:
            self.lifecycle.judge(goal, self.joint_names, q, qd, desired[0], now_ns, policy)
