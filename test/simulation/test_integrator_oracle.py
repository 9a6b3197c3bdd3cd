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
"""The fixed-step schemes against an independent integrator: scipy's ``solve_ivp``.

The oracle integrates the same equations of motion ``ẋ = (q̇, FD(q, q̇, τ))`` with DOP853 at
rtol = atol = 1e-12 (adaptive step, error-controlled, written by others), so the schemes'
errors are measured against the solution and not against one of themselves. From the errors
at three steps the order of convergence is the least-squares slope of log error against
log dt: Euler 1, semi-implicit (symplectic) Euler 1, RK4 4. Over a long passive run, the
symplectic scheme's energy error stays bounded (it oscillates, first order in dt) where
explicit Euler's grows.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import robot_dynamics as rd
from robots import random_model

DURATION = 0.4


@pytest.fixture(scope='module')
def arm():
    """Return a 3-joint revolute arm, no friction, and its start (q0, q̇0) and torque."""
    model = random_model(np.random.default_rng(31), 3, prismatic_fraction=0.0)
    return model, np.array([0.3, -0.5, 0.8]), np.array([0.5, -1.0, 0.7]), np.array([1.0, -2.0,
                                                                                   0.5])


def oracle(model, q0, qd0, tau, times):
    """Return the state (len(times), 2n) solve_ivp (DOP853, rtol = atol = 1e-12) finds."""
    n = model.dof

    def f(t, x):
        return np.concatenate((x[n:], rd.forward_dynamics(model, x[:n], x[n:], tau)))
    solution = solve_ivp(f, (0.0, times[-1]), np.concatenate((q0, qd0)), method='DOP853',
                         t_eval=times, rtol=1e-12, atol=1e-12)
    assert solution.success, solution.message
    return solution.y.T


@pytest.mark.parametrize('integrator, order, steps', [
    ('euler', 1, (4e-3, 2e-3, 1e-3)),
    ('semi_implicit_euler', 1, (4e-3, 2e-3, 1e-3)),
    ('rk4', 4, (1e-2, 5e-3, 2.5e-3)),
])
def test_order_of_convergence_against_solve_ivp(arm, integrator, order, steps):
    model, q0, qd0, tau = arm
    exact = oracle(model, q0, qd0, tau, np.array([DURATION]))[-1]
    errors = []
    for dt in steps:
        run = rd.simulate(model, q0, qd0, tau, DURATION, dt, integrator=integrator)
        assert run.t[-1] == pytest.approx(DURATION, abs=1e-12)
        errors.append(np.abs(np.concatenate((run.q[-1], run.qd[-1])) - exact).max())
    assert min(errors) > 100 * 1e-12, errors                # well above the oracle's error
    slope = np.polyfit(np.log(steps), np.log(errors), 1)[0]
    assert slope == pytest.approx(order, abs=0.1), (errors, slope)


def test_rk4_trajectory_follows_solve_ivp(arm):
    """Every sample, not only the last, is the oracle's to RK4's own error (dt⁴)."""
    model, q0, qd0, tau = arm
    run = rd.simulate(model, q0, qd0, tau, DURATION, 1e-3, integrator='rk4')
    exact = oracle(model, q0, qd0, tau, run.t)
    states = np.hstack((run.q, run.qd))
    assert np.abs(states - exact).max() < 1e-10 * max(1.0, np.abs(exact).max())


def energy_errors(model, integrator, dt, duration):
    """Return |E(t) - E(0)| along a passive run from rest at a posture off the hanging one."""
    q0 = np.array([1.2, -0.7, 0.9])
    run = rd.simulate(model, q0, np.zeros(3), np.zeros(3), duration, dt, integrator=integrator)
    return np.abs(run.energy - run.energy[0])


def test_symplectic_energy_error_is_bounded_over_a_long_run(arm):
    """20 s, 20,000 steps: no drift, and the bound halves with dt (first order)."""
    model = arm[0]
    coarse = energy_errors(model, 'semi_implicit_euler', 1e-3, 20.0)
    fine = energy_errors(model, 'semi_implicit_euler', 5e-4, 20.0)
    tenth = len(coarse) // 10
    assert coarse[-tenth:].max() < 1.5 * coarse[:2 * tenth].max(), \
        (coarse[:2 * tenth].max(), coarse[-tenth:].max())      # the last tenth, not larger
    assert coarse.max() / fine.max() == pytest.approx(2.0, rel=0.25)
    drifting = energy_errors(model, 'euler', 1e-3, 20.0)
    assert drifting[-tenth:].max() > 3 * coarse.max(), \
        'explicit Euler drifts; the test would not see a scheme that does'
