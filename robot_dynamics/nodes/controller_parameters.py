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
"""The controllers' parameters: PD gains, recording, joint-state age, and upstream's names.

``joint_trajectory_controller`` and ``computed_torque_controller`` declare the shared ones
here with the same types, ranges and descriptions; the gains are checked by
:func:`check_gains` at start and at run time. :func:`declare_trajectory_parameters` declares
the trajectory controller's, ros2_control's names included with their meanings
(``allow_partial_joints_goal``, ``allow_nonzero_velocity_at_trajectory_end``, ``joints``,
``constraints.*``), and :func:`unknown_parameters` names what was given but is not declared.
"""

import numpy as np
from rclpy.parameter import Parameter

from robot_dynamics.control.goals import GoalRules
from robot_dynamics.control.tolerances import Tolerances
from robot_dynamics.nodes.parameters import declare_array, descriptor, parameter_value

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


def declare_controller_parameters(node, gains_read_only=False):
    """Declare ``kp``, ``kd``, ``record`` and ``stale_timeout`` on a controller ``node``."""
    node.declare_parameter('kp', [100.0], descriptor(
        'proportional gains, 1/s^2 (one value for all joints, or one per joint)',
        read_only=gains_read_only))
    node.declare_parameter('kd', [20.0], descriptor(
        'derivative gains, 1/s (one value for all joints, or one per joint)',
        read_only=gains_read_only))
    node.declare_parameter('record', False, descriptor(
        'keep (t, q_d, q, tau) in memory for plotting (bringup)', read_only=True))
    node.declare_parameter('stale_timeout', 0.5, descriptor(
        'command nothing while a joint state is older than this, s; a longer silence makes '
        'the controller hold where the arm is when states return', low=1e-4, high=3600.0))


def declare_trajectory_parameters(node, joint_names, policies):
    """Declare the trajectory controller's goal, tolerance and feasibility parameters."""
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  "joints in the order of effort_commands and controller_state; empty: the "
                  "model's order (upstream's name)", read_only=True)
    for name, text in (('allow_partial_joints_goal', 'accept goals that name some joints '
                        'only (the others hold where they are)'),
                       ('allow_nonzero_velocity_at_trajectory_end', 'accept a last point '
                        'with a non-zero velocity')):
        node.declare_parameter(name, False, descriptor(text + " (upstream's name, default)"))
    node.declare_parameter('feasibility', 'reject', descriptor(
        'a motion that needs more torque or speed than the URDF limits, judged as it will be '
        'commanded from the current state: reject, warn (execute, WARN), scale (slow it '
        'down by the smallest factor that fits) or time_optimal (re-time it along its path '
        'at the limits)', read_only=True,
        additional=f'one of {policies}'))
    node.declare_parameter('feasibility_margin', 0.05, descriptor(
        'fraction of each effort limit kept in reserve by scale', low=0.0, high=0.5))
    for name, default, text in (
            ('path_tolerance', 0.0, 'default position tolerance along the path, rad or m'),
            ('goal_tolerance', 0.01, 'default position tolerance at the end, rad or m'),
            ('stopped_velocity_tolerance', 0.05, 'default velocity tolerance at the end, '
             'rad/s or m/s'),
            ('goal_time_tolerance', 1.0, 'time after the end to reach the goal tolerances, s')):
        node.declare_parameter(name, default, descriptor(f'{text} (0: not checked, no limit)',
                                                         low=0.0, high=3600.0))
    # Upstream's constraints: -1 (the default) means "not set": this controller's own applies.
    for name in ('stopped_velocity_tolerance', 'goal_time'):
        node.declare_parameter(f'constraints.{name}', UNSET, descriptor(
            f"upstream's constraints.{name} (0: not checked, no limit); -1: not set, "
            f"{'goal_time_tolerance' if name == 'goal_time' else name} applies"))
    for joint in joint_names:
        for name in ('trajectory', 'goal'):
            node.declare_parameter(f'constraints.{joint}.{name}', UNSET, descriptor(
                f"upstream's per-joint {name} tolerance, rad or m (0: not checked); -1: not "
                f"set, {'path' if name == 'trajectory' else 'goal'}_tolerance applies"))
    node.declare_parameter('state_publish_rate', 20.0, descriptor(
        'rate of ~/controller_state and of the action feedback, Hz', low=0.1, high=1000.0))
    node.declare_parameter('action_monitor_rate', 20.0, descriptor(
        'rate at which cancel requests and a silent joint_states are acted on, Hz (wall time)',
        read_only=True, low=0.1, high=1000.0))


def _set(node, name):
    """Return the value of an upstream constraint, or None while it is not set (negative)."""
    value = node.get_parameter(name).value
    return None if value < 0 else value


def goal_rules(node):
    """Return the :class:`~robot_dynamics.control.goals.GoalRules` of the parameters."""
    return GoalRules(node.get_parameter('allow_partial_joints_goal').value,
                     node.get_parameter('allow_nonzero_velocity_at_trajectory_end').value)


def default_tolerances(node, joint_names):
    """Return the default :class:`~robot_dynamics.control.tolerances.Tolerances`.

    This controller's parameters, replaced by upstream's ``constraints.*`` where they are set
    (with upstream's meaning: 0 is not checked, a ``goal_time`` of 0 no limit).
    """
    path, goal = (np.full(len(joint_names), node.get_parameter(name).value, dtype=float)
                  for name in ('path_tolerance', 'goal_tolerance'))
    for j, joint in enumerate(joint_names):
        for values, name in ((path, 'trajectory'), (goal, 'goal')):
            value = _set(node, f'constraints.{joint}.{name}')
            if value is not None:
                values[j] = value
    stopped = _set(node, 'constraints.stopped_velocity_tolerance')
    goal_time = _set(node, 'constraints.goal_time')
    return Tolerances.defaults(
        len(joint_names), path, goal,
        node.get_parameter('stopped_velocity_tolerance').value if stopped is None else stopped,
        node.get_parameter('goal_time_tolerance').value if goal_time is None else goal_time)


def output_order(node, joint_names):
    """Return the indices that put model-order values in ``joints`` order (checked)."""
    joints = parameter_value(node, 'joints')
    if not joints:
        return list(range(len(joint_names)))
    if sorted(joints) != sorted(joint_names) or len(set(joints)) != len(joints):
        raise ValueError(f'joints: {list(joints)} must name each model joint once '
                         f'({list(joint_names)}), in any order')
    return [list(joint_names).index(name) for name in joints]


def unknown_parameters(node):
    """Name each parameter given to ``node`` that it did not declare, with upstream's reason."""
    notes = []
    for name in sorted(getattr(node, '_parameter_overrides', {})):
        if node.has_parameter(name) or name == 'use_sim_time':
            continue
        stem = name.split('.')[0]
        reason = IGNORED_UPSTREAM.get(stem, 'not a parameter of this controller (a typo?)')
        notes.append(f'parameter {name[:200]} ignored: {reason}')
    return notes


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


def gains(node, name, count):
    """Return the ``name`` gains of ``node`` as ``count`` values (one value: all joints)."""
    values = np.asarray(node.get_parameter(name).value, dtype=float)
    return np.broadcast_to(values, (count,)) if values.size == 1 else values
