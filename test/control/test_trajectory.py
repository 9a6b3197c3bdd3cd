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
"""A desired motion in time: its start, the first clock time, holds, and braking to rest."""

import numpy as np
import pytest

from robot_dynamics.control.tracking import MotionFollower
from robot_dynamics.control.trajectory import DesiredTrajectory, braking, hold

POSITIONS = np.array([[0.0, 1.0], [2.0, -1.0]])          # at 0 s and at 1 s
SECOND = 10 ** 9


def test_before_the_clock_begins_the_start_waits_for_it():
    waiting = DesiredTrajectory(None, np.array([0.0, 1.0]), POSITIONS)
    assert waiting.started(0) is waiting
    np.testing.assert_array_equal(waiting.sample(0)[0], POSITIONS[0])   # held at the start
    begun = waiting.started(1_700_000_000 * SECOND)
    assert begun.start_ns == 1_700_000_000 * SECOND and begun.started(5) is begun
    np.testing.assert_array_equal(begun.sample(begun.start_ns)[0], POSITIONS[0])
    np.testing.assert_allclose(begun.sample(begun.start_ns + SECOND)[0], POSITIONS[1])
    np.testing.assert_allclose(begun.sample(begun.start_ns + SECOND // 2)[0], [1.0, 0.0])
    assert not begun.ended(begun.start_ns + SECOND // 2) and begun.ended(begun.start_ns + SECOND)


def test_braking_slows_every_joint_to_rest_within_its_deceleration():
    q, qd = np.array([0.2, -0.1]), np.array([1.0, -0.25])
    motion = braking(q, qd, 5, np.array([2.0, 2.0]))
    T = 0.5                                               # the faster joint at 2 rad/s²
    assert motion.duration == pytest.approx(T)
    t = np.linspace(0.0, T, 101)
    samples = [motion.sample(5 + int(round(s * 1e9))) for s in t]
    speeds = np.array([s[1] for s in samples])
    np.testing.assert_allclose(speeds, qd * (1 - t[:, None] / T), atol=1e-12)   # linear
    np.testing.assert_allclose(samples[-1][0], q + qd * T / 2, atol=1e-12)
    np.testing.assert_array_equal(motion.sample(5 + 2 * SECOND)[1], [0.0, 0.0])
    assert hold(q, 7).sample(10 ** 12)[0].tolist() == q.tolist()
    assert braking(q, np.zeros(2), 5, 2.0).times.size == 1   # at rest: a hold


def test_a_follower_holds_at_first_and_reanchors_after_an_outage():
    """Issue 31.1: the old hold point was driven to at full torque when states came back."""
    follower = MotionFollower(deceleration=5.0)
    q0 = np.array([0.0, -1.0])
    desired = follower.desired(q0, np.zeros(2), SECOND)
    np.testing.assert_array_equal(desired[0], q0)
    assert follower.outage(SECOND + SECOND // 10, 0.5) is None
    fallen = np.array([0.0, 1.4])
    assert follower.outage(31 * SECOND, 0.5) == pytest.approx(30.0)
    assert follower.outage(SECOND // 2 - SECOND, 0.5) == pytest.approx(-1.5)   # clock jumped
    follower.stop(fallen, np.array([0.0, 0.5]), 31 * SECOND)
    q_d, qd_d, _ = follower.desired(fallen, np.array([0.0, 0.5]), 31 * SECOND)
    np.testing.assert_array_equal(q_d, fallen)            # where it is, not where it was
    np.testing.assert_array_equal(qd_d, [0.0, 0.5])       # at its speed, braking from there
    assert not follower.following and not follower.moving(32 * SECOND)
