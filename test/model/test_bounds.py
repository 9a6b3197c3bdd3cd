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
"""Plausibility bounds (robot_dynamics.model.bounds): absurd but finite values are refused."""

import re
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.simulation.trajectory import (sample_waypoints, segment_peaks,
                                                  standard_waypoints)
from robot_dynamics.spatial.vectors import rpy_matrix
from robots import random_model


@pytest.fixture(scope='module')
def puma():
    """Return the bundled PUMA 560 (position limits, no velocity limits)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model('puma560')


@pytest.fixture(scope='module')
def panda():
    """Return the bundled Panda (position and velocity limits)."""
    return rd.load_model('panda')


def test_every_bundled_model_is_plausible():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        for name in rd.BUNDLED_MODELS:
            bounds.check_model(rd.load_model(name))


@pytest.mark.parametrize('gravity, reason', [
    ([1e308] * 3, 'exceeds 100.0'), ([0, 0, -1e3], 'exceeds'), ([0, 0], 'give 3 finite'),
    ([0, np.nan, 0], 'give 3 finite')])
def test_gravity_refused(gravity, reason):
    with pytest.raises(PlausibilityError, match=reason):
        bounds.check_gravity(gravity)


def test_gravity_accepted_in_any_direction():
    np.testing.assert_array_equal(bounds.check_gravity([0, -9.81, 0]), [0, -9.81, 0])
    bounds.check_gravity([0, 0, -3.71])       # Mars


@pytest.mark.parametrize('field, value, reason', [
    ('mass', 1e308, "mass of link 'link2' is 1e\\+308 kg"),
    ('rotor_inertia', 1e308, r'rotor_inertia\[1\] = 1e\+308 exceeds'),
    ('viscous_friction', 1e300, r'viscous_friction\[1\]'),
    ('coulomb_friction', 2e5, r'coulomb_friction\[1\]'),
    ('gear_ratio', 1e6, r'gear_ratio\[1\]'),
])
def test_absurd_model_fields_refused(puma, field, value, reason):
    values = np.array(getattr(puma, field), dtype=float)
    values[1] = value
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        with pytest.raises(PlausibilityError, match=reason):
            bounds.check_model(puma.replace(**{field: values}))


def test_reflected_rotor_inertia_bounded(puma):
    """A plausible rotor behind an absurd gear is still refused: J G² is what the arm feels."""
    with pytest.raises(PlausibilityError, match='reflected rotor inertia'):
        bounds.check_model(puma.replace(rotor_inertia=np.full(6, 1.0),
                                        gear_ratio=np.full(6, 1000.0)))


def test_link_inertia_and_lengths_bounded():
    model = random_model(np.random.default_rng(3), 3)
    inertia = model.inertia.copy()
    inertia[2] = np.eye(3) * 1e5
    with pytest.raises(PlausibilityError, match="inertia of link .* 1e\\+05"):
        bounds.check_model(model.replace(inertia=inertia))
    com = model.com.copy()
    com[0] = [1e3, 0, 0]
    with pytest.raises(PlausibilityError, match='com of link'):
        bounds.check_model(model.replace(com=com))


@pytest.mark.parametrize('mass, com, inertia, reason', [
    (1e300, [0, 0, 0], np.eye(3) * 1e-3, 'payload mass 1e\\+300 kg'),
    (-1.0, [0, 0, 0], np.eye(3) * 1e-3, 'payload mass -1'),
    (1.0, [1e3, 0, 0], np.eye(3) * 1e-3, 'centre of mass is 1e\\+03 m'),
    (1.0, [0, 0, 0], np.diag([1e-3, 1e-3, 1.0]), 'triangle inequality'),
    (1.0, [0, 0, 0], np.diag([-1e-3, 1e-3, 1e-3]), 'not positive semi-definite'),
    (1.0, [0, 0, 0], np.eye(3) * 1e6, 'exceeds'),
])
def test_payload_refused(mass, com, inertia, reason):
    with pytest.raises(PlausibilityError, match=reason):
        bounds.check_payload(mass, com, inertia)


def test_payload_with_products_of_inertia_accepted():
    """A box rotated off its principal axes: products of inertia, physically consistent."""
    rotation = rpy_matrix([0.3, -0.2, 0.5])
    inertia = rotation @ np.diag([0.02, 0.03, 0.04]) @ rotation.T
    assert abs(inertia[0, 1]) > 1e-4
    bounds.check_payload(2.0, [0.0, 0.0, 0.1], inertia)
    bounds.check_payload(2.0, [0.0, 0.0, 0.1], np.zeros((3, 3)))      # a point mass


def test_state_within_limits_and_margin(puma, panda):
    q = np.array(puma.upper_limit)
    bounds.check_state(puma, q + 0.99 * bounds.POSITION_MARGIN)
    q[2] += 2 * bounds.POSITION_MARGIN
    with pytest.raises(PlausibilityError, match="'joint3' is .*outside the joint limits"):
        bounds.check_state(puma, q)
    mid = (panda.lower_limit + panda.upper_limit) / 2
    speed = bounds.VELOCITY_FACTOR * panda.velocity_limit
    bounds.check_state(panda, mid, 0.99 * speed)
    with pytest.raises(PlausibilityError, match='velocity'):
        bounds.check_state(panda, mid, 1.01 * speed)
    with pytest.raises(PlausibilityError, match='velocity'):
        bounds.check_state(puma, np.zeros(6), np.full(6, 1e200))    # no velocity limit


def test_trajectory_waypoints_and_length(puma):
    positions = np.zeros((3, 6))
    bounds.check_trajectory(puma, positions, np.ones((3, 6)), np.ones((3, 6)))
    with pytest.raises(PlausibilityError, match='trajectory velocity'):
        bounds.check_trajectory(puma, positions, np.full((3, 6), 1e200))
    with pytest.raises(PlausibilityError, match='trajectory acceleration'):
        bounds.check_trajectory(puma, positions, None, np.full((3, 6), 1e5))
    # The count is a request's (control/goals.py TrajectoryRequest: 10,000 points); the
    # motion commanded from it holds the state and two knots a point: not counted here.
    bounds.check_trajectory(puma, np.zeros((2 * bounds.MAX_TRAJECTORY_POINTS + 2, 6)))


def alternating(model, joint, low, high, step, points):
    """Waypoints at rest, ``joint`` alternating ``low``/``high`` every ``step`` seconds."""
    positions = np.zeros((points, model.dof))
    positions[:, joint] = np.where(np.arange(points) % 2, high, low)
    return step * np.arange(points), positions, np.zeros_like(positions), np.zeros_like(positions)


def check_interpolated(model, times, positions, velocities=None, accelerations=None):
    """bounds.check_interpolated on the peaks of the interpolant of these waypoints."""
    bounds.check_interpolated(model, times, *segment_peaks(times, positions, velocities,
                                                           accelerations))


@pytest.mark.parametrize('step, points, value, bound', [
    (0.001, 2000, '3.75e+03', '4.71'),        # 0/2 rad every 1 ms: 634 kN m feed-forward
    (0.02, 50, '28.1', '4.71')])              # 0/0.3 rad every 20 ms against 3.14 rad/s
def test_motion_between_waypoints_at_rest_is_checked(panda, step, points, value, bound):
    ur5 = rd.load_model('ur5')
    waypoints = alternating(ur5, 1, 0.0, 2.0 if step < 0.01 else 0.3, step, points)
    bounds.check_trajectory(ur5, *waypoints[1:])               # every waypoint is plausible
    with pytest.raises(PlausibilityError, match=re.escape(
            f"trajectory velocity of 'shoulder_lift_joint' reaches {value} between t = 0 s "
            f"and {step:g} s (interpolated between the waypoints), beyond the plausible "
            f"{bound}")):
        check_interpolated(ur5, *waypoints)


def test_interpolated_acceleration_is_checked(puma):
    times, positions, velocities, accelerations = alternating(puma, 2, 0.0, 1.0, 0.005, 3)
    with pytest.raises(PlausibilityError, match=(       # 2.31e5 exact, sampled to 1 %
            r"trajectory acceleration of 'joint3' reaches 2.29e\+05 between t = 0 s and "
            r"0.005 s .*beyond the plausible 1e\+04")):
        check_interpolated(puma, times, positions, velocities, accelerations)
    check_interpolated(puma, times, positions)                 # linear: 200 rad/s, no qdd


def test_every_standard_trajectory_passes():
    for name in rd.BUNDLED_MODELS:
        model = rd.load_model(name)
        check_interpolated(model, *standard_waypoints(model))


@pytest.mark.parametrize('given', ['quintic', 'cubic', 'linear'])
def test_segment_peaks_match_dense_sampling(given):
    rng = np.random.default_rng(3)
    times = np.cumsum(rng.uniform(0.05, 0.5, 6))
    positions, velocities, accelerations = (rng.normal(size=(6, 2)) * scale
                                            for scale in (1.0, 2.0, 10.0))
    velocities = None if given == 'linear' else velocities
    accelerations = accelerations if given == 'quintic' else None
    peak_v, peak_a = segment_peaks(times, positions, velocities, accelerations)
    for k in range(5):                              # sampled: at most 2 % below, never above
        dense = np.array([sample_waypoints(times, positions, velocities, accelerations, t)
                          for t in np.linspace(times[k] + 1e-12, times[k + 1] - 1e-12, 2001)])
        for peak, exact in ((peak_v[k], np.abs(dense[:, 1]).max(axis=0)),
                            (peak_a[k], np.abs(dense[:, 2]).max(axis=0))):
            assert np.all(peak >= 0.98 * exact), (peak, exact)
            assert np.all(peak <= exact * (1 + 1e-6)), (peak, exact)


def test_segment_peaks_of_a_minimum_jerk_move():
    times, positions = np.array([0.0, 2.0]), np.array([[0.0], [1.0]])
    peak_v, peak_a = segment_peaks(times, positions, np.zeros((2, 1)), np.zeros((2, 1)))
    assert peak_v[0, 0] == pytest.approx(1.875 / 2.0, rel=1e-12)     # 15/8 d/T, at T/2: exact
    exact = 10 / np.sqrt(3) / 4.0                                      # 5.77 d/T^2 at 0.21 T
    assert 0.98 * exact <= peak_a[0, 0] <= exact


@pytest.mark.parametrize('values, reason', [([1.0, np.inf], 'not finite'),
                                            ([np.nan], 'not finite'),
                                            ([0.0, -2e6], 'reaches 2e\\+06')])
def test_outputs_bounded(values, reason):
    with pytest.raises(PlausibilityError, match=reason):
        bounds.check_output('gravity_torques', values)
    bounds.check_output('gravity_torques', [0.0, -1e5])
