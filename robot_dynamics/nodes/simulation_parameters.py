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
"""The simulation node's parameters, declared with their types, ranges and descriptions."""

from rclpy.parameter import Parameter

from robot_dynamics.nodes.model_parameters import declare_model_parameters
from robot_dynamics.nodes.parameters import declare_array, declare_double_array, descriptor
from robot_dynamics.simulation.integrators import INTEGRATORS, MAX_DT


def declare_simulation_parameters(node):
    """Declare every parameter of :class:`~robot_dynamics.nodes.simulation_node.SimulationNode`."""
    declare_model_parameters(node, at_start_only=True)      # the model is built once
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  'joint order of ~/effort_commands and joint_states; empty: model order',
                  read_only=True)
    declare_double_array(node, 'gravity', 'gravity vector in the base frame, m/s^2 (3 '
                         "values, |g| <= 100); unset or empty: the model's own gravity",
                         read_only=True)
    node.declare_parameter('dt', 1e-3, descriptor('integration step, s', read_only=True,
                                                  low=1e-6, high=MAX_DT))
    node.declare_parameter('integrator', 'implicit', descriptor(
        'integration scheme; implicit (default) is stable under any joint damping, rk4 is '
        'more accurate for undamped arms', additional=f'one of {sorted(INTEGRATORS)}'))
    node.declare_parameter('fast_path', True, descriptor(
        "integrate in the compiled engine; false: the numpy 'rnea' formulation",
        read_only=True))
    node.declare_parameter('publish_rate', 100.0, descriptor(
        'joint_states rate in simulated time, Hz', read_only=True, low=0.1, high=1e5))
    node.declare_parameter('publish_clock', False, descriptor(
        'publish /clock so that other nodes can use use_sim_time', read_only=True))
    node.declare_parameter('real_time_factor', 1.0, descriptor(
        'simulated seconds per wall second; 0: as fast as possible', low=0.0, high=1000.0))
    node.declare_parameter('lockstep', False, descriptor(
        'after each joint_states message, wait (up to lockstep_timeout wall seconds) for '
        'a new command before stepping on: deterministic closed loops; the first step '
        'waits for the first command'))
    node.declare_parameter('lockstep_timeout', 0.1, descriptor(
        'longest wait for a command in lockstep mode, wall s', low=0.0, high=60.0))
    node.declare_parameter('tick_period', 0.001, descriptor(
        'wall period of the stepping timer, s', read_only=True, low=1e-4, high=1.0))
    declare_array(node, 'initial_positions', Parameter.Type.DOUBLE_ARRAY,
                  'initial joint positions in `joints` order; empty: the home posture '
                  '(0, or the middle of the range where 0 is outside the limits), where '
                  'the standard trajectory starts')
    node.declare_parameter('velocity_limits', True, descriptor(
        "model the drives' speed limit: no torque that would pass a joint's URDF velocity "
        'limit (robot_dynamics.simulation.drives); false: the saturated command acts '
        'whatever the speed'))
    node.declare_parameter('command_timeout', 0.5, descriptor(
        'apply zero torque once the last command is older than this, simulated s',
        low=0.0, high=3600.0))
    node.declare_parameter('max_energy', 1e6, descriptor(
        'stop when the total energy exceeds this, J (runaway detection)', low=0.0,
        high=1e300))
    node.declare_parameter('energy_tolerance', 10.0, descriptor(
        'stop when the energy exceeds the initial energy plus the work of the commands '
        'and of the joint stops by more than this, J (runaway detection)', low=0.0,
        high=1e300))
