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
"""General DH arms to count on: random non-zero parameters, and Renaud's 6R example (seed 001)."""

import numpy as np

from robot_dynamics.model import RobotModel


# ---------------------------------------------------------------------- general arms
def general_arm(n, convention='standard', seed=0):
    """Build a general n-link revolute arm from DH parameters, all random and non-zero.

    ``convention`` is ``'standard'`` (distal frames) or ``'modified'`` (Craig's). Inertias are
    full symmetric tensors (non-zero products of inertia), centres of mass have three non-zero
    coordinates, and gravity has three non-zero components.
    """
    rng = np.random.default_rng(seed)
    links = []
    for _ in range(n):
        mass = rng.uniform(1.0, 5.0)
        moments = rng.uniform(0.2, 1.0, size=3)
        principal = np.diag([moments[0] + moments[1], moments[1] + moments[2],
                             moments[0] + moments[2]]) * 0.05 * mass
        axes, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        inertia = axes @ principal @ axes.T
        links.append(dict(
            a=rng.uniform(0.1, 0.5), alpha=rng.uniform(0.2, 1.3), d=rng.uniform(0.1, 0.5),
            mass=mass, com=rng.uniform(0.02, 0.2, size=3).tolist(),
            inertia=[inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[0, 1], inertia[1, 2],
                     inertia[0, 2]]))
    return RobotModel.from_dh({'name': f'general_{convention}_{n}R', 'convention': convention,
                               'gravity': [0.4, -0.3, -9.8], 'links': links})


def renaud_example_arm(seed=0):
    """Renaud's 6R example (seed 001, Fig. 6 and its parameter table), modified DH.

    ``α = 0, π/2, 0, π/2, -π/2, π/2``; ``a_2`` and ``r_4`` the only non-zero lengths; each
    centre of mass on one axis of its frame (z, x, y, z, y, z) and no products of inertia, as the
    paper assumes; masses, lengths and moments random; gravity along ``-z_0``. Rotations are
    rounded so that ``cos(π/2)`` is an exact zero, as in the paper's analytical form.
    """
    rng = np.random.default_rng(seed)
    alpha = [0.0, np.pi / 2, 0.0, np.pi / 2, -np.pi / 2, np.pi / 2]
    a_len = [0.0, 0.0, rng.uniform(0.3, 0.6), 0.0, 0.0, 0.0]
    d_len = [0.0, 0.0, 0.0, rng.uniform(0.3, 0.6), 0.0, 0.0]
    com_axis = [2, 0, 1, 2, 1, 2]
    links = []
    for i in range(6):
        com = [0.0, 0.0, 0.0]
        com[com_axis[i]] = rng.uniform(0.02, 0.2)
        links.append(dict(a=a_len[i], alpha=alpha[i], d=d_len[i], mass=rng.uniform(1.0, 5.0),
                          com=com, inertia=rng.uniform(0.1, 0.3, 3).tolist() + [0, 0, 0]))
    model = RobotModel.from_dh({'name': 'renaud_6R', 'convention': 'modified', 'links': links})

    def exact(x):
        x = np.array(x)
        x[np.abs(x) < 1e-12] = 0.0
        unit = np.abs(np.abs(x) - 1.0) < 1e-12
        x[unit] = np.sign(x[unit])
        return x
    return model.replace(placement_rotation=exact(model.placement_rotation),
                         placement_translation=exact(model.placement_translation),
                         com=exact(model.com), inertia=exact(model.inertia),
                         tip_rotation=exact(model.tip_rotation))
