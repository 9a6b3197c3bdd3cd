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

import warnings

import numpy as np

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import Recording

RATE = 94.0


def turning_run(seconds=20.0):
    """two_link (continuous joints): joint 1 swinging through pi, its efforts."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model('two_link')
    t = np.arange(int(seconds * RATE)) / RATE
    q = np.column_stack([np.pi - 0.05 + 0.8 * np.sin(1.3 * t), 0.5 * np.sin(0.7 * t + 1)])
    qd = np.column_stack([0.8 * 1.3 * np.cos(1.3 * t), 0.35 * np.cos(0.7 * t + 1)])
    qdd = np.column_stack([-0.8 * 1.69 * np.sin(1.3 * t), -0.245 * np.sin(0.7 * t + 1)])
    return model, t, q, rd.inverse_dynamics(model, q, qd, qdd)


def test_positions_reported_modulo_one_turn_are_unwrapped():
    model, t, q, tau = turning_run()
    wrapped = (q + np.pi) % (2 * np.pi) - np.pi
    jumps = np.count_nonzero(np.abs(np.diff(wrapped[:, 0])) > np.pi)
    assert jumps > 5 and wrapped[0, 0] == q[0, 0]
    straight = prepare(Recording(model.joint_names, t, q, tau), model, cutoff=8.0)
    turned = prepare(Recording(model.joint_names, t, wrapped, tau), model, cutoff=8.0)
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
