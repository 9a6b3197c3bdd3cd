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
"""The simulation node's scalar settings: name, default, description, range (docs/ros.md).

The node (``nodes/simulation_node.py``) declares them as parameters, with its array parameters
(``joints``, ``gravity``, ``initial_positions``) and the model source; the
:class:`~robot_dynamics.simulation.simulator.Simulator` reads them while it runs and
:func:`~robot_dynamics.simulation.simulator.setting_error` checks a change.
"""

from robot_dynamics.control.controller_settings import Setting
from robot_dynamics.simulation.integrators import INTEGRATORS, MAX_DT

#: How the arm is stepped and published (declared before ``initial_positions``).
STEPPING = (
    Setting('dt', 1e-3, 'integration step, s', 1e-6, MAX_DT, read_only=True),
    Setting('integrator', 'implicit', 'integration scheme; implicit (default) is stable under '
            'any joint damping, rk4 is more accurate for undamped arms',
            additional=f'one of {sorted(INTEGRATORS)}'),
    Setting('fast_path', True, "integrate in the compiled engine; false: the numpy 'rnea' "
            'formulation', read_only=True),
    Setting('publish_rate', 100.0, 'joint_states rate in simulated time, Hz', 0.1, 1e5,
            read_only=True),
    Setting('publish_clock', False, 'publish /clock so that other nodes can use use_sim_time',
            read_only=True),
    Setting('real_time_factor', 1.0, 'simulated seconds per wall second; 0: as fast as '
            'possible', 0.0, 1000.0),
    Setting('lockstep', False, 'after each joint_states message, wait (up to '
            'lockstep_timeout wall seconds) for a new command before stepping on: '
            'deterministic closed loops; the first step waits for the first command'),
    Setting('lockstep_timeout', 0.1, 'longest wait for a command in lockstep mode, wall s',
            0.0, 60.0),
    Setting('tick_period', 0.001, 'wall period of the stepping timer, s', 1e-4, 1.0,
            read_only=True))

#: What the simulated arm refuses: speeds past the drives' limit, stale commands, runaways.
SAFETY = (
    Setting('velocity_limits', True, "model the drives' speed limit: no torque that would pass "
            "a joint's URDF velocity limit (robot_dynamics.simulation.drives); false: the "
            'saturated command acts whatever the speed'),
    Setting('command_timeout', 0.5, 'apply zero torque once the last command is older than '
            'this, simulated s', 0.0, 3600.0),
    Setting('max_energy', 1e6, 'stop when the total energy exceeds this, J (runaway '
            'detection)', 0.0, 1e300),
    Setting('energy_tolerance', 10.0, 'stop when the energy exceeds the initial energy plus '
            'the work of the commands and of the joint stops by more than this, J (runaway '
            'detection)', 0.0, 1e300))
