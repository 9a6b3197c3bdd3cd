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
"""Feasibility policies: what a controller does with a motion beyond the motors' limits.

The motion judged is the one that will be commanded (:func:`~robot_dynamics.control.goals.
commanded_motion`: from the current state, the spline of a positions-only request included),
sampled densely (:func:`robot_dynamics.analysis.feasibility.check_trajectory`): the torque it
needs (inverse dynamics with friction, rotor inertia and payload) against the effort limits,
its speed against the velocity limits. Policies:

- ``reject``: refused (INVALID_GOAL) with the joint, the time, the torque needed, the limit
  and the slow-down that would fit; a step (a request with no point ahead, the arm elsewhere)
  is refused too;
- ``warn``: executed, the facts in the report (a step is still refused: it is not a motion);
- ``scale``: executed slowed by the smallest ``k >= 1`` that fits (Hollerbach's time scaling),
  the first point kept at the measured velocity; a step gets the time it needs;
- ``time_optimal``: executed re-timed along its own path at the fastest timing within the
  velocity limits and ``(1 - margin)`` of the effort limits
  (:func:`robot_dynamics.analysis.retime.retime_goal`, TOPP-RA), from the measured velocity;
  the motion is as fast as the limits allow where they allow it, instead of uniformly slowed.

Every motion that will run must also pass the plausibility bounds
(:meth:`~robot_dynamics.control.trajectory.DesiredTrajectory.check`), after the scaling so
that ``scale`` can slow down a motion that is too fast to be plausible as it is.
"""

import numpy as np

from robot_dynamics.analysis import feasibility
from robot_dynamics.analysis.retime import retime_goal
from robot_dynamics.control.goals import INVALID_GOAL, GoalError
from robot_dynamics.control.trajectory import DesiredTrajectory
from robot_dynamics.errors import InfeasiblePathError, PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.simulation.trajectory import segment_peaks

POLICIES = ('reject', 'warn', 'scale', 'time_optimal')
RETIMED = ('scale', 'time_optimal')   # the policies that re-time a motion beyond the limits
GROWTH = 1.1                 # k grows by this until the motion from the measured state fits


def check(model, trajectory, margin=feasibility.DEFAULT_MARGIN):
    """Return the :class:`~robot_dynamics.analysis.feasibility.FeasibilityReport` of a motion."""
    with np.errstate(all='ignore'):      # absurd values give inf torques: refused as such
        return feasibility.check_trajectory(model, trajectory.times, trajectory.positions,
                                            trajectory.velocities, trajectory.accelerations,
                                            margin=margin)


def apply_policy(model, motion, policy, margin):
    """Judge a :class:`~robot_dynamics.control.goals.CommandedMotion`; return what will run.

    Returns ``(trajectory, scale, report)``: the :class:`DesiredTrajectory` to follow, the
    slow-down ``k`` applied (1.0: none) and the report of the motion as requested. Raises
    :class:`~robot_dynamics.control.goals.GoalError` (INVALID_GOAL) when the policy refuses.
    """
    if policy not in POLICIES:
        raise ValueError(f'feasibility: {policy!r}; use one of {POLICIES}')
    trajectory = motion.trajectory
    report = check(model, trajectory, margin)
    if motion.jump and policy not in RETIMED:
        fits = '' if report.scale is None else \
            f', which re-times it from the current state: ' \
            f'{report.scale * trajectory.duration:.3g} s'
        raise GoalError(INVALID_GOAL, f'{motion.jump}; send it with header.stamp 0 (start on '
                        'receipt) and its first point ahead of time 0, or use feasibility: '
                        f'scale{fits}')
    if policy not in RETIMED:
        _plausible(model, trajectory, report)
    if not report.feasible and policy == 'reject' or report.scale is None and policy == 'scale':
        raise GoalError(INVALID_GOAL, f'infeasible: {report.message()}')
    scale = 1.0
    if not report.feasible and policy == 'scale':
        trajectory, scale = slowed_from_state(model, trajectory, report.scale, margin)
    elif (not report.feasible or motion.jump) and policy == 'time_optimal':
        trajectory = time_optimal(model, trajectory, margin)
        scale = trajectory.duration / motion.trajectory.duration
    _plausible(model, trajectory)
    return trajectory, scale, report


def time_optimal(model, trajectory, margin=feasibility.DEFAULT_MARGIN):
    """Return ``trajectory`` re-timed time-optimally along its own path (1 ms waypoints).

    Within the velocity limits and ``(1 - margin)`` of the effort limits, the model's friction
    counted, from the first point's (measured) velocity to rest at the end; raises
    INVALID_GOAL naming the joint, the place and the torque when the path cannot be followed
    (a pose whose gravity needs more than a joint has, a speed that cannot be stopped).
    """
    try:
        retimed = retime_goal(model, trajectory.times, trajectory.positions,
                              trajectory.velocities, trajectory.accelerations,
                              torque_limits=(1.0 - margin) * model.effort_limit)
    except (InfeasiblePathError, ValueError) as exc:
        raise GoalError(INVALID_GOAL, f'no timing of this path fits the limits: {exc}') from None
    return DesiredTrajectory(trajectory.start_ns, retimed.times - retimed.times[0],
                             retimed.positions, retimed.velocities, retimed.accelerations)


def slowed_from_state(model, trajectory, k, margin=feasibility.DEFAULT_MARGIN):
    """Return ``(trajectory slowed by k', k')``: the smallest tried ``k' >= k`` that fits.

    Slowing by ``k`` divides every velocity by ``k``, that of the first point too, which is
    the arm's measured velocity: it is kept (a velocity step is not what the controller
    should command), and the first segment then differs from the exact scaling, so the
    result is checked again and ``k`` grows by :data:`GROWTH` until it fits. Raises
    INVALID_GOAL when nothing up to ``feasibility.MAX_SCALE`` does.
    """
    while k <= feasibility.MAX_SCALE:
        slowed = scaled(trajectory, k)
        if slowed.velocities is not None:
            slowed.velocities[0] = trajectory.velocities[0]
        if slowed.accelerations is not None:
            slowed.accelerations[0] = trajectory.accelerations[0]
        if check(model, slowed, 0.0).feasible:
            return slowed, k
        k *= GROWTH
    raise GoalError(INVALID_GOAL, f'no slow-down up to {feasibility.MAX_SCALE:g}x fits the '
                    'motion from the current state')


def scaled(trajectory, k):
    """Return ``trajectory`` slowed by ``k`` (same start, :func:`feasibility.scaled_waypoints`)."""
    times, positions, velocities, accelerations = feasibility.scaled_waypoints(
        trajectory.times, trajectory.positions, trajectory.velocities,
        trajectory.accelerations, k)
    return DesiredTrajectory(trajectory.start_ns, times, positions, velocities, accelerations)


def _plausible(model, trajectory, report=None):
    """Raise INVALID_GOAL (with the feasibility facts of ``report``) for an absurd motion."""
    try:
        trajectory.check(model)
    except (PlausibilityError, ValueError) as exc:
        facts = '' if report is None or report.feasible else f'; {report.message()}'
        raise GoalError(INVALID_GOAL, f'{exc}{facts}') from None


def check_motion(motion, joint_names):
    """Raise INVALID_GOAL for a step, or a motion beyond the bounds of any joint (no model).

    For a node without a model (the computed_torque_controller): the interpolation's peak
    speed and acceleration against ``bounds.MAX_VELOCITY`` and ``bounds.MAX_ACCELERATION``.
    """
    if motion.jump:
        raise GoalError(INVALID_GOAL, f'{motion.jump}; send it with header.stamp 0 (start '
                        'on receipt) and its first point ahead of time 0')
    trajectory = motion.trajectory
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
