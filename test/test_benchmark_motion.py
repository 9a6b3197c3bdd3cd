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
"""The latency and soak benchmarks' motion passes the nodes' jump filter on every bundled robot.

``benchmarks/soak_dynamics_node.postures`` feeds the dynamics node at 1 kHz; random postures
jumped between messages and the node's jump filter (rightly) dropped all but 21 of ~3,000 on
the Panda (issue 35). Here the motion goes through the very merge the dynamics node uses
(``JointStateMerge.for_model``) with 1 ms stamps: every message is taken, every posture is
within the limits, and the gravity answers differ by far more than the benchmark's matching
tolerance (an answer is matched to its request by value).
"""

import pathlib
import sys
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.control.joint_states import JointStateMerge

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / 'benchmarks'))

from soak_dynamics_node import POSTURES, postures  # noqa: E402


@pytest.mark.parametrize('name', sorted(rd.BUNDLED_MODELS))
def test_every_message_of_the_motion_is_taken(name):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.load_model(name)
    q, gravity = postures(model)
    assert q.shape == (POSTURES, model.dof)
    merge = JointStateMerge.for_model(model)
    names = list(model.joint_names)
    for sequence in range(2 * POSTURES + 1):        # twice round, across the wrap
        stamp = 1.0 + sequence * 1e-3
        merge.update(names, q[sequence % POSTURES], [], stamp, now=stamp)   # raises if refused
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit, -np.inf)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit, np.inf)
    assert np.all((q >= lower) & (q <= upper))
    gaps = np.abs(gravity[:, None, :] - gravity[None, :, :]).max(axis=2)
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() > 1e-6 * max(1.0, np.abs(gravity).max())
