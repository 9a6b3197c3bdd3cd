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
"""The stiff wrist (issue 23.3): the implicit integrator, hard stops, divergence messages.

``test/fixtures/stiff_wrist_arm.urdf``: the xArm7's kinematics, damping 2 N m s/rad on every
joint and 1.36e-4 kg m^2 on the last, so ``b dt / M = 14.7`` at 1 ms.
"""


import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.codegen.compiled import compiler_available as compiled_available
from robot_dynamics.simulation.stability import damping_rate
from robots import random_model, stiff_wrist_arm

ZERO = np.zeros(7)


@pytest.fixture(scope='module')
def arm():
    return stiff_wrist_arm()


def test_the_wrist_is_stiff_for_every_explicit_scheme(arm):
    rate, joint = damping_rate(arm, ZERO, ZERO)
    assert arm.joint_names[joint] == 'joint7'
    assert rate * 1e-3 > 14.0                  # RK4's limit is 2.785, Euler's 2


@pytest.mark.parametrize('integrator', ['euler', 'semi_implicit_euler', 'rk4'])
@pytest.mark.parametrize('dt', [1e-3, 1e-2])
@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_explicit_schemes_diverge_and_the_error_names_the_joint_and_the_fix(
        arm, integrator, dt, solver):
    # Before the implicit integrator: NaN at 1 ms with RK4, and with all three schemes.
    with pytest.raises(rd.SimulationError) as error:
        rd.simulate(arm, ZERO, ZERO, ZERO, 1.0, dt, integrator=integrator, solver=solver)
    message = str(error.value)
    assert "joint 'joint7'" in message and f'explicit {integrator}' in message
    assert "integrator='implicit'" in message and 'dt <=' in message


@pytest.mark.parametrize('dt', [1e-3, 1e-2])
def test_implicit_is_stable_and_never_gains_energy_on_the_stiff_arm(arm, dt):
    run = rd.simulate(arm, ZERO, ZERO, ZERO, 3.0, dt, integrator='implicit')
    assert np.all(np.isfinite(run.q)) and np.all(np.isfinite(run.qd))
    assert np.diff(run.energy).max() <= 0.0     # measured: -6.8e-5 J (1 ms), -8.6e-4 J (10 ms)
    assert run.energy[-1] < run.energy[0] - 35.0       # it fell: 35.0 J → -4.86 J


@pytest.mark.parametrize('seed', range(4))
def test_implicit_never_gains_energy_on_damped_passive_arms(seed):
    rng = np.random.default_rng(seed)
    model = random_model(rng, 5, prismatic_fraction=0.2).replace(
        viscous_friction=rng.uniform(0.5, 20.0, 5))
    q0 = rng.uniform(-1, 1, 5)
    run = rd.simulate(model, q0, np.zeros(5), np.zeros(5), 1.0, 1e-2, integrator='implicit')
    assert np.diff(run.energy).max() <= 1e-12 * np.abs(run.energy).max()


def passive_final(model, q0, duration, dt):
    run = rd.simulate(model, q0, np.zeros(model.dof), np.zeros(model.dof), duration, dt,
                      integrator='implicit')
    return np.concatenate((run.q[-1], run.qd[-1]))


def solve_ivp_final(model, q0, duration):
    n = model.dof

    def f(t, y):
        return np.concatenate((y[n:], rd.forward_dynamics(model, y[:n], y[n:], np.zeros(n))))
    y0 = np.concatenate((q0, np.zeros(n)))
    return solve_ivp(f, (0.0, duration), y0, method='Radau', rtol=1e-12, atol=1e-12).y[:, -1]


@pytest.mark.parametrize('case', ['random', 'stiff'])
def test_implicit_is_first_order_against_solve_ivp(arm, case):
    # Measured orders 0.994, 0.997, 0.999 (random) and 0.985, 0.993, 0.996 (stiff).
    if case == 'random':
        model = random_model(np.random.default_rng(31), 3, prismatic_fraction=0.0).replace(
            viscous_friction=[0.5, 1.0, 2.0])
        q0 = np.array([0.3, -0.2, 0.4])
    else:
        model, q0 = arm, np.array([0.2, 0.3, -0.1, 1.0, 0.5, 0.4, 0.3])
    oracle = solve_ivp_final(model, q0, 0.5)
    errors = np.array([np.abs(passive_final(model, q0, 0.5, dt) - oracle).max()
                       for dt in (4e-3, 2e-3, 1e-3)])
    orders = np.log2(errors[:-1] / errors[1:])
    assert orders == pytest.approx([1.0, 1.0], abs=0.05)


@pytest.mark.parametrize('method', ['reference', 'generated'])
def test_engine_numpy_and_fast_steps_agree(arm, method):
    # Measured: 9e-15 relative (generated C), 3e-16 (numpy twin).
    if method == 'generated' and not compiled_available():
        pytest.skip('no C compiler for the generated code')
    compiled_model = fast.compile(arm, method=method)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q, qd, tau = rng.uniform(-1, 1, (3, 7))
        engine = rd.step(arm, q, qd, tau, 1e-3, 'implicit')
        numpy = rd.step(arm, q, qd, tau, 1e-3, 'implicit', solver='rnea')
        compiled = fast.step(compiled_model, q, qd, tau, 1e-3, 'implicit')
        for a, b, c in zip(engine, numpy, compiled):
            np.testing.assert_allclose(b, a, rtol=0, atol=1e-12 * np.abs(a).max())
            np.testing.assert_allclose(c, a, rtol=0, atol=1e-12 * np.abs(a).max())
    batch = rd.step(arm, rng.uniform(-1, 1, (4, 7)), np.zeros((4, 7)), np.zeros((4, 7)), 1e-3,
                    'implicit')
    assert batch[0].shape == (4, 7)


def test_implicit_step_solves_the_damped_velocity_update(arm):
    # (M + dt D)(qd+ - qd) = dt (tau - b), q+ = q + dt qd+, D = diag(damping): checked with
    # the public M and forward dynamics, independently of the engine's arithmetic.
    rng = np.random.default_rng(4)
    q, qd, tau = rng.uniform(-1, 1, (3, 7))
    dt = 5e-3
    q_next, qd_next, qdd = rd.step(arm, q, qd, tau, dt, 'implicit')
    M = rd.mass_matrix(arm, q)
    force = M @ rd.forward_dynamics(arm, q, qd, tau)
    residual = (M + dt * np.diag(arm.viscous_friction)) @ (qd_next - qd) - dt * force
    assert np.abs(residual).max() < 1e-12 * np.abs(dt * force).max()
    np.testing.assert_allclose(q_next, q + dt * qd_next, rtol=0, atol=1e-15)
    np.testing.assert_allclose(qdd, rd.forward_dynamics(arm, q, qd, tau), rtol=1e-12)


@pytest.mark.parametrize('dt, growth', [(1e-3, 0.0), (1e-2, 1e-3)])
def test_the_arm_falling_onto_its_stops_stays_within_them(arm, dt, growth):
    run = rd.simulate(arm, ZERO, ZERO, ZERO, 3.0, dt, integrator='implicit',
                      position_limits=True)
    assert np.all((run.q >= arm.lower_limit) & (run.q <= arm.upper_limit))   # no penetration
    assert np.sum(run.q[:, 1] == arm.upper_limit[1]) > 0.5 * len(run.t)     # joint2 rests on it
    # Measured largest step change: -2.6e-5 J at 1 ms; +4.4e-4 J at 10 ms (the semi-implicit
    # position update of a step with an impact), 1.3e-5 of the energy.
    assert np.diff(run.energy).max() <= growth


def test_a_driven_joint_stays_within_its_stop(arm):
    tau = np.array([0.0, 0.0, 0.0, 25.0, 0.0, 0.0, 0.0])        # joint4 up to 3.927 rad
    run = rd.simulate(arm, ZERO, ZERO, tau, 2.0, 1e-3, integrator='implicit',
                      position_limits=True)
    assert np.all(run.q[:, 3] <= arm.upper_limit[3])
    at_stop = run.q[:, 3] == arm.upper_limit[3]
    assert at_stop[-500:].all() and np.all(run.qd[at_stop, 3] <= 0.0)    # halted, or leaving
    # Energy never exceeds the start plus the work of the torque (trapezoid rule).
    work = np.concatenate(([0.0], np.cumsum(0.5 * 1e-3 * (run.qd[1:] + run.qd[:-1]) @ tau)))
    assert np.all(run.energy - run.energy[0] <= work + 1e-3)


def test_a_start_outside_the_limits_is_refused_with_limits(arm):
    q0 = ZERO.copy()
    q0[3] = -1.0
    with pytest.raises(ValueError, match="q0: joint 'joint4' starts at -1"):
        rd.simulate(arm, q0, ZERO, ZERO, 0.1, 1e-3, position_limits=True)
    with pytest.raises(ValueError, match=r'single state of shape \(7,\)'):
        rd.step(arm, np.zeros((2, 7)), np.zeros((2, 7)), np.zeros((2, 7)), 1e-3,
                position_limits=True)


def test_a_mass_matrix_failure_on_a_diverged_state_is_reported_as_divergence(arm):
    # Not reproduced with this arm on main (the explicit runs end with NaN messages); the
    # engine's status for a failed Cholesky, met on a state already beyond any plausible
    # speed, must not claim a zero-mass link.
    from robot_dynamics import engine
    from robot_dynamics.simulation.integrators import _raise_for
    fast = np.full(7, 1e6)
    with pytest.raises(rd.SimulationError, match="diverged.*joint 'joint7'.*implicit"):
        _raise_for(engine.NOT_SPD, (arm, ZERO, fast, 1e-3, 'rk4'))
    with pytest.raises(np.linalg.LinAlgError, match='zero mass'):
        _raise_for(engine.NOT_SPD, (arm, ZERO, ZERO, 1e-3, 'rk4'))


def test_smoothed_coulomb_friction_is_implicit_too(arm):
    # tanh Coulomb with eps = 1 mm/s: slope Fc / eps = 1000 N m s/rad at rest, in D as well.
    smooth = arm.replace(coulomb_friction=np.full(7, 1.0), friction_smoothing=np.full(7, 1e-3))
    slopes = rd.model.friction.friction_slopes(smooth, ZERO)
    assert slopes[6] == pytest.approx(1002.0)
    run = rd.simulate(smooth, ZERO, ZERO, ZERO, 2.0, 1e-3, integrator='implicit')
    assert np.all(np.isfinite(run.qd)) and np.diff(run.energy).max() <= 0.0   # -1.9e-6 J


def test_a_short_diverging_run_is_refused_before_returning_absurd_speeds(arm):
    # Without the check: 2.6e89 rad/s returned after 5 steps of rk4 (finite, absurd).
    with pytest.raises(rd.SimulationError, match="beyond the plausible 1000.*joint 'joint7'"):
        rd.simulate(arm, ZERO + 0.1, ZERO, ZERO, 0.005, 1e-3, integrator='rk4')
    run = rd.simulate(arm, ZERO + 0.1, ZERO, ZERO, 0.005, 1e-3, integrator='implicit')
    assert np.abs(run.qd).max() < 10.0


def test_friction_slope_rates_are_the_derivative_of_the_slopes(arm):
    # The implicit step's linearisation needs d(slope)/dqd (tanh, Stribeck, asymmetry).
    rich = arm.replace(coulomb_friction=np.full(7, 1.0), coulomb_asymmetry=np.full(7, 0.3),
                       friction_smoothing=np.full(7, 0.2), stribeck_friction=np.full(7, 0.5),
                       stribeck_velocity=np.full(7, 0.4), friction_offset=np.full(7, 0.1))
    qd = np.linspace(-1.5, 1.3, 7)
    h = 1e-6
    central = (rd.model.friction.friction_slopes(rich, qd + h)
               - rd.model.friction.friction_slopes(rich, qd - h)) / (2 * h)
    rates = rd.model.friction.friction_slope_rates(rich, qd)
    np.testing.assert_allclose(rates, central, rtol=1e-6, atol=1e-8)
    assert np.abs(rates).max() > 0.5
    q, tau, dt = np.full(7, 0.2), np.linspace(-1, 1, 7), 1e-2
    A, B = rd.linearize(rich, q, qd, tau, dt, integrator='implicit')

    def step(x, u):
        return np.concatenate(rd.step(rich, x[:7], x[7:], u, dt, 'implicit')[:2])
    x, eye = np.concatenate((q, qd)), np.eye(21) * 1e-6
    J = np.array([(step(x + e[:14], tau + e[14:]) - step(x - e[:14], tau - e[14:])) / 2e-6
                  for e in eye]).T
    assert np.linalg.norm(A - J[:, :14]) <= 1e-8 * np.linalg.norm(J[:, :14])
    assert np.linalg.norm(B - J[:, 14:]) <= 1e-8 * np.linalg.norm(J[:, 14:])
