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
"""Position jumps between joint states (control/jumps.py), without ROS.

Trial 2: a flood of spoofed ``[0.3]*6`` states at 6 kHz, interleaved with the simulator's,
drove the UR5 into its stops: no node compared consecutive positions with the plausible speed.
"""

import numpy as np
import pytest

from robot_dynamics.control.joint_states import JointStateMerge
from robot_dynamics.control.jumps import JUMP_MARGIN, JUMP_TIME_SLACK, RESET_TIME, JumpFilter
from robot_dynamics.errors import BadInput
from robots import quiet_bundled

UR5 = quiet_bundled('ur5')
NAMES = list(UR5.joint_names)
SPEED = 1.5 * UR5.velocity_limit          # bounds.velocity_bounds: 4.71 rad/s on the UR5


def merge_at(merge, q, stamp, now=None):
    """Merge all joints at positions ``q`` stamped ``stamp``; return ''/the refusal."""
    try:
        merge.update(NAMES, q, [], stamp, now=stamp if now is None else now)
    except BadInput as exc:
        return str(exc)
    return ''


def test_the_bound_is_the_plausible_speed_times_the_stamp_difference():
    merge = JointStateMerge.for_model(UR5)
    assert merge_at(merge, np.zeros(6), 10.0) == ''          # first message: taken as is
    dt = 0.01
    allowed = JUMP_MARGIN * SPEED[1] * (dt + JUMP_TIME_SLACK)
    q = np.zeros(6)
    q[1] = allowed * (1 - 1e-9)
    assert merge_at(merge, q, 10.0 + dt) == ''
    q2 = q.copy()
    q2[1] += allowed * (1 + 1e-6)
    said = merge_at(merge, q2, 10.0 + 2 * dt)
    assert said.startswith(f'position[{NAMES[1]}] jumps'), said
    assert 'a second publisher on joint_states?' in said
    np.testing.assert_array_equal(merge.q, q)                # nothing changed


def test_spoofed_states_interleaved_with_the_real_ones_are_all_refused():
    """The trial's attack: [0.3]*6 at ~6 kHz between the simulator's states at 1 kHz."""
    merge = JointStateMerge.for_model(UR5)
    refused = taken = 0
    for k in range(3000):                                    # 3 s of the real driver
        t = 5.0 + 1e-3 * k
        real = np.full(6, 0.001 * np.sin(t))
        assert merge_at(merge, real, t) == ''
        taken += 1
        for m in range(6):
            said = merge_at(merge, np.full(6, 0.3), t + 1.5e-4 * (m + 1))
            refused += bool(said)
    assert refused == 3000 * 6 and taken == 3000
    assert merge.jumps.resets == 0
    assert merge.q == pytest.approx(np.full(6, 0.001 * np.sin(5.0 + 2.999)), abs=0)


def test_a_jump_that_persists_is_a_reset():
    """The simulator's ~/reset: back home at once, then only the new positions."""
    merge = JointStateMerge.for_model(UR5)
    assert merge_at(merge, np.full(6, 6.0), 1.0) == ''   # 6 rad: plausible after 0.64 s
    home = np.zeros(6)
    times = 1.001 + 1e-3 * np.arange(400)
    results = [merge_at(merge, home, t) for t in times]
    first_taken = results.index('')
    assert all(results[:first_taken]) and not any(results[first_taken:])
    assert times[first_taken] - times[0] == pytest.approx(RESET_TIME, abs=1.5e-3)
    assert merge.jumps.resets == 1
    np.testing.assert_array_equal(merge.q, home)


def test_a_100_hz_driver_clears_a_persistent_spoofer():
    """A 100 Hz driver and a 1 kHz spoofer: every real message restarts the reset clock.

    0.3 rad is implausible within the 10 ms between two real messages (at most 0.104 rad on
    the UR5); from a slower driver (31 ms here) it is plausible, hence taken, and the real
    state then looks like the jump (docs/robustness.md).
    """
    merge = JointStateMerge.for_model(UR5)
    refused = 0
    for k in range(2000):                             # 2 s
        t = 3.0 + 1e-3 * k
        if k % 10 == 0:
            assert merge_at(merge, np.zeros(6), t) == ''
        else:
            refused += bool(merge_at(merge, np.full(6, 0.3), t))
    assert refused == 2000 - 200 and merge.jumps.resets == 0
    alone = [merge_at(merge, np.full(6, 0.3), 5.0 + 1e-3 * k) for k in range(10)]
    assert all(alone) and merge.jumps.resets == 0   # the real driver stopped 1-10 ms ago


def test_continuous_joints_wrap_around():
    merge = JointStateMerge(['a', 'b'], JumpFilter([1.0, 1.0], [True, False]))
    assert merge.update(['a', 'b'], [np.pi - 1e-4, 0.0], [], 1.0, now=1.0) == 2
    assert merge.update(['a'], [-np.pi + 1e-4], [], 1.001, now=1.001) == 1   # 2e-4 rad
    with pytest.raises(BadInput, match=r'position\[b\] jumps'):
        merge.update(['b'], [2 * np.pi], [], 1.002, now=1.002)


def test_partial_messages_compare_their_own_joints():
    merge = JointStateMerge(['arm', 'finger'], JumpFilter([1.0, 1.0], [False, False]))
    assert merge.update(['arm'], [0.0], [], 1.0, now=1.0) == 1
    assert merge.update(['finger'], [5.0], [], 1.0, now=1.0) == 1   # its first value
    with pytest.raises(BadInput, match=r'position\[finger\] jumps 1 in 0 s'):
        merge.update(['finger'], [6.0], [], 1.0, now=1.0)
