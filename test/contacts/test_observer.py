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
"""The momentum observer: exactness, the step response, streaming = batch, bad input.

The truths are independent of the observer: a closed-form motion (a Cartesian arm under
constant forces, sampled at random instants), and the engine's RK4 simulation of the Panda
with a known external torque step (its error shrinks as the trapezoid rule's, h²).
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts import MomentumObserver, momentum_observer, observe
from robot_dynamics.contacts.observer import new_state, numpy_step
from robot_dynamics.errors import ModelWarning

GRAVITY = 9.81


def cartesian_arm():
    """Two prismatic joints (z up, then x) with Coulomb friction: M, G constant."""
    return rd.RobotModel(
        joint_types=['prismatic', 'prismatic'], axis=[[0, 0, 1], [1, 0, 0]],
        placement_rotation=[np.eye(3)] * 2, placement_translation=[[0, 0, 0.5], [0, 0, 0.1]],
        mass=[3.0, 2.0], com=[[0, 0, 0.1], [0.2, 0, 0]],
        inertia=[np.eye(3) * 0.01, np.eye(3) * 0.02], coulomb_friction=[1.5, 0.7],
        rotor_inertia=[0.5, 0.25], gear_ratio=[2.0, 2.0], name='cartesian')


def cartesian_motion(model, t, force, external, onset):
    """Return the exact q, q̇ of the Cartesian arm.

    Under the constant motor ``force`` (2,) and the ``external`` force (2,) from ``onset`` on;
    it moves in + on both joints throughout.
    """
    M = np.diag([model.mass.sum(), model.mass[1]]) + np.diag(model.reflected_inertia)
    bias = np.array([model.mass.sum() * GRAVITY, 0.0]) + model.coulomb_friction
    a0 = np.linalg.solve(M, force - bias)
    a1 = np.linalg.solve(M, force + external - bias)
    v0 = np.array([0.3, 0.2])
    before = np.minimum(t, onset)[:, None]
    after = np.maximum(t - onset, 0)[:, None]
    v_onset = v0 + a0 * onset
    q = v0 * before + 0.5 * a0 * before ** 2 + v_onset * after + 0.5 * a1 * after ** 2
    qd = v0 + a0 * before + a1 * after
    assert np.all(qd > 0)                              # Coulomb friction stays one-signed
    return q, qd


def test_exact_at_random_sample_times_and_any_gain():
    """Check r = τ_ext (1 - e^{-K (t - t_s)}) to rounding: steps 0.1 to 20 ms, K h to 10."""
    model = cartesian_arm()
    rng = np.random.default_rng(7)
    t = np.cumsum(np.r_[0.0, rng.uniform(1e-4, 2e-2, 400)])
    onset = t[150]
    force = np.array([80.0, 3.0])
    external = np.array([-4.0, 2.5])
    q, qd = cartesian_motion(model, t, force, external, onset)
    K = np.array([500.0, 20.0])
    truth = external * -np.expm1(-K * np.maximum(t[:, None] - onset, 0))
    for hold in ('linear', 'previous'):
        r = momentum_observer(model, t, q, qd, np.tile(force, (len(t), 1)), gain=K, hold=hold)
        assert np.abs(r - truth).max() <= 1e-11 * np.abs(external).max()


def simulated_step(dt, joint, size=5.0, K=50.0, onset=0.8, seconds=1.2):
    """Return (t, estimate, exact response, onset index) of a simulated step on ``joint``.

    The Panda with viscous friction and rotors.
    """
    model = rd.load_model('panda').replace(viscous_friction=np.full(7, 0.6),
                                           rotor_inertia=np.full(7, 0.15))
    q0 = np.array([0.1, -0.5, 0.2, -2.0, 0.3, 1.5, 0.4])
    steps = int(round(seconds / dt))
    t = np.arange(steps + 1) * dt
    motor = rd.gravity_torques(model, q0) + 4.0 * np.sin(np.outer(t, np.linspace(3, 9, 7)))
    external = np.zeros_like(motor)
    start = int(round(onset / dt))
    external[start:, joint] = size
    run = rd.simulate(model, q0, np.zeros(7), motor + external, seconds, dt=dt)
    estimate = momentum_observer(model, run.t, run.q, run.qd, motor, gain=K, hold='previous')
    exact = np.zeros_like(motor)
    exact[start:, joint] = size * -np.expm1(-K * (t[start:] - t[start]))
    return t, estimate, exact, start


@pytest.mark.parametrize('joint', range(7))
def test_a_step_on_any_joint_follows_the_first_order_response(joint):
    """The targets: below 1 % of the step before it, within 2 % after 5/K, and the curve."""
    size, K = 5.0, 50.0
    t, estimate, exact, start = simulated_step(1e-3, joint, size, K)
    assert np.abs(estimate[:start]).max() < 0.01 * size
    settled = t >= t[start] + 5 / K
    assert np.abs(estimate[settled, joint] - size).max() < 0.02 * size
    assert np.abs(estimate - exact).max() < 2e-3 * size


def test_the_error_is_the_trapezoid_rules():
    """Halving the sample period quarters the error (h²): the step itself is exact."""
    errors = [np.abs(np.subtract(*simulated_step(dt, 3)[1:3])).max() for dt in (1e-3, 5e-4)]
    assert errors[1] < 0.3 * errors[0], errors


@pytest.fixture(scope='module')
def recording():
    model = rd.load_model('panda').replace(viscous_friction=np.full(7, 0.6),
                                           coulomb_friction=np.full(7, 0.4))
    rng = np.random.default_rng(3)
    t = np.cumsum(np.r_[0.0, rng.uniform(5e-4, 2e-3, 299)])
    q = np.sin(np.outer(t, np.linspace(1, 3, 7))) + 0.2
    qd = np.cos(np.outer(t, np.linspace(1, 3, 7))) * np.linspace(1, 3, 7)
    tau = rd.gravity_torques(model, q) + rng.normal(0, 2, q.shape)
    return model, t, q, qd, tau


def test_streaming_equals_batch_to_the_bit(recording):
    model, t, q, qd, tau = recording
    K = np.linspace(20, 80, 7)
    batch = momentum_observer(model, t, q, qd, tau, gain=K)
    observer = MomentumObserver(model, gain=K)
    streamed = np.array([observer.update(*row) for row in zip(t, q, qd, tau)])
    assert np.array_equal(streamed, batch)
    assert np.abs(batch).max() > 1.0                  # the check is not of zeros
    assert observer.time == t[-1] and np.array_equal(observer.tau_ext, batch[-1])


def test_a_long_batch_on_threads_equals_the_stream_to_the_bit():
    """9000 samples: the batch's momentum terms on several threads, in blocks of 8192."""
    model = rd.load_model('ur5').replace(viscous_friction=np.full(6, 0.3))
    rng = np.random.default_rng(9)
    t = np.cumsum(rng.uniform(5e-4, 1.5e-3, 9000))
    q = rng.uniform(-2, 2, (9000, 6))
    qd = rng.uniform(-1, 1, (9000, 6))
    tau = rng.normal(0, 20, (9000, 6))
    batch, pdot, gravity = observe_series(model, t, q, qd, tau)
    observer = MomentumObserver(model)
    for k, row in enumerate(zip(t, q, qd, tau)):
        assert np.array_equal(observer.update(*row), batch[k]), k
        assert np.array_equal(observer.momentum_rate, pdot[k])
        assert np.array_equal(observer.gravity, gravity[k])


def observe_series(model, t, q, qd, tau):
    run = observe(model, t, q, qd, tau)
    return run.tau_ext, run.momentum_rate, run.gravity


def test_numpy_twin_equals_the_engine(recording):
    model, t, q, qd, tau = recording
    engine = momentum_observer(model, t, q, qd, tau, gain=40)
    twin = numpy_step(model, new_state(model, 40, 'linear'), t, q, qd, tau, False)
    assert np.abs(twin - engine).max() <= 1e-10 * np.abs(engine).max()
    state = new_state(model, 40, 'linear')
    rows = [numpy_step(model, state, *row, False) for row in zip(t[:20], q, qd, tau)]
    assert np.abs(np.array(rows) - twin[:20]).max() <= 1e-12 * np.abs(twin).max()


def test_the_first_sample_starts_the_observer_and_reset_restarts_it(recording):
    model, t, q, qd, tau = recording
    observer = MomentumObserver(model)
    assert observer.time is None
    assert np.array_equal(observer.update(t[0], q[0], qd[0], tau[0]), np.zeros(7))
    first = [observer.update(*row) for row in zip(t[1:5], q[1:5], qd[1:5], tau[1:5])]
    observer.reset()
    again = [observer.update(*row) for row in zip(t[:5], q[:5], qd[:5], tau[:5])]
    assert np.array_equal(np.array(again[1:]), np.array(first))


# ---------------------------------------------------------------------- bad input
def test_missing_or_nan_efforts_are_errors_naming_the_joint_and_leave_the_state(recording):
    model, t, q, qd, tau = recording
    with pytest.raises(ValueError, match='measured motor torques are missing'):
        momentum_observer(model, t, q, qd, None)
    bad = tau.copy()
    bad[10, 2] = np.nan
    with pytest.raises(ValueError, match=r"tau: contains NaN or inf at \['panda_joint3'\] in "
                                         r'batch rows \[10\]'):
        momentum_observer(model, t, q, qd, bad)
    observer = MomentumObserver(model)
    for k in range(10):
        observer.update(t[k], q[k], qd[k], tau[k])
    with pytest.raises(ValueError, match='tau: contains NaN'):
        observer.update(t[10], q[10], qd[10], bad[10])
    with pytest.raises(ValueError, match='measured motor torques are missing'):
        observer.update(t[10], q[10], qd[10], None)
    after = observer.update(t[11], q[11], qd[11], tau[11])         # sample 10 skipped
    keep = np.r_[0:10, 11]
    assert np.array_equal(after, momentum_observer(model, t[keep], q[keep], qd[keep],
                                                   tau[keep])[-1])


def test_time_that_does_not_increase_is_an_error_naming_the_sample(recording):
    model, t, q, qd, tau = recording
    back = t.copy()
    back[40] = back[39]
    for step in (None, numpy_step):
        with pytest.raises(ValueError, match=r't: sample 40 at .* s is not after the previous '
                                             r'sample at .* s; give strictly increasing times '
                                             r'\(sort the samples'):
            if step is None:
                momentum_observer(model, back, q, qd, tau)
            else:
                step(model, new_state(model, None, 'linear'), back, q, qd, tau, False)
    with pytest.raises(ValueError, match='t: sample 7 has the time (nan|NaN); give finite'):
        momentum_observer(model, np.where(np.arange(len(t)) == 7, np.nan, t), q, qd, tau)
    with pytest.raises(ValueError, match='t: expected one time per sample, got 299 value'):
        momentum_observer(model, t[:-1], q, qd, tau)
    observer = MomentumObserver(model)
    observer.update(1.0, q[0], qd[0], tau[0])
    with pytest.raises(ValueError, match=r'at 0\.5 s is not after the previous sample at 1 s'):
        observer.update(0.5, q[1], qd[1], tau[1])


@pytest.mark.parametrize('gain', [0.0, -5.0, np.nan, np.inf, [50.0] * 6, 'fast'])
def test_a_gain_that_is_not_positive_is_refused(recording, gain):
    model, t, q, qd, tau = recording
    with pytest.raises(ValueError, match='gain'):
        momentum_observer(model, t, q, qd, tau, gain=gain)
    with pytest.raises(ValueError, match='gain'):
        MomentumObserver(model, gain=gain)


def test_an_unknown_hold_is_refused(recording):
    model, t, q, qd, tau = recording
    with pytest.raises(ValueError, match="hold: 'zoh'; use 'linear'"):
        momentum_observer(model, t, q, qd, tau, hold='zoh')


def test_a_model_without_friction_is_warned_about(recording):
    model, t, q, qd, tau = recording
    bare = rd.load_model('panda')
    with pytest.warns(ModelWarning, match="'panda' has no joint friction: the external torque"):
        momentum_observer(bare, t, q, qd, tau)
    with pytest.warns(ModelWarning, match='has no joint friction'):
        MomentumObserver(bare)
    with warnings.catch_warnings():
        warnings.simplefilter('error', ModelWarning)
        MomentumObserver(model)                         # friction: no warning
