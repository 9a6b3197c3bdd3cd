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
"""Parameter declarations shared by the nodes: typed descriptors, array defaults, overrides.

The controllers' shared parameters are declared here too (:func:`declare_settings`) with the
same types, ranges and descriptions; their rules (gains, ``joints``, tolerances, upstream's
``constraints.*`` and ignored names) are plain Python in
:mod:`robot_dynamics.control.controller_settings`, which the functions at the end feed.
"""

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.exceptions import ParameterUninitializedException
from rclpy.parameter import Parameter

from robot_dynamics.control import controller_settings


def descriptor(description, read_only=False, low=None, high=None, integer=False,
               additional=''):
    """Build a ``ParameterDescriptor`` with a description and an optional closed range."""
    desc = ParameterDescriptor(description=description, read_only=read_only,
                               additional_constraints=additional)
    if low is not None:
        if integer:
            desc.integer_range = [IntegerRange(from_value=int(low), to_value=int(high), step=1)]
        else:
            desc.floating_point_range = [FloatingPointRange(from_value=float(low),
                                                            to_value=float(high), step=0.0)]
    return desc


def declare_array(node, name, type_, description, read_only=False):
    """Declare an array parameter whose default is an empty array of its type.

    An empty array means "not given" (from the model, model order, ...). It is a value, not
    "unset": a statically typed parameter declared without a value makes rclpy answer nothing
    to a ``get_parameters`` request naming it, which empties ``ros2 param dump`` and every
    client that reads all parameters.
    """
    node.declare_parameter(name, type_, descriptor(description))
    if node.get_parameter_or(name).type_ == Parameter.Type.NOT_SET:
        result = node.set_parameters([Parameter(name, type_, [])])[0]
        assert result.successful, result.reason   # declared just now: nothing can object
    if read_only:
        node.set_descriptor(name, ParameterDescriptor(description=description, read_only=True,
                                                      type=type_.value))
    return node.get_parameter(name)


def declare_double_array(node, name, description, read_only=False):
    """Declare a double-array parameter; empty (the default) means "from the model"."""
    return declare_array(node, name, Parameter.Type.DOUBLE_ARRAY, description, read_only)


def parameter_value(node, name):
    """Return a parameter's value, or None while a statically typed parameter is unset."""
    try:
        return node.get_parameter(name).value
    except ParameterUninitializedException:
        return None


def parameter_overrides(parameters):
    """Convert a ``{name: value}`` dict (YAML ``ros__parameters``) to rclpy Parameters.

    Empty lists are skipped: an unset array parameter means "from the model".
    """
    return [Parameter(name, value=value) for name, value in parameters.items()
            if not (isinstance(value, list) and not value)]


def remapping_arguments(remappings):
    """Return a node's ``cli_args`` for ``[(source, target)]`` remappings (None for none)."""
    arguments = [arg for source, target in remappings for arg in ('-r', f'{source}:={target}')]
    return ['--ros-args'] + arguments if arguments else None


def node_arguments(parameters, remappings):
    """Return a node's ``parameter_overrides`` and ``cli_args`` keywords: values, remappings."""
    return {'parameter_overrides': parameter_overrides(parameters),
            'cli_args': remapping_arguments(remappings)}


def declare_settings(node, settings):
    """Declare each :class:`~robot_dynamics.control.controller_settings.Setting` on ``node``."""
    for setting in settings:
        node.declare_parameter(setting.name, setting.default, descriptor(
            setting.text, setting.read_only, setting.low, setting.high, setting.integer,
            setting.additional))


def declare_controller_parameters(node, gains_read_only=False):
    """Declare ``kp``, ``kd``, ``record`` and ``stale_timeout`` on a controller ``node``."""
    declare_settings(node, controller_settings.controller_settings(gains_read_only))


def declare_trajectory_parameters(node, joint_names, policies):
    """Declare the trajectory controller's goal, tolerance and feasibility parameters."""
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  "joints in the order of effort_commands and controller_state; empty: the "
                  "model's order (upstream's name)", read_only=True)
    declare_settings(node, controller_settings.trajectory_settings(joint_names, policies))


def value_of(node):
    """Return ``value(name)``: the value of ``node``'s parameter ``name``."""
    return lambda name: node.get_parameter(name).value


def goal_rules(node):
    """Return the :class:`~robot_dynamics.control.goals.GoalRules` of the parameters."""
    return controller_settings.goal_rules(value_of(node))


def default_tolerances(node, joint_names):
    """Return the default tolerances of the parameters (``constraints.*`` where set)."""
    return controller_settings.default_tolerances(joint_names, value_of(node))


def output_order(node, joint_names):
    """Return the indices that put model-order values in ``joints`` order (checked)."""
    return controller_settings.output_order(parameter_value(node, 'joints'), joint_names)


def unknown_parameters(node):
    """Name each parameter given to ``node`` that it did not declare, with upstream's reason."""
    return controller_settings.unknown_parameter_notes(
        getattr(node, '_parameter_overrides', {}), node.has_parameter)


def gains(node, name, count):
    """Return the ``name`` gains of ``node`` as ``count`` values (one value: all joints)."""
    return controller_settings.per_joint(node.get_parameter(name).value, count)
