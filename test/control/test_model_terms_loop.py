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
"""The computed_torque_controller's loop without ROS (issue 35).

``tau = tau_ff + M(q) (Kp e + Kd ė)`` on the dynamics node's terms; the joint order learnt
from it; the dynamics node's accepted motion joined from this controller's own state.
"""

import numpy as np
import pytest

from robot_dynamics.control import goals
from robot_dynamics.control.computed_torque import (ModelTermsLoop, check_positions,
                                                    effort_bound)
from robot_dynamics.control.goals import TrajectoryRequest, commanded_motion
from robot_dynamics.errors import BadInput

NAMES = ['a', 'b', 'c']
SECOND = 10 ** 9
NOW = 20 * SECOND
MASS = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 0.5]])


def loop_at(q, qd, stamp_ns=NOW, names=NAMES):
    """Return a loop controlling ``names`` that has merged ``q, qd`` at ``stamp_ns``."""
    loop = ModelTermsLoop(list(names))
    loop.merger().update(names, q, qd, stamp_ns * 1e-9)
    assert loop.measured(stamp_ns)
    loop.mass, loop.feedforward = MASS, np.array([1.0, -2.0, 0.5])
    return loop


def test_the_first_state_is_held_with_the_feedforward_and_pd_on_the_mass_matrix():
    q, qd = np.array([0.1, 0.2, 0.3]), np.array([0.5, 0.0, -0.5])
    loop = loop_at(q, qd)
    tau, q_d, note = loop.torque(np.full(3, 100.0), np.full(3, 20.0), 0.5)
    np.testing.assert_array_equal(q_d, q)                  # the hold brakes from here
    # braking from qd: the desired velocity now is qd, so e = 0 and ė = 0: the feed-forward
    np.testing.assert_allclose(tau, [1.0, -2.0, 0.5], rtol=0, atol=1e-12)
    assert note == ''
    later = NOW + SECOND                                   # at rest where the braking ends
    loop.merger().update(NAMES, q, np.zeros(3), later * 1e-9)
    loop.measured(later)
    tau, q_d, _ = loop.torque(np.full(3, 100.0), np.full(3, 20.0), 2.0, feedforward=False)
    e = q_d - q                                             # 0.1 s of braking at 5 rad/s²
    np.testing.assert_allclose(e, [0.025, 0.0, -0.025], rtol=0, atol=1e-12)
    np.testing.assert_allclose(tau, MASS @ (100.0 * e), rtol=0, atol=1e-12)


def test_nothing_is_commanded_before_the_feedforward_and_a_silence_drops_the_motion():
    loop = loop_at(np.zeros(3), np.zeros(3))
    loop.feedforward = None
    assert loop.waiting(feedforward=True) and not loop.waiting(feedforward=False)
    assert ModelTermsLoop(list(NAMES)).waiting(feedforward=False)      # no state, no M yet
    loop.torque(np.ones(3), np.ones(3), 0.5, feedforward=False)         # a command at NOW
    loop.merger().update(NAMES, np.full(3, 0.2), np.zeros(3), (NOW + 2 * SECOND) * 1e-9)
    loop.measured(NOW + 2 * SECOND)
    _, q_d, note = loop.torque(np.ones(3), np.ones(3), 0.5, feedforward=False)
    assert 'resumed after 2 s without a command' in note
    np.testing.assert_array_equal(q_d, np.full(3, 0.2))    # held where it is now


def test_gravity_holds_and_comply_commands_gravity_alone():
    loop = loop_at(np.zeros(3), np.zeros(3))
    gravity = np.array([0.0, 9.0, 1.0])
    tau, _, _ = loop.torque(np.ones(3), np.ones(3), 0.5, gravity=gravity)
    np.testing.assert_array_equal(tau, gravity)            # a hold: gravity, not the ff
    tau, _, _ = loop.torque(np.ones(3), np.ones(3), 0.5, gravity=gravity, gravity_only=True)
    np.testing.assert_array_equal(tau, gravity)
    tau, _, _ = loop.torque(np.ones(3), np.ones(3), 0.5, gravity=gravity[:2])   # wrong size
    np.testing.assert_array_equal(tau, loop.feedforward)


def test_the_accepted_motion_of_a_falling_arm_is_joined_not_refused():
    """The limitation of issue 35: 0.05 rad in 0.1 s of transit made it a step."""
    q0, v0 = np.array([0.0, -1.0, 0.5]), np.array([0.0, 0.3, 0.0])
    published = commanded_motion(TrajectoryRequest(NAMES, [3.0], [[0.2, -0.4, 0.1]]), NAMES,
                                 (q0, v0), NOW).trajectory      # the dynamics node's
    q = q0 + v0 * 0.1 + 0.5 * np.array([0.0, 4.0, 0.0]) * 0.01
    qd = v0 + np.array([0.0, 0.4, 0.0])
    loop = loop_at(q, qd, NOW + SECOND // 10)
    loop.pending = TrajectoryRequest(NAMES, published.times, published.positions,
                                     published.velocities, published.accelerations, NOW)
    loop.accept(NOW + SECOND // 10, 0.5)
    assert loop.follower.following and loop.pending is None
    np.testing.assert_array_equal(loop.follower.motion.positions[0], q)


def test_a_step_is_refused_and_a_request_waits_for_a_state():
    loop = ModelTermsLoop(list(NAMES))
    loop.pending = TrajectoryRequest(NAMES, [0.0, 1.0], [[1.0] * 3, [1.5] * 3],
                                     stamp_ns=NOW - SECOND // 2)
    loop.accept(NOW, 0.5)
    assert loop.pending is not None                        # no state: kept
    loop.merger().update(NAMES, np.zeros(3), np.zeros(3), NOW * 1e-9)
    loop.measured(NOW)
    with pytest.raises(goals.GoalError, match='step'):
        loop.accept(NOW, 0.5)
    assert loop.pending is None and not loop.follower.following


def test_a_new_joint_order_reads_the_followed_motion_again():
    loop = loop_at(np.zeros(3), np.zeros(3))
    request = TrajectoryRequest(NAMES, [1.0], [[0.1, 0.2, 0.3]])
    loop.pending = request
    loop.accept(NOW, 0.5)
    assert loop.follower.following and loop.followed is request
    assert loop.order_refusal(['c', 'b', 'a'], False, [1.0], [1.0]) == ''
    loop.control_joints(['c', 'b', 'a'])
    assert loop.pending is request and loop.state is None and not loop.follower.following
    assert loop.watched(True) == ['joint_states', 'mass_matrix', 'feedforward_torques']
    assert ModelTermsLoop().watched(False) == ['feedforward_joint_states', 'joint_states',
                                               'mass_matrix']


def test_a_joint_order_is_refused_with_the_reason():
    loop = ModelTermsLoop(list(NAMES))
    assert 'set the same `joints` on both' in loop.order_refusal(['x'], True, [1.0], [1.0])
    assert 'unusable names' in loop.order_refusal(['x', 'x'], False, [1.0], [1.0])
    assert 'cannot control joints' in loop.order_refusal(['x', 'y'], False, [1.0] * 3, [1.0])


def test_positions_no_joint_reaches_and_the_effort_bound():
    with pytest.raises(BadInput, match=r'position\[b\] = 1e\+06'):
        check_positions(NAMES, np.array([0.0, 1e6, 0.0]))
    check_positions(NAMES, np.array([0.0, 3.0, -3.0]))
    bound = effort_bound(NAMES, [0.0, 5.0, -1.0])          # <= 0: no bound
    np.testing.assert_array_equal(bound.apply(np.array([100.0, 100.0, -100.0])),
                                  [100.0, 5.0, -100.0])
    np.testing.assert_array_equal(effort_bound(NAMES, [2.0]).apply(np.full(3, 3.0)),
                                  np.full(3, 2.0))
