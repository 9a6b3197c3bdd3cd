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
"""FollowJointTrajectory goals: validation with the upstream error codes, tolerances, policy.

The semantics of ros2_control's joint_trajectory_controller (docs/controllers.md, "Goals"):
unknown or repeated joint names are INVALID_JOINTS; no points, wrong vector
lengths, non-finite values, times that do not increase strictly, positions outside the joint
limits are INVALID_GOAL; a stamp further in the past than the trajectory lasts is
OLD_HEADER_TIMESTAMP. Joints the goal leaves out are held where they are. A first point after
``time_from_start`` 0 is reached from the current state, as upstream does.

A ``JointTolerance`` of 0 takes the controller's default for that joint, -1 removes the check,
a positive value replaces it. Works on the message objects only: no rclpy here.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.analysis import feasibility
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.nodes.trajectory_input import MAX_JOINT_NAMES
from robot_dynamics.nodes.conversions import stamp_to_nanoseconds, stamp_to_seconds
from robot_dynamics.nodes.trajectory_sampling import DesiredTrajectory
from robot_dynamics.simulation.trajectory import segment_peaks

# control_msgs/action/FollowJointTrajectory Result codes (kept here: the package must import
# where control_msgs is absent).
SUCCESSFUL = 0
INVALID_GOAL = -1
INVALID_JOINTS = -2
OLD_HEADER_TIMESTAMP = -3
PATH_TOLERANCE_VIOLATED = -4
GOAL_TOLERANCE_VIOLATED = -5
POLICIES = ('reject', 'warn', 'scale')
LIMIT_SLACK = 1e-9                 # rad or m beyond a position limit still taken as on it
MAX_DURATION = 3600.0              # s: the last time_from_start of one trajectory (1 h)
MAX_START_DELAY = 300.0            # s: a header.stamp at most this far ahead of the clock


class GoalError(ValueError):
    """A goal the controller refuses: ``code`` (the Result's error_code) and the reason."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class NeedsState(GoalError):
    """A trajectory that starts from the current state, before any joint state was received."""


@dataclass(frozen=True)
class Tolerances:
    """Per-joint tolerances (n,), ``inf`` where unchecked; ``goal_time`` in s."""

    path_position: np.ndarray
    goal_position: np.ndarray
    goal_velocity: np.ndarray
    goal_time: float


def _check_names(names, joint_names):
    """Raise INVALID_JOINTS for no, repeated or unknown names; return their indices."""
    joint_names = list(joint_names)
    if not names:
        raise GoalError(INVALID_JOINTS, 'trajectory.joint_names is empty; name the joints')
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise GoalError(INVALID_JOINTS, f'joint_names repeat {repeated}; name each joint once')
    unknown = [name for name in names if name not in joint_names]
    if unknown:
        raise GoalError(INVALID_JOINTS, f'unknown joints {unknown}; this node has '
                        f'{joint_names}')
    return [joint_names.index(name) for name in names]


def _columns(msg, count):
    """Return ``times, positions, velocities, accelerations`` of the points (goal order)."""
    if not msg.points:
        raise GoalError(INVALID_GOAL, 'trajectory has no points')
    times = np.array([stamp_to_seconds(p.time_from_start) for p in msg.points])
    columns = {}
    for field in ('positions', 'velocities', 'accelerations'):
        rows = [np.asarray(getattr(p, field), dtype=float) for p in msg.points]
        if all(row.size == count for row in rows):
            columns[field] = np.array(rows)
        elif field == 'positions' or any(row.size for row in rows):
            sizes = sorted({row.size for row in rows})
            raise GoalError(INVALID_GOAL, f'points[*].{field} have sizes {sizes}; give '
                            f'{count} per point (one per joint name) or, for velocities and '
                            'accelerations, none at all')
        else:
            columns[field] = None
    for field, value in columns.items():
        if value is not None and not np.all(np.isfinite(value)):
            raise GoalError(INVALID_GOAL, f'points[*].{field} contain NaN or inf')
    if times[0] < 0 or np.any(np.diff(times) <= 0):
        raise GoalError(INVALID_GOAL, 'time_from_start must be >= 0 and increase strictly '
                        f'from point to point (got {np.round(times, 6).tolist()[:8]} ...)')
    return times, columns['positions'], columns['velocities'], columns['accelerations']


def _check_limits(model, positions, index, names):
    """Raise INVALID_GOAL for a position outside the model's joint limits (None: no model)."""
    if model is None:
        return
    lower, upper = model.lower_limit[index], model.upper_limit[index]
    outside = (positions < lower - LIMIT_SLACK) | (positions > upper + LIMIT_SLACK)
    if np.any(outside):
        k, j = np.argwhere(outside)[0]
        raise GoalError(INVALID_GOAL, f'points[{k}].positions: joint {names[j]} at '
                        f'{positions[k, j]:.6g} is outside its limits [{lower[j]:.6g}, '
                        f'{upper[j]:.6g}]')


def goal_trajectory(msg, model, current, now_ns):
    """Return the goal's :class:`DesiredTrajectory` in model order, or raise :class:`GoalError`.

    ``current`` is ``(q, qd)`` (n,) now: joints the goal leaves out hold ``q``; a first point
    after time 0 is reached from ``current`` (at rest in acceleration). ``now_ns`` is the clock
    (0: simulated time before the first /clock; a zero stamp then starts with the clock).
    """
    return timed_trajectory(msg, model.joint_names, current, now_ns, model)


def timed_trajectory(msg, joint_names, current, now_ns, model=None, ended_ok=False):
    """:func:`goal_trajectory` for ``joint_names``; positions checked against ``model``'s limits.

    The one reading of a JointTrajectory for every node (dynamics node, both controllers):
    ``current`` may be None when the message needs no current state (every joint named, first
    point at time 0); otherwise INVALID_GOAL says that no joint state was received yet.
    Durations beyond :data:`MAX_DURATION` and starts more than :data:`MAX_START_DELAY` ahead
    of ``now_ns`` are INVALID_GOAL. ``ended_ok``: a trajectory that has already ended is held
    at its last point rather than refused (a latched ``accepted_trajectory``, checked by the
    dynamics node, received by a controller that joined late).
    """
    if len(msg.points) > bounds.MAX_TRAJECTORY_POINTS:        # before converting them
        raise GoalError(INVALID_GOAL, f'trajectory has {len(msg.points)} points, more than '
                        f'{bounds.MAX_TRAJECTORY_POINTS}; send it in pieces')
    names = list(msg.joint_names)
    if len(names) > MAX_JOINT_NAMES:
        raise GoalError(INVALID_JOINTS, f'{len(names)} joint_names, more than '
                        f'{MAX_JOINT_NAMES}')
    index = _check_names(names, joint_names)
    times, positions, velocities, accelerations = _columns(msg, len(names))
    _check_limits(model, positions, index, names)
    stamp_ns = _check_timing(msg.header.stamp, times, 0 if ended_ok else now_ns, now_ns)
    if current is None and (times[0] > 0 or len(names) < len(joint_names)):
        raise NeedsState(INVALID_GOAL, 'no joint_states received yet: the first point is at '
                         f'time_from_start {times[0]:.6g} s or joints are left out, so the '
                         'motion starts from the current state, unknown yet')
    q, qd = (None, None) if current is None else (np.asarray(v, dtype=float) for v in current)
    full = _in_model_order(len(joint_names), index, q, times, positions, velocities,
                           accelerations)
    if times[0] > 0:                                   # start from where the arm is
        full = _prepend_current(full, q, qd)
    start_ns = stamp_ns if stamp_ns > 0 else now_ns if now_ns > 0 else None
    return DesiredTrajectory(start_ns, *full)


def check_motion(trajectory, joint_names):
    """Raise INVALID_GOAL for a motion beyond the bounds of any joint (a node without a model).

    The interpolation's peak speed and acceleration against ``bounds.MAX_VELOCITY`` and
    ``bounds.MAX_ACCELERATION`` (a node with the model checks its own limits:
    :func:`apply_policy`).
    """
    if len(trajectory.times) < 2:
        return
    peaks = segment_peaks(trajectory.times, trajectory.positions, trajectory.velocities,
                          trajectory.accelerations)
    for label, values, bound in zip(('velocity', 'acceleration'), peaks,
                                    (bounds.MAX_VELOCITY, bounds.MAX_ACCELERATION)):
        bad = np.argwhere(~(np.asarray(values) <= bound))
        if bad.size:
            k, j = bad[0]
            raise GoalError(INVALID_GOAL, f'trajectory {label} of {joint_names[j]!r} reaches '
                            f'{values[k, j]:.3g} between t = {trajectory.times[k]:.6g} s and '
                            f'{trajectory.times[k + 1]:.6g} s (from the current state to the '
                            f'first point included), beyond the plausible {bound:.3g}; space '
                            'the points further apart in time')


def _check_timing(stamp, times, old_before_ns, now_ns):
    """Return ``stamp`` in ns; raise for an old or far-future stamp or an absurd duration.

    Old: the trajectory ended before ``old_before_ns`` (0: never old).
    """
    if times[-1] > MAX_DURATION:
        raise GoalError(INVALID_GOAL, f'points[{len(times) - 1}].time_from_start is '
                        f'{times[-1]:.6g} s, longer than MAX_DURATION = {MAX_DURATION:g} s; '
                        'send the motion in pieces')
    stamp_ns = stamp_to_nanoseconds(stamp)
    if stamp.sec < 0 or (stamp_ns > 0 and stamp_ns + times[-1] * 1e9 < old_before_ns):
        raise GoalError(OLD_HEADER_TIMESTAMP, f'header.stamp {stamp_ns * 1e-9:.3f} s is more '
                        f'than the trajectory\'s {times[-1]:.3f} s in the past (now '
                        f'{now_ns * 1e-9:.3f} s); stamp 0 starts on receipt')
    if now_ns > 0 and stamp_ns > now_ns + MAX_START_DELAY * 1e9:
        raise GoalError(INVALID_GOAL, f'header.stamp is {(stamp_ns - now_ns) * 1e-9:.6g} s '
                        f'ahead of the clock, more than MAX_START_DELAY = {MAX_START_DELAY:g} '
                        's; stamp 0 starts on receipt (check the clocks and use_sim_time)')
    return stamp_ns


def _in_model_order(dof, index, q, times, positions, velocities, accelerations):
    """Columns in model order; joints left out hold ``q`` at rest (every joint given: q unused)."""
    def spread(values, fill):
        if values is None:
            return None
        out = np.tile(fill, (len(times), 1))
        out[:, index] = values
        return out
    rest = np.zeros(dof)
    q = rest if q is None else q
    return (times, spread(positions, q), spread(velocities, rest),
            spread(accelerations, rest))


def _prepend_current(full, q, qd):
    """Insert the current state as the point at time 0."""
    times, positions, velocities, accelerations = full
    return (np.concatenate([[0.0], times]), np.vstack([q, positions]),
            None if velocities is None else np.vstack([qd, velocities]),
            None if accelerations is None else np.vstack([np.zeros_like(q), accelerations]))


def tolerances(goal, model, defaults):
    """Merge a goal's ``path_tolerance``/``goal_tolerance`` with ``defaults`` (a Tolerances).

    Raise INVALID_JOINTS for a tolerance that names a joint the controller does not have.
    """
    merged = {name: getattr(defaults, name).copy()
              for name in ('path_position', 'goal_position', 'goal_velocity')}
    for field, targets in (('path_tolerance', (('position', 'path_position'),)),
                           ('goal_tolerance', (('position', 'goal_position'),
                                               ('velocity', 'goal_velocity')))):
        for entry in getattr(goal, field):
            if entry.name not in model.joint_names:
                raise GoalError(INVALID_JOINTS, f'{field} names unknown joint {entry.name!r}')
            j = model.joint_names.index(entry.name)
            for attribute, key in targets:
                value = getattr(entry, attribute)
                if value < 0:
                    merged[key][j] = np.inf
                elif value > 0:
                    merged[key][j] = value
    goal_time = stamp_to_seconds(goal.goal_time_tolerance)
    return Tolerances(**merged, goal_time=goal_time if goal_time > 0 else defaults.goal_time)


def apply_policy(model, trajectory, policy, margin):
    """Check the torque and speed the motion needs; return ``(trajectory, scale, report)``.

    ``reject`` raises INVALID_GOAL with the facts and the scale that would fit; ``warn``
    returns the trajectory unchanged with the report; ``scale`` returns it slowed by the
    smallest k that fits (raises INVALID_GOAL when no k helps). The motion that will run
    must also pass the plausibility bounds (:meth:`DesiredTrajectory.check`: no speed above
    1.5x its limit, ...), checked after the scaling, so that ``scale`` can slow down a
    motion that is too fast to be plausible as it is.
    """
    if policy not in POLICIES:
        raise ValueError(f'feasibility: {policy!r}; use one of {POLICIES}')
    with np.errstate(all='ignore'):      # absurd values give inf torques: refused below
        report = feasibility.check_trajectory(model, trajectory.times, trajectory.positions,
                                              trajectory.velocities,
                                              trajectory.accelerations, margin=margin)
    scale = 1.0
    if policy != 'scale':
        _plausible(model, trajectory, report)
    if not report.feasible and policy == 'reject' or report.scale is None and policy == 'scale':
        raise GoalError(INVALID_GOAL, f'infeasible: {report.message()}')
    if not report.feasible and policy == 'scale':
        scale = report.scale
        trajectory = scaled(trajectory, scale)
    _plausible(model, trajectory)
    return trajectory, scale, report


def _plausible(model, trajectory, report=None):
    """Raise INVALID_GOAL (with the feasibility facts of ``report``) for an absurd motion."""
    try:
        trajectory.check(model)
    except (PlausibilityError, ValueError) as exc:
        facts = '' if report is None or report.feasible else f'; {report.message()}'
        raise GoalError(INVALID_GOAL, f'{exc}{facts}') from None


def scaled(trajectory, k):
    """Return ``trajectory`` slowed by ``k`` (same start, :func:`feasibility.scaled_waypoints`)."""
    times, positions, velocities, accelerations = feasibility.scaled_waypoints(
        trajectory.times, trajectory.positions, trajectory.velocities,
        trajectory.accelerations, k)
    return DesiredTrajectory(trajectory.start_ns, times, positions, velocities, accelerations)
