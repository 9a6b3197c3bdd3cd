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
"""Continuous joints whose driver reports the angle modulo one turn (issue 32 red team).

Was: a joint turning through +-pi read as jumping by 2 pi in one sample; the derivative of
those jumps went into the regressor as velocities of 230 rad/s, silently.
"""

import numpy as np

from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import Recording
from turning_runs import turning_run, wrapped


def test_positions_reported_modulo_one_turn_are_unwrapped():
    model, t, q, tau = turning_run()
    turned_q = wrapped(q)
    jumps = np.count_nonzero(np.abs(np.diff(turned_q[:, 0])) > np.pi)
    assert jumps > 5 and turned_q[0, 0] == q[0, 0]
    straight = prepare(Recording(model.joint_names, t, q, tau), model, cutoff=8.0)
    turned = prepare(Recording(model.joint_names, t, turned_q, tau), model, cutoff=8.0)
    assert np.allclose(turned.q, straight.q, atol=1e-9)
    assert np.allclose(turned.qd, straight.qd, atol=1e-7)
    assert np.abs(turned.qd[:, 0]).max() < 1.2                  # was 230 rad/s
    assert turned.report.unwrapped == {'joint1': jumps}
    assert any(f'joint1 {jumps}' in line and 'one turn' in line
               for line in turned.report.lines())
    assert straight.report.unwrapped == {}


def test_a_limited_joint_is_never_unwrapped():
    model, t, q, tau = turning_run()
    limited = model.replace(lower_limit=np.array([-3.0, -3.0]), upper_limit=np.array([3.0, 3.0]))
    fast = q.copy()                     # a step of more than pi within a range under a turn
    fast[:, 0] = 0.5 * (q[:, 0] - np.pi) + np.where(t < t[100], -1.6, 1.6)
    assert np.all(np.abs(fast) < 3.0) and np.abs(np.diff(fast[:, 0])).max() > np.pi
    report = prepare(Recording(model.joint_names, t, fast, tau), limited, cutoff=8.0).report
    assert report.unwrapped == {}
