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
"""What a controller asks of the arm at each step: a motion to follow, or a hold; never a step.

:class:`MotionFollower` holds the desired motion of one controller. It starts by holding
where the arm is; :meth:`~MotionFollower.follow` takes an accepted motion (which starts from
the current state: :func:`~robot_dynamics.control.goals.commanded_motion`);
:meth:`~MotionFollower.stop` (a cancel, an aborted goal) brakes the arm to rest from its
current velocity instead of holding the point where it was (a step in velocity). A
controller that commanded nothing for a while (its joint states missing or refused: a
driver restart, a clock change; :meth:`~MotionFollower.outage`) must not resume the old
motion, which would drive the arm back at full torque to where it was before (issue 31):
it re-anchors where the arm is now, braking it from its current velocity. Plain arrays and
integer nanoseconds of the controller's clock: no ROS here.
"""

import numpy as np

from robot_dynamics import api
from robot_dynamics.control.trajectory import braking

BRAKING_DECELERATION = 5.0      # rad/s² or m/s²: how a stop slows each joint to rest


class MotionFollower:
    """The desired motion of one controller (a trajectory, else a hold) and its last step.

    ``deceleration``: scalar or (n,), rad/s² or m/s², of the braking on a stop or re-anchor.
    """

    def __init__(self, deceleration=BRAKING_DECELERATION):
        self.deceleration = deceleration
        self.motion = None          # DesiredTrajectory followed or held
        self.following = False      # True: a trajectory (goal or topic); False: a hold
        self.last_ns = None         # clock time of the last desired state handed out

    def follow(self, trajectory):
        """Follow ``trajectory`` (a DesiredTrajectory that starts from the current state).

        It starts from a fresh state: a silence before it is no outage to re-anchor from.
        """
        self.motion, self.following, self.last_ns = trajectory, True, None

    def stop(self, q, qd, now_ns):
        """Brake from ``q, qd`` (n,) to rest and hold there (cancel, abort, re-anchor)."""
        self.motion = braking(q, qd, now_ns, self.deceleration)
        self.following = False

    def outage(self, now_ns, timeout):
        """Seconds since the last step if more than ``timeout`` (or the clock jumped back)."""
        if self.last_ns is None:
            return None
        gap = (now_ns - self.last_ns) * 1e-9
        return gap if abs(gap) > timeout else None

    def moving(self, now_ns):
        """Tell whether a trajectory is being followed and has not ended at ``now_ns``."""
        return self.following and not self.motion.ended(now_ns)

    def desired(self, q, qd, now_ns):
        """Return the desired ``q, qd, qdd`` (n,) at ``now_ns``; the first call holds ``q``."""
        if self.motion is None:
            self.stop(q, qd, now_ns)
        self.motion = self.motion.started(now_ns)
        self.last_ns = now_ns
        return self.motion.sample(now_ns)


def feedback_torque(model, q, qd, desired, kp, kd, feedforward=True, friction=None):
    """Computed-torque control (Craig §10.5): the torque (n,) for state ``q, qd``.

    ``desired``: ``(q_d, qd_d, qdd_d)``; ``kp``, ``kd``: gains (n,) in 1/s² and 1/s. With the
    model terms, ``tau = ID(q, q̇, q̈_d + Kp e + Kd ė) - F(q̇) + F(q̇_d)``: friction compensated
    at the desired velocity, not the measured one (the Coulomb term's sign at a measured
    velocity near zero switches from step to step: the PUMA 560's 26 N m on joint 1 made the
    demo's RMS error 5x larger). Without (``feedforward`` False): ``tau = M(q)(Kp e + Kd ė)``.
    ``friction``: the friction function ``f(model, qd)`` (default the model's).
    """
    q_d, qd_d, qdd_d = desired
    with np.errstate(all='ignore'):         # the caller checks: nothing non-finite goes out
        feedback = kp * (q_d - q) + kd * (qd_d - qd)
        if not feedforward:
            return api.mass_matrix(model, q) @ feedback
        friction = friction or api.friction_torques
        return api.inverse_dynamics(model, q, qd, qdd_d + feedback) - friction(model, qd) \
            + friction(model, qd_d)
