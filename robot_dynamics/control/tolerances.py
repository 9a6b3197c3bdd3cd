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
"""Path and goal tolerances of a trajectory goal, and the verdict on a state (upstream rules).

As in ros2_control's joint_trajectory_controller: a goal's ``JointTolerance`` of 0 takes the
controller's default for that joint, -1 removes the check, a positive value replaces it; a
``goal_time_tolerance`` of 0 takes the controller's default, and a default of 0 means no
limit: the goal waits for the goal tolerances as long as it takes. During the motion a joint
further from the path than its path tolerance aborts the goal (PATH_TOLERANCE_VIOLATED);
after the end, the goal succeeds once every joint is within its goal position and velocity
tolerances, or aborts (GOAL_TOLERANCE_VIOLATED) when ``goal_time`` has passed first.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.control.goals import (GOAL_TOLERANCE_VIOLATED, INVALID_JOINTS,
                                          PATH_TOLERANCE_VIOLATED, SUCCESSFUL, GoalError)

SUCCESS = 'Goal successfully reached!'     # upstream's error_string on success


@dataclass(frozen=True)
class Tolerances:
    """Per-joint tolerances (n,), ``inf`` where unchecked; ``goal_time`` in s (0: no limit)."""

    path_position: np.ndarray
    goal_position: np.ndarray
    goal_velocity: np.ndarray
    goal_time: float

    @classmethod
    def defaults(cls, dof, path_position, goal_position, goal_velocity, goal_time):
        """Per-joint defaults from scalars or (n,) values: 0 (or less) means unchecked."""
        def per_joint(value):
            value = np.broadcast_to(np.asarray(value, dtype=float), (dof,))
            return np.where(value > 0, value, np.inf)
        return cls(per_joint(path_position), per_joint(goal_position), per_joint(goal_velocity),
                   float(goal_time))


@dataclass(frozen=True)
class Verdict:
    """How a goal ends: ``how`` ('succeed' or 'abort'), the Result's code and error_string."""

    how: str
    code: int
    text: str


def merge_tolerances(defaults, joint_names, path=(), goal=(), goal_time=0.0):
    """Merge a goal's tolerances with ``defaults`` (a :class:`Tolerances`); return the result.

    ``path`` and ``goal``: ``(name, position, velocity)`` per ``JointTolerance`` of the goal's
    ``path_tolerance`` and ``goal_tolerance``; ``goal_time``: its ``goal_time_tolerance`` in
    s. Raise INVALID_JOINTS for a tolerance that names a joint the controller does not have.
    """
    joint_names = list(joint_names)
    merged = {name: getattr(defaults, name).copy()
              for name in ('path_position', 'goal_position', 'goal_velocity')}
    for field, entries, targets in (
            ('path_tolerance', path, ((1, 'path_position'),)),
            ('goal_tolerance', goal, ((1, 'goal_position'), (2, 'goal_velocity')))):
        for entry in entries:
            if entry[0] not in joint_names:
                raise GoalError(INVALID_JOINTS, f'{field} names unknown joint '
                                f'{str(entry[0])[:200]!r}')
            j = joint_names.index(entry[0])
            for column, key in targets:
                value = entry[column]
                if value < 0:
                    merged[key][j] = np.inf
                elif value > 0:
                    merged[key][j] = value
    return Tolerances(**merged, goal_time=goal_time if goal_time > 0 else defaults.goal_time)


def judge(trajectory, tolerances, joint_names, q, qd, q_d, now_ns, note=''):
    """Return the :class:`Verdict` on a goal at state ``q, qd`` (n,), or None: it goes on.

    ``trajectory``: the goal's :class:`~robot_dynamics.control.trajectory.DesiredTrajectory`;
    ``q_d``: its desired position now; ``note``: added to the success text (a slow-down).
    """
    if trajectory.start_ns is None:
        return None
    t = trajectory.elapsed(now_ns)
    end = trajectory.duration
    error = np.abs(q_d - q)
    if t < end:
        bad = np.flatnonzero(error > tolerances.path_position)
        if not bad.size:
            return None
        j = bad[0]
        return Verdict('abort', PATH_TOLERANCE_VIOLATED,
                       f'joint {joint_names[j]} is {error[j]:.4g} from the path at t = '
                       f'{t:.3f} s; path tolerance {tolerances.path_position[j]:.4g}')
    if np.all(error <= tolerances.goal_position) and \
            np.all(np.abs(qd) <= tolerances.goal_velocity):
        return Verdict('succeed', SUCCESSFUL, SUCCESS + (f' ({note})' if note else ''))
    if tolerances.goal_time > 0 and t > end + tolerances.goal_time:
        j = int(np.argmax(np.maximum(error - tolerances.goal_position,
                                     np.abs(qd) - tolerances.goal_velocity)))
        return Verdict('abort', GOAL_TOLERANCE_VIOLATED,
                       f'joint {joint_names[j]} is {error[j]:.4g} from the goal (speed '
                       f'{abs(qd[j]):.4g}) {t - end:.3f} s after the end; goal tolerance '
                       f'{tolerances.goal_position[j]:.4g}, stopped velocity tolerance '
                       f'{tolerances.goal_velocity[j]:.4g}, goal_time_tolerance '
                       f'{tolerances.goal_time:.6g} s')
    return None
