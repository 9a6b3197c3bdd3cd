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
"""Analytic derivatives of the dynamics against Pinocchio and against complex steps.

Oracles: Pinocchio's ``computeRNEADerivatives`` / ``computeABADerivatives`` on the model's own
URDF (rotor inertia as Pinocchio's armature, the tool wrench as an external force on the last
body, friction's slope added on the diagonal), Pinocchio's reduced model for trees with
locked branches, and complex-step differentiation of the package's own numpy Newton-Euler
(``solver='rnea'``), which shares no code with the engine's derivative recursion. Agreement
is measured relative to the reference matrix's norm: ``‖ours - ref‖ / max(1, ‖ref‖)``.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import api
from robot_dynamics.algorithms.derivatives import rnea_derivatives
from robot_dynamics.errors import ModelWarning
from robots import pinocchio_configuration, quiet_bundled, random_model, random_state
from urdf_trees import arm_with_gripper, reduced_oracle

TOLERANCE = 1e-12
SMOOTH_LAW = dict(friction_offset=0.3, coulomb_asymmetry=0.1, friction_smoothing=0.05,
                  stribeck_friction=0.4, stribeck_velocity=0.2)


def relative(actual, expected):
    """``‖actual - expected‖ / max(1, ‖expected‖)`` (Frobenius, per matrix)."""
    return np.linalg.norm(actual - expected) / max(1.0, np.linalg.norm(expected))


def pinocchio_oracle(model):
    """Pinocchio model of ``model``'s rigid bodies, its gravity, rotors as armature."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        pm = pin.buildModelFromXML(model.without_joint_effects().to_urdf())
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    pm.armature = np.asarray(model.reflected_inertia, float)
    return pm


def external_forces(model, pm, f_tip):
    """Return the tool wrench (tool frame, on the environment) as Pinocchio's forces."""
    fext = [pin.Force.Zero() for _ in range(pm.njoints)]
    if f_tip is not None:
        f = model.tip_rotation @ f_tip[:3]
        m = model.tip_rotation @ f_tip[3:] + np.cross(model.tip_translation, f)
        fext[-1] = pin.Force(-f, -m)
    return fext


def oracle_id(model, pm, q, qd, qdd, f_tip=None):
    """``(dtau/dq, dtau/dqd, M)`` by Pinocchio plus the friction slope of the friction home."""
    data = pm.createData()
    config = pinocchio_configuration(pm, q)
    dq, dv, da = pin.computeRNEADerivatives(pm, data, config, qd, qdd,
                                            external_forces(model, pm, f_tip))
    dv = dv + np.diag(rd.friction_slopes(model, qd))       # copies: views into data otherwise
    return dq.copy(), dv, np.triu(da) + np.triu(da, 1).T


def oracle_fd(model, pm, q, qd, tau, f_tip=None):
    """``(dqdd/dq, dqdd/dqd, M^-1)``: Pinocchio's ABA derivatives, friction's slope added."""
    data = pm.createData()
    config = pinocchio_configuration(pm, q)
    fext = external_forces(model, pm, f_tip)
    driving = tau - rd.friction_torques(model, qd)              # friction depends on qd only
    pin.computeABADerivatives(pm, data, config, qd, driving, fext)
    Minv = np.triu(data.Minv) + np.triu(data.Minv, 1).T
    return data.ddq_dq.copy(), data.ddq_dv - Minv @ np.diag(rd.friction_slopes(model, qd)), Minv


def assert_close(ours, reference, what):
    for name, a, b in zip(('d/dq', 'd/dqd', 'third'), ours, reference):
        error = relative(a, b)
        assert error <= TOLERANCE, f'{what} {name}: relative error {error:.3g}'


def chain(n, seed, friction='smooth'):
    """Build a random serial arm: revolute and prismatic joints, rotors, friction, gravity."""
    rng = np.random.default_rng(seed)
    model = random_model(rng, n, prismatic_fraction=0.4, friction=True, rotor=True)
    model = model.with_gravity(rng.normal(size=3) * 4.0)
    if friction == 'smooth':
        law = {k: np.full(n, v) for k, v in SMOOTH_LAW.items()}
        model = model.replace(coulomb_friction=model.coulomb_friction + 0.1, **law)
    return model


@pytest.mark.parametrize('n', [1, 2, 3, 6, 7, 12, 30])
def test_random_chains_match_pinocchio(n):
    model = chain(n, seed=n)
    pm = pinocchio_oracle(model)
    rng = np.random.default_rng(100 + n)
    for _ in range(3):
        q, qd, x = random_state(rng, n)
        f_tip = rng.uniform(-20, 20, 6)
        assert_close(rd.inverse_dynamics_derivatives(model, q, qd, x, f_tip),
                     oracle_id(model, pm, q, qd, x, f_tip), f'ID, {n} joints')
        assert_close(rd.forward_dynamics_derivatives(model, q, qd, x, f_tip),
                     oracle_fd(model, pm, q, qd, x, f_tip), f'FD, {n} joints')


@pytest.mark.parametrize('name', ['ur5', 'panda', 'puma560', 'stanford'])
def test_bundled_arms_match_pinocchio(name):
    model = quiet_bundled(name).with_payload(1.5, com=(0.01, 0.02, 0.05))
    pm = pinocchio_oracle(model)
    rng = np.random.default_rng(7)
    q, qd, x = random_state(rng, model.dof)
    assert_close(rd.inverse_dynamics_derivatives(model, q, qd, x),
                 oracle_id(model, pm, q, qd, x), name)
    assert_close(rd.forward_dynamics_derivatives(model, q, qd, x),
                 oracle_fd(model, pm, q, qd, x), name)


def test_tree_with_locked_branches_matches_the_reduced_model():
    urdf = arm_with_gripper()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        model = rd.RobotModel.from_urdf(urdf, locked_joints={'grip_finger_joint1': 0.013,
                                                             'camera_pan': 0.55})
    reduced = reduced_oracle(urdf, model.joint_names, dict(model.locked_joints),
                             {'pedestal_fan': 0.7})
    data = reduced.createData()
    rng = np.random.default_rng(5)
    for _ in range(3):
        q, qd, qdd = random_state(rng, model.dof)
        config = pinocchio_configuration(reduced, q)
        pin.framesForwardKinematics(reduced, data, config)
        R_base = data.oMf[reduced.getFrameId(model.base_link)].rotation
        oriented = model.without_joint_effects().with_gravity(R_base.T @ reduced.gravity.linear)
        dq, dv, da = pin.computeRNEADerivatives(reduced, data, config, qd, qdd)
        assert_close(rd.inverse_dynamics_derivatives(oriented, q, qd, qdd),
                     (dq.copy(), dv.copy(), np.triu(da) + np.triu(da, 1).T), 'locked tree')


# ---------------------------------------------------------------------- complex step
def complex_step(function, x, step=1e-30):
    """Jacobian (n, n) of ``function`` at ``x`` by complex steps (exact to rounding)."""
    n = x.size
    points = x.astype(complex) + 1j * step * np.eye(n)
    return (function(points).imag / step).T


@pytest.mark.parametrize('n', [1, 4, 7, 20, 30])
def test_complex_step_of_the_numpy_newton_euler(n):
    """The package's own numpy recursion, differentiated by complex steps (friction apart)."""
    model = chain(n, seed=50 + n, friction='none').replace(coulomb_friction=np.zeros(n))
    rnea = rd.solvers.get('rnea')
    rng = np.random.default_rng(n)
    q, qd, qdd = random_state(rng, n)
    f_tip = rng.uniform(-20, 20, 6)
    tips = np.tile(f_tip, (n, 1))

    def tau(q_, qd_):
        return rnea(model, q_, qd_, np.tile(qdd, (n, 1)), model.gravity, tips) \
            + qd_ * model.viscous_friction

    expected = (complex_step(lambda p: tau(p, np.tile(qd, (n, 1))), q),
                complex_step(lambda p: tau(np.tile(q, (n, 1)), p), qd),
                rd.mass_matrix(model, q, solver='rnea'))
    assert_close(rd.inverse_dynamics_derivatives(model, q, qd, qdd, f_tip), expected,
                 f'complex step, {n} joints')
    M = expected[2]
    tau_ = rd.inverse_dynamics(model, q, qd, qdd, f_tip)             # FD then returns qdd
    dqdd = rd.forward_dynamics_derivatives(model, q, qd, tau_, f_tip)
    Minv = np.linalg.inv(M)
    assert_close(dqdd, (-Minv @ expected[0], -Minv @ expected[1], Minv), 'FD by composition')


def test_friction_slope_at_and_away_from_zero_velocity():
    """Coulomb's step: slope 0 (viscous only), at q̇ = 0 too; the smooth law: tanh's slope."""
    model = chain(3, seed=9, friction='none')
    q, _, qdd = random_state(np.random.default_rng(1), 3)
    rigid = rd.inverse_dynamics_derivatives(model.without_joint_effects(), q, np.zeros(3), qdd)
    _, dqd, _ = rd.inverse_dynamics_derivatives(model, q, np.zeros(3), qdd)
    assert np.array_equal(np.diag(dqd - rigid[1]), model.viscous_friction)
    smooth = model.replace(friction_smoothing=np.full(3, 0.05))
    _, dqd, _ = rd.inverse_dynamics_derivatives(smooth, q, np.zeros(3), qdd)
    expected = model.viscous_friction + model.coulomb_friction / 0.05
    assert np.allclose(np.diag(dqd - rigid[1]), expected, rtol=1e-14, atol=0)


# ---------------------------------------------------------------------- shapes, paths, errors
@pytest.mark.parametrize('tool, dof', [(False, 7), (True, 7), (True, 21)])
def test_batch_rows_equal_single_calls_bit_for_bit(tool, dof):
    """Rows in lanes of four (AVX2) or two, and the remainder one by one, as single calls.

    From 16 joints the single call's M^-1 products run in register tiles (inverse_body.h), the
    lanes by rows: the same sums in the same order.
    """
    model = chain(dof, seed=3)
    Q, QD, X = random_state(np.random.default_rng(2), dof, 11)
    F = np.random.default_rng(3).uniform(-5, 5, (11, 6)) if tool else [None] * 11
    for function in (rd.inverse_dynamics_derivatives, rd.forward_dynamics_derivatives):
        batch = function(model, Q, QD, X, None if not tool else F)
        assert all(m.shape == (11, dof, dof) for m in batch)
        for k in range(11):
            single = function(model, Q[k], QD[k], X[k], F[k])
            assert all(s.shape == (dof, dof) for s in single)
            assert all(np.array_equal(b[k], s) for b, s in zip(batch, single))


def test_large_batch_in_parallel_equals_single_calls():
    model = chain(6, seed=4)
    Q, QD, X = random_state(np.random.default_rng(3), 6, 1500)       # threads from 4096 rows·n
    batch = rd.inverse_dynamics_derivatives(model, Q, QD, X)
    for k in (0, 777, 1499):
        assert np.array_equal(batch[0][k], rd.inverse_dynamics_derivatives(
            model, Q[k], QD[k], X[k])[0])


@pytest.mark.parametrize('function', [rd.inverse_dynamics_derivatives,
                                      rd.forward_dynamics_derivatives])
def test_a_batch_larger_than_the_cache_equals_small_batches_bit_for_bit(function):
    """A result of 4 MB or more, streamed, equals batches of 500 and single calls.

    From 4 MB the lane groups go through a buffer and non-temporal stores (binding_dispatch.c);
    batches of 500 are written directly.
    """
    model = chain(7, seed=5)
    rows = 4001                                 # 4.7 MB; the last row alone, after the lanes
    Q, QD, X = random_state(np.random.default_rng(6), 7, rows)
    F = np.random.default_rng(7).uniform(-5, 5, (rows, 6))
    batch = function(model, Q, QD, X, F)
    assert sum(m.nbytes for m in batch) >= 4 << 20
    for start in range(0, rows, 500):
        part = function(model, Q[start:start + 500], QD[start:start + 500],
                        X[start:start + 500], F[start:start + 500])
        assert all(np.array_equal(b[start:start + 500], p) for b, p in zip(batch, part))
    for k in (0, 1, 2, 3, 2002, 4000):
        single = function(model, Q[k], QD[k], X[k], F[k])
        assert all(np.array_equal(b[k], s) for b, s in zip(batch, single))


def test_numpy_twin_equals_the_engine(monkeypatch):
    model = chain(8, seed=8)
    Q, QD, X = random_state(np.random.default_rng(4), 8, 4)
    f_tip = np.random.default_rng(5).uniform(-5, 5, (4, 6))
    engine_id = rd.inverse_dynamics_derivatives(model, Q, QD, X, f_tip)
    engine_fd = rd.forward_dynamics_derivatives(model, Q, QD, X, f_tip)
    twin = rnea_derivatives(model, Q, QD, X, f_tip)
    assert_close([twin[0, k] for k in range(3)], [m[0] for m in engine_id], 'numpy twin')
    monkeypatch.setattr(api, '_engine', None)
    for ours, engine in ((api.inverse_dynamics_derivatives(model, Q, QD, X, f_tip), engine_id),
                         (api.forward_dynamics_derivatives(model, Q, QD, X, f_tip), engine_fd)):
        for k in range(4):
            assert_close([m[k] for m in ours], [m[k] for m in engine], 'numpy path')
    single = api.forward_dynamics_derivatives(model, Q[0], QD[0], X[0])
    assert all(m.shape == (8, 8) for m in single)


@pytest.mark.parametrize('function', [rd.inverse_dynamics_derivatives,
                                      rd.forward_dynamics_derivatives])
def test_bad_arguments_name_the_field(function):
    model = chain(3, seed=1)
    good = np.zeros(3)
    with pytest.raises(ValueError, match=r'qd: expected shape \(3,\)'):
        function(model, good, np.zeros(4), good)
    with pytest.raises(ValueError, match=r'q: contains NaN'):
        function(model, np.array([0, np.nan, 0]), good, good)
    with pytest.raises(ValueError, match='f_tip'):
        function(model, good, good, good, np.zeros(5))


def test_forward_derivatives_refuse_a_singular_mass_matrix():
    model = chain(2, seed=2, friction='none')
    massless = model.replace(mass=np.zeros(2), inertia=np.zeros((2, 3, 3)),
                             rotor_inertia=np.zeros(2))
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.forward_dynamics_derivatives(massless, np.zeros(2), np.zeros(2), np.zeros(2))
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):       # in lanes
        rd.forward_dynamics_derivatives(massless, np.zeros((9, 2)), np.zeros(2), np.zeros(2))
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):     # on threads
        rd.forward_dynamics_derivatives(massless, np.zeros((3001, 2)), np.zeros(2), np.zeros(2))


@pytest.mark.parametrize('function', [rd.inverse_dynamics_derivatives,
                                      rd.forward_dynamics_derivatives])
def test_finite_inputs_whose_derivatives_overflow_are_refused(function):
    """The finiteness check of every row (vectorised, binding_dispatch.c) finds inf and NaN."""
    model = chain(3, seed=1)
    zero = np.zeros(3)
    assert all(np.all(np.isfinite(d)) for d in function(model, zero, [1e100, 0, 0], zero))
    for qd in ([1e160, 0.0, 0.0], [0.0, 0.0, 1e200], [1e308, -1e308, 1e308]):
        with pytest.raises(ValueError, match=r'the result is not finite: .*largest \|qd\|'):
            function(model, zero, qd, zero)
    for N, bad in ((9, 7), (9, 8), (3001, 1777), (3001, 3000)):   # lanes, the tail, threads
        rows = np.zeros((N, 3))
        rows[bad, 2] = 1e160
        with pytest.raises(ValueError, match=r'largest \|qd\| = 1e\+160'):
            function(model, np.zeros((N, 3)), rows, np.zeros((N, 3)))
    good = function(model, np.zeros((3001, 3)), np.ones((3001, 3)), np.zeros((3001, 3)))
    assert all(np.all(np.isfinite(d)) for d in good)
