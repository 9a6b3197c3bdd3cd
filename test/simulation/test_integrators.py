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
"""Integrators: convergence order, energy behaviour, limits, blow-up detection."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.integrators import apply_position_limits
from robot_dynamics.simulation.trajectory import home_posture
from robots import random_model


def passive_run(model, integrator, dt, duration=0.1):
    """Return the final state of the unactuated arm released from a fixed pose."""
    q0 = np.linspace(0.3, -0.4, model.dof)
    result = rd.simulate(model, q0, np.zeros(model.dof), np.zeros(model.dof), duration, dt,
                         integrator=integrator)
    return np.concatenate((result.q[-1], result.qd[-1])), result


@pytest.mark.parametrize('integrator, order', [('rk4', 4), ('semi_implicit_euler', 1),
                                               ('euler', 1)])
def test_convergence_order(integrator, order):
    model = random_model(np.random.default_rng(21), 3, prismatic_fraction=0.0)
    reference, _ = passive_run(model, 'rk4', 5e-4)
    errors = [np.abs(passive_run(model, integrator, dt)[0] - reference).max()
              for dt in (1e-2, 5e-3)]
    observed = np.log2(errors[0] / errors[1])
    assert observed == pytest.approx(order, abs=0.35)


def test_rk4_conserves_energy_of_passive_arm():
    model = random_model(np.random.default_rng(22), 4, prismatic_fraction=0.25)
    _, result = passive_run(model, 'rk4', 1e-3, duration=0.5)
    drift = np.abs(result.energy - result.energy[0]).max()
    assert drift < 1e-6 * max(1.0, np.abs(result.energy).max())


def test_friction_never_adds_energy():
    model = random_model(np.random.default_rng(23), 3, prismatic_fraction=0.0, friction=True)
    _, result = passive_run(model, 'rk4', 2e-3, duration=0.5)
    assert np.all(np.diff(result.energy) <= 1e-9)
    assert result.energy[-1] < result.energy[0]


def test_simulate_with_torque_function_holds_pose_under_gravity_compensation():
    model = random_model(np.random.default_rng(24), 3)
    q0 = np.array([0.2, -0.1, 0.3])
    result = rd.simulate(model, q0, np.zeros(3), lambda t, q, qd: rd.gravity_torques(model, q),
                         duration=0.5, dt=1e-3)
    assert np.abs(result.q - q0).max() < 1e-9
    assert result.t[-1] == pytest.approx(0.5) and result.q.shape == (501, 3)


def test_step_rejects_bad_arguments_and_detects_blow_up():
    model = random_model(np.random.default_rng(25), 2)
    zero = np.zeros(2)
    with pytest.raises(ValueError, match='integrator: unknown'):
        rd.step(model, zero, zero, zero, 1e-3, integrator='leapfrog')
    with pytest.raises(ValueError, match='dt: must be a positive'):
        rd.step(model, zero, zero, zero, 0.0)
    with pytest.raises(rd.SimulationError, match='NaN/inf'):
        rd.step(model, zero, zero, np.array([1e308, 1e308]), 1.0)
    with pytest.raises(rd.SimulationError, match='total energy exceeded'):
        rd.simulate(model, zero, zero, np.array([50.0, 50.0]), 1.0, 1e-3, energy_limit=1.0)


def test_position_limits_act_as_stops():
    model = random_model(np.random.default_rng(26), 2).replace(lower_limit=[-1, -1],
                                                               upper_limit=[1, 1])
    q, qd = apply_position_limits(model, np.array([1.2, 0.5]), np.array([2.0, 2.0]))
    assert np.array_equal(q, [1.0, 0.5]) and qd[0] == 0.0
    # The impulse acts along joint 1 alone: the generalized momentum of joint 2 is unchanged.
    M = rd.mass_matrix(model, q)
    assert (M @ qd)[1] == pytest.approx((M @ [2.0, 2.0])[1], rel=1e-12)
    q, qd = apply_position_limits(model, np.array([-1.0, 0.0]), np.array([0.5, -1.0]))
    assert np.array_equal(qd, [0.5, -1.0])                 # moving away from the stop is free


@pytest.mark.parametrize('seed', range(20))
def test_stops_halt_the_stopped_joints_and_never_add_kinetic_energy(seed):
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(2, 8))
    model = random_model(rng, n, rotor=True).replace(lower_limit=-np.ones(n),
                                                     upper_limit=np.ones(n))
    q = rng.uniform(-1.3, 1.3, n)
    q[rng.random(n) < 0.3] = 1.0                           # some exactly at a stop
    qd = rng.normal(scale=3.0, size=n)
    q_after, qd_after = apply_position_limits(model, q, qd)
    assert np.all(np.abs(q_after) <= 1.0)
    assert rd.kinetic_energy(model, q_after, qd_after) <= \
        rd.kinetic_energy(model, q_after, qd) * (1 + 1e-12)
    halted = (np.abs(q_after) == 1.0) & (qd_after == 0.0)
    into = ((q_after <= -1.0) & (qd_after < 0)) | ((q_after >= 1.0) & (qd_after > 0))
    assert not np.any(into)                                # nothing left moving into a stop
    assert np.array_equal(qd_after == 0.0, halted | (qd == 0.0))
    free = np.abs(q) < 1.0
    if np.all(free):
        assert np.array_equal(qd_after, qd)


def test_stops_push_and_never_pull():
    """The impact solves its complementarity problem, checked from outside on its result.

    Impulse ``p = M (qd⁺ - qd)``: zero off the stops, a push at a stop (``p >= 0`` at the
    lower, ``<= 0`` at the upper), and ``p qd⁺ = 0``: a pushed joint halts, a joint that moves
    away gets no impulse. Arms with several joints at their stops at once, where halting every
    joint moving into a stop would make some stops pull.
    """
    cases = pulled_before = 0
    for seed in range(200):
        rng = np.random.default_rng(900 + seed)
        n = int(rng.integers(3, 8))
        model = random_model(rng, n, rotor=True).replace(lower_limit=-np.ones(n),
                                                         upper_limit=np.ones(n))
        q = rng.choice([-1.0, 1.0], n) * (rng.random(n) < 0.7)    # most joints at a stop
        qd = rng.normal(scale=3.0, size=n)
        q_after, qd_after = apply_position_limits(model, q, qd)
        M = rd.mass_matrix(model, q_after)
        p = M @ (qd_after - qd)
        scale = np.abs(M @ qd).max() + 1.0
        at_lower, at_upper = q_after <= -1.0, q_after >= 1.0
        assert np.all(np.abs(p[~(at_lower | at_upper)]) <= 1e-10 * scale)
        assert np.all(p[at_lower] >= -1e-10 * scale) and np.all(p[at_upper] <= 1e-10 * scale)
        assert np.all(qd_after[at_lower] >= 0.0) and np.all(qd_after[at_upper] <= 0.0)
        assert np.all(np.abs(p * qd_after) <= 1e-10 * scale * (1 + np.abs(qd_after)))
        assert rd.kinetic_energy(model, q_after, qd_after) <= \
            rd.kinetic_energy(model, q_after, qd) * (1 + 1e-12)
        cases += 1
        into = (at_lower & (qd < 0)) | (at_upper & (qd > 0))   # halting exactly these: pulls?
        if np.any(into):
            M_inv_S = np.linalg.solve(M, np.eye(n)[:, into])
            push = -np.linalg.solve(M_inv_S[into], qd[into])
            pulled_before += np.any((push < 0) & at_lower[into] | (push > 0) & at_upper[into])
    assert cases == 200 and pulled_before >= 10, pulled_before   # the cases are the hard ones


@pytest.mark.parametrize('name', ['ur5', 'panda'])
def test_an_arm_falling_onto_its_stops_never_gains_energy(name):
    # Zeroing the stopped joint's velocity alone (the coupling ignored) added up to 315 J
    # (Panda) and 34 J (UR5) to an unactuated arm released from home within 6 s.
    model = rd.load_model(name)
    q, qd = apply_position_limits(model, home_posture(model), np.zeros(model.dof))
    start = rd.total_energy(model, q, qd)
    stopped = 0
    for _ in range(3000):
        q, qd, _ = rd.step(model, q, qd, np.zeros(model.dof), 1e-3)
        q, qd = apply_position_limits(model, q, qd)
        assert rd.total_energy(model, q, qd) <= start + 1e-5
        stopped += np.any(q == model.lower_limit) or np.any(q == model.upper_limit)
    assert stopped > 300                                   # it hits or rests on a stop


def test_a_run_too_long_to_record_is_refused_before_allocating():
    model = rd.load_model('puma560')
    with pytest.raises(ValueError, match=r'duration: 1e\+09 s at dt = 0.001 s is 1e\+12 steps'
                                         r'.*at most 1 GiB are recorded per call '
                                         r'\(5368.7\d* s here\)'):
        rd.simulate(model, np.zeros(6), np.zeros(6), 'gravity', 1e9)
    longest = rd.simulate(model, np.zeros(6), np.zeros(6), 'gravity', 0.01)
    assert longest.q.shape == (11, 6)


def test_a_torque_function_returning_a_bad_value_is_named():
    model = random_model(np.random.default_rng(7), 3)
    zeros = np.zeros(3)
    for returned, said in ((np.zeros(2), 'got shape (2,)'), (None, 'got None'),
                           (np.full(3, np.nan), 'NaN or inf'),
                           (np.zeros((2, 3)), 'returned shape (2, 3); return 3 values')):
        with pytest.raises(ValueError, match=r'torque\(t, q, qd\) at t = 0 s returned') as err:
            rd.simulate(model, zeros, zeros, lambda t, q, qd, r=returned: r, 0.01)
        assert said in str(err.value) and str(list(model.joint_names)) in str(err.value)
