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
"""A received ``JointTrajectory`` anchored in time, sampled with the library's interpolation."""

from dataclasses import dataclass, replace

import numpy as np

from robot_dynamics.model import bounds
from robot_dynamics.nodes.conversions import stamp_to_nanoseconds, trajectory_to_arrays
from robot_dynamics.simulation.trajectory import sample_waypoints, segment_peaks


@dataclass(frozen=True)
class DesiredTrajectory:
    """Waypoints (in model joint order) and the clock time ``start_ns`` of time_from_start 0.

    Clock times are integer nanoseconds, as in ROS, so that elapsed times are exact.
    ``start_ns`` is None for a trajectory to start "on receipt" that arrived while the clock
    read 0 (simulated time before the first ``/clock``): it starts at the first clock time
    after that (:meth:`started`), not at 0, which a clock that begins at 1.7e9 s would have
    left long finished.
    """

    start_ns: int
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray = None
    accelerations: np.ndarray = None

    @classmethod
    def from_message(cls, msg, joint_names, receipt_ns):
        """Convert ``msg``; a zero ``header.stamp`` means "start on receipt" (ROS convention)."""
        times, positions, velocities, accelerations = trajectory_to_arrays(msg, joint_names)
        stamp_ns = stamp_to_nanoseconds(msg.header.stamp)
        start_ns = stamp_ns if stamp_ns > 0 else receipt_ns if receipt_ns > 0 else None
        return cls(start_ns, times, positions, velocities, accelerations)

    def check(self, model):
        """Raise PlausibilityError unless the waypoints and the motion between them are plausible.

        Positions, velocities and accelerations at the waypoints (:func:`bounds.check_trajectory
        <robot_dynamics.model.bounds.check_trajectory>`) and the peaks of the interpolation
        between them (:func:`bounds.check_interpolated
        <robot_dynamics.model.bounds.check_interpolated>`).
        """
        bounds.check_trajectory(model, self.positions, self.velocities, self.accelerations)
        if len(self.times) > 1:
            bounds.check_interpolated(model, self.times, *segment_peaks(
                self.times, self.positions, self.velocities, self.accelerations))

    def started(self, now_ns):
        """Return this trajectory with its start resolved to ``now_ns`` if it had none yet."""
        if self.start_ns is not None or now_ns <= 0:
            return self
        return replace(self, start_ns=now_ns)

    def elapsed(self, now_ns):
        """Seconds since the trajectory's start at clock time ``now_ns`` (0 before it has one)."""
        if self.start_ns is None:
            return 0.0
        return (now_ns - self.start_ns) * 1e-9

    def sample(self, now_ns):
        """Desired ``q, qd, qdd`` (n,) at clock time ``now_ns``; holds the ends."""
        return sample_waypoints(self.times, self.positions, self.velocities,
                                self.accelerations, self.elapsed(now_ns))
