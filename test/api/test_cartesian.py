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
"""Jacobians, static forces and Cartesian dynamics against Craig's closed forms (ch. 5, 6)."""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.cartesian import (
    _redundant_inverse, cartesian_coriolis_centrifugal, cartesian_dynamics,
    cartesian_mass_matrix, coriolis_centrifugal_matrices, jacobian_dot, velocity_products)
from robot_dynamics.errors import SingularityError
from robots import pinocchio_configuration, random_model, random_state

L1, L2, M1, M2, G = 0.7, 0.45, 2.3, 1.4, 9.81
TOL = 1e-10


def two_link():
    """Craig §6.7 / Example 5.3: planar RR arm, point masses at the distal ends, g along -Y0."""
    return rd.RobotModel(joint_types=['revolute'] * 2, axis=[[0, 0, 1]] * 2,
                         placement_rotation=[np.eye(3)] * 2,
                         placement_translation=[[0, 0, 0], [L1, 0, 0]], mass=[M1, M2],
                         com=[[L1, 0, 0], [L2, 0, 0]], inertia=[np.zeros((3, 3))] * 2,
                         tip_translation=[L2, 0, 0], gravity=[0, -G, 0])


def _states(rng, N=6):
    """Joint states away from the singularities s2 = 0."""
    q = np.column_stack((rng.uniform(-np.pi, np.pi, N), rng.uniform(0.3, 2.8, N)
                         * rng.choice([-1, 1], N)))
    return q, rng.uniform(-2, 2, (N, 2)), rng.uniform(-3, 3, (N, 2))


def _trig(q):
    return (np.cos(q[:, 0]), np.sin(q[:, 0]), np.cos(q[:, 1]), np.sin(q[:, 1]),
            np.cos(q.sum(1)), np.sin(q.sum(1)))


def test_craig_two_link_jacobians():
    """Craig 5.66 (tool frame ³J) and 5.67 (base frame ⁰J), the v_x, v_y rows."""
    q, _, _ = _states(np.random.default_rng(0))
    c1, s1, c2, s2, c12, s12 = _trig(q)
    J_tip = rd.jacobian(two_link(), q, frame='tip')[:, :2]
    J_base = rd.jacobian(two_link(), q, frame='base')[:, :2]
    expected_tip = np.stack((np.stack((L1 * s2, 0 * s2), -1),
                             np.stack((L1 * c2 + L2, L2 + 0 * c2), -1)), 1)
    expected_base = np.stack((np.stack((-L1 * s1 - L2 * s12, -L2 * s12), -1),
                              np.stack((L1 * c1 + L2 * c12, L2 * c12), -1)), 1)
    assert np.allclose(J_tip, expected_tip, atol=TOL)
    assert np.allclose(J_base, expected_base, atol=TOL)


def test_jacobian_and_its_derivative_by_finite_differences():
    """J from central differences of tip_pose; J̇ from differences of J along q̇."""
    rng = np.random.default_rng(1)
    model = random_model(rng, 6, prismatic_fraction=0.3)
    q, qd, _ = random_state(rng, 6)
    h = 1e-6
    J = rd.jacobian(model, q)
    for k in range(6):
        step = h * np.eye(6)[k]
        T_plus, T_minus = rd.tip_pose(model, q + step), rd.tip_pose(model, q - step)
        v = (T_plus[:3, 3] - T_minus[:3, 3]) / (2 * h)
        W = (T_plus[:3, :3] - T_minus[:3, :3]) / (2 * h) @ rd.tip_pose(model, q)[:3, :3].T
        assert np.allclose(J[:3, k], v, atol=1e-8)
        assert np.allclose(J[3:, k], [W[2, 1], W[0, 2], W[1, 0]], atol=1e-8)
    for frame in ('base', 'tip'):
        numeric = (rd.jacobian(model, q + h * qd, frame)
                   - rd.jacobian(model, q - h * qd, frame)) / (2 * h)
        assert np.allclose(jacobian_dot(model, q, qd, frame), numeric, atol=1e-7)


def test_static_forces_equal_inverse_dynamics_with_tip_wrench():
    """Craig 5.96 / Example 5.7: τ = ³Jᵀ ³F equals ID at rest without gravity."""
    rng = np.random.default_rng(2)
    model = two_link()
    q, _, _ = _states(rng)
    F = rng.normal(size=(6, 2)) * 20
    f_tip = np.column_stack((F, np.zeros((6, 4))))
    c1, s1, c2, s2, c12, s12 = _trig(q)
    expected = np.stack((L1 * s2 * F[:, 0] + (L2 + L1 * c2) * F[:, 1], L2 * F[:, 1]), -1)
    zero = np.zeros_like(q)
    at_rest = rd.inverse_dynamics(model.with_gravity([0, 0, 0]), q, zero, zero, f_tip=f_tip)
    assert np.allclose(at_rest, expected, atol=TOL)
    assert np.allclose(rd.static_torques(model, q, f_tip), expected, atol=TOL)
    general = random_model(rng, 6).with_gravity([0, 0, 0])
    qs, _, _ = random_state(rng, 6, N=3)
    wrench = rng.normal(size=(3, 6))
    zero = np.zeros_like(qs)
    assert np.allclose(rd.inverse_dynamics(general, qs, zero, zero, f_tip=wrench),
                       rd.static_torques(general, qs, wrench), atol=TOL)


def test_craig_joint_space_B_and_C():
    """Craig 6.63 for the two-link arm: B = [-2 m2 l1 l2 s2; 0], C = [[0, -m2 l1 l2 s2], …]."""
    q, qd, _ = _states(np.random.default_rng(3))
    B, C = coriolis_centrifugal_matrices(two_link(), q)
    _, _, _, s2, _, _ = _trig(q)
    k = M2 * L1 * L2 * s2
    assert np.allclose(B[:, :, 0], np.stack((-2 * k, 0 * k), -1), atol=TOL)
    assert np.allclose(C, np.stack((np.stack((0 * k, -k), -1), np.stack((k, 0 * k), -1)), 1),
                       atol=TOL)


def test_B_and_C_reproduce_the_velocity_terms():
    """V = B[θ̇θ̇] + C[θ̇²] on a random arm with prismatic joints and rotors."""
    rng = np.random.default_rng(4)
    model = random_model(rng, 5, rotor=True)
    q, qd, _ = random_state(rng, 5, N=3)
    B, C = coriolis_centrifugal_matrices(model, q)
    pairs, squares = velocity_products(qd)
    assert B.shape == (3, 5, 10) and C.shape == (3, 5, 5)
    V = np.einsum('nip,np->ni', B, pairs) + np.einsum('nik,nk->ni', C, squares)
    assert np.allclose(V, rd.coriolis_torques(model, q, qd), atol=TOL)


def test_craig_example_cartesian_dynamics():
    """Craig eq. 6.103 (Example 6.6): Mx, Vx and Gx of the two-link arm in the tool frame."""
    q, qd, _ = _states(np.random.default_rng(5))
    c1, s1, c2, s2, c12, s12 = _trig(q)
    t1, t2 = qd[:, 0], qd[:, 1]
    Mx, Vx, Gx = cartesian_dynamics(two_link(), q, qd, frame='tip', rows=('vx', 'vy'))
    zero = 0 * s2
    Mx_ref = np.stack((np.stack((M2 + M1 / s2 ** 2, zero), -1),
                       np.stack((zero, zero + M2), -1)), 1)
    Vx_ref = np.stack((-(M2 * L1 * c2 + M2 * L2) * t1 ** 2 - M2 * L2 * t2 ** 2
                       - (2 * M2 * L2 + M2 * L1 * c2 + M1 * L1 * c2 / s2 ** 2) * t1 * t2,
                       M2 * L1 * s2 * t1 ** 2 + L1 * M2 * s2 * t1 * t2), -1)
    Gx_ref = np.stack((M1 * G * c1 / s2 + M2 * G * s12, M2 * G * c12), -1)
    assert np.allclose(Mx, Mx_ref, atol=TOL)
    assert np.allclose(Vx, Vx_ref, atol=TOL)
    assert np.allclose(Gx, Gx_ref, atol=TOL)
    assert np.allclose(cartesian_mass_matrix(two_link(), q, rows=(0, 1)), Mx_ref, atol=TOL)


def test_craig_example_cartesian_B_and_C():
    """Craig Example 6.7: Bx, Cx of the two-link arm (Vx = Bx θ̇1θ̇2 + Cx [θ̇²])."""
    q, qd, _ = _states(np.random.default_rng(6))
    _, _, c2, s2, _, _ = _trig(q)
    Bx, Cx = cartesian_coriolis_centrifugal(two_link(), q, rows=('vx', 'vy'))
    Bx_ref = np.stack((-(2 * M2 * L2 + M2 * L1 * c2 + M1 * L1 * c2 / s2 ** 2),
                       M2 * L1 * s2), -1)
    Cx_ref = np.stack((np.stack((-(M2 * L1 * c2 + M2 * L2), -M2 * L2 + 0 * c2), -1),
                       np.stack((M2 * L1 * s2, 0 * c2), -1)), 1)
    assert np.allclose(Bx[:, :, 0], Bx_ref, atol=TOL)
    assert np.allclose(Cx, Cx_ref, atol=TOL)


@pytest.mark.parametrize('frame', ['tip', 'base'])
def test_cartesian_dynamics_map_back_to_inverse_dynamics(frame):
    """τ = Jᵀ (Mx ẍ + Vx + Gx) with ẍ = J θ̈ + J̇ θ̇ equals ID, 6-joint arm, both frames."""
    rng = np.random.default_rng(7)
    model = random_model(rng, 6, rotor=True)
    q, qd, qdd = random_state(rng, 6, N=4)
    J = rd.jacobian(model, q, frame)
    J_dot = jacobian_dot(model, q, qd, frame)
    x_dd = np.einsum('nij,nj->ni', J, qdd) + np.einsum('nij,nj->ni', J_dot, qd)
    Mx, Vx, Gx = cartesian_dynamics(model, q, qd, frame=frame)
    F = np.einsum('nij,nj->ni', Mx, x_dd) + Vx + Gx
    tau = np.einsum('nji,nj->ni', J, F)
    scale = np.abs(tau).max()
    assert np.allclose(tau, rd.inverse_dynamics(model, q, qd, qdd), atol=1e-9 * scale)
    Bx, Cx = cartesian_coriolis_centrifugal(model, q, frame=frame)
    pairs, squares = velocity_products(qd)
    assert np.allclose(np.einsum('nip,np->ni', Bx, pairs) + np.einsum('nik,nk->ni', Cx, squares),
                       Vx, atol=1e-9 * np.abs(Vx).max())


def test_singularity_and_task_rows_errors():
    """A stretched-out arm raises SingularityError; a non-square task is a clear ValueError."""
    with pytest.raises(SingularityError, match='move the arm away|Move the arm away'):
        cartesian_dynamics(two_link(), [0.3, 0.0], [0.1, 0.2], rows=('vx', 'vy'))
    with pytest.raises(SingularityError, match='condition number'):
        cartesian_mass_matrix(two_link(), [[0.3, 1.0], [0.3, 1e-12]], rows=(0, 1))
    with pytest.raises(ValueError, match='choose at most 2 task rows'):
        cartesian_dynamics(two_link(), [0.3, 1.0], [0.1, 0.2])
    for rows in (('vx', 'vx'), ('vx', 'vy', 'wz'), (), ('vx', 'speed'), (0, 6)):
        with pytest.raises(ValueError, match='choose 1 to 2 distinct rows'):
            cartesian_dynamics(two_link(), [0.3, 1.0], [0.1, 0.2], rows=rows)


# ---------------------------------------------------------------------- redundant arms (Khatib)
def _panda():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model('panda')


def _arm(name):
    """Load the Panda or build a seeded random chain of n joints with rotors ('n7')."""
    if name == 'panda':
        return _panda()
    n = int(name[1:])
    return random_model(np.random.default_rng(100 + n), n, prismatic_fraction=0.2, rotor=True)


def _relative(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


def _states_of(model, rng, N=4):
    """Random states of ``model`` (near the Panda's home pose for the Panda)."""
    n = model.dof
    q = rng.uniform(-np.pi, np.pi, (N, n)) if model.name != 'panda' else \
        np.array([0, -0.6, 0, -2.2, 0, 1.6, 0.8]) + rng.uniform(-0.4, 0.4, (N, n))
    return q, rng.uniform(-2, 2, (N, n))


@pytest.mark.parametrize('frame', ['tip', 'base'])
@pytest.mark.parametrize('name', ['panda', 'n7', 'n8', 'n9'])
def test_redundant_operational_space_inertia_agrees_with_pinocchio(name, frame):
    """Λ = (J M⁻¹ Jᵀ)⁻¹ and p = J̄ᵀ G from Pinocchio's frame Jacobian, crba and gravity."""
    model = _arm(name)
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.armature = np.array(model.reflected_inertia)
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    data = pm.createData()
    frame_id = pm.getFrameId(model.tip_link)
    reference = pin.LOCAL if frame == 'tip' else pin.LOCAL_WORLD_ALIGNED
    q, qd = _states_of(model, np.random.default_rng(11))
    Mx, _, Gx = cartesian_dynamics(model, q, qd, frame=frame)
    assert Mx.shape == (len(q), 6, 6)
    for k in range(len(q)):
        config = pinocchio_configuration(pm, q[k])
        J = pin.computeFrameJacobian(pm, data, config, frame_id, reference)
        M = pin.crba(pm, data, config)
        M = np.triu(M) + np.triu(M, 1).T
        Lam = np.linalg.inv(J @ np.linalg.solve(M, J.T))
        p = Lam @ J @ np.linalg.solve(M, pin.computeGeneralizedGravity(pm, data, config))
        assert _relative(Mx[k], Lam) < 1e-10
        assert _relative(Gx[k], p) < 1e-10
        assert _relative(cartesian_mass_matrix(model, q[k], frame=frame), Lam) < 1e-10


@pytest.mark.parametrize('frame', ['tip', 'base'])
@pytest.mark.parametrize('name, rows', [('panda', None), ('n7', None), ('n8', None),
                                        ('n9', ('vx', 'vy', 'vz', 'wz')),
                                        ('n6', ('vx', 'vy', 'vz'))])
def test_redundant_cartesian_dynamics_close_the_loop(name, rows, frame):
    """F = Λ ẍ + μ + p for the motion q̈ = FD(q, q̇, Jᵀ F) (no null-space torque), any F.

    ẍ = J q̈ + J̇ q̇; FD is Pinocchio's ABA, so the check is independent of our M, V, G. Also
    μ = Bx [θ̇θ̇] + Cx [θ̇²].
    """
    model = _arm(name)
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.armature = np.array(model.reflected_inertia)
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    data = pm.createData()
    rng = np.random.default_rng(12)
    q, qd = _states_of(model, rng)
    index = np.arange(6) if rows is None else [rd.cartesian.ROW_NAMES.index(r) for r in rows]
    Mx, Vx, Gx = cartesian_dynamics(model, q, qd, frame=frame, rows=rows)
    J = rd.jacobian(model, q, frame)[:, index]
    J_dot = jacobian_dot(model, q, qd, frame)[:, index]
    F = rng.normal(size=(len(q), len(index))) * 30
    for k in range(len(q)):
        config = pinocchio_configuration(pm, q[k])
        qdd = pin.aba(pm, data, config, qd[k], J[k].T @ F[k])
        x_dd = J[k] @ qdd + J_dot[k] @ qd[k]
        assert _relative(Mx[k] @ x_dd + Vx[k] + Gx[k], F[k]) < 1e-9
    Bx, Cx = cartesian_coriolis_centrifugal(model, q, frame=frame, rows=rows)
    pairs, squares = velocity_products(qd)
    assert _relative(np.einsum('nip,np->ni', Bx, pairs) + np.einsum('nik,nk->ni', Cx, squares),
                     Vx) < 1e-10


@pytest.mark.parametrize('frame', ['tip', 'base'])
@pytest.mark.parametrize('name', ['puma560', 'ur5', 'stanford', 'renaud_6r', 'random'])
def test_square_jacobian_gives_craigs_formulas(name, frame):
    """With n = 6 the results are Craig's J⁻ᵀ M J⁻¹, J⁻ᵀ (V - M J⁻¹ J̇ θ̇), J⁻ᵀ G to 1e-12.

    The redundant branch (Cholesky + QR) reproduces them on a square J too.
    """
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = random_model(np.random.default_rng(13), 6, rotor=True) if name == 'random' \
            else rd.load_model(name)
    rng = np.random.default_rng(14)
    q = rng.uniform(-np.pi, np.pi, (6, 6))
    q = q[np.linalg.cond(rd.jacobian(model, q, frame)) < 1e3][:3]
    qd = rng.uniform(-2, 2, q.shape)
    J = rd.jacobian(model, q, frame)
    J_inv = np.linalg.inv(J)
    J_inv_T = np.swapaxes(J_inv, 1, 2)
    M = rd.mass_matrix(model, q)
    Mx_craig = J_inv_T @ M @ J_inv
    bias = rd.coriolis_torques(model, q, qd) \
        - np.einsum('nij,njk,nk->ni', M @ J_inv, jacobian_dot(model, q, qd, frame), qd)
    Vx_craig = np.einsum('nij,nj->ni', J_inv_T, bias)
    Gx_craig = np.einsum('nij,nj->ni', J_inv_T, rd.gravity_torques(model, q))
    Mx, Vx, Gx = cartesian_dynamics(model, q, qd, frame=frame)
    assert _relative(Mx, Mx_craig) < 1e-12
    assert _relative(Vx, Vx_craig) < 1e-12
    assert _relative(Gx, Gx_craig) < 1e-12
    Lam, J_bar_T = _redundant_inverse(J, M, q)
    assert _relative(Lam, Mx_craig) < 1e-12
    assert _relative(J_bar_T, J_inv_T) < 1e-12


def test_redundant_singularity_and_massless_errors():
    """A singular Panda pose names q; rows beyond the joint count are refused."""
    with pytest.raises(SingularityError, match=r'at q = \[0\.0, 0\.0.*J M⁻¹ Jᵀ is singular'):
        cartesian_mass_matrix(_panda(), np.zeros(7))
    with pytest.raises(SingularityError, match='state 1'):
        cartesian_dynamics(_panda(), [[0, -0.6, 0, -2.2, 0, 1.6, 0.8], [0] * 7], np.zeros(7),
                           frame='base')
    with pytest.raises(SingularityError, match='condition number'):
        cartesian_coriolis_centrifugal(_panda(), np.zeros(7))
    light = random_model(np.random.default_rng(15), 7).replace(
        mass=[1.0] * 6 + [0.0], inertia=[0.1 * np.eye(3)] * 6 + [np.zeros((3, 3))])
    q = np.random.default_rng(16).uniform(-1, 1, 7)
    with pytest.raises(SingularityError, match='not positive definite'):
        cartesian_mass_matrix(light, q)
