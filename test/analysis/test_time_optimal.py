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
"""rd.time_optimal against toppra and Pinocchio: duration, limits at every sample, errors.

toppra (Pham & Pham, T-RO 2018) runs on the same path (its ``SplineInterpolator`` with
``bc_type='clamped'`` is the same scipy ``CubicSpline``), the same limits and the same
rigid-body dynamics (its ``JointTorqueConstraint`` calls ``rd.inverse_dynamics``), with its
recommended settings: 401 grid points, the interpolation discretisation, ``ParametrizeConstAccel``.
Pinocchio's RNEA judges the torques of our samples independently.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.analysis import path_dynamics, time_optimal as to

pytest.importorskip('toppra')                 # in requirements.txt (tests); skipped only outside
from toppra_reference import toppra_timing, waypoints  # noqa: E402

DT = 1e-3


def load(name, payload=0.0):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.load_model(name)
    return model.with_payload(payload) if payload else model


def toppra_duration(model, path, vmax, parametrizer='ParametrizeConstAccel'):
    """Return the duration of toppra's timing and its 1 kHz samples ``q, qd, qdd``."""
    duration, samples, _, _ = toppra_timing(model, path, vmax, parametrizer, DT)
    return duration, samples[1:]


def pinocchio_torques(model, q, qd, qdd):
    """RNEA of Pinocchio on the model's URDF (no friction, no rotors in these arms)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        pm = pin.buildModelFromXML(model.to_urdf())
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    data = pm.createData()
    return np.array([pin.rnea(pm, data, *row) for row in zip(q, qd, qdd)])


# (arm, payload, velocity limits x URDF): torque-bound and speed-bound, 6 and 7 joints.
CASES = [('ur5', 5.0, 3.0, 0), ('ur5', 0.0, 1.0, 1), ('panda', 3.0, 3.0, 0),
         ('panda', 0.0, 1.0, 2)]


@pytest.mark.parametrize('arm, payload, vscale, seed', CASES)
def test_duration_within_2_percent_of_toppra_and_every_sample_within_the_limits(
        arm, payload, vscale, seed):
    model = load(arm, payload)
    vmax = vscale * model.velocity_limit
    path = path_dynamics.spline_path(waypoints(model, seed))
    result = rd.time_optimal_retiming(model, path, velocity_limits=vmax, dt=DT)
    theirs, _ = toppra_duration(model, path, vmax)
    assert abs(result.duration / theirs - 1.0) < 0.02
    assert result.duration >= theirs * 0.999        # toppra's grid constraints are looser
    # Every 1 kHz sample within every limit: our engine and Pinocchio's RNEA as judges.
    assert np.diff(result.t)[:-1] == pytest.approx(DT, abs=1e-12)
    assert np.abs(result.qd / vmax).max() <= 1.0 + 1e-9
    tau = rd.inverse_dynamics(model, result.q, result.qd, result.qdd)
    assert np.abs(tau / model.effort_limit).max() <= 1.0 + 1e-9
    reference = pinocchio_torques(model, result.q, result.qd, result.qdd)
    assert np.abs(reference - tau).max() <= 1e-10 * np.abs(tau).max()
    assert np.abs(reference / model.effort_limit).max() <= 1.005
    # From rest to rest, on the path.
    assert np.abs(result.qd[[0, -1]]).max() == 0.0
    assert np.abs(result.qdd[[0, -1]]).max() <= 1e-9
    dense = path(np.linspace(path.x[0], path.x[-1], 200_001))
    nearest = np.array([np.linalg.norm(dense - q, axis=1).min() for q in result.q[::25]])
    assert nearest.max() < 1e-4                     # the dense sampling's spacing, 2e-5 rad


def test_toppra_default_output_exceeds_the_torque_limit_between_its_grid_points():
    """The reason for the dense check: toppra's spline output peaks 15 % over (issue 34)."""
    model = load('ur5', 5.0)
    vmax = 3.0 * model.velocity_limit
    path = path_dynamics.spline_path(waypoints(model, 0))
    _, samples = toppra_duration(model, path, vmax, 'ParametrizeSpline')
    tau = rd.inverse_dynamics(model, *samples)
    assert np.abs(tau / model.effort_limit).max() > 1.05


def test_friction_counts_and_limits_hold_with_viscous_and_coulomb_friction():
    model = load('puma560')                         # URDF friction: viscous and Coulomb
    assert np.any(model.viscous_friction) and np.any(model.coulomb_friction)
    limits = np.array([97.6, 186.4, 89.4, 24.2, 20.1, 21.3])
    W = np.array([[0.0, 0.3, -0.5, 0.0, 0.2, 0.0], [1.2, -0.3, 0.2, 1.0, -0.8, 1.5],
                  [-0.8, 0.6, -0.9, -0.5, 0.5, -1.0]])
    t, q, qd, qdd = rd.time_optimal(model, W, velocity_limits=3.0, torque_limits=limits)
    tau = rd.inverse_dynamics(model, q, qd, qdd)            # friction included
    assert np.abs(tau / limits).max() <= 1.0 + 1e-9
    assert np.abs(tau / limits).max() > 0.99                # a torque limit binds
    friction = rd.friction_torques(model, qd)
    assert np.abs(friction / limits).max() > 0.25           # friction is a large share
    assert np.abs((tau - friction) / limits).max() > 1.05   # judged without it: wrong


def test_a_moving_start_keeps_its_velocity_and_an_impossible_one_is_refused():
    model = load('ur5')
    W = waypoints(model, 3)
    v0 = 0.8 * (W[1] - W[0]) / np.linalg.norm(W[1] - W[0])
    result = rd.time_optimal_retiming(model, W, start_velocity=v0)
    assert result.qd[0] == pytest.approx(v0, rel=1e-9, abs=1e-12)
    assert result.q[0] == pytest.approx(W[0], abs=1e-9)
    assert np.abs(result.qd / model.velocity_limit).max() <= 1.0 + 1e-9
    assert np.abs(result.qd[-1]).max() == 0.0
    with pytest.raises(rd.InfeasiblePathError, match='start: the arm moves .* stop at its end'):
        rd.time_optimal_retiming(model, W[:2] * 0.0 + W[0] + np.array([[0] * 6, [0.01] + [0] * 5]),
                                 start_velocity=[3.0, 0, 0, 0, 0, 0])


def test_a_pose_gravity_alone_exceeds_names_the_joint_the_place_and_the_torque():
    model = load('ur5', 5.0)
    W = np.array([[0.0, -1.57, 0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0, 0.0]])
    limits = np.array([150.0, 40.0, 150.0, 28.0, 28.0, 28.0])
    with pytest.raises(rd.InfeasiblePathError) as info:
        rd.time_optimal(model, W, torque_limits=limits)
    place = path_dynamics.spline_path(W)(np.array([info.value.s]))[0]
    needed = np.abs(rd.gravity_torques(model, place))[1]      # the arm stretched out there
    assert info.value.joint == 'shoulder_lift_joint'
    assert info.value.needed == pytest.approx(needed, rel=1e-12)
    assert info.value.limit == 40.0 and needed > 40.0
    assert 'shoulder_lift_joint needs' in str(info.value) and 'between waypoints 0 and 1' in \
        str(info.value) and 'torque limit is 40' in str(info.value)


@pytest.mark.parametrize('kwargs, field', [
    (dict(torque_limits=[150, 150, 0.0, 28, 28, 28]), 'torque_limits: joint elbow_joint'),
    (dict(velocity_limits=-1.0), 'velocity_limits: joint shoulder_pan_joint'),
    (dict(acceleration_limits=[np.nan] * 6), 'acceleration_limits'),
    (dict(dt=0.0), 'dt'),
])
def test_bad_limits_name_the_field(kwargs, field):
    model = load('ur5')
    with pytest.raises(ValueError, match=field):
        rd.time_optimal(model, waypoints(model, 0), **kwargs)


def test_bad_paths_name_the_field():
    model = load('ur5')
    W = waypoints(model, 0)
    bad = W.copy()
    bad[2, 3] = np.nan
    with pytest.raises(ValueError, match='path: waypoint 2 holds nan'):
        rd.time_optimal(model, bad)
    with pytest.raises(ValueError, match='waypoints 1 and 2 are the same point'):
        rd.time_optimal(model, np.vstack([W[:2], W[1:]]))

    class Backwards:
        x = np.array([0.0, 2.0, 1.0])

        def __call__(self, s, nu=0):
            return np.zeros((np.size(s), 6))
    with pytest.raises(ValueError, match=r'path.x: breakpoints must increase strictly'):
        rd.time_optimal(model, Backwards())
    outside = W.copy()
    outside[3, 2] = 3.3                             # elbow range is [-pi, pi]
    with pytest.raises(rd.InfeasiblePathError, match='leaves the joint limits .* elbow_joint'):
        rd.time_optimal(model, outside)


def test_the_dynamics_along_the_path_is_one_batched_call_whatever_the_grid(monkeypatch):
    model = load('ur5', 5.0)
    path = path_dynamics.spline_path(waypoints(model, 0))
    calls = []
    original = path_dynamics.api.inverse_dynamics
    monkeypatch.setattr(path_dynamics.api, 'inverse_dynamics',
                        lambda *a, **k: calls.append(np.shape(a[1])) or original(*a, **k))
    for grid in (101, 801):
        calls.clear()
        result = rd.time_optimal_retiming(model, path, velocity_limits=3 * model.velocity_limit,
                                          grid_points=grid)
        # Per solve one call for the path's points and one for the samples' check.
        assert len(calls) == 2 * result.report.rounds
        # Every grid point at once (and the pieces' ends before the inner breakpoints).
        assert calls[0][0] == 3 * (grid + 2 * (path.x.size - 2))
        assert calls[-1][0] == result.t.size             # the last check: the samples returned


def test_report_names_the_limits_that_bind():
    model = load('ur5', 5.0)
    result = rd.time_optimal_retiming(model, waypoints(model, 0),
                                      velocity_limits=3 * model.velocity_limit)
    report = result.report
    assert report.duration == result.duration == result.t[-1]
    assert report.peak_torque.max() == pytest.approx(1.0, abs=1e-3)
    assert report.shares['torque'] > 0.05
    assert 'duration' in report.message() and report.worst <= 1.0 + 1e-9
    assert to.TOLERANCE <= 1e-9


def test_acceleration_limits_and_a_path_object_of_another_kind():
    """A scipy ``BPoly`` path (quintic Hermite pieces) with acceleration limits that bind."""
    from scipy.interpolate import BPoly
    model = load('panda')
    W = waypoints(model, 4, count=3)
    zero = np.zeros_like(W)
    path = BPoly.from_derivatives([0.0, 1.0, 2.5], np.stack([W, zero + 0.1, zero], axis=1))
    amax = np.full(model.dof, 4.0)
    result = rd.time_optimal_retiming(model, path, acceleration_limits=amax)
    assert np.abs(result.qdd / amax).max() <= 1.0 + 1e-9
    assert np.abs(result.qdd / amax).max() > 0.99          # they bind
    assert result.report.shares['acceleration'] > 0.1
    assert np.abs(result.qd / model.velocity_limit).max() <= 1.0 + 1e-9
    tau = rd.inverse_dynamics(model, result.q, result.qd, result.qdd)
    assert np.abs(tau / model.effort_limit).max() <= 1.0 + 1e-9
    assert np.abs(result.q - path(result.sigma)).max() == 0.0    # the path's own points


@pytest.mark.parametrize('name', ['ur5', 'panda', 'puma560', 'stanford', 'two_link'])
def test_every_bundled_arm_every_sample_within_the_limits(name):
    """Prismatic joints (Stanford), friction (PUMA 560 URDF), 2 to 7 joints, random paths."""
    model = load(name)
    rng = np.random.default_rng(7)
    gravity = np.abs(rd.gravity_torques(model, rng.uniform(-2, 2, (500, model.dof)))).max(0)
    torque = np.where(np.isfinite(model.effort_limit), model.effort_limit,
                      3 * gravity + 2 * model.coulomb_friction + 5)
    speed = np.where(np.isfinite(model.velocity_limit), model.velocity_limit, 2.0)
    low = np.where(np.isfinite(model.lower_limit), model.lower_limit, -1.5)
    high = np.where(np.isfinite(model.upper_limit), model.upper_limit, 1.5)
    W = 0.5 * (low + high) + 0.3 * (high - low) * rng.uniform(-1, 1, (4, model.dof))
    t, q, qd, qdd = rd.time_optimal(model, W, velocity_limits=speed, torque_limits=torque)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert max(np.abs(tau / torque).max(), np.abs(qd / speed).max()) <= 1.0 + 1e-9
    assert max(np.abs(tau / torque).max(), np.abs(qd / speed).max()) > 0.99
