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
"""A desired motion anchored in time, sampled with the library's waypoint interpolation."""

from dataclasses import dataclass, replace

import numpy as np

from robot_dynamics.model import bounds
from robot_dynamics.simulation.trajectory import sample_waypoints, segment_peaks


@dataclass(frozen=True)
class DesiredTrajectory:
    """Waypoints (in model joint order) and the clock time ``start_ns`` of their time 0.

    Clock times are integer nanoseconds, as in ROS, so that elapsed times are exact.
    ``start_ns`` is None for a motion that arrived while the clock read 0 (simulated time
    before the first ``/clock``): it starts at the first clock time after that
    (:meth:`started`), not at 0, which a clock that begins at 1.7e9 s would have left long
    finished. Before its first waypoint the motion holds the first point, after the last one
    the last point, both at rest (:func:`~robot_dynamics.simulation.trajectory.
    sample_waypoints`).
    """

    start_ns: int
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray = None
    accelerations: np.ndarray = None

    @property
    def duration(self):
        """Seconds from time 0 to the last waypoint."""
        return float(self.times[-1])

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

    def ended(self, now_ns):
        """Tell whether the last waypoint's time has passed at ``now_ns``."""
        return self.start_ns is not None and self.elapsed(now_ns) >= self.times[-1]

    def sample(self, now_ns):
        """Desired ``q, qd, qdd`` (n,) at clock time ``now_ns``; holds the ends."""
        return sample_waypoints(self.times, self.positions, self.velocities,
                                self.accelerations, self.elapsed(now_ns))


def hold(position, start_ns=None):
    """Return the motion that holds ``position`` (n,) at rest."""
    position = np.asarray(position, dtype=float)
    return DesiredTrajectory(start_ns, np.zeros(1), position[None, :].copy())


def braking(q, qd, now_ns, deceleration):
    """Return the motion from ``q, qd`` (n,) to rest at constant ``deceleration`` (n,) > 0.

    Each joint's speed falls linearly to 0 in the same time ``T = max |qd| / deceleration``
    (so no joint decelerates faster than its own value), the position ending at
    ``q + qd T / 2``: the cubic Hermite from ``(q, qd)`` to ``(q + qd T / 2, 0)`` is exactly
    this (its cubic coefficient vanishes). At rest (``T = 0``) it holds ``q``.
    """
    q, qd = np.asarray(q, dtype=float), np.asarray(qd, dtype=float)
    with np.errstate(over='ignore', invalid='ignore'):
        T = float(np.max(np.abs(qd) / np.asarray(deceleration, dtype=float), initial=0.0))
        end = q + qd * T / 2
    if not T > 1e-9 or not np.all(np.isfinite(end)):     # at rest, or an absurd speed
        return hold(q, now_ns)
    return DesiredTrajectory(now_ns, np.array([0.0, T]), np.array([q, end]),
                             np.array([qd, np.zeros_like(qd)]))
