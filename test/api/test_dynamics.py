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
"""Reference dynamics: identities on random robots, Pinocchio agreement, Craig's two-link arm."""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import RobotModel
from robots import pinocchio_configuration, random_model, random_state

SIZES = list(range(1, 13))


#: Agreement with Pinocchio relative to the quantity's largest entry (measured at most 4.8e-15
#: for τ, M and G on 1-12 joints; forward dynamics 1.1e-13 against ABA, 2.1e-14 inverting τ).
TOL = 2e-14
FD_TOL = 1e-12


def scale(x):
    """Tolerance scale: max(1, |x|)."""
    return max(1.0, float(np.max(np.abs(x))))


def size(x):
    """Tolerance scale: the size of the quantity, its largest magnitude."""
    return float(np.max(np.abs(x)))


@pytest.fixture(params=SIZES, ids=lambda n: f'n{n}')
def robot(request):
    """Give a seeded random robot with mixed joint types and a random state."""
    n = request.param
    rng = np.random.default_rng(1000 + n)
    model = random_model(rng, n, prismatic_fraction=0.35)
    return model, rng


# ---------------------------------------------------------------------- identities
def test_gravity_equals_pinocchio_and_the_potential_energy_gradient(robot):
    """Check G against two oracles independent of our RNEA.

    Pinocchio's ``computeGeneralizedGravity`` and ``G = dU/dq`` by central differences of the
    potential energy (forward kinematics only).
    """
    model, rng = robot
    q, _, _ = random_state(rng, model.dof)
    G = rd.gravity_torques(model, q)
    pin_model = pin.buildModelFromXML(model.to_urdf())
    pin_model.gravity.linear = np.array(model.gravity)
    config = pinocchio_configuration(pin_model, q)
    G_pin = pin.computeGeneralizedGravity(pin_model, pin_model.createData(), config)
    assert np.allclose(G, G_pin, rtol=0, atol=TOL * size(G_pin))
    h = 1e-6
    gradient = [(rd.potential_energy(model, q + h * e) - rd.potential_energy(model, q - h * e))
                / (2 * h) for e in np.eye(model.dof)]
    assert np.allclose(G, gradient, rtol=0, atol=1e-7 * scale(G))


def test_coriolis_is_velocity_part(robot):
    model, rng = robot
    q, qd, _ = random_state(rng, model.dof)
    zero = np.zeros(model.dof)
    moving, G = rd.inverse_dynamics(model, q, qd, zero), rd.gravity_torques(model, q)
    V = rd.coriolis_torques(model, q, qd)
    assert np.allclose(V, moving - G, rtol=0, atol=TOL * size(np.concatenate((moving, G))))


def test_mass_matrix_columns_are_unit_accelerations(robot):
    model, rng = robot
    q, _, _ = random_state(rng, model.dof)
    n, zero = model.dof, np.zeros(model.dof)
    G = rd.gravity_torques(model, q)
    columns = np.array([rd.inverse_dynamics(model, q, zero, e) - G for e in np.eye(n)]).T
    M = rd.mass_matrix(model, q)
    assert np.allclose(M, columns, rtol=0, atol=TOL * size(M))
    assert np.allclose(M, M.T, rtol=0, atol=1e-14 * scale(M))
    assert np.linalg.eigvalsh(M).min() > 0


def test_full_equation_of_motion(robot):
    model, rng = robot
    q, qd, qdd = random_state(rng, model.dof)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    rebuilt = rd.mass_matrix(model, q) @ qdd + rd.coriolis_torques(model, q, qd) \
        + rd.gravity_torques(model, q)
    assert np.allclose(tau, rebuilt, rtol=0, atol=TOL * size(tau))


def test_coriolis_matrix_skew_symmetry_and_product(robot):
    model, rng = robot
    q, qd, _ = random_state(rng, model.dof)
    C = rd.coriolis_matrix(model, q, qd)
    M_dot = rd.mass_matrix_dot(model, q, qd)
    N = M_dot - 2 * C
    assert np.allclose(N, -N.T, rtol=0, atol=1e-11 * scale(M_dot))
    assert abs(qd @ N @ qd) < 1e-10 * scale(M_dot) * scale(qd) ** 2
    V = rd.coriolis_torques(model, q, qd)
    assert np.allclose(C @ qd, V, rtol=0, atol=1e-11 * scale(V))


def test_mass_matrix_dot_matches_finite_difference(robot):
    model, rng = robot
    q, qd, _ = random_state(rng, model.dof)
    h = 1e-6
    fd = (rd.mass_matrix(model, q + h * qd) - rd.mass_matrix(model, q - h * qd)) / (2 * h)
    assert np.allclose(rd.mass_matrix_dot(model, q, qd), fd, rtol=0, atol=1e-7 * scale(fd))


def test_forward_dynamics_inverts_inverse_dynamics(robot):
    model, rng = robot
    model = model.replace(viscous_friction=rng.uniform(0, 1, model.dof),
                          coulomb_friction=rng.uniform(0, 1, model.dof),
                          rotor_inertia=rng.uniform(0, 1e-4, model.dof),
                          gear_ratio=rng.uniform(10, 80, model.dof))
    q, qd, qdd = random_state(rng, model.dof)
    f_tip = rng.normal(size=6)
    tau = rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip)
    assert np.allclose(rd.forward_dynamics(model, q, qd, tau, f_tip=f_tip), qdd,
                       rtol=0, atol=FD_TOL * size(qdd))


def test_power_balance_of_frictionless_arm(robot):
    """dE/dt = qdᵀ τ along any motion (total energy, central difference in time)."""
    model, rng = robot
    q, qd, qdd = random_state(rng, model.dof)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    h = 1e-6
    energy = [rd.total_energy(model, q + s * h * qd + 0.5 * (s * h) ** 2 * qdd, qd + s * h * qdd)
              for s in (-1, 1)]
    dE_dt = (energy[1] - energy[0]) / (2 * h)
    assert dE_dt == pytest.approx(qd @ tau, rel=1e-6, abs=1e-6)


def test_tip_wrench_maps_through_jacobian_transpose(robot):
    model, rng = robot
    q, qd, qdd = random_state(rng, model.dof)
    f_tip = rng.normal(size=6) * 10
    with_wrench = rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip)
    without = rd.inverse_dynamics(model, q, qd, qdd)
    J_tip = rd.jacobian(model, q, frame='tip')
    assert np.allclose(with_wrench - without, J_tip.T @ f_tip, rtol=0,
                       atol=5 * TOL * size(with_wrench))        # a difference: 9.9e-15 measured
    assert np.allclose(rd.static_torques(model, q, f_tip), J_tip.T @ f_tip, rtol=0,
                       atol=TOL * size(J_tip.T @ f_tip))


def test_jacobian_matches_tip_pose_finite_difference(robot):
    model, rng = robot
    q, qd, _ = random_state(rng, model.dof)
    h = 1e-6
    T_plus, T_minus = rd.tip_pose(model, q + h * qd), rd.tip_pose(model, q - h * qd)
    v = (T_plus[:3, 3] - T_minus[:3, 3]) / (2 * h)
    R_dot = (T_plus[:3, :3] - T_minus[:3, :3]) / (2 * h)
    W = R_dot @ rd.tip_pose(model, q)[:3, :3].T
    omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
    J = rd.jacobian(model, q)
    assert np.allclose(J @ qd, np.concatenate((v, omega)), rtol=0, atol=1e-7)


def test_batches_match_single_calls():
    rng = np.random.default_rng(7)
    model = random_model(rng, 5, friction=True, rotor=True)
    q, qd, qdd = random_state(rng, 5, N=4)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    M = rd.mass_matrix(model, q)
    assert tau.shape == (4, 5) and M.shape == (4, 5, 5)
    for k in range(4):
        # equal to rounding: numpy's batched kernels may sum in another order (SIMD width)
        assert np.allclose(tau[k], rd.inverse_dynamics(model, q[k], qd[k], qdd[k]), rtol=1e-14,
                           atol=1e-12)
        assert np.allclose(M[k], rd.mass_matrix(model, q[k]), rtol=0, atol=1e-14)
    assert rd.coriolis_matrix(model, q, qd).shape == (4, 5, 5)
    assert rd.forward_dynamics(model, q, qd, tau).shape == (4, 5)
    # a single row broadcasts against a batch
    assert np.allclose(rd.inverse_dynamics(model, q[0], qd, qdd)[1],
                       rd.inverse_dynamics(model, q[0], qd[1], qdd[1]))


# ---------------------------------------------------------------------- Pinocchio oracle
@pytest.mark.parametrize('n', SIZES)
def test_agrees_with_pinocchio_on_random_urdf(n):
    rng = np.random.default_rng(2000 + n)
    model = random_model(rng, n, prismatic_fraction=0.35, rotor=True)
    loaded = RobotModel.from_urdf(model.to_urdf())
    pin_model = pin.buildModelFromXML(loaded.to_urdf())
    pin_model.armature = np.array(loaded.reflected_inertia)
    data = pin_model.createData()
    for _ in range(3):
        q, qd, qdd = random_state(rng, n)
        config = pinocchio_configuration(pin_model, q)
        tau = rd.inverse_dynamics(loaded, q, qd, qdd)
        tau_pin = pin.rnea(pin_model, data, config, qd, qdd)          # armature included
        assert np.allclose(tau, tau_pin, rtol=0, atol=TOL * size(tau_pin))
        M_pin = pin.crba(pin_model, data, config)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
        assert np.allclose(rd.mass_matrix(loaded, q), M_pin, rtol=0, atol=TOL * size(M_pin))
        G_pin = pin.computeGeneralizedGravity(pin_model, data, config)
        assert np.allclose(rd.gravity_torques(loaded, q), G_pin, rtol=0,
                           atol=TOL * size(G_pin))
        qdd_pin = pin.aba(pin_model, data, config, qd, tau_pin)
        assert np.allclose(rd.forward_dynamics(loaded, q, qd, tau_pin), qdd_pin, rtol=0,
                           atol=FD_TOL * size(qdd_pin))


def test_coriolis_matrix_product_agrees_with_pinocchio():
    rng = np.random.default_rng(3)
    model = random_model(rng, 6, prismatic_fraction=0.3)
    pin_model = pin.buildModelFromXML(model.to_urdf())
    data = pin_model.createData()
    q, qd, _ = random_state(rng, 6)
    config = pinocchio_configuration(pin_model, q)
    C_pin = pin.computeCoriolisMatrix(pin_model, data, config, qd)
    assert np.allclose(rd.coriolis_matrix(model, q, qd) @ qd, C_pin @ qd, rtol=0,
                       atol=TOL * size(C_pin @ qd))
    dM_pin = pin.computeCoriolisMatrix(pin_model, data, config, qd)  # Ṁ = C + Cᵀ for both
    assert np.allclose(rd.mass_matrix_dot(model, q, qd), dM_pin + dM_pin.T, rtol=0,
                       atol=TOL * size(dM_pin + dM_pin.T))


# ---------------------------------------------------------------------- Craig §6.7
def craig_two_link(m1=2.0, m2=1.5, l1=1.0, l2=0.8, g=9.81):
    """Craig's planar arm (point masses at the distal ends), in Craig's frames: gravity -Y0."""
    return RobotModel(
        joint_types=['revolute', 'revolute'], axis=[[0, 0, 1], [0, 0, 1]],
        placement_rotation=[np.eye(3)] * 2, placement_translation=[[0, 0, 0], [l1, 0, 0]],
        mass=[m1, m2], com=[[l1, 0, 0], [l2, 0, 0]], inertia=np.zeros((2, 3, 3)),
        tip_translation=[l2, 0, 0], gravity=[0, -g, 0], name='craig_two_link')


def test_craig_two_link_closed_form():
    m1, m2, l1, l2, g = 2.0, 1.5, 1.0, 0.8, 9.81
    model = craig_two_link(m1, m2, l1, l2, g)
    rng = np.random.default_rng(5)
    for _ in range(10):
        (t1, t2), (d1, d2), (a1, a2) = random_state(rng, 2)
        c1, c2, s2, c12 = np.cos(t1), np.cos(t2), np.sin(t2), np.cos(t1 + t2)
        M = np.array([[l2 ** 2 * m2 + 2 * l1 * l2 * m2 * c2 + l1 ** 2 * (m1 + m2),
                       l2 ** 2 * m2 + l1 * l2 * m2 * c2],
                      [l2 ** 2 * m2 + l1 * l2 * m2 * c2, l2 ** 2 * m2]])            # Craig 6.60
        V = np.array([-m2 * l1 * l2 * s2 * d2 ** 2 - 2 * m2 * l1 * l2 * s2 * d1 * d2,
                      m2 * l1 * l2 * s2 * d1 ** 2])                                  # Craig 6.61
        G = np.array([m2 * l2 * g * c12 + (m1 + m2) * l1 * g * c1, m2 * l2 * g * c12])  # 6.62
        q, qd, qdd = np.array([t1, t2]), np.array([d1, d2]), np.array([a1, a2])
        assert np.allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-12)
        assert np.allclose(rd.coriolis_torques(model, q, qd), V, rtol=0, atol=1e-12)
        assert np.allclose(rd.gravity_torques(model, q), G, rtol=0, atol=1e-12)
        assert np.allclose(rd.inverse_dynamics(model, q, qd, qdd), M @ qdd + V + G,
                           rtol=0, atol=1e-12)


# ---------------------------------------------------------------------- joint-space terms
def test_friction_and_rotor_terms():
    rng = np.random.default_rng(11)
    base = random_model(rng, 4)
    Fv, Fc = np.array([0.5, 0.0, 1.0, 2.0]), np.array([0.1, 0.3, 0.0, 0.2])
    Jm, G = np.array([1e-4, 2e-4, 0.0, 3e-5]), np.array([50.0, 100.0, 1.0, 20.0])
    model = base.replace(viscous_friction=Fv, coulomb_friction=Fc, rotor_inertia=Jm,
                         gear_ratio=G)
    q, qd, qdd = random_state(rng, 4)
    qd[1] = 0.0                                            # sign(0) = 0: no Coulomb torque
    expected = rd.inverse_dynamics(base, q, qd, qdd) + Fv * qd + Fc * np.sign(qd) \
        + Jm * G ** 2 * qdd
    assert np.allclose(rd.inverse_dynamics(model, q, qd, qdd), expected, rtol=0, atol=1e-12)
    assert np.allclose(rd.friction_torques(model, qd), Fv * qd + Fc * np.sign(qd))
    assert np.allclose(rd.mass_matrix(model, q) - rd.mass_matrix(base, q), np.diag(Jm * G ** 2))
    assert np.array_equal(rd.inverse_dynamics(model.without_joint_effects(), q, qd, qdd),
                          rd.inverse_dynamics(base, q, qd, qdd))


# ---------------------------------------------------------------------- input checks
@pytest.mark.parametrize('bad, message', [
    (np.zeros(3), r'q: expected shape \(4,\) or \(N, 4\) for joints \[.joint1'),
    (np.zeros((2, 5)), r'q: expected shape \(4,\) or \(N, 4\)'),
    (['a', 'b', 'c', 'd'], r'q: expected real numbers'),
    ([0.0, np.nan, 0.0, 0.0], r"q: contains NaN or inf at \['joint2'\]"),
    ([0.0, 0.0, np.inf, 0.0], r"q: contains NaN or inf at \['joint3'\]"),
])
def test_bad_state_is_a_clear_error(bad, message):
    model = random_model(np.random.default_rng(0), 4)
    zero = np.zeros(4)
    with pytest.raises(ValueError, match=message):
        rd.inverse_dynamics(model, bad, zero, zero)


BOOL_CALLS = {          # the bool argument's name → a call with it boolean, the others zero
    'q': lambda m, b, z, s: rd.inverse_dynamics(m, b, z, z, solver=s),
    'qd': lambda m, b, z, s: rd.coriolis_torques(m, z, b, solver=s),
    'qdd': lambda m, b, z, s: rd.inverse_dynamics(m, z, z, b, solver=s),
    'tau': lambda m, b, z, s: rd.forward_dynamics(m, z, z, b, solver=s),
    'f_tip': lambda m, b, z, s: rd.inverse_dynamics(m, z, z, z, f_tip=np.ones(6, bool),
                                                    solver=s),
}


@pytest.mark.parametrize('solver', [None, 'rnea'])
@pytest.mark.parametrize('name', sorted(BOOL_CALLS))
@pytest.mark.parametrize('batch', [False, True])
def test_booleans_are_not_joint_values(name, solver, batch):
    """F6: a bool array was taken as 0/1 (README: non-numeric values raise); name the field."""
    model = random_model(np.random.default_rng(0), 4)
    b = np.ones((3, 4) if batch else 4, dtype=bool)
    with pytest.raises(ValueError, match=rf'^{name}: expected real numbers for .*, got '
                                         r'booleans \(dtype bool\); give the values as numbers'):
        BOOL_CALLS[name](model, b, np.zeros(4), solver)


def test_bad_velocity_acceleration_wrench_and_batch_sizes():
    model = random_model(np.random.default_rng(0), 3)
    zero = np.zeros(3)
    with pytest.raises(ValueError, match=r'qd: expected shape \(3,\)'):
        rd.inverse_dynamics(model, zero, np.zeros(4), zero)
    with pytest.raises(ValueError, match=r'qdd: contains NaN'):
        rd.inverse_dynamics(model, zero, zero, [np.nan, 0, 0])
    with pytest.raises(ValueError, match=r'f_tip: expected shape \(6,\) or \(N, 6\) for \[fx'):
        rd.inverse_dynamics(model, zero, zero, zero, f_tip=np.zeros(3))
    with pytest.raises(ValueError, match='batch sizes differ'):
        rd.inverse_dynamics(model, np.zeros((2, 3)), np.zeros((3, 3)), zero)
    with pytest.raises(ValueError, match='tau: expected real numbers'):
        rd.forward_dynamics(model, zero, zero, [1j, 0, 0])


def test_wrench_errors_name_wrench_components_on_a_six_joint_arm():
    """A 6-joint model: the wrench's width equals the joint count, the message must not care."""
    model = random_model(np.random.default_rng(3), 6)
    zero = np.zeros(6)
    for solver in (None, 'rnea'):
        with pytest.raises(ValueError, match=r"f_tip: contains NaN or inf at \['fz'\]; give "
                                             r"finite values for \[fx, fy, fz, nx, ny, nz\]"):
            rd.inverse_dynamics(model, zero, zero, zero, f_tip=[0, 0, np.inf, 0, 0, 0],
                                solver=solver)
        with pytest.raises(ValueError, match=r'f_tip: expected shape \(6,\) or \(N, 6\) for '
                                             r'\[fx, fy, fz, nx, ny, nz\], got shape \(3,\)'):
            rd.inverse_dynamics(model, zero, zero, zero, f_tip=[1, 2, 3], solver=solver)


def test_unknown_solver_lists_available_names():
    model = random_model(np.random.default_rng(0), 2)
    zero = np.zeros(2)
    with pytest.raises(rd.SolverError, match=r"unknown solver 'nope'; available solvers: .*rnea"):
        rd.inverse_dynamics(model, zero, zero, zero, solver='nope')
