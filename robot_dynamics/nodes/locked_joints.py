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
    than ``threshold`` (rad or m), at most ``max_rate`` times per second (0: never). Non-finite
    measurements are ignored. :attr:`model` is the latest re-merged source model.
    """

    def __init__(self, model, threshold=1e-3, max_rate=10.0):
        self.model = model
        self.threshold = float(threshold)
        self.period = math.inf if max_rate <= 0 else 1.0 / max_rate
        self.remerges = 0
        self._last = -math.inf

    def update(self, names, positions, now):
        """Return the re-merged model, or None when nothing (or not yet) needs re-merging.

        ``names``, ``positions``: a JointState's ``name`` and ``position``; ``now``: seconds
        (a monotonic clock).
        """
        locked = self.model.locked_joints
        if not locked or math.isinf(self.period) or now - self._last < self.period \
                or len(positions) != len(names):
            return None
        measured = {name: float(value) for name, value in zip(names, positions)
                    if name in locked and math.isfinite(value)}
        if not any(abs(value - locked[name]) > self.threshold
                   for name, value in measured.items()):
            return None
        self.model = self.model.with_locked_positions(measured)
        self._last = now
        self.remerges += 1
        return self.model
