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
"""The controllers' settings and their rules, without ROS (issue 35)."""

import math

import numpy as np
import pytest

from robot_dynamics.control import controller_settings as settings

NAMES = ['a', 'b', 'c']


def values(**given):
    """Return ``value(name)`` over the settings' defaults, ``given`` replacing some."""
    table = {s.name: s.default for s in settings.trajectory_settings(NAMES, ('reject',))}
    table.update({name.replace('__', '.'): value for name, value in given.items()})
    return table.__getitem__


def test_gains_are_one_or_one_per_joint_finite_and_not_negative():
    np.testing.assert_array_equal(settings.check_gains('kp', [2.0], NAMES), [2.0])
    for bad, reason in (([1.0, 2.0], '2 values; give 1 (all joints) or one per joint (3)'),
                        ([], '0 values'), ([math.nan], 'finite and >= 0'),
                        ([1.0, -1.0, 1.0], 'finite and >= 0')):
        with pytest.raises(ValueError, match=reason.replace('(', r'\(').replace(')', r'\)')):
            settings.check_gains('kp', bad, NAMES)
    np.testing.assert_array_equal(settings.per_joint([2.0], 3), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(settings.per_joint([1.0, 2.0, 3.0], 3), [1.0, 2.0, 3.0])


def test_joints_orders_the_outputs_and_must_name_every_joint_once():
    assert settings.output_order([], NAMES) == [0, 1, 2]
    assert settings.output_order(['c', 'a', 'b'], NAMES) == [2, 0, 1]
    for bad in (['a', 'b'], ['a', 'a', 'b'], ['a', 'b', 'x']):
        with pytest.raises(ValueError, match='must name each model joint once'):
            settings.output_order(bad, NAMES)


def test_upstream_constraints_replace_the_defaults_with_their_meaning():
    tolerances = settings.default_tolerances(NAMES, values(
        constraints__a__goal=0.2, constraints__b__trajectory=0.0, constraints__goal_time=0.0,
        path_tolerance=0.1))
    np.testing.assert_array_equal(tolerances.goal_position, [0.2, 0.01, 0.01])
    np.testing.assert_array_equal(tolerances.path_position, [0.1, np.inf, 0.1])
    assert tolerances.goal_time == 0.0 and tolerances.goal_velocity[0] == 0.05
    rules = settings.goal_rules(values(allow_partial_joints_goal=True))
    assert rules.allow_partial_joints_goal and not rules.allow_nonzero_velocity_at_trajectory_end


def test_unknown_parameters_are_named_with_upstreams_reason():
    declared = {s.name for s in settings.trajectory_settings(NAMES, ('reject',))}
    notes = settings.unknown_parameter_notes(
        ['goal_tolerance', 'use_sim_time', 'gains.a.p', 'goal_tolerence'], declared.__contains__)
    assert notes == ['parameter gains.a.p ignored: the feedback is computed torque: set kp '
                     '(1/s^2) and kd (1/s)',
                     'parameter goal_tolerence ignored: not a parameter of this controller '
                     '(a typo?)']


def test_every_joint_has_its_upstream_constraints_and_names_are_unique():
    names = [s.name for s in settings.trajectory_settings(NAMES, ('reject',))]
    assert len(names) == len(set(names))
    assert {f'constraints.{j}.{k}' for j in NAMES for k in ('trajectory', 'goal')} <= set(names)


def test_a_goals_success_note_says_how_it_was_re_timed():
    assert settings.goal_note('scale', 1.0, 2.0) == ''
    assert settings.goal_note('scale', 1.5, 3.0) == 'slowed by 1.5x to fit the limits'
    assert settings.goal_note('time_optimal', 1.5, 3.25) == 'retimed to 3.25 s at the limits'
