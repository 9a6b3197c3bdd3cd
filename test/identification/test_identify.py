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
"""Identification on simulated data: exact recovery without noise, the targets with noise."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import (
    base_parameters, ExcitationLimits, FourierTrajectory, design_excitation, identify,
    parameters,
)
from robot_dynamics.identification.physical import as_built, is_physical
from robot_dynamics.identification.regressor import batch_regressor
from cost import growth_ratio
from measured_runs import record


@pytest.fixture(scope='module')
def puma():
    nominal = rd.load_model('puma560')
    excitation = design_excitation(nominal, time_limit=None, iterations=3, starts=3, seed=1)
    return nominal, as_built(nominal), excitation


def other_trajectory(model):
    """Return a validation motion unlike the excitation: other period and coefficients."""
    rng = np.random.default_rng(42)
    n = model.dof
    limits = ExcitationLimits.from_model(model)
    a = rng.normal(size=(n, 3)) * 0.3
    b = rng.normal(size=(n, 3)) * 0.3
    return FourierTrajectory(model.joint_names, 7.0, 0.5 * (limits.lower + limits.upper), a, b)


def test_excitation_respects_limits_and_improves_conditioning(puma):
    nominal, _, excitation = puma
    assert excitation.condition < excitation.initial_condition
    t, q, qd, qdd = excitation.trajectory.sample(1e-3)
    limits = excitation.limits
    assert np.all(q >= limits.lower - 1e-9) and np.all(q <= limits.upper + 1e-9)
    assert np.all(np.abs(qd) <= limits.velocity * (1 + 1e-6))
    assert np.all(np.abs(qdd) <= limits.acceleration * (1 + 1e-6))
    assert np.allclose(qd[0], 0, atol=1e-12) and np.allclose(qdd[0], 0, atol=1e-9)
    assert np.allclose(q[0], q[-1], atol=1e-9) and np.allclose(qd[0], qd[-1], atol=1e-9)
    # The reported condition, checked without condition_number: the stacked base regressor
    # on the 120-point design grid reproduces the engine's torques, and σ_max / σ_min of it
    # is the figure reported.
    base = base_parameters(nominal, ('FV', 'FC', 'IA'))
    grid = np.arange(120) * excitation.trajectory.period / 120
    q, qd, qdd = excitation.trajectory.evaluate(grid)
    W = base.regressor(batch_regressor(nominal, q, qd, qdd)).reshape(-1, base.count)
    tau = rd.inverse_dynamics(nominal, q, qd, qdd).reshape(-1)
    scale = np.abs(tau).max()
    np.testing.assert_allclose(W @ base.values(parameters(nominal)), tau, rtol=0,
                               atol=1e-12 * scale)
    sigma = np.linalg.svd(W, compute_uv=False)
    assert excitation.condition == pytest.approx(sigma[0] / sigma[-1], rel=1e-9)


def test_noise_free_recovers_base_parameters_and_torques(puma):
    nominal, true, excitation = puma
    result = identify(nominal, record(true, excitation.trajectory, 20.0),
                      validation=record(true, other_trajectory(nominal), 7.0))
    truth = result.base.values(parameters(true))
    scale = np.abs(truth).max()
    assert np.all(np.abs(result.theta - truth) <= 1e-6 * np.abs(truth) + 1e-9 * scale)
    check = result.validation
    assert check.relative_error('base') < 1e-6
    assert check.relative_error('physical') < 1e-6
    assert check.relative_error('nominal') > 0.1                   # the URDF was wrong
    for i in range(nominal.dof):
        assert is_physical(parameters(result.model)[10 * i:10 * i + 10])


def test_realistic_noise_meets_the_torque_target(puma):
    nominal, true, excitation = puma
    other = other_trajectory(nominal)
    data = record(true, excitation.trajectory, 30.0, noise=True)
    result = identify(nominal, data, validation=record(true, other, 7.0, noise=True, seed=1))
    check = result.validation
    assert check.relative_error('physical') <= 0.02
    assert check.relative_error('base') <= 0.02
    truth = rd.inverse_dynamics(true, *other.evaluate(check.t))
    model_error = np.sqrt(np.mean((check.physical - truth) ** 2) / np.mean(truth ** 2))
    assert model_error < 0.005                                   # against the noise-free truth
    assert np.all(np.isfinite(result.relative_std))
    noise = 0.01 * np.sqrt(np.mean(data.effort ** 2, axis=0))
    assert np.all(result.sigma > 0.9 * noise)                   # the noise is found, plus the
    assert np.all(result.sigma < 2.0 * noise)                   # encoder's through q̈
    assert not np.any(result.details['compliance'].used), result.details['compliance']  # rigid


def test_physical_model_is_loadable_urdf(puma, tmp_path):
    nominal, true, excitation = puma
    result = identify(nominal, record(true, excitation.trajectory, 20.0))
    path = tmp_path / 'identified.urdf'
    path.write_text(result.model.to_urdf())
    loaded = rd.RobotModel.from_urdf(str(path))
    assert loaded.warnings == loaded.notes         # no finding; the loader's friction note
    q, qd, qdd = other_trajectory(nominal).evaluate(np.linspace(0, 7, 50))
    assert np.allclose(rd.inverse_dynamics(loaded, q, qd, qdd),
                       rd.inverse_dynamics(true, q, qd, qdd), rtol=0, atol=1e-5)


def test_seven_dof_minute_at_one_kilohertz_costs_linear_time():
    """A minute of the Panda at 1 kHz costs under 2x per sample what 15 s cost (linear: 4x).

    CPU times of the same run, so the machine's load cancels (measured 2.0 s and 4.2 s: 2.1x;
    the < 10 s CPU target is benchmarks/identification.py's).
    """
    nominal = rd.load_model('panda')
    true = nominal.replace(mass=nominal.mass * 1.1, viscous_friction=np.full(7, 0.5))
    excitation = design_excitation(nominal, time_limit=None, iterations=1, starts=2)
    short, minute = (record(true, excitation.trajectory, seconds, noise=True)
                     for seconds in (15.0, 60.0))
    import cvxpy  # noqa: F401 - its one-off import (~1 s) is not the identification's cost
    result = identify(nominal, minute)
    assert result.fit_samples > 45000
    ratio = growth_ratio(lambda: identify(nominal, short), lambda: identify(nominal, minute),
                         repeats=1)
    assert ratio < 2 * 4, (ratio, result.timings)              # quadratic: 16
