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
"""The trajectory publisher's motion without ROS: fitted to the limits, sent when due."""

import numpy as np
import pytest

from robot_dynamics.analysis import feasibility
from robot_dynamics.control.published_motion import PublishedMotion, fitted
from robots import quiet_bundled

UR5 = quiet_bundled('ur5')
SECOND = 10 ** 9


def fast_move():
    """Return a rest-to-rest move of 1 rad on every joint in 0.1 s: beyond the UR5's limits."""
    times = np.array([0.0, 0.1])
    positions = np.array([np.zeros(6), np.ones(6)])
    zero = np.zeros((2, 6))
    return times, positions, zero, zero.copy()


def test_each_policy_does_what_it_says_with_a_motion_beyond_the_limits():
    waypoints = fast_move()
    scaled, warning, refusal = fitted(UR5, waypoints, 'scale')
    assert warning.startswith('trajectory slowed down to fit the limits') and not refusal
    assert scaled[0][-1] > 0.1
    assert feasibility.check_trajectory(UR5, *scaled).feasible     # it fits, as said
    same, warning, refusal = fitted(UR5, waypoints, 'warn')
    assert same is waypoints and 'published anyway' in warning and not refusal
    _, warning, refusal = fitted(UR5, waypoints, 'reject')
    assert refusal.startswith('trajectory refused: ') and not warning


def test_the_standard_motion_is_checked_once_and_sent_again_only_with_repeat():
    notes = []
    motion = PublishedMotion(UR5, 'reject')
    first = motion.waypoints(1.0, 0.5, 4, notes.append, notes.append)
    assert first is motion.waypoints(0.1, 2.0, 9, notes.append, notes.append)   # once
    assert notes == [] and motion.refused == ''
    assert not motion.due(0, repeat=True)                   # no clock yet
    assert motion.due(5 * SECOND, repeat=False)
    motion.sent(8 * SECOND)
    assert not motion.due(9 * SECOND, repeat=False)
    assert not motion.due(7 * SECOND, repeat=True) and motion.due(8 * SECOND, repeat=True)


def test_a_refused_motion_is_said_once_and_never_sent():
    errors = []
    motion = PublishedMotion(UR5, 'reject')
    assert motion.waypoints(0.01, 3.0, 4, errors.append, errors.append) is None
    assert motion.waypoints(0.01, 3.0, 4, errors.append, errors.append) is None
    assert len(errors) == 1 and errors[0] == motion.refused


def test_a_publisher_needs_a_model_and_a_known_policy():
    with pytest.raises(ValueError, match='needs a model'):
        PublishedMotion(None, 'scale')
    with pytest.raises(ValueError, match="feasibility: 'fast'; use scale, reject or warn"):
        PublishedMotion(UR5, 'fast')
