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
"""The parameters both controllers share: PD gains, recording, the joint-state age limit.

``joint_trajectory_controller`` and ``computed_torque_controller`` declare them here with the
same types, ranges and descriptions; the gains are checked by :func:`check_gains` at start and
at run time.
"""

import numpy as np

from robot_dynamics.nodes.parameters import descriptor


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
        'command nothing while a joint state is older than this, s', low=1e-4, high=3600.0))


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
