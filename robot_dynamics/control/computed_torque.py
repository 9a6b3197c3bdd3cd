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
"""Computed torque on another node's model terms, without a model: the demo controller's law.

``tau = tau_ff + M(q) (Kp e + Kd ė)`` with ``e = q_d - q`` (Craig §10.5, eq. 10.41), where
the dynamics node supplies ``tau_ff`` (the feed-forward of its desired motion) and ``M(q)``.
:class:`ModelTermsLoop` keeps what the computed_torque_controller knows: the joint order
(learnt from the dynamics node, or set), the merged joint state, the latest model terms and the
motion followed; :meth:`~ModelTermsLoop.torque` is one step. A motion is read as every node
reads one (:func:`~robot_dynamics.control.goals.commanded_motion`), the dynamics node's
accepted motion joined from this controller's own state when the transit explains the gap
(``join_in_transit``; an arm still at its first point starts it late, whole), and bounded by
any joint's plausible speed and acceleration
(:func:`~robot_dynamics.control.policies.check_motion`). No ROS here.
"""

import numpy as np

from robot_dynamics.control.command_bounds import Saturation
from robot_dynamics.control.controller_settings import Setting, check_gains
from robot_dynamics.control.goals import GoalRules, NeedsState, commanded_motion
from robot_dynamics.control.joint_states import JointStateMerge
from robot_dynamics.control.policies import check_motion
from robot_dynamics.control.tracking import MotionFollower
from robot_dynamics.errors import BadInput
from robot_dynamics.model import bounds

RULES = GoalRules(allow_partial_joints_goal=True, join_in_transit=True)
#: The inputs a command needs, and what to check when one is silent (/diagnostics).
INPUT_FIXES = {
    'feedforward_joint_states': 'the joint order is unknown: set `joints`, or start the dynamics '
                                'node (it publishes its order there while subscribed)',
    'joint_states': 'is the driver or simulator publishing joint_states here (ros2 topic hz '
                    'joint_states; check the remapping)?',
    'mass_matrix': 'is the dynamics node running on the same joint_states and remapped to this '
                   "controller's mass_matrix (ros2 topic hz mass_matrix)?",
    'feedforward_torques': 'is the dynamics node running and remapped to this controller\'s '
                           'feedforward_torques (or set use_feedforward false)?'}
SETTINGS = (Setting('use_feedforward', True, 'add the feed-forward torques of the dynamics node'),
            Setting('effort_limits', [0.0], 'saturate the command at these efforts, N m or N '
                    '(one per joint; [0.0]: none)', read_only=True))


def check_positions(joint_names, q):
    """Refuse positions no joint reaches (no model here: ``bounds.MAX_POSITION``)."""
    bound = bounds.MAX_POSITION['revolute']
    bad = np.flatnonzero(~(np.abs(q) <= bound))
    if bad.size:
        raise BadInput(f'position[{joint_names[bad[0]]}] = {q[bad[0]]:.6g}, beyond the '
                       f'plausible {bound:g} of any joint; publish positions in rad or m')


def effort_bound(joint_names, limits):
    """Return the :class:`Saturation` of ``limits`` (one, or one per joint; <= 0: none)."""
    limits = np.asarray(limits, dtype=float).reshape(-1)
    limits = np.broadcast_to(limits, (len(joint_names),)) if limits.size == 1 else limits
    return Saturation(joint_names, np.where(limits > 0, limits, np.inf))


class ModelTermsLoop:
    """What the computed_torque_controller knows, and its control step, without ROS."""

    def __init__(self, joint_names=None):
        self.joint_names = joint_names
        self.follower = MotionFollower()    # the motion followed, else a hold
        self.state = None       # (q, qd, time of the latest state in ns, joint names)
        self.merge = None       # JointStateMerge of the controlled joints
        self.feedforward = self.mass = None
        self.pending = None     # a TrajectoryRequest not read yet (no joint order or state)
        self.followed = None    # the request the followed motion was read from
        self.saturation = None  # the command bound of the controlled joints, once known

    def control_joints(self, names):
        """Control ``names`` in this order: what was read in another order is read again."""
        self.joint_names = names
        self.state = self.merge = self.feedforward = self.mass = self.saturation = None
        if self.follower.following and self.pending is None:
            self.pending = self.followed
        self.follower = MotionFollower()

    def order_refusal(self, names, fixed, kp, kd):
        """Say why the dynamics node's joint order ``names`` is not taken, or ''.

        ``fixed``: the order was set (``joints``); ``kp``, ``kd``: the gains, which must fit.
        """
        if fixed:
            return (f'the dynamics node publishes joints {names}, the controller expects '
                    f'{self.joint_names}: set the same `joints` on both')
        if not names or len(set(names)) != len(names):
            return f'feedforward_joint_states: unusable names {names}'
        try:
            check_gains('kp', kp, names)
            check_gains('kd', kd, names)
        except ValueError as exc:
            return f'cannot control joints {names}: {exc}'
        return ''

    def watched(self, feedforward):
        """Return the inputs a command needs now (the joint order until it is known)."""
        return ([] if self.joint_names else ['feedforward_joint_states']) + \
            ['joint_states', 'mass_matrix'] + (['feedforward_torques'] if feedforward else [])

    def bound(self, limits):
        """Return the command bound of ``limits`` (see :func:`effort_bound`), kept per order."""
        if self.saturation is None:
            self.saturation = effort_bound(self.joint_names, limits)
        return self.saturation

    def merger(self):
        """Return the JointStateMerge of the controlled joints (jumps refused)."""
        if self.merge is None or self.merge.joint_names != tuple(self.joint_names):
            self.merge = JointStateMerge.unmodelled(self.joint_names)
        return self.merge

    def measured(self, stamp_ns):
        """Keep the merged state at ``stamp_ns`` once every joint is known; tell if kept."""
        merged = self.merge.state()
        if merged is None:
            return False
        self.state = (merged[0], merged[1], stamp_ns, self.joint_names)
        return True

    def current(self, now, timeout):
        """Return ``(q, qd)`` of a state of the controlled joints fresh at ``now`` s, or None."""
        if self.state is None or self.state[3] != self.joint_names or \
                now - self.state[2] * 1e-9 > timeout:
            return None
        return self.state[:2]

    def accept(self, now_ns, timeout):
        """Follow the pending request from the current state (kept while there is none).

        ``now_ns``: the clock. Raise GoalError for a request refused (it is dropped).
        """
        current = self.current(now_ns * 1e-9, timeout)
        at = now_ns if current is None else self.state[2]
        request, self.pending = self.pending, None
        try:
            motion = commanded_motion(request, self.joint_names, current, at, None, RULES,
                                      ended_ok=True)           # latched: read late
        except NeedsState:
            self.pending = request          # taken with the first complete joint state
            return
        check_motion(motion, self.joint_names)
        self.follower.follow(motion.trajectory)
        self.followed = request

    def waiting(self, feedforward=True):
        """Tell whether a term the command needs is missing (the dynamics node's)."""
        return self.mass is None or self.state is None or \
            bool(feedforward) and self.feedforward is None

    def torque(self, kp, kd, timeout, feedforward=True, gravity=None, hold=False,
               gravity_only=False):
        """Return ``(tau, q_d, note)`` for the latest state (see :meth:`waiting` first).

        ``kp``, ``kd``: gains (n,); ``gravity``: G(q) of the dynamics node or None, the
        feed-forward of a hold (after a collision: ``hold``) and the whole command while in
        contact with ``gravity_only`` (comply). ``note``: '' or why the motion was dropped.
        """
        q, qd, now_ns, _ = self.state
        note = ''
        gap = self.follower.outage(now_ns, timeout)
        if gap is not None:          # nothing was commanded meanwhile: hold where it is now
            self.follower.stop(q, qd, now_ns)
            note = (f'joint_states resumed after {gap:.3g} s without a command: the motion is '
                    'dropped and the arm held where it is (issue 31)')
        if hold:
            self.follower.stop(q, qd, now_ns)
        gravity = gravity if gravity is not None and len(gravity) == len(q) else None
        q_d, qd_d, _ = self.follower.desired(q, qd, now_ns)
        with np.errstate(all='ignore'):      # the caller checks: nothing non-finite goes out
            tau = self.mass @ (kp * (q_d - q) + kd * (qd_d - qd))
            if feedforward:
                tau = tau + (gravity if gravity is not None and not self.follower.following
                             else self.feedforward)
            if gravity_only and gravity is not None:
                tau = gravity
        return tau, q_d, note
