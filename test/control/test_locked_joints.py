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
"""LockedJointTracker (ROS-free): re-merge on a change above the threshold, at most N Hz."""

import math
import warnings

import numpy as np
import pytest
from urdf_trees import arm_with_gripper, oracle_dynamics, reduced_oracle

import robot_dynamics as rd
from robot_dynamics.errors import ModelWarning, PlausibilityError
from robot_dynamics.control.locked_joints import LockedJointTracker, parse_locked_joints

FINGER, MIMIC = 'grip_finger_joint1', 'grip_finger_joint2'


@pytest.fixture(scope='module')
def urdf():
    """Return the arm-with-gripper URDF text."""
    return arm_with_gripper()


@pytest.fixture
def model(urdf):
    """Return it loaded: fingers at 0, camera pan at 0.2."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return rd.RobotModel.from_urdf(urdf)


def test_remerges_when_a_locked_joint_moves_beyond_the_threshold(urdf, model):
    tracker = LockedJointTracker(model, threshold=1e-3, max_rate=10.0)
    names = ['arm_j1', FINGER, 'unknown']
    assert tracker.update(names, [0.5, 0.0005, 1.0], now=0.0) is None   # below the threshold
    moved = tracker.update(names, [0.5, 0.03, 1.0], now=0.01)
    tracker.accept(moved)
    assert moved is tracker.model and tracker.remerges == 1
    assert moved.locked_joints[FINGER] == 0.03 and moved.locked_joints[MIMIC] == 0.03
    values = tracker.values()
    assert {f'{FINGER}=0.03', f'{MIMIC}=0.03'} <= set(values['locked_joints'].split(', '))
    assert values['locked_joints_remerges'] == '1'
    reduced = reduced_oracle(urdf, moved.joint_names, dict(moved.locked_joints))
    q = np.linspace(-1, 1, moved.dof)
    g = oracle_dynamics(reduced, q, q * 0, q * 0, moved.base_link)[2]
    assert np.allclose(rd.gravity_torques(moved, q), g, rtol=0, atol=1e-10 * abs(g).max())


def test_at_most_max_rate(model):
    tracker = LockedJointTracker(model, threshold=1e-3, max_rate=10.0)
    tracker.accept(tracker.update([FINGER], [0.01], now=100.0))
    assert tracker.update([FINGER], [0.02], now=100.05) is None          # within 0.1 s
    assert tracker.model.locked_joints[FINGER] == 0.01
    tracker.accept(tracker.update([FINGER], [0.02], now=100.11))
    assert tracker.remerges == 2


def test_rate_zero_never_remerges_and_mismatched_lengths_are_ignored(model):
    assert LockedJointTracker(model, max_rate=0).update([FINGER], [0.02], now=1.0) is None
    tracker = LockedJointTracker(model)
    assert tracker.update([FINGER, MIMIC], [0.02], now=1.0) is None       # lengths differ


@pytest.mark.parametrize('value, limits', [
    (1e9, r'its limits \[0, 0.04\] widened by 0.1'), (0.5, r'its limits \[0, 0.04\]'),
    (-0.2, r'its limits \[0, 0.04\]'), (math.nan, 'its limits'), (math.inf, 'its limits')])
def test_implausible_readings_are_refused_and_change_nothing(model, value, limits):
    tracker = LockedJointTracker(model)
    before = tracker.model
    with pytest.raises(PlausibilityError, match=f"'{FINGER}' = .* is outside {limits}"):
        tracker.update([FINGER], [value], now=1.0)
    assert tracker.model is before and tracker.remerges == 0 and FINGER in tracker.problem
    moved = tracker.update([FINGER], [0.02], now=1.0)         # the next valid reading works
    assert moved.locked_joints[FINGER] == 0.02 and tracker.problem == ''


def test_within_the_margin_is_taken(model):
    moved = LockedJointTracker(model).update([FINGER], [0.04 + 0.09], now=1.0)
    assert moved.locked_joints[FINGER] == 0.13


def test_a_candidate_not_accepted_leaves_the_last_good_positions(urdf, model):
    tracker = LockedJointTracker(model, max_rate=1000.0)
    tracker.accept(tracker.update([FINGER], [0.04], now=1.0))
    candidate = tracker.update([FINGER], [0.01], now=2.0)       # refused downstream
    assert candidate.locked_joints[FINGER] == 0.01
    assert tracker.model.locked_joints[FINGER] == 0.04 and tracker.remerges == 1
    moved = tracker.update([FINGER], [0.02], now=3.0)
    tracker.accept(moved)
    reduced = reduced_oracle(urdf, moved.joint_names, dict(moved.locked_joints))
    q = np.linspace(-1, 1, moved.dof)
    g = oracle_dynamics(reduced, q, q * 0, q * 0, moved.base_link)[2]
    assert np.allclose(rd.gravity_torques(moved, q), g, rtol=0, atol=1e-10 * abs(g).max())


def test_both_fingers_measured_are_both_used(model):
    tracker = LockedJointTracker(model)
    moved = tracker.update([FINGER, MIMIC], [0.01, 0.03], now=1.0)
    assert moved.locked_joints[FINGER] == 0.01 and moved.locked_joints[MIMIC] == 0.03


@pytest.mark.parametrize('entries, expected', [
    ([], {}), (None, {}), (['a=1', ' b = -0.5 '], {'a': 1.0, 'b': -0.5})])
def test_parse_locked_joints(entries, expected):
    assert parse_locked_joints(entries) == expected


@pytest.mark.parametrize('entry', ['a', '=1', 'a=x', 'a=nan'])
def test_parse_locked_joints_names_the_bad_entry(entry):
    with pytest.raises(ValueError, match=f'locked_joints: {entry!r} is not NAME=VALUE'):
        parse_locked_joints([entry])
