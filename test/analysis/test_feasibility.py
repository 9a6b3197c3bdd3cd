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
"""Torque feasibility and exact time scaling (robot_dynamics.analysis.feasibility).

Oracle: Pinocchio's ``rnea`` plus the rotor inertia and the friction law written out here,
on the waypoints slowed by k and sampled by the scalar interpolant; the smallest k is found by
an independent bisection on k.
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.analysis import feasibility as fz
from robot_dynamics.simulation.trajectory import (sample_waypoints, sample_waypoints_many,
                                                  standard_waypoints)

from robots import pinocchio_configuration, quiet_bundled


def ur5_with_friction(velocity_limits=False):
    """Return the bundled UR5 with viscous and Coulomb friction, effort but no speed limits.

    The fast motion below is limited by the speed limits (k = 4.70) when they are kept, by
    the shoulder's effort limit (k = 2.2) without them.
    """
    model = quiet_bundled('ur5')
    model = model.replace(viscous_friction=np.full(6, 2.0), coulomb_friction=np.full(6, 3.0))
    return model if velocity_limits else model.replace(velocity_limit=np.full(6, np.inf))


def fast_ur5_motion():
    """Return a UR5 motion too fast for its shoulder: 4 quintic moves of 0.25 s."""
    return standard_waypoints(quiet_bundled('ur5'), move_time=0.25, amplitude=1.0)


def oracle_torques(model, pin_model, times, positions, velocities, accelerations, t):
    """Torques (S, n) by Pinocchio's RNEA + rotor inertia + viscous and Coulomb friction."""
    data = pin_model.createData()
    rows = []
    for s in t:
        q, qd, qdd = sample_waypoints(times, positions, velocities, accelerations, s)
        tau = pin.rnea(pin_model, data, pinocchio_configuration(pin_model, q), qd, qdd)
        rows.append(tau + model.reflected_inertia * qdd + model.viscous_friction * qd
                    + model.coulomb_friction * np.sign(qd))
    return np.array(rows)


def oracle_scale(model, waypoints, margin, rtol=1e-13):
    """Smallest k by bisection: the oracle's torques of the slowed waypoints within the limit."""
    with open(rd.data_path(rd.BUNDLED_MODELS['ur5']), encoding='utf-8') as handle:
        pin_model = pin.buildModelFromXML(handle.read())
    pin_model.gravity.linear = np.array(model.gravity)
    base = fz.sample_times(waypoints[0])
    limit = (1 - margin) * model.effort_limit

    def fits(k):
        slowed = fz.scaled_waypoints(*waypoints, k)
        tau = oracle_torques(model, pin_model, *slowed, k * base)
        speed = np.array([sample_waypoints(*slowed, s)[1] for s in k * base])
        return np.all(np.abs(tau) <= limit) and np.all(np.abs(speed) <= model.velocity_limit)

    low, high = 1.0, 10.0
    assert not fits(low) and fits(high)
    while high - low > rtol * high:
        middle = 0.5 * (low + high)
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


def test_vectorised_sampling_is_the_scalar_interpolant():
    rng = np.random.default_rng(3)
    times = np.cumsum(rng.uniform(0.1, 1.0, 6))
    q, qd, qdd = (rng.normal(size=(6, 3)) for _ in range(3))
    t = np.concatenate([[times[0] - 1, times[0], times[-1], times[-1] + 1],
                        rng.uniform(times[0], times[-1], 50), times])
    for args in ((q, qd, qdd), (q, qd, None), (q, None, None)):
        many = sample_waypoints_many(times, *args, t)
        for i, s in enumerate(t):
            for got, want in zip(many, sample_waypoints(times, *args, s)):
                np.testing.assert_allclose(got[i], want, rtol=0, atol=1e-12)


@pytest.mark.parametrize('velocity_limits', [False, True])
def test_scale_matches_a_bisection_with_pinocchio(velocity_limits):
    model, waypoints = ur5_with_friction(velocity_limits), fast_ur5_motion()
    report = fz.check_trajectory(model, *waypoints, margin=0.05)
    assert not report.feasible and report.exact
    want = oracle_scale(model, waypoints, 0.05)
    assert report.scale == pytest.approx(want, rel=1e-10)
    assert 1.5 < report.scale < 10


def test_torques_match_pinocchio_at_the_samples():
    model, waypoints = ur5_with_friction(), fast_ur5_motion()
    report = fz.check_trajectory(model, *waypoints)
    with open(rd.data_path(rd.BUNDLED_MODELS['ur5']), encoding='utf-8') as handle:
        pin_model = pin.buildModelFromXML(handle.read())
    want = oracle_torques(model, pin_model, *waypoints, report.times + waypoints[0][0])
    np.testing.assert_allclose(report.torques, want, rtol=0, atol=1e-9)


def test_slowed_motion_fits_and_a_little_faster_does_not():
    model, waypoints = ur5_with_friction(), fast_ur5_motion()
    k = fz.check_trajectory(model, *waypoints, margin=0.05).scale
    slowed = fz.check_trajectory(model, *fz.scaled_waypoints(*waypoints, k), margin=0.05)
    assert slowed.feasible and slowed.scale == 1.0
    assert slowed.effort_ratio.max() <= 0.95 + 1e-12
    assert slowed.effort_ratio.max() == pytest.approx(0.95, abs=1e-9)   # k is the smallest
    faster = fz.check_trajectory(model, *fz.scaled_waypoints(*waypoints, k * (1 - 1e-6)),
                                 margin=0.05)
    assert faster.effort_ratio.max() > 0.95


def test_message_names_joint_time_need_limit_and_scale():
    model, waypoints = ur5_with_friction(), fast_ur5_motion()
    report = fz.check_trajectory(model, *waypoints)
    worst = max(report.violations, key=lambda v: v.needed / v.limit)
    text = report.message()
    assert f'joint {worst.joint} would need {worst.needed:.4g} N m' in text
    assert f'the effort limit is {worst.limit:.4g} N m' in text
    assert f'slowed by {report.scale:.3g}x it fits' in text
    j = model.joint_names.index(worst.joint)
    s = int(np.argmax(report.effort_ratio[:, j]))
    assert worst.time == report.times[s] and worst.needed == abs(report.torques[s, j])


def test_within_limits_is_feasible_with_scale_one():
    model = quiet_bundled('ur5')
    report = fz.check_trajectory(model, *standard_waypoints(model, move_time=2.0))
    assert report.feasible and report.scale == 1.0 and report.violations == []
    assert 0 < report.effort_ratio.max() < 1


def test_gravity_beyond_the_limit_no_scale_helps():
    model = quiet_bundled('ur5')
    weak = model.replace(effort_limit=np.array([150.0, 10.0, 150.0, 28.0, 28.0, 28.0]))
    report = fz.check_trajectory(weak, *standard_waypoints(model, move_time=2.0))
    assert report.scale is None and not report.feasible
    assert 'no time scaling helps' in report.message()
    assert weak.joint_names[1] in report.reason


def test_velocity_only_scale_is_the_speed_ratio():
    model = quiet_bundled('ur5').replace(effort_limit=np.full(6, np.inf))
    waypoints = standard_waypoints(model, move_time=0.3, amplitude=1.0)
    report = fz.check_trajectory(model, *waypoints)
    ratio = np.abs(report.velocities) / model.velocity_limit
    assert report.scale == pytest.approx(ratio.max(), rel=1e-14)
    assert {v.kind for v in report.violations} == {'velocity'}


def test_faster_is_feasible_slower_not_gives_the_smallest_k():
    # |A x^2 + B x + C| <= 1: fits at x = 1 (k = 1), violates near x = 0.5, fits again below.
    lows, highs = fz._bad_intervals(np.array([8.0]), np.array([-8.0]), np.array([0.9]),
                                    np.array([1.0]))
    assert fz.largest_feasible_x(lows, highs) == 1.0
    # and one that violates at x = 1: the answer is the upper root of 8x^2 - 8x + 0.9 = 1
    lows, highs = fz._bad_intervals(np.array([8.0]), np.array([-6.0]), np.array([0.9]),
                                    np.array([1.0]))
    x = fz.largest_feasible_x(lows, highs)
    assert abs(8 * x * x - 6 * x + 0.9) == pytest.approx(1.0, abs=1e-12)


def test_sampling_rule_catches_the_peaks():
    model, waypoints = ur5_with_friction(), fast_ur5_motion()
    coarse = fz.check_trajectory(model, *waypoints).effort_ratio.max(axis=0)
    fine = fz.check_trajectory(model, *waypoints, samples_per_segment=2000)
    assert np.all(coarse <= fine.effort_ratio.max(axis=0) + 1e-12)
    np.testing.assert_allclose(coarse, fine.effort_ratio.max(axis=0), rtol=2e-3)


def test_long_trajectories_are_bounded_in_samples():
    model = quiet_bundled('ur5')
    waypoints = standard_waypoints(model, move_time=0.5, moves=9999)     # 10,001 points
    report = fz.check_trajectory(model, *waypoints)
    assert report.times.size <= fz.MAX_SAMPLES + 1 and report.times.size > 10000


def test_smooth_friction_falls_back_to_bisection():
    model = ur5_with_friction().replace(friction_smoothing=np.full(6, 0.05))
    waypoints = fast_ur5_motion()
    report = fz.check_trajectory(model, *waypoints)
    assert not report.exact and report.scale > 1
    slowed = fz.check_trajectory(model, *fz.scaled_waypoints(*waypoints, report.scale))
    assert slowed.effort_ratio.max() <= 0.95 + 1e-9


def test_margin_is_checked():
    model = quiet_bundled('ur5')
    with pytest.raises(ValueError, match='margin'):
        fz.check_trajectory(model, *standard_waypoints(model), margin=1.0)


def test_worked_example_of_the_docs_is_what_the_library_says():
    """docs/controllers.md's worked example (UR5, every joint +0.7 rad in 0.3 s) and its Python."""
    import pathlib
    docs = (pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'controllers.md').read_text()
    model = quiet_bundled('ur5')
    rest = np.zeros((2, 6))
    report = rd.check_feasibility(model, [0.0, 0.3], [np.zeros(6), np.full(6, 0.7)], rest, rest)
    assert report.message() in ' '.join(docs.split())
    times = rd.scaled_waypoints([0.0, 0.3], [np.zeros(6), np.full(6, 0.7)], rest, rest,
                                report.scale)[0]
    assert f'0.3 s -> {times[-1]:.3f} s' in docs and f'runs in {times[-1]:.2f} s' in docs


def test_message_names_the_velocity_limit_when_it_sets_the_slow_down():
    # The trial: UR5, every joint +0.7 rad in 0.3 s (docs/controllers.md). The message
    # blamed the shoulder's 223 N m; k = 1.39 is the quintic's peak speed 15/8 0.7/0.3 rad/s
    # over the 3.1416 rad/s limit, and slowed by it the torque is well within its limit.
    model = quiet_bundled('ur5')
    rest = np.zeros((2, 6))
    report = fz.check_trajectory(model, [0.0, 0.3], [np.zeros(6), np.full(6, 0.7)], rest, rest)
    peak = 15 / 8 * 0.7 / 0.3
    vmax = model.velocity_limit.min()
    assert report.scale == pytest.approx(peak / vmax, rel=1e-12)
    text = report.message()
    assert 'the effort limit is 150 N m' in text                  # the worst excess: torque
    assert f'slowed by {report.scale:.3g}x it fits (margin 5 %); the velocity limit sets the ' \
           f'slow-down: joint {model.joint_names[0]} moves at {peak:.4g} rad/s' in text
    slowed = fz.check_trajectory(model, *fz.scaled_waypoints(
        [0.0, 0.3], [np.zeros(6), np.full(6, 0.7)], rest, rest, report.scale))
    effort = slowed.effort_ratio.max()
    assert effort < 0.95                                           # torque does not bind
    assert f'the efforts reach {100 * effort:.3g} % of their limits' in text


def test_message_names_the_effort_limit_when_it_sets_the_slow_down():
    model, waypoints = ur5_with_friction(), fast_ur5_motion()
    report = fz.check_trajectory(model, *waypoints)
    slowed = fz.check_trajectory(model, *fz.scaled_waypoints(*waypoints, report.scale))
    j = int(np.argmax(slowed.effort_ratio.max(axis=0)))
    assert slowed.effort_ratio.max() == pytest.approx(0.95, abs=1e-9)
    assert f'; the effort limit of joint {model.joint_names[j]} sets the slow-down' in \
        report.message()
