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
"""rd.step / rd.simulate argument checks and locked joints (trial findings F2-F5, F12, F16, F17).

Each case reproduces what the trial saw (numpy's messages, silent acceptance, a teleported
start, 0.29 rad/s on a joint whose limits coincide) and asserts the package's own message.
"""

import numpy as np
import pytest

import robot_dynamics as rd


@pytest.fixture(scope='module')
def panda():
    return rd.load_model('panda')


def home(model):
    return 0.5 * (model.lower_limit + model.upper_limit)


def run(model, q0, **options):
    options = {'dt': 0.01, 'integrator': 'implicit_coriolis', **options}
    return rd.simulate(model, q0, np.zeros(model.dof), 'gravity', 0.05, **options)


@pytest.mark.parametrize('q0, message', [(np.zeros(0), r'q0: expected shape \(7,\)'),
                                         (np.zeros(8), r'q0: expected shape \(7,\)'),
                                         ('abc', 'q0: expected real numbers'),
                                         (np.full(7, np.nan), 'q0: contains NaN')])
def test_a_malformed_start_is_named_before_the_limits_are_checked(panda, q0, message):
    # F2: with position_limits=True numpy's broadcast / conversion message came first.
    with pytest.raises(ValueError, match=message):
        run(panda, q0, position_limits=True)


@pytest.mark.parametrize('value', [np.ones(7), 'yes', 1, None])
def test_position_limits_must_be_true_or_false(panda, value):
    # F3: an array gave numpy's "truth value ... ambiguous"; 'yes' was taken as True.
    with pytest.raises(ValueError, match='position_limits: expected True or False'):
        run(panda, home(panda), position_limits=value)
    with pytest.raises(ValueError, match='position_limits: expected True or False'):
        rd.step(panda, home(panda), np.zeros(7), np.zeros(7), 0.01, position_limits=value)


@pytest.mark.parametrize('value', [float('nan'), -1.0, 0.0, float('inf'), 'x'])
def test_energy_limit_must_be_a_finite_positive_number(panda, value):
    # F17: NaN silently disabled the check, -1 fired with the wrong advice, 'x' gave numpy's.
    with pytest.raises(ValueError, match='energy_limit: expected a finite number of joules > 0'):
        run(panda, home(panda), energy_limit=value)


def test_a_step_longer_than_a_second_is_refused_as_a_unit_mistake(panda):
    # F4: dt = 1000 s returned q ~2.5e5 rad without a word.
    zero = np.zeros(7)
    with pytest.raises(ValueError, match=r'dt: 1000 s is longer than .*\(1 ms is 1e-3\)'):
        rd.step(panda, zero, np.full(7, 500.0), zero, 1e3, integrator='implicit_coriolis')
    with pytest.raises(ValueError, match='dt: 1000 s'):
        rd.simulate(panda, zero, zero, zero, 2e3, dt=1e3)
    with pytest.raises(ValueError, match='dt: 1000 s'):
        rd.linearize(panda, zero, zero, zero, 1e3)
    rd.step(panda, zero, zero, zero, 1.0, integrator='implicit')          # 1 s still taken


def test_an_absurd_start_speed_is_named_not_blamed_on_dt(panda):
    # F12: qd0 = 1e300 was reported as "dt = 0.001 s is too large for these torques".
    qd0 = np.zeros(7)
    qd0[2] = 1e300
    with pytest.raises(ValueError, match=r"qd0: joint 'panda_joint3' starts at 1e\+300 rad/s"):
        rd.simulate(panda, home(panda), qd0, 'gravity', 0.05, integrator='implicit_coriolis')


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_step_refuses_a_start_outside_the_limits_as_simulate_does(panda, solver):
    # F16: joint 4 starts at 0, outside [-3.07, -0.07]; rd.step moved it to -0.0698 silently.
    zero = np.zeros(7)
    with pytest.raises(ValueError, match=r"q: joint 'panda_joint4' starts at 0, outside"):
        rd.step(panda, zero, zero, zero, 0.01, integrator='implicit_coriolis',
                position_limits=True, solver=solver)


@pytest.mark.parametrize('integrator', ['implicit_coriolis', 'implicit', 'rk4'])
@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_a_joint_whose_limits_coincide_is_locked_at_rest(panda, integrator, solver):
    # F5: lower == upper for every joint: q stayed 0 but qd came back up to 0.29 rad/s (a
    # joint at both stops was released by one of them). Locked: velocity 0.
    locked = panda.replace(lower_limit=np.zeros(7), upper_limit=np.zeros(7))
    zero = np.zeros(7)
    q, qd, _ = rd.step(locked, zero, np.ones(7), zero, 0.01, integrator=integrator,
                       position_limits=True, solver=solver)
    np.testing.assert_array_equal(q, zero)
    np.testing.assert_array_equal(qd, zero)
    trajectory = rd.simulate(locked, zero, zero, 'gravity', 0.05, dt=0.01, solver=solver,
                             integrator=integrator, position_limits=True)
    assert np.all(trajectory.q == 0) and np.all(trajectory.qd == 0)


def test_one_locked_joint_is_held_while_the_others_move(panda):
    # Joint 2 locked at 0.3, the others free within their limits: the engine and the numpy
    # reference agree step by step, and joint 2 never moves.
    lower, upper = panda.lower_limit.copy(), panda.upper_limit.copy()
    lower[1] = upper[1] = 0.3
    model = panda.replace(lower_limit=lower, upper_limit=upper)
    q0 = home(model)
    for solver in (None, 'rnea'):
        t = rd.simulate(model, q0, np.zeros(7), np.zeros(7), 0.5, dt=0.01, solver=solver,
                        integrator='implicit_coriolis', position_limits=True)
        assert np.all(t.q[:, 1] == 0.3) and np.all(t.qd[:, 1] == 0)
        assert np.abs(t.qd).max() > 0.1                             # the rest fall
    engine = rd.simulate(model, q0, np.zeros(7), np.zeros(7), 0.1, dt=0.01,
                         integrator='implicit_coriolis', position_limits=True)
    numpy = rd.simulate(model, q0, np.zeros(7), np.zeros(7), 0.1, dt=0.01, solver='rnea',
                        integrator='implicit_coriolis', position_limits=True)
    np.testing.assert_allclose(engine.qd, numpy.qd, rtol=0, atol=1e-10)


def test_a_nan_in_one_batch_row_names_the_row(panda):
    # F6: "q: contains NaN or inf at [joints]" did not say which of the N rows.
    q = np.zeros((5, 7))
    q[3, 2] = np.nan
    with pytest.raises(ValueError, match=r"q: contains NaN or inf at \['panda_joint3'\] in "
                                         r'batch rows \[3\]'):
        rd.linearize(panda, q, q * 0, q * 0, 0.01)


@pytest.mark.parametrize('integrator', ['rk4', 'implicit_coriolis'])
def test_an_overflow_in_linearize_names_the_input_that_caused_it(panda, integrator):
    # F6: tau = 1e300 with qd = 0 was reported as "largest |qd| = 2.99e+300" (a stage's speed).
    zero = np.zeros(7)
    with pytest.raises(rd.ResultOverflowError, match=r'largest \|tau\| = 1e\+300'):
        rd.linearize(panda, zero, zero, np.full(7, 1e300), 0.01, integrator=integrator)


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_a_step_that_diverges_is_refused_with_the_message_of_simulate(panda, solver):
    # F4: rd.step returned whatever the integrator gave (1e6 N m for 10 ms: ~1e4 rad/s,
    # finite) where rd.simulate refuses the same speed as divergence.
    zero, tau = np.zeros(7), np.full(7, 1e6)
    q0 = home(panda)
    with pytest.raises(rd.SimulationError) as stepped:
        rd.step(panda, q0, zero, tau, 0.01, solver=solver)
    with pytest.raises(rd.SimulationError) as simulated:
        rd.simulate(panda, q0, zero, tau, 0.01, dt=0.01, solver=solver)
    step_head, step_advice = str(stepped.value).split(': the step diverged; ')
    run_head, run_advice = str(simulated.value).split(': the run diverged; ')
    assert step_advice == run_advice and 'use a smaller dt' in step_advice
    assert step_head == run_head.replace('at t = 0.01 s', 'in one step of dt = 0.01 s')
    assert 'beyond the plausible 1000' in step_head


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_a_diverging_step_in_a_batch_names_its_row(panda, solver):
    q, qd, tau = np.tile(home(panda), (4, 1)), np.zeros((4, 7)), np.zeros((4, 7))
    tau[2, 1] = 1e6
    with pytest.raises(rd.SimulationError, match=r"joint 'panda_joint\d' reached .* in one step "
                                                 r'of dt = 0.01 s \(batch row 2\)'):
        rd.step(panda, q, qd, tau, 0.01, solver=solver)
    rd.step(panda, q[:2], qd[:2], tau[:2], 0.01, solver=solver)     # the plausible rows pass


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_a_step_from_an_absurd_speed_is_named_as_simulate_names_it(panda, solver):
    qd = np.zeros(7)
    qd[2] = 2e3
    with pytest.raises(ValueError, match=r"qd: joint 'panda_joint3' starts at 2e\+03 rad/s "
                                         r'\(m/s\), beyond the plausible 1000'):
        rd.step(panda, home(panda), qd, np.zeros(7), 1e-3, integrator='implicit',
                solver=solver)


@pytest.mark.parametrize('value', ['1.0', True, np.array([1.0])])
def test_a_duration_must_be_a_number_of_seconds(panda, value):
    # Trial 3: a string gave numpy's "ufunc 'isfinite' not supported"; True ran for 1 s.
    zero = np.zeros(7)
    with pytest.raises(ValueError, match='duration: expected a number of seconds, got'):
        rd.simulate(panda, zero, zero, zero, value)
