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
"""The dynamics node's parameters (docs/ros.md lists them with their defaults).

The model's own (source, joints, friction, rotor inertia, gravity, locked joints) are
:mod:`~robot_dynamics.nodes.model_parameters`; the rest are declared here.
"""

from rclpy.parameter import Parameter

import robot_dynamics as rd
from robot_dynamics.control.effective_model import PUBLISH_MODES, QOS_CHOICES
from robot_dynamics.control.policies import POLICIES
from robot_dynamics.nodes.model_parameters import declare_model_parameters
from robot_dynamics.nodes.parameters import declare_array, declare_double_array, descriptor


def declare_dynamics_parameters(node):
    """Declare every parameter of the dynamics node on ``node``."""
    declare_model_parameters(node)
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  'output joint order; empty: model order')
    node.declare_parameter('solver', 'rnea', descriptor(
        'inverse-dynamics solver name', additional=f'one of {rd.solvers.available()}'))
    declare_double_array(node, 'gravity', 'gravity vector in the base frame, m/s^2 (3 '
                         "values, |g| <= 100); unset or empty: the model's own gravity")
    node.declare_parameter('gravity_compensation', True, descriptor(
        'include gravity in the outputs (service ~/enable_gravity_compensation)'))
    node.declare_parameter('fast_path', True, descriptor(
        "compute with the compiled engine when the solver is 'rnea' (the model as data: a "
        "parameter change or a payload takes effect at once); false: the numpy 'rnea'"))
    for name, text in (('viscous_friction', 'viscous friction per joint, N m s/rad'),
                       ('coulomb_friction', 'Coulomb friction per joint, N m'),
                       ('rotor_inertia', 'rotor inertia per joint, kg m^2')):
        declare_double_array(node, name, text + '; unset: from the model')
    node.declare_parameter('locked_joints_rate', 10.0, descriptor(
        're-merge locked side branches (a gripper) at their measured joint_states positions '
        'at most this often, Hz; 0: never', low=0.0, high=1000.0))
    node.declare_parameter('locked_joints_threshold', 1e-3, descriptor(
        're-merge when a measured locked joint moved more than this, rad or m',
        low=0.0, high=10.0))
    node.declare_parameter('publish_mode', 'on_message', descriptor(
        "'on_message': compute on every joint_states message; 'timer': at publish_rate",
        read_only=True, additional=f'one of {PUBLISH_MODES}'))
    node.declare_parameter('publish_rate', 100.0, descriptor(
        'output rate in timer mode, Hz', read_only=True, low=0.1, high=10000.0))
    node.declare_parameter('stale_timeout', 0.5, descriptor(
        'publish nothing once the joint state is older than this, s', low=1e-4, high=3600.0))
    node.declare_parameter('joint_states_qos', 'sensor_data', descriptor(
        'QoS of the joint_states subscription', read_only=True,
        additional=f'one of {QOS_CHOICES}'))
    node.declare_parameter('publish_unsubscribed', False, descriptor(
        'compute and publish every output even without a subscriber (default: only the '
        'outputs someone subscribes to)', read_only=True))
    node.declare_parameter('feasibility', 'reject', descriptor(
        'a desired_trajectory beyond the URDF effort or velocity limits: reject, warn '
        '(accept, WARN), scale (slowed down to fit) or time_optimal (re-timed along its '
        'path at the limits)', read_only=True,
        additional=f'one of {POLICIES}'))
    node.declare_parameter('diagnostics_period', 1.0, descriptor(
        'period of /diagnostics messages, s', read_only=True, low=0.01, high=3600.0))
