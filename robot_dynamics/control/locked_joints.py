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
"""Locked side branches that follow measured joint positions (a gripper opening and closing).

ROS-free: the dynamics node feeds :meth:`LockedJointTracker.update` with each ``joint_states``
message's names and positions and, when it returns a model, rebuilds its outputs from it. The
model is re-merged by :meth:`RobotModel.with_locked_positions
<robot_dynamics.model.RobotModel.with_locked_positions>` (about 0.1 ms of merging, ~0.5 ms
with the model's validation): no code is generated or compiled.
"""

import math

from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds


def parse_locked_joints(entries, what='locked_joints'):
    """``['NAME=VALUE', …]`` → ``{name: value}`` (rad or m); ValueError naming the bad entry."""
    positions = {}
    for entry in entries or []:
        name, sep, value = str(entry).partition('=')
        try:
            number = float(value)
        except ValueError:
            sep = ''
        if not sep or not name.strip() or not math.isfinite(number):
            raise ValueError(f'{what}: {entry!r} is not NAME=VALUE with a finite value; give '
                             "e.g. ['finger_joint1=0.04'] (rad or m)")
        positions[name.strip()] = number
    return positions


class LockedJointTracker:
    """Re-merge a model's locked branches at measured positions, rate-limited.

    A re-merge happens when a measured locked joint differs from the model's position by more
    than ``threshold`` (rad or m), at most ``max_rate`` times per second (0: never). A measured
    position that is not finite or lies outside the joint's limits (widened by
    :data:`~robot_dynamics.model.bounds.POSITION_MARGIN`) is refused before any merging.
    :attr:`model` is the latest re-merged source model that was :meth:`accept`-ed;
    :attr:`problem` the reason the latest reading was not used ('' once one is).
    """

    def __init__(self, model, threshold=1e-3, max_rate=10.0):
        self.model = model
        self.threshold = float(threshold)
        self.period = math.inf if max_rate <= 0 else 1.0 / max_rate
        self.remerges = 0
        self.problem = ''
        self._last = -math.inf

    def update(self, names, positions, now):
        """Return a re-merged candidate model, or None when nothing (or not yet) needs it.

        ``names``, ``positions``: a JointState's ``name`` and ``position``; ``now``: seconds
        (a monotonic clock). Raise :class:`~robot_dynamics.errors.PlausibilityError`, naming
        the joint, its value and its limits, for an implausible locked position: nothing
        changes. The candidate replaces :attr:`model` only when passed to :meth:`accept`, so
        that a re-merge refused later leaves the last good positions in place.
        """
        locked = self.model.locked_joints
        if not locked or math.isinf(self.period) or len(positions) != len(names):
            return None
        measured = {name: float(value) for name, value in zip(names, positions)
                    if name in locked}
        if not measured:
            return None
        try:
            bounds.check_locked_positions(self.model, measured)
        except PlausibilityError as exc:
            self.problem = str(exc)
            raise
        self.problem = ''
        if now - self._last < self.period or not any(
                abs(value - locked[name]) > self.threshold for name, value in measured.items()):
            return None
        self._last = now                  # a refused candidate waits out the period too
        return self.model.with_locked_positions(measured)

    def accept(self, model):
        """Make ``model`` (a candidate from :meth:`update`) the current one."""
        self.model = model
        self.remerges += 1

    def values(self):
        """Return the /diagnostics key-values: the locked positions, the re-merges so far."""
        return {'locked_joints': ', '.join(f'{name}={value:.6g}' for name, value
                                           in self.model.locked_joints.items()),
                'locked_joints_remerges': str(self.remerges)}
