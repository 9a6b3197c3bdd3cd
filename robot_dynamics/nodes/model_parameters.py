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
"""The model parameters a node declares, the model their values name, the dynamics node's.

The rules (sources and their precedence, overrides, notes logged once) are
:mod:`robot_dynamics.control.model_source`; here the node's parameters become its ``values``.
:func:`declare_dynamics_parameters` declares the dynamics node's (docs/ros.md lists them with
their defaults).
"""

from rclpy.parameter import Parameter

import robot_dynamics as rd
from robot_dynamics.control.dynamics_settings import dynamics_settings
from robot_dynamics.control.model_source import (  # noqa: F401 - the nodes' names for them
    MODEL_VALUES, READ_ONLY_MODEL_PARAMETERS, SOURCE_ORDER, SOURCE_PARAMETERS, joint_order,
    model_with_notes, with_overrides)
from robot_dynamics.nodes.parameters import (declare_array, declare_double_array, declare_settings,
                                             descriptor, parameter_value)

MODEL_PARAMETERS = {
    'robot_description': 'URDF XML of the robot; empty: use urdf_file, dh_file or model, or '
                         'else wait for the robot_description topic',
    'urdf_file': 'path of a URDF file (used when robot_description is empty; read-only: set '
                 'at start so that the graph cannot make the node read other files)',
    'dh_file': 'path of a Denavit-Hartenberg YAML file (used when urdf_file is empty; '
               'read-only like urdf_file)',
    'model': f'bundled model name, one of {sorted(rd.BUNDLED_MODELS)} (used last)',
    'base_link': 'first link of the chain (URDF); empty: the root link',
    'tip_link': 'last link of the chain (URDF); empty: the end of the longest moving path '
                '(docs/models.md)',
    'friction_file': "path of a friction file (robot-dynamics identify's FILE.friction.yaml: "
                     "each listed joint's whole friction law, which a URDF cannot hold; "
                     'docs/identification.md) applied to the model from any source; empty: '
                     'none; read-only like urdf_file',
}


def declare_model_parameters(node, at_start_only=False):
    """Declare the model-source parameters (strings) on ``node``; file paths read-only.

    ``at_start_only``: all of them read-only, for a node that loads its model once (a run-time
    change would be accepted and never used).
    """
    for name, text in MODEL_PARAMETERS.items():
        node.declare_parameter(name, '', descriptor(
            text, read_only=at_start_only or name in READ_ONLY_MODEL_PARAMETERS))
    node.declare_parameter('urdf_friction', True, descriptor(
        "include the URDF's <dynamics damping friction> as joint friction (Pinocchio and KDL "
        'ignore it; docs/models.md)', read_only=at_start_only))
    declare_array(node, 'locked_joints', Parameter.Type.STRING_ARRAY,
                  "URDF side-branch joints' positions at load, ['NAME=VALUE', ...] in rad or m; "
                  'empty: 0 clipped into the limits (docs/models.md)', read_only=at_start_only)


def model_values(node, pending=None):
    """Return ``{name: value}`` of the node's model parameters, ``pending``'s in their place."""
    values = {name: parameter_value(node, name) for name in MODEL_VALUES
              if node.has_parameter(name)}
    return {**values, **(pending or {})}


def model_with_logged_warnings(node, urdf_xml=None, pending=None):
    """Load the model the parameters name (None: wait for the topic); log its notes once.

    ``pending`` ({name: value}): values being set, in place of the node's (to load before
    accepting them). :func:`~robot_dynamics.control.model_source.model_with_notes` says which.
    """
    model, infos, warnings = model_with_notes(model_values(node, pending), urdf_xml)
    for line in infos:
        node.get_logger().info(line)
    for line in warnings:
        node.get_logger().warning(line)
    return model


def model_with_overrides(model, node, pending=None):
    """``model`` with the node's gravity, friction, rotor-inertia values (``pending``'s first)."""
    return with_overrides(model, model_values(node, pending))


def model_parameters_set(node):
    """Tell whether a model parameter names the model (then the topic is not used)."""
    return any(node.get_parameter(name).value for name in SOURCE_ORDER)


def declare_dynamics_parameters(node):
    """Declare every parameter of the dynamics node on ``node``."""
    declare_model_parameters(node)
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  'output joint order; empty: model order')
    declare_double_array(node, 'gravity', 'gravity vector in the base frame, m/s^2 (3 '
                         "values, |g| <= 100); unset or empty: the model's own gravity")
    for name, text in (('viscous_friction', 'viscous friction per joint, N m s/rad'),
                       ('coulomb_friction', 'Coulomb friction per joint, N m'),
                       ('rotor_inertia', 'rotor inertia per joint, kg m^2')):
        declare_double_array(node, name, text + '; unset: from the model')
    declare_settings(node, dynamics_settings())
