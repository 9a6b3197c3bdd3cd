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
"""The controllers' parameters, declared: PD gains, recording, joint-state age, upstream's names.

``joint_trajectory_controller`` and ``computed_torque_controller`` declare the shared ones here
with the same types, ranges and descriptions; their rules (gains, ``joints``, tolerances,
upstream's ``constraints.*`` and ignored names) are plain Python in
:mod:`robot_dynamics.control.controller_settings`, which the functions below feed.
"""

from rclpy.parameter import Parameter

from robot_dynamics.control import controller_settings as settings
from robot_dynamics.control.controller_settings import UNSET, check_gains  # noqa: F401
from robot_dynamics.nodes.parameters import declare_array, descriptor, parameter_value


def declare_settings(node, settings):
    """Declare each :class:`~robot_dynamics.control.controller_settings.Setting` on ``node``."""
    for setting in settings:
        node.declare_parameter(setting.name, setting.default, descriptor(
            setting.text, setting.read_only, setting.low, setting.high, setting.integer,
            setting.additional))


def declare_controller_parameters(node, gains_read_only=False):
    """Declare ``kp``, ``kd``, ``record`` and ``stale_timeout`` on a controller ``node``."""
    declare_settings(node, settings.controller_settings(gains_read_only))


def declare_trajectory_parameters(node, joint_names, policies):
    """Declare the trajectory controller's goal, tolerance and feasibility parameters."""
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  "joints in the order of effort_commands and controller_state; empty: the "
                  "model's order (upstream's name)", read_only=True)
    declare_settings(node, settings.trajectory_settings(joint_names, policies))


def value_of(node):
    """Return ``value(name)``: the value of ``node``'s parameter ``name``."""
    return lambda name: node.get_parameter(name).value


def goal_rules(node):
    """Return the :class:`~robot_dynamics.control.goals.GoalRules` of the parameters."""
    return settings.goal_rules(value_of(node))


def default_tolerances(node, joint_names):
    """Return the default tolerances of the parameters (``constraints.*`` where set)."""
    return settings.default_tolerances(joint_names, value_of(node))


def output_order(node, joint_names):
    """Return the indices that put model-order values in ``joints`` order (checked)."""
    return settings.output_order(parameter_value(node, 'joints'), joint_names)


def unknown_parameters(node):
    """Name each parameter given to ``node`` that it did not declare, with upstream's reason."""
    return settings.unknown_parameter_notes(getattr(node, '_parameter_overrides', {}),
                                            node.has_parameter)


def gains(node, name, count):
    """Return the ``name`` gains of ``node`` as ``count`` values (one value: all joints)."""
    return settings.per_joint(node.get_parameter(name).value, count)
