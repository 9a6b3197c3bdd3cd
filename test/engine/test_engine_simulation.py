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
"""Integration in the engine against the numpy integrators: steps, whole runs, failures."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import api
from robot_dynamics.simulation import integrators
from robots import random_model, random_state

INTEGRATORS = ('euler', 'semi_implicit_euler', 'rk4')


@pytest.fixture
def numpy_only(monkeypatch):
    """Switch the engine off in the public functions and the integrators."""
    def switch(off):
        if off:
            monkeypatch.setattr(api, '_engine', None)
            monkeypatch.setattr(integrators, '_engine', None)
        else:
            monkeypatch.undo()
    return switch


def arm(n=5, seed=0, friction=True):
    """Give a seeded random arm with rotors (and friction) and a random initial state."""
    rng = np.random.default_rng(4400 + seed)
    model = random_model(rng, n, prismatic_fraction=0.3, friction=friction, rotor=True)
    q, qd, _ = random_state(rng, n)
    return model, q, qd, rng


@pytest.mark.parametrize('integrator', INTEGRATORS)
def test_step_matches_numpy(integrator, numpy_only):
    model, q, qd, rng = arm(seed=1)
    tau, f_tip = rng.uniform(-5, 5, model.dof), rng.uniform(-5, 5, 6)
    compiled = rd.step(model, q, qd, tau, 1e-3, integrator, f_tip=f_tip)
    numpy_only(True)
    reference = rd.step(model, q, qd, tau, 1e-3, integrator, f_tip=f_tip)
    for a, b in zip(compiled, reference):
        assert a.shape == b.shape and np.allclose(a, b, rtol=0, atol=1e-12 * max(1, abs(b).max()))


def test_step_takes_a_batch():
    model, _, _, rng = arm(seed=2)
    q, qd, _ = random_state(rng, model.dof, 3)
    tau = rng.uniform(-5, 5, model.dof)
    q1, qd1, qdd = rd.step(model, q, qd, tau, 1e-3)
    assert q1.shape == qd1.shape == qdd.shape == (3, model.dof)
    single = rd.step(model, q[2], qd[2], tau, 1e-3)
    assert np.allclose(q1[2], single[0], rtol=0, atol=1e-15)


@pytest.mark.parametrize('integrator', INTEGRATORS)
@pytest.mark.parametrize('form', ['constant', 'per step', 'gravity'])
def test_whole_runs_match_numpy(integrator, form, numpy_only):
    model, q, qd, rng = arm(seed=3)
    steps = 200
    torque = {'constant': rng.uniform(-5, 5, model.dof),
              'per step': rng.uniform(-5, 5, (steps + 1, model.dof)),
              'gravity': 'gravity'}[form]
    compiled = rd.simulate(model, q, qd, torque, steps * 1e-3, 1e-3, integrator)
    numpy_only(True)
    reference = rd.simulate(model, q, qd, torque, steps * 1e-3, 1e-3, integrator)
    for name in ('t', 'q', 'qd', 'qdd', 'tau', 'energy'):
        a, b = getattr(compiled, name), getattr(reference, name)
        assert a.shape == b.shape, name
        assert np.allclose(a, b, rtol=0, atol=1e-8 * max(1, np.abs(b).max())), name


def test_a_torque_callback_is_called_once_per_step():
    model, q, qd, _ = arm(seed=4)
    calls = []

    def torque(t, q_, qd_):
        calls.append(t)
        return -2.0 * qd_

    trajectory = rd.simulate(model, q, qd, torque, 0.05, 1e-3)
    assert len(calls) == 51 and np.allclose(calls, trajectory.t)
    assert np.allclose(trajectory.tau, -2.0 * trajectory.qd)
    damped = rd.simulate(model, q, qd, np.zeros(model.dof), 0.05, 1e-3)
    assert not np.allclose(damped.q, trajectory.q)


def test_rk4_conserves_energy_without_friction():
    model, q, qd, _ = arm(n=6, seed=5, friction=False)
    trajectory = rd.simulate(model, q, qd, np.zeros(model.dof), 1.0, 1e-3, 'rk4')
    drift = np.abs(trajectory.energy - trajectory.energy[0]).max()
    assert drift < 1e-6 * max(1.0, abs(trajectory.energy[0]))
    assert np.allclose(trajectory.energy, rd.total_energy(model, trajectory.q, trajectory.qd))


def test_gravity_compensation_holds_an_arm_with_friction_still():
    model = rd.load_model('puma560')
    q0 = np.radians([10, -40, 30, 5, 20, -15])
    trajectory = rd.simulate(model, q0, np.zeros(6), 'gravity', 2.0, 1e-3)
    assert np.abs(trajectory.q - q0).max() < 1e-9
    assert np.allclose(trajectory.tau, rd.gravity_torques(model, trajectory.q))


def test_bad_runs_fail_as_the_numpy_path_does(numpy_only):
    model, q, qd, _ = arm(n=2, seed=6)
    zero = np.zeros(2)
    with pytest.raises(rd.SimulationError, match='total energy exceeded 1.0 J at t = '):
        rd.simulate(model, zero, zero, np.array([50.0, 50.0]), 1.0, 1e-3, energy_limit=1.0)
    with pytest.raises(rd.SimulationError, match='NaN/inf'):
        rd.simulate(model, zero, zero, np.array([1e308, 1e308]), 1.0, 1.0)
    with pytest.raises(ValueError, match=r'torque: expected shape \(2,\) held constant or '
                                         r'\(11, 2\)'):
        rd.simulate(model, zero, zero, np.zeros((5, 2)), 0.01, 1e-3)
    with pytest.raises(ValueError, match="torque: unknown law 'hold'"):
        rd.simulate(model, zero, zero, 'hold', 0.01, 1e-3)
    with pytest.raises(ValueError, match=r'tau: contains NaN or inf'):
        rd.simulate(model, zero, zero, np.array([np.nan, 0.0]), 0.01, 1e-3)
    with pytest.raises(ValueError, match=r'q0: expected shape \(2,\)'):
        rd.simulate(model, np.zeros(3), zero, zero, 0.01, 1e-3)
    massless = model.replace(mass=zero, inertia=np.zeros((2, 3, 3)), rotor_inertia=zero)
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.simulate(massless, zero, zero, zero, 0.01, 1e-3)
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.step(massless, zero, zero, zero, 1e-3)


def test_energy_limit_time_matches_numpy(numpy_only):
    model, _, _, _ = arm(n=2, seed=6)
    zero = np.zeros(2)
    messages = []
    for off in (False, True):
        numpy_only(off)
        with pytest.raises(rd.SimulationError) as error:
            rd.simulate(model, zero, zero, np.array([50.0, 50.0]), 1.0, 1e-3, energy_limit=1.0)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
