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
"""``integrator='implicit_coriolis'``: implicit in the Coriolis term's velocity derivative too.

The step ``W (q̇⁺ - q̇) = dt (τ - b)``, ``W = M + dt (D + ∂(C q̇)/∂q̇)``, ``q⁺ = q + dt q̇⁺``
(MuJoCo's ``implicit``; ``'implicit'`` is its ``implicitfast``). The engine takes
``∂(C q̇)/∂q̇`` from the inverse dynamics' analytic derivatives, the numpy twin as ``2C`` from
the Christoffel symbols: two independent routes, held to each other.
"""


import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.model.friction import friction_slopes
from robots import random_model, stiff_wrist_arm

ZERO = np.zeros(7)


@pytest.fixture(scope='module')
def arm():
    return stiff_wrist_arm()


def rich(model):
    """Return the arm with tanh Coulomb, Stribeck (a negative slope near rest), asymmetry."""
    n = model.dof
    return model.replace(coulomb_friction=np.full(n, 1.0), coulomb_asymmetry=np.full(n, 0.3),
                         friction_smoothing=np.full(n, 0.2), stribeck_friction=np.full(n, 0.5),
                         stribeck_velocity=np.full(n, 0.4), friction_offset=np.full(n, 0.1))


def test_the_velocity_derivative_of_the_bias_is_twice_the_christoffel_coriolis_matrix(arm):
    # The identity both routes rest on: d b / d qd = 2 C + diag(friction slopes).
    model = rich(arm)
    rng = np.random.default_rng(1)
    for _ in range(3):
        q, qd = rng.uniform(-1.5, 1.5, (2, 7))
        db_dqd = rd.inverse_dynamics_derivatives(model, q, qd, ZERO)[1]
        expected = 2 * rd.coriolis_matrix(model, q, qd) + np.diag(friction_slopes(model, qd))
        np.testing.assert_allclose(db_dqd, expected, rtol=0, atol=1e-12 * np.abs(db_dqd).max())


def test_the_step_solves_the_coriolis_implicit_velocity_update(arm):
    # Checked with the public M, C and forward dynamics, independently of the engine.
    model = rich(arm)
    rng = np.random.default_rng(4)
    dt = 1e-2
    for _ in range(3):
        q, qd, tau = rng.uniform(-2, 2, (3, 7))
        q_next, qd_next, qdd = rd.step(model, q, qd, tau, dt, 'implicit_coriolis')
        M = rd.mass_matrix(model, q)
        force = M @ rd.forward_dynamics(model, q, qd, tau)
        D = np.diag(np.maximum(friction_slopes(model, qd), 0.0))
        W = M + dt * (D + 2 * rd.coriolis_matrix(model, q, qd))
        residual = W @ (qd_next - qd) - dt * force
        assert np.abs(residual).max() < 1e-12 * np.abs(dt * force).max()
        np.testing.assert_allclose(q_next, q + dt * qd_next, rtol=0, atol=1e-15)
        np.testing.assert_allclose(qdd, rd.forward_dynamics(model, q, qd, tau), rtol=1e-12)
        fast_only = rd.step(model, q, qd, tau, dt, 'implicit')[1]
        assert np.abs(fast_only - qd_next).max() > 1e-4        # the option changes the step


@pytest.mark.parametrize('which', ['stiff', 'random'])
def test_engine_and_numpy_twin_agree(arm, which):
    # Engine: d b / d qd from rd_rnea_derivatives; numpy: 2 C from the Christoffel symbols.
    rng = np.random.default_rng(7)
    model = rich(arm) if which == 'stiff' else random_model(
        rng, 6, prismatic_fraction=0.3, friction=True, rotor=True)
    n = model.dof
    for _ in range(5):
        q, qd, tau = rng.uniform(-2, 2, (3, n))
        engine = rd.step(model, q, qd, tau, 1e-2, 'implicit_coriolis')
        numpy = rd.step(model, q, qd, tau, 1e-2, 'implicit_coriolis', solver='rnea')
        for a, b in zip(engine, numpy):
            np.testing.assert_allclose(b, a, rtol=0, atol=1e-12 * np.abs(a).max())
    batch = rd.step(model, rng.uniform(-1, 1, (4, n)), rng.uniform(-1, 1, (4, n)),
                    np.zeros((4, n)), 1e-2, 'implicit_coriolis')
    assert batch[0].shape == (4, n)


def test_linearize_equals_central_differences_with_rich_friction(arm):
    # The chain rule through W(q, qd) = M + dt (D + 2 C): d(2 C dv)/dq by polarisation of
    # the quadratic velocity terms, d(2 C dv)/dqd = 2 C(q, dv).
    model = rich(arm)
    q, qd, tau, dt = np.full(7, 0.2), np.linspace(-2.5, 2.3, 7), np.linspace(-1, 1, 7), 1e-2
    A, B = rd.linearize(model, q, qd, tau, dt, integrator='implicit_coriolis')

    def step(x, u):
        return np.concatenate(rd.step(model, x[:7], x[7:], u, dt, 'implicit_coriolis')[:2])
    x, eye = np.concatenate((q, qd)), np.eye(21) * 1e-6
    J = np.array([(step(x + e[:14], tau + e[14:]) - step(x - e[:14], tau - e[14:])) / 2e-6
                  for e in eye]).T
    assert np.linalg.norm(A - J[:, :14]) <= 1e-8 * np.linalg.norm(J[:, :14])
    assert np.linalg.norm(B - J[:, 14:]) <= 1e-8 * np.linalg.norm(J[:, 14:])
    A_fast = rd.linearize(model, q, qd, tau, dt, integrator='implicit')[0]
    assert np.linalg.norm(A - A_fast) > 1e-3 * np.linalg.norm(A)   # a different step


def passive(model, q0, qd0, duration, dt, integrator='implicit_coriolis'):
    n = model.dof
    return rd.simulate(model, q0, qd0, np.zeros(n), duration, dt, integrator=integrator)


@pytest.mark.parametrize('case', ['random', 'stiff'])
def test_first_order_against_solve_ivp(arm, case):
    if case == 'random':
        model = random_model(np.random.default_rng(31), 3, prismatic_fraction=0.0).replace(
            viscous_friction=[0.5, 1.0, 2.0])
        q0, qd0 = np.array([0.3, -0.2, 0.4]), np.array([2.0, -1.0, 3.0])
    else:
        model, q0, qd0 = arm, np.array([0.2, 0.3, -0.1, 1.0, 0.5, 0.4, 0.3]), np.full(7, 1.0)
    n = model.dof

    def f(t, y):
        return np.concatenate((y[n:], rd.forward_dynamics(model, y[:n], y[n:], np.zeros(n))))
    oracle = solve_ivp(f, (0.0, 0.5), np.concatenate((q0, qd0)), method='Radau', rtol=1e-12,
                       atol=1e-12).y[:, -1]
    errors = []
    for dt in (4e-3, 2e-3, 1e-3):
        run = passive(model, q0, qd0, 0.5, dt)
        errors.append(np.abs(np.concatenate((run.q[-1], run.qd[-1])) - oracle).max())
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert orders == pytest.approx([1.0, 1.0], abs=0.05)


@pytest.mark.parametrize('dt', [1e-3, 1e-2])
def test_stable_and_never_gains_energy_on_the_stiff_arm(arm, dt):
    run = passive(arm, ZERO, ZERO, 3.0, dt)
    assert np.all(np.isfinite(run.q)) and np.all(np.isfinite(run.qd))
    assert np.diff(run.energy).max() <= 0.0
    assert run.energy[-1] < run.energy[0] - 35.0


@pytest.mark.parametrize('seed', range(4))
def test_never_gains_energy_on_damped_passive_arms(seed):
    rng = np.random.default_rng(seed)
    model = random_model(rng, 5, prismatic_fraction=0.2).replace(
        viscous_friction=rng.uniform(0.5, 20.0, 5))
    run = passive(model, rng.uniform(-1, 1, 5), rng.uniform(-3, 3, 5), 1.0, 1e-2)
    assert np.diff(run.energy).max() <= 1e-12 * np.abs(run.energy).max()


def test_fast_step_refuses_it_rather_than_dropping_the_coriolis_term(arm):
    compiled = fast.compile(arm, method='reference')
    with pytest.raises(ValueError, match="'implicit_coriolis' is not available in fast.step"):
        fast.step(compiled, ZERO, ZERO, ZERO, 1e-3, 'implicit_coriolis')


def test_a_fast_spinning_arm_at_a_large_step_needs_the_coriolis_term():
    # The frictionless Panda, base joint at 10 rad/s, the others at 2 rad/s, dt = 10 ms:
    # 'implicit' (implicitfast) overflows to NaN; with the Coriolis derivative the run stays
    # finite and its energy never exceeds the start (measured: 108.2 J -> 43.1 J, the scheme's
    # numerical dissipation; single steps rise by up to 3.0 J under gravity).
    panda = rd.load_model('panda').without_joint_effects()
    q0, qd0 = np.full(7, 0.3), np.array([10.0, 2, 2, 2, 2, 2, 2])
    with pytest.raises(rd.SimulationError):
        passive(panda, q0, qd0, 2.0, 1e-2, integrator='implicit')
    run = passive(panda, q0, qd0, 2.0, 1e-2)
    assert np.all(np.isfinite(run.qd)) and np.abs(run.qd).max() < 100.0
    assert run.energy.max() <= run.energy[0]


def test_a_singular_step_matrix_is_named_not_blamed_on_the_mass_matrix(arm):
    # The engine's status for a failed solve (RD_NOT_SPD): with implicit_coriolis and a
    # positive definite M, the non-symmetric W = M + dt (D + 2C) is what failed.
    from robot_dynamics import engine
    from robot_dynamics.simulation.integrators import _raise_for
    with pytest.raises(rd.SimulationError, match=r'M \+ dt \(D \+ 2C\) is singular at dt = 0.5'):
        _raise_for(engine.NOT_SPD, (arm, ZERO, np.full(7, 50.0), 0.5, 'implicit_coriolis'))
    with pytest.raises(np.linalg.LinAlgError, match='zero mass'):
        _raise_for(engine.NOT_SPD, (arm, ZERO, ZERO, 1e-3, 'implicit'))
