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
"""The dynamics node's scalar settings: name, default, description, range (docs/ros.md).

The node (``nodes/model_parameters.py``) declares them as parameters, after its model source
and its array parameters (``joints``, ``gravity``, friction and rotor inertia).
"""

from robot_dynamics import solvers
from robot_dynamics.control.controller_settings import Setting
from robot_dynamics.control.effective_model import PUBLISH_MODES, QOS_CHOICES
from robot_dynamics.control.policies import POLICIES


def dynamics_settings():
    """Return the dynamics node's scalar settings (the solver names as registered now)."""
    return (
        Setting('solver', 'rnea', 'inverse-dynamics solver name',
                additional=f'one of {solvers.available()}'),
        Setting('gravity_compensation', True, 'include gravity in the outputs (service '
                '~/enable_gravity_compensation)'),
        Setting('fast_path', True, "compute with the compiled engine when the solver is 'rnea' "
                '(the model as data: a parameter change or a payload takes effect at once); '
                "false: the numpy 'rnea'"),
        Setting('locked_joints_rate', 10.0, 're-merge locked side branches (a gripper) at '
                'their measured joint_states positions at most this often, Hz; 0: never',
                0.0, 1000.0),
        Setting('locked_joints_threshold', 1e-3, 're-merge when a measured locked joint moved '
                'more than this, rad or m', 0.0, 10.0),
        Setting('publish_mode', 'on_message', "'on_message': compute on every joint_states "
                "message; 'timer': at publish_rate", read_only=True,
                additional=f'one of {PUBLISH_MODES}'),
        Setting('publish_rate', 100.0, 'output rate in timer mode, Hz', 0.1, 10000.0,
                read_only=True),
        Setting('stale_timeout', 0.5, 'publish nothing once the joint state is older than '
                'this, s', 1e-4, 3600.0),
        Setting('joint_states_qos', 'sensor_data', 'QoS of the joint_states subscription',
                read_only=True, additional=f'one of {QOS_CHOICES}'),
        Setting('publish_unsubscribed', False, 'compute and publish every output even without '
                'a subscriber (default: only the outputs someone subscribes to)',
                read_only=True),
        Setting('feasibility', 'reject', 'a desired_trajectory beyond the URDF effort or '
                'velocity limits: reject, warn (accept, WARN), scale (slowed down to fit) or '
                'time_optimal (re-timed along its path at the limits)', read_only=True,
                additional=f'one of {POLICIES}'),
        Setting('diagnostics_period', 1.0, 'period of /diagnostics messages, s', 0.01, 3600.0,
                read_only=True),
    )
