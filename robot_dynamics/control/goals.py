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
"""Trajectory requests, their checks, and the motion they command from the current state.

A request is a ``JointTrajectory`` as arrays (:class:`TrajectoryRequest`). The checks and
error codes are those of ros2_control's joint_trajectory_controller (docs/controllers.md):
unknown, repeated or (unless ``allow_partial_joints_goal``) missing joint names are
INVALID_JOINTS; no points, NaN or inf, implausible values, times that do not increase
strictly, positions outside the joint limits, a last point that still moves (unless
``allow_nonzero_velocity_at_trajectory_end``) are INVALID_GOAL; a stamp further in the past
than the trajectory lasts is OLD_HEADER_TIMESTAMP.

The one rule of this module (issue 30): **what is checked is what will be commanded.**
:func:`commanded_motion` builds, at the moment of acceptance, the motion the controller will
actually follow: from the arm's current state (time 0 = the state's time) through the points
still ahead on the request's own timeline (a zero stamp: now). Points whose time has come are
skipped (and a first point at most ``JOIN_SLACK`` ahead where the arm already is: a stamp a
little newer than the state); a stamp in the future is reached by moving at once, as upstream
does. A request whose timeline has begun (a stamp in the past, a first point at time 0) must
find the arm where it puts it now, within ``hold_tolerance``; otherwise following it would
rush or step the arm, and ``jump`` says so, for a policy that refuses or re-times it
(:mod:`~robot_dynamics.control.policies`); one that has ended holds its last point when the
arm is there. A controller that reads another node's accepted motion (``join_in_transit``:
its first point is that node's state at its stamp, a little older than this one's) joins it
from its own state when the arm's own motion over the message's age explains the gap
(:func:`_joins_in_transit`); an arm still at the first point of a motion read late starts
it now, whole (:func:`_starts_late`); any other gap is still a step. Positions-only
requests are straight lines with parabolic blends, from the current velocity to rest
(:func:`~robot_dynamics.simulation.trajectory.parabolic_blends`), whose velocities and
accelerations are part of what is judged. No rclpy here.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.control.trajectory import DesiredTrajectory, hold
from robot_dynamics.errors import bounded
from robot_dynamics.model import bounds
from robot_dynamics.simulation.trajectory import parabolic_blends, sample_waypoints

# control_msgs/action/FollowJointTrajectory Result codes (kept here: the library must import
# where control_msgs is absent).
SUCCESSFUL = 0
INVALID_GOAL = -1
INVALID_JOINTS = -2
OLD_HEADER_TIMESTAMP = -3
PATH_TOLERANCE_VIOLATED = -4
GOAL_TOLERANCE_VIOLATED = -5
LIMIT_SLACK = 1e-9                 # rad or m beyond a position limit still taken as on it
MAX_DURATION = 3600.0              # s: the last time_from_start of one trajectory (1 h)
MAX_START_DELAY = 300.0            # s: a header.stamp at most this far ahead of the clock
HOLD_TOLERANCE = 0.01              # rad or m: a last point this close to the arm is "there"
END_VELOCITY_TOLERANCE = 1e-9      # rad/s or m/s: "zero" velocity at the last point
JOIN_SLACK = 0.1                   # s: a first point this close ahead, where the arm is, is now


class GoalError(ValueError):
    """A request the controller refuses: ``code`` (the Result's error_code) and the reason."""

    def __init__(self, code, message):
        super().__init__(bounded(message))
        self.code = code


class NeedsState(GoalError):
    """A request that arrived before any joint state: the motion starts from the state."""


@dataclass(frozen=True)
class TrajectoryRequest:
    """A ``trajectory_msgs/JointTrajectory`` as arrays, in the order of its ``joint_names``.

    ``times`` (K,) ``time_from_start`` in s; ``positions`` (K, m); ``velocities`` and
    ``accelerations`` (K, m) or None when the points give none; ``stamp_ns`` the
    ``header.stamp`` in ns (0: start on receipt).
    """

    joint_names: tuple
    times: np.ndarray
    positions: np.ndarray
    velocities: np.ndarray = None
    accelerations: np.ndarray = None
    stamp_ns: int = 0

    def __post_init__(self):
        """Take sequences as arrays (K,) and (K, m); the shapes are checked when read."""
        setattr_ = object.__setattr__
        setattr_(self, 'joint_names', tuple(self.joint_names))
        setattr_(self, 'times', np.asarray(self.times, dtype=float).reshape(-1))
        for field in ('positions', 'velocities', 'accelerations'):
            value = getattr(self, field)
            if value is not None:
                setattr_(self, field, np.asarray(value, dtype=float).reshape(
                    len(self.times), -1))

    @classmethod
    def from_points(cls, joint_names, times, positions, velocities, accelerations, stamp_ns=0):
        """Build a request from per-point sequences (each point's own list, as a message holds).

        Raise INVALID_GOAL for no points or a point whose values do not number one per name
        (``velocities``/``accelerations`` may be empty on every point).
        """
        names = tuple(joint_names)
        if len(names) > bounds.MAX_JOINT_NAMES:
            raise GoalError(INVALID_JOINTS, f'{len(names)} joint_names, more than '
                            f'{bounds.MAX_JOINT_NAMES}')
        if len(times) > bounds.MAX_TRAJECTORY_POINTS:
            raise GoalError(INVALID_GOAL, f'trajectory has {len(times)} points, more than '
                            f'{bounds.MAX_TRAJECTORY_POINTS}; send it in pieces')
        if not len(times):
            raise GoalError(INVALID_GOAL, 'trajectory has no points')
        columns = {}
        for field, rows in (('positions', positions), ('velocities', velocities),
                            ('accelerations', accelerations)):
            sizes = {len(row) for row in rows}
            if sizes == {len(names)}:
                columns[field] = np.array(rows, dtype=float).reshape(len(times), len(names))
            elif field == 'positions' or sizes != {0}:
                raise GoalError(INVALID_GOAL, f'points[*].{field} have sizes {sorted(sizes)}; '
                                f'give {len(names)} per point (one per joint name) or, for '
                                'velocities and accelerations, none at all')
            else:
                columns[field] = None
        return cls(names, np.asarray(times, dtype=float), columns['positions'],
                   columns['velocities'], columns['accelerations'], int(stamp_ns))


@dataclass(frozen=True)
class GoalRules:
    """How requests are read: upstream's two switches, and the hold tolerance of this module."""

    allow_partial_joints_goal: bool = False
    allow_nonzero_velocity_at_trajectory_end: bool = False
    hold_tolerance: float = HOLD_TOLERANCE
    join_in_transit: bool = False


@dataclass(frozen=True)
class CommandedMotion:
    """The motion a request commands (time 0 = acceptance, current state first) and its story.

    ``skipped``: points whose time had come; ``jump``: '' or the step the request asked for
    (no point ahead, the arm away from the last one), which ``trajectory`` then covers in a
    nominal time that a policy must accept or refuse.
    """

    trajectory: DesiredTrajectory
    skipped: int = 0
    jump: str = ''


def commanded_motion(request, joint_names, current, now_ns, model=None, rules=GoalRules(),
                     ended_ok=False):
    """Return the :class:`CommandedMotion` of ``request`` for the arm at ``current`` now.

    ``joint_names``: the controller's joints (model order); ``current``: ``(q, qd)`` (n,),
    or None before any joint state (then :class:`NeedsState` is raised after the checks that
    need no state); ``now_ns``: the clock (0: simulated time before the first /clock; the
    motion then starts with the clock); ``model``: its joint limits and plausible speeds are
    checked (None: a node without a model, any joint's bounds). ``ended_ok``: a request that
    ended is not OLD_HEADER_TIMESTAMP (a latched trajectory read by a controller that
    joined late): it holds its last point if the arm is there.

    A request whose timeline has begun (its first point's time has come: a stamp in the
    past, or a first point at time_from_start 0) must find the arm where it is at that
    moment, within ``rules.hold_tolerance``; otherwise following it would be a step, and
    ``jump`` says so (the motion from the current state is still built, for a policy that
    re-times it).
    """
    index = _check_names(request.joint_names, joint_names, rules)
    _check_values(request, model, index)
    check_end_velocity(request, rules)
    stamp_ns = _check_timing(request.stamp_ns, request.times, now_ns, ended_ok)
    if current is None:
        raise NeedsState(INVALID_GOAL, 'no joint_states received yet: the motion starts from '
                         'the current state, unknown yet')
    q, qd = (np.asarray(value, dtype=float) for value in current)
    columns = _in_model_order(len(joint_names), index, q, request)
    elapsed = (now_ns - stamp_ns) * 1e-9 if stamp_ns > 0 and now_ns > 0 else 0.0
    start_ns = now_ns if now_ns > 0 else None
    jump = _jump(joint_names, q, elapsed, columns, rules)
    joined = bool(jump) and _joins_in_transit(q, qd, elapsed, columns, rules)
    if jump and not joined and _starts_late(q, qd, elapsed, columns, rules):
        joined, elapsed = True, 0.0         # none of it done: it starts now, from the arm
    jump = '' if joined else jump
    times, positions = columns[:2]
    ahead = times > elapsed
    if not ahead.any():                         # ended: hold the last point, or a step
        if not jump:
            return CommandedMotion(hold(positions[-1], start_ns), times.size)
        return CommandedMotion(_nominal_move(q, positions[-1], start_ns, model), times.size,
                               jump)
    if elapsed >= times[0] and not jump and not joined:    # begun, the arm on it: the plan
        return CommandedMotion(_plan(q, columns, stamp_ns or start_ns),
                               int(np.count_nonzero(~ahead)))
    first = int(np.argmax(ahead))
    if times[first] - elapsed <= JOIN_SLACK and \
            np.all(np.abs(positions[first] - q) <= rules.hold_tolerance):
        ahead[first] = False          # the arm is there already: it starts from that point
    motion = _from_state(q, qd, columns, ahead, elapsed, start_ns)
    return CommandedMotion(motion, int(np.count_nonzero(~ahead)), jump)


def _from_state(q, qd, columns, ahead, elapsed, start_ns):
    """Return the motion from the state (time 0 = now) through the points ``ahead``."""
    times, positions, velocities, accelerations = columns
    times = np.concatenate([[0.0], times[ahead] - elapsed])
    positions = np.vstack([q, positions[ahead]])
    if velocities is None:                      # positions only: lines and parabolic blends
        times, positions, velocities = parabolic_blends(times, positions, qd)
    else:
        velocities = np.vstack([qd, velocities[ahead]])
        if accelerations is not None:
            accelerations = np.vstack([np.zeros_like(q), accelerations[ahead]])
    return DesiredTrajectory(start_ns, times, positions, velocities, accelerations)


def _plan(q, columns, start_ns):
    """Return the request on its own timeline, from ``q`` at rest before its first point.

    What a motion that has begun with the arm on it commands (upstream samples it as it is):
    a controller that reads another node's latched motion follows that very motion.
    """
    times, positions, velocities, accelerations = _reached_from(q, columns)
    if velocities is None:
        times, positions, velocities = parabolic_blends(times, positions, np.zeros_like(q))
    return DesiredTrajectory(start_ns, times, positions, velocities, accelerations)


def _reached_from(q, columns):
    """Return the columns with ``q`` at rest at time 0 first when the first point is later."""
    times, positions, velocities, accelerations = columns
    if times[0] <= 0:
        return columns
    rest = np.zeros((1, q.size))
    return (np.concatenate([[0.0], times]), np.vstack([q, positions]),
            *(None if v is None else np.vstack([rest, v]) for v in (velocities, accelerations)))


def _jump(joint_names, q, elapsed, columns, rules):
    """Describe the step into a request whose timeline has begun away from the arm; or ''.

    The plan is the request as timed, reached from the arm's position at rest before its
    first point (upstream's reading); at ``elapsed`` s into it (a stamp in the past, or a
    first point at time 0) the arm must be where the plan is. A stamp 1 s in the past on a
    2 s move from here puts the plan half-way: following it from here would be twice as
    fast as planned, or a step.
    """
    times = columns[0]
    if elapsed < 0 or elapsed == 0 and times[0] > 0:
        return ''                               # nothing of the plan has happened yet
    times, positions, velocities, accelerations = _reached_from(q, columns)
    planned = sample_waypoints(times, positions, velocities, accelerations, elapsed)[0]
    gap = np.abs(planned - q)
    j = int(np.argmax(gap))
    if gap[j] <= rules.hold_tolerance:
        return ''
    when = ('is at its first point, at time_from_start 0' if elapsed <= 0 else
            'has ended' if elapsed >= times[-1] else
            f'is {elapsed:.6g} s in (header.stamp {elapsed:.6g} s ago)')
    return (f'by now the trajectory {when}, and joint {joint_names[j]} is {gap[j]:.4g} from '
            f'where it puts the arm (more than the hold tolerance {rules.hold_tolerance:g}): '
            'following it would rush or step the arm there')


def _joins_in_transit(q, qd, elapsed, columns, rules):
    """Tell whether a motion begun at another node's state is joined from the arm's own.

    The motion's first point (time 0, its stamp) is the state another node measured; this
    controller's state is ``elapsed`` s newer, and the arm moved meanwhile. At most
    ``max(|qd|, |first velocity|) * elapsed`` per joint (its speed at either end of the transit;
    at rest: nothing), plus the hold tolerance. If both the first point and the motion's
    position now are that close to the arm, the motion is joined from the arm's state now (the
    first point re-anchored there); a larger gap, a motion at rest that has moved on, or one
    that has ended is a step still. Joining never steps the desired motion: at worst it reaches
    the points ahead sooner than planned, as a request sent now would.
    """
    times, positions, velocities, accelerations = columns
    if not rules.join_in_transit or times[0] != 0 or not 0 < elapsed < times[-1]:
        return False
    speed = np.abs(qd) if velocities is None else np.maximum(np.abs(qd), np.abs(velocities[0]))
    allowed = rules.hold_tolerance + speed * elapsed
    planned = sample_waypoints(times, positions, velocities, accelerations, elapsed)[0]
    return bool(np.all(np.abs(positions[0] - q) <= allowed) and
                np.all(np.abs(planned - q) <= allowed))


def _starts_late(q, qd, elapsed, columns, rules):
    """Tell whether the arm is still where a motion begun at another node's state begins.

    A controller that reads the motion ``elapsed`` s after its stamp (a dynamics node
    restarted while the arm was still: the controller discovers it a second later on a loaded
    machine) and whose arm nothing moved meanwhile finds the arm at the first point and the
    plan gone on without it. Joining the plan would rush the arm; the motion starts now
    instead, from the arm's state: the very motion the other node judged, late by
    ``elapsed`` (its feed-forward ahead by as much until it ends). At the first point: every
    joint within the hold tolerance of its position, and of its velocity times ``JOIN_SLACK``.
    Only while the plan is still under way: a motion whose plan has ended (a controller
    started long after it was accepted) never sets the arm moving; it is a step, held.
    """
    times, positions, velocities = columns[:3]
    if not rules.join_in_transit or times[0] != 0 or not 0 < elapsed < times[-1]:
        return False
    velocity = np.zeros_like(qd) if velocities is None else velocities[0]
    return bool(np.all(np.abs(positions[0] - q) <= rules.hold_tolerance) and
                np.all(np.abs(velocity - qd) * JOIN_SLACK <= rules.hold_tolerance))


def _nominal_move(q, target, start_ns, model):
    """Return a rest-to-rest quintic from ``q`` to ``target`` at the joints' speed limits."""
    speed = np.full(q.size, bounds.MAX_VELOCITY) if model is None else \
        np.where(np.isfinite(model.velocity_limit), model.velocity_limit, bounds.MAX_VELOCITY)
    duration = max(float(np.max(15.0 / 8.0 * np.abs(target - q) / speed)), 1e-3)
    zero = np.zeros((2, q.size))
    return DesiredTrajectory(start_ns, np.array([0.0, duration]), np.array([q, target]),
                             zero, zero.copy())


def _check_names(names, joint_names, rules):
    """Raise INVALID_JOINTS for no, repeated, unknown or (by the rules) missing names."""
    names, joint_names = list(names), list(joint_names)
    if not names:
        raise GoalError(INVALID_JOINTS, 'trajectory.joint_names is empty; name the joints')
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise GoalError(INVALID_JOINTS, f'joint_names repeat {_names(repeated)}; name each '
                        'joint once')
    unknown = [name for name in names if name not in joint_names]
    if unknown:
        raise GoalError(INVALID_JOINTS, f'unknown joints {_names(unknown)}; this controller '
                        f'has {joint_names}')
    missing = [name for name in joint_names if name not in names]
    if missing and not rules.allow_partial_joints_goal:
        raise GoalError(INVALID_JOINTS, f'joints {missing} are missing; name every joint, or '
                        'set allow_partial_joints_goal (the others then hold where they are)')
    return [joint_names.index(name) for name in names]


def _names(names, limit=200):
    """Quote ``names`` for a message, each cut to ``limit`` characters (a 1 MB name...)."""
    return [name if len(name) <= limit else name[:limit] + f'... ({len(name)} characters)'
            for name in names[:20]]


def _check_values(request, model, index):
    """Raise INVALID_GOAL for non-finite, implausible or out-of-limit values, or a moving end."""
    names, times = request.joint_names, request.times
    if not np.all(np.isfinite(times)) or times[0] < 0 or np.any(np.diff(times) <= 0):
        shown = ', '.join(f'{t:.9g}' for t in times[:8])
        raise GoalError(INVALID_GOAL, 'time_from_start must be >= 0 and increase strictly '
                        f'from point to point (got [{shown}{", ..." if times.size > 8 else ""}])')
    if request.accelerations is not None and request.velocities is None:
        raise GoalError(INVALID_GOAL, 'points[*].accelerations given without velocities; '
                        'give velocities too, or neither')
    speed = np.full(len(index), bounds.MAX_VELOCITY) if model is None else \
        bounds.velocity_bounds(model)[index]
    for field, values, bound in (('positions', request.positions, np.inf),
                                 ('velocities', request.velocities, speed),
                                 ('accelerations', request.accelerations,
                                  bounds.MAX_ACCELERATION)):
        if values is None:
            continue
        bad = np.argwhere(~(np.abs(values) <= bound))          # NaN and inf fail too
        if bad.size:
            k, j = bad[0]
            why = 'NaN or inf' if not np.isfinite(values[k, j]) else \
                f'beyond the plausible {np.broadcast_to(bound, (len(index),))[j]:.3g}'
            raise GoalError(INVALID_GOAL, f'points[{k}].{field} of joint {names[j]!r} is '
                            f'{values[k, j]:.6g}: {why}')
    if model is not None:
        lower, upper = model.lower_limit[index], model.upper_limit[index]
        outside = (request.positions < lower - LIMIT_SLACK) | \
            (request.positions > upper + LIMIT_SLACK)
        if np.any(outside):
            k, j = np.argwhere(outside)[0]
            raise GoalError(INVALID_GOAL, f'points[{k}].positions: joint {names[j]} at '
                            f'{request.positions[k, j]:.6g} is outside its limits '
                            f'[{lower[j]:.6g}, {upper[j]:.6g}]')


def check_end_velocity(request, rules):
    """Raise INVALID_GOAL if the last point moves, unless the rules allow it (upstream)."""
    if request.velocities is None or rules.allow_nonzero_velocity_at_trajectory_end:
        return
    last = request.velocities[-1]
    moving = np.flatnonzero(np.abs(last) > END_VELOCITY_TOLERANCE)
    if moving.size:
        j = moving[0]
        raise GoalError(INVALID_GOAL, f'the last point has velocity {last[j]:.6g} on joint '
                        f'{request.joint_names[j]!r}: a trajectory must end at rest, or set '
                        'allow_nonzero_velocity_at_trajectory_end')


def _check_timing(stamp_ns, times, now_ns, ended_ok):
    """Return ``stamp_ns``; raise for an old or far-future stamp or an absurd duration."""
    if times[-1] > MAX_DURATION:
        raise GoalError(INVALID_GOAL, f'points[{len(times) - 1}].time_from_start is '
                        f'{times[-1]:.6g} s, longer than MAX_DURATION = {MAX_DURATION:g} s; '
                        'send the motion in pieces')
    if stamp_ns < 0 or (not ended_ok and stamp_ns > 0 and
                        stamp_ns + times[-1] * 1e9 < now_ns):
        raise GoalError(OLD_HEADER_TIMESTAMP, f'header.stamp {_seconds(stamp_ns)} is more '
                        f'than the trajectory\'s {times[-1]:.6g} s in the past (now '
                        f'{_seconds(now_ns)}); stamp 0 starts on receipt')
    if now_ns > 0 and stamp_ns > now_ns + MAX_START_DELAY * 1e9:
        raise GoalError(INVALID_GOAL, f'header.stamp is {(stamp_ns - now_ns) * 1e-9:.6g} s '
                        f'ahead of the clock, more than MAX_START_DELAY = {MAX_START_DELAY:g} '
                        's; stamp 0 starts on receipt (check the clocks and use_sim_time)')
    return stamp_ns


def _seconds(ns):
    """Format a clock time for a message: seconds with ms, or ns below a millisecond."""
    return f'{ns * 1e-9:.3f} s' if abs(ns) >= 10 ** 6 else f'{ns} ns'


def _in_model_order(dof, index, q, request):
    """Columns in model order; joints the request leaves out hold ``q`` at rest."""
    def spread(values, fill):
        if values is None:
            return None
        out = np.tile(fill, (len(request.times), 1))
        out[:, index] = values
        return out
    rest = np.zeros(dof)
    return (request.times, spread(request.positions, q), spread(request.velocities, rest),
            spread(request.accelerations, rest))
