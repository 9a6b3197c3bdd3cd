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
"""The rules of the controllers' settings: gains, joint order, tolerances, upstream's names.

The settings themselves (:class:`Setting`: name, default, description, range) and their rules:
plain values in, checked values out; ``value(name)`` is any function that returns a setting's
value (a node's parameter, a dict's entry). The nodes declare the settings as parameters
(``nodes/parameters.py``) and call these. ros2_control's ``constraints.*`` keep
upstream's meaning: -1 (``UNSET``) is "not given" (this controller's setting applies), 0 is
"not checked" (a ``goal_time`` of 0: no limit).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.control.goals import GoalRules
from robot_dynamics.control.tolerances import Tolerances

#: ros2_control parameters this controller does not use: why, and what to set instead.
IGNORED_UPSTREAM = {
    'command_interfaces': 'commands are efforts (effort_commands), always',
    'state_interfaces': 'states come from joint_states (position and velocity)',
    'gains': 'the feedback is computed torque: set kp (1/s^2) and kd (1/s)',
    'open_loop_control': 'the motion always starts from the measured state',
    'interpolate_from_desired_state': 'the motion always starts from the measured state',
    'interpolation_method': 'splines always (positions only: lines with parabolic blends)',
}
UNSET = -1.0                   # an upstream constraint not given: this controller's applies


@dataclass(frozen=True)
class Setting:
    """A node's parameter: name, default, description, closed range (None: none) and more."""

    name: str
    default: object
    text: str
    low: float = None
    high: float = None
    read_only: bool = False
    integer: bool = False
    additional: str = ''


def controller_settings(gains_read_only=False):
    """Return the settings both controllers share: gains, recording, joint-state age."""
    return (
        Setting('kp', [100.0], 'proportional gains, 1/s^2 (one value for all joints, or one '
                'per joint)', read_only=gains_read_only),
        Setting('kd', [20.0], 'derivative gains, 1/s (one value for all joints, or one per '
                'joint)', read_only=gains_read_only),
        Setting('record', False, 'keep (t, q_d, q, tau) in memory for plotting (bringup)',
                read_only=True),
        Setting('stale_timeout', 0.5, 'command nothing while a joint state is older than '
                'this, s; a longer silence makes the controller hold where the arm is when '
                'states return', 1e-4, 3600.0))


def trajectory_settings(joint_names, policies):
    """Return the trajectory controller's goal, tolerance, feasibility and rate settings.

    Upstream's ``constraints.*`` default to :data:`UNSET`: this controller's own applies.
    """
    upstream = " (upstream's name, default)"
    settings = [
        Setting('allow_partial_joints_goal', False, 'accept goals that name some joints only '
                '(the others hold where they are)' + upstream),
        Setting('allow_nonzero_velocity_at_trajectory_end', False, 'accept a last point with '
                'a non-zero velocity' + upstream),
        Setting('feasibility', 'reject', 'a motion that needs more torque or speed than the '
                'URDF limits, judged as it will be commanded from the current state: reject, '
                'warn (execute, WARN), scale (slow it down by the smallest factor that fits) '
                'or time_optimal (re-time it along its path at the limits)', read_only=True,
                additional=f'one of {policies}'),
        Setting('feasibility_margin', 0.05, 'fraction of each effort limit kept in reserve by '
                'scale', 0.0, 0.5)]
    unchecked = ' (0: not checked, no limit)'
    for name, default, text in (
            ('path_tolerance', 0.0, 'default position tolerance along the path, rad or m'),
            ('goal_tolerance', 0.01, 'default position tolerance at the end, rad or m'),
            ('stopped_velocity_tolerance', 0.05, 'default velocity tolerance at the end, '
             'rad/s or m/s'),
            ('goal_time_tolerance', 1.0, 'time after the end to reach the goal tolerances, s')):
        settings.append(Setting(name, default, text + unchecked, 0.0, 3600.0))
    for name, ours in (('stopped_velocity_tolerance', 'stopped_velocity_tolerance'),
                       ('goal_time', 'goal_time_tolerance')):
        settings.append(Setting(f'constraints.{name}', UNSET, f"upstream's constraints.{name}"
                                f'{unchecked}; -1: not set, {ours} applies'))
    for joint in joint_names:
        for name, ours in (('trajectory', 'path'), ('goal', 'goal')):
            settings.append(Setting(
                f'constraints.{joint}.{name}', UNSET, f"upstream's per-joint {name} tolerance, "
                f'rad or m (0: not checked); -1: not set, {ours}_tolerance applies'))
    return settings + [
        Setting('state_publish_rate', 20.0, 'rate of ~/controller_state and of the action '
                'feedback, Hz', 0.1, 1000.0),
        Setting('action_monitor_rate', 20.0, 'rate at which cancel requests and a silent '
                'joint_states are acted on, Hz (wall time)', 0.1, 1000.0, read_only=True)]


def check_gains(name, values, joint_names=None):
    """Refuse gains that are not finite and >= 0, or not 1 (all joints) or n values."""
    values = np.asarray(values, dtype=float).reshape(-1)
    if values.size == 0 or (joint_names is not None and values.size not in
                            (1, len(joint_names))):
        raise ValueError(f'{name}: {values.size} values; give 1 (all joints) or one per joint'
                         + ('' if joint_names is None else f' ({len(joint_names)})'))
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(f'{name}: gains must be finite and >= 0, got {values.tolist()}')
    return values


def per_joint(values, count):
    """Return ``values`` as ``count`` values: one value applies to all joints."""
    values = np.asarray(values, dtype=float).reshape(-1)
    return np.broadcast_to(values, (count,)) if values.size == 1 else values


def output_order(joints, joint_names):
    """Return the indices that put model-order values in ``joints`` order (empty: the model's)."""
    if not joints:
        return list(range(len(joint_names)))
    if sorted(joints) != sorted(joint_names) or len(set(joints)) != len(joints):
        raise ValueError(f'joints: {list(joints)} must name each model joint once '
                         f'({list(joint_names)}), in any order')
    return [list(joint_names).index(name) for name in joints]


def unknown_parameter_notes(given, declared):
    """Name each of ``given`` not ``declared`` (a predicate), with upstream's reason if any."""
    notes = []
    for name in sorted(given):
        if declared(name) or name == 'use_sim_time':
            continue
        reason = IGNORED_UPSTREAM.get(name.split('.')[0],
                                      'not a parameter of this controller (a typo?)')
        notes.append(f'parameter {name[:200]} ignored: {reason}')
    return notes


def goal_rules(value):
    """Return the :class:`~robot_dynamics.control.goals.GoalRules` of upstream's switches."""
    return GoalRules(value('allow_partial_joints_goal'),
                     value('allow_nonzero_velocity_at_trajectory_end'))


def default_tolerances(joint_names, value):
    """Return the default :class:`~robot_dynamics.control.tolerances.Tolerances`.

    This controller's settings, replaced by upstream's ``constraints.*`` where they are set.
    """
    def given(name):
        setting = value(name)
        return None if setting < 0 else setting

    path, goal = (np.full(len(joint_names), value(name), dtype=float)
                  for name in ('path_tolerance', 'goal_tolerance'))
    for j, joint in enumerate(joint_names):
        for values, name in ((path, 'trajectory'), (goal, 'goal')):
            setting = given(f'constraints.{joint}.{name}')
            if setting is not None:
                values[j] = setting
    stopped = given('constraints.stopped_velocity_tolerance')
    goal_time = given('constraints.goal_time')
    return Tolerances.defaults(
        len(joint_names), path, goal,
        value('stopped_velocity_tolerance') if stopped is None else stopped,
        value('goal_time_tolerance') if goal_time is None else goal_time)


def goal_note(policy, scale, duration):
    """Say how a goal's motion was re-timed to fit the limits, for its success ('' if not)."""
    if scale == 1.0:
        return ''
    if policy == 'time_optimal':
        return f'retimed to {duration:.4g} s at the limits'
    return f'slowed by {scale:.3g}x to fit the limits'
