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
"""The bundled robot models: loading, Pinocchio agreement, DH/URDF equivalence, golden values.

Independent references: Pinocchio (``pin.rnea``, ``pin.crba``, ``pin.computeGeneralizedGravity``)
on the very URDF files; Craig's closed form for the two-link arm (Introduction to Robotics §6.7,
eqs. 6.60-6.62, seed 004); the Puma 560 values of roboticstoolbox-python's own test suite
(``tests/test_DHRobot.py``: ``test_gravload``, ``test_inertia``, ``test_itorque``,
``test_rne``, ``test_coriolis``, ``test_accel``); the Renaud 6R transfer matrix (seed 001);
published forward kinematics of the Panda and UR5. The sources of every model number are in
``docs/models.md``.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import ModelWarning
from robots import pinocchio_configuration, random_state

JOINTS = {          # documented dof and joint types (docs/models.md)
    'two_link': 'RR', 'two_link_dh': 'RR', 'puma560': 'RRRRRR', 'puma560_dh': 'RRRRRR',
    'stanford': 'RRPRRR', 'stanford_dh': 'RRPRRR', 'renaud_6r': 'RRRRRR', 'panda': 'RRRRRRR',
    'ur5': 'RRRRRR',
}
URDF_MODELS = [name for name, path in rd.BUNDLED_MODELS.items() if path.endswith('.urdf')]
EQUIVALENT = [('two_link', 'two_link_dh'), ('puma560', 'puma560_dh'),
              ('stanford', 'stanford_dh')]

# Craig §6.7 two-link arm: the numbers documented in urdf/two_link.urdf and docs/models.md.
L1, L2, M1, M2, GRAVITY = 1.0, 0.8, 2.0, 1.5, 9.81

# Puma 560 (Corke's toolbox): signed gear ratios G and Coulomb friction Tc+ (motor side).
PUMA_G = np.array([-62.6111, 107.815, -53.7063, 76.0364, 71.923, 76.686])
PUMA_TC_PLUS = np.array([0.395, 0.126, 0.132, 11.2e-3, 9.26e-3, 3.96e-3])
PUMA_QN = np.array([0, np.pi / 4, np.pi, 0, np.pi / 4, 0])


def load(name):
    """Load a bundled model; the Puma 560, Stanford and two-link data warn (docs/models.md)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        model = rd.load_model(name)
    assert bool(caught) == name.startswith(('puma560', 'stanford', 'two_link')), \
        [str(w.message) for w in caught]
    return model


def symmetric(upper):
    """Pinocchio's crba fills the upper triangle only."""
    return np.triu(upper) + np.triu(upper, 1).T


# ---------------------------------------------------------------------- loading
@pytest.mark.parametrize('name', sorted(rd.BUNDLED_MODELS))
def test_every_bundled_model_loads_as_documented(name):
    model = load(name)
    kinds = ''.join('R' if t == 'revolute' else 'P' for t in model.joint_types)
    assert kinds == JOINTS[name]
    assert model.dof == len(JOINTS[name])
    assert model.total_mass > 0
    assert np.all(np.isfinite(rd.inverse_dynamics(model, *random_state(
        np.random.default_rng(0), model.dof))))


def test_every_bundled_name_is_tested():
    assert set(rd.BUNDLED_MODELS) == set(JOINTS)


def test_puma560_warns_about_link1():
    for name in ('puma560', 'puma560_dh'):
        with pytest.warns(ModelWarning) as caught:
            model = rd.load_model(name)
        messages = ' | '.join(str(w.message) for w in caught)
        assert "inertia of link 'link1' violates the triangle inequality" in messages
        assert 'massless moving links: link1' in messages
        assert model.mass[0] == 0.0


# What each bundled model's notes are about, as docs/models.md documents them (issue 32.6: the
# nodes log them as one INFO line, `robot-dynamics check` lists them): a new note must be
# documented and added here.
DOCUMENTED_NOTES = {
    'two_link': ["link 'link1' is degenerate", "link 'link2' is degenerate"],
    'puma560': ["link 'link1' violates the triangle", "link 'link3' violates the triangle",
                'massless moving links: link1', "link 'link1' has rotational inertia",
                'URDF <dynamics> friction included'],
    'stanford': ["link 'link5' violates the triangle", "link 'link4' is degenerate",
                 "link 'link3' lies 6.45 m"],
}
DOCUMENTED_NOTES.update(two_link_dh=DOCUMENTED_NOTES['two_link'],
                        puma560_dh=DOCUMENTED_NOTES['puma560'][:-1],
                        stanford_dh=DOCUMENTED_NOTES['stanford'])


@pytest.mark.parametrize('name', sorted(rd.BUNDLED_MODELS))
def test_every_note_of_a_bundled_model_is_a_documented_one(name):
    from robot_dynamics.model.bundled import bundled_notes
    notes = bundled_notes(name)
    expected = DOCUMENTED_NOTES.get(name, [])
    assert len(notes) == len(expected), notes
    for about in expected:
        assert sum(about in note for note in notes) == 1, (about, notes)


def test_urdfs_are_plain_xml():
    for name in URDF_MODELS:
        with open(rd.data_path(rd.BUNDLED_MODELS[name]), encoding='utf-8') as handle:
            text = handle.read()
        assert '<!DOCTYPE' not in text and 'xacro:' not in text and '<mesh' not in text
        assert text.lstrip().startswith('<?xml') and '<!--' in text    # source comment


# ---------------------------------------------------------------------- Pinocchio
def pinocchio_model(name, model):
    """Pinocchio model of the bundled file (URDF as shipped; DH through ``to_urdf``)."""
    path = rd.data_path(rd.BUNDLED_MODELS[name])
    if path.endswith('.urdf'):
        with open(path, encoding='utf-8') as handle:
            pin_model = pin.buildModelFromXML(handle.read())
    else:
        pin_model = pin.buildModelFromXML(model.to_urdf())
    pin_model.gravity.linear = np.array(model.gravity)
    return pin_model


@pytest.mark.parametrize('name', sorted(rd.BUNDLED_MODELS))
def test_agrees_with_pinocchio(name):
    model = load(name)
    rigid = model.without_joint_effects()
    pin_model = pinocchio_model(name, model)
    assert pin_model.nv == model.dof
    data = pin_model.createData()
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(5):
        q, qd, qdd = random_state(rng, model.dof)
        config = pinocchio_configuration(pin_model, q)
        assert np.allclose(rd.inverse_dynamics(rigid, q, qd, qdd),
                           pin.rnea(pin_model, data, config, qd, qdd), rtol=0, atol=1e-9)
        M_pin = symmetric(pin.crba(pin_model, data, config)) + np.diag(model.reflected_inertia)
        assert np.allclose(rd.mass_matrix(model, q), M_pin, rtol=0, atol=1e-9)
        assert np.allclose(rd.gravity_torques(model, q),
                           pin.computeGeneralizedGravity(pin_model, data, config),
                           rtol=0, atol=1e-9)


# ---------------------------------------------------------------------- DH <-> URDF
@pytest.mark.parametrize('urdf_name, dh_name', EQUIVALENT)
def test_dh_and_urdf_files_are_the_same_robot(urdf_name, dh_name):
    from_urdf, from_dh = load(urdf_name), load(dh_name)
    for field in ('viscous_friction', 'coulomb_friction', 'rotor_inertia', 'gear_ratio',
                  'lower_limit', 'upper_limit', 'mass'):
        assert np.array_equal(getattr(from_urdf, field), getattr(from_dh, field)), field
    rng = np.random.default_rng(7)
    q, qd, qdd = random_state(rng, from_dh.dof, N=10)
    f_tip = rng.normal(size=(10, 6))
    f_tip_urdf = f_tip
    if urdf_name == 'two_link':      # URDF world = Rx(π/2) · Craig's world, tool frames alike
        turn = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])
        f_tip_urdf = np.hstack([f_tip[:, :3] @ turn.T, f_tip[:, 3:] @ turn.T])
    assert np.allclose(rd.inverse_dynamics(from_urdf, q, qd, qdd, f_tip=f_tip_urdf),
                       rd.inverse_dynamics(from_dh, q, qd, qdd, f_tip=f_tip),
                       rtol=0, atol=1e-10)
    for function, args in ((rd.mass_matrix, (q,)), (rd.gravity_torques, (q,)),
                           (rd.friction_torques, (qd,))):
        assert np.allclose(function(from_urdf, *args), function(from_dh, *args),
                           rtol=0, atol=1e-10), function.__name__


# ---------------------------------------------------------------------- Craig's two-link arm
def craig_two_link(q, qd, m2=M2):
    """Craig §6.7 closed form: M (6.60), V (6.61), G (6.62) of the point-mass arm."""
    (t1, t2), (d1, d2) = q, qd
    c1, c2, s2, c12 = np.cos(t1), np.cos(t2), np.sin(t2), np.cos(t1 + t2)
    M = np.array([[m2 * L2 ** 2 + 2 * m2 * L1 * L2 * c2 + (M1 + m2) * L1 ** 2,
                   m2 * L2 ** 2 + m2 * L1 * L2 * c2],
                  [m2 * L2 ** 2 + m2 * L1 * L2 * c2, m2 * L2 ** 2]])
    V = np.array([-m2 * L1 * L2 * s2 * d2 ** 2 - 2 * m2 * L1 * L2 * s2 * d1 * d2,
                  m2 * L1 * L2 * s2 * d1 ** 2])
    G = np.array([m2 * L2 * GRAVITY * c12 + (M1 + m2) * L1 * GRAVITY * c1,
                  m2 * L2 * GRAVITY * c12])
    return M, V, G


def craig_two_link_torque(q, qd, qdd, m2=M2):
    """Craig's τ1, τ2 for the two-link arm written out term by term (§6.7)."""
    (t1, t2), (d1, d2), (a1, a2) = q, qd, qdd
    c1, c2, s2, c12 = np.cos(t1), np.cos(t2), np.sin(t2), np.cos(t1 + t2)
    tau1 = (m2 * L2 ** 2 * (a1 + a2) + m2 * L1 * L2 * c2 * (2 * a1 + a2)
            + (M1 + m2) * L1 ** 2 * a1 - m2 * L1 * L2 * s2 * d2 ** 2
            - 2 * m2 * L1 * L2 * s2 * d1 * d2 + m2 * L2 * GRAVITY * c12
            + (M1 + m2) * L1 * GRAVITY * c1)
    tau2 = (m2 * L1 * L2 * c2 * a1 + m2 * L1 * L2 * s2 * d1 ** 2 + m2 * L2 * GRAVITY * c12
            + m2 * L2 ** 2 * (a1 + a2))
    return np.array([tau1, tau2])


@pytest.mark.parametrize('name', ['two_link', 'two_link_dh'])
def test_two_link_matches_craig_closed_form(name):
    model = load(name)
    rng = np.random.default_rng(3)
    for _ in range(10):
        q, qd, qdd = random_state(rng, 2)
        M, V, G = craig_two_link(q, qd)
        assert np.allclose(rd.inverse_dynamics(model, q, qd, qdd),
                           craig_two_link_torque(q, qd, qdd), rtol=0, atol=1e-12)
        assert np.allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-12)
        assert np.allclose(rd.coriolis_torques(model, q, qd), V, rtol=0, atol=1e-12)
        assert np.allclose(rd.gravity_torques(model, q), G, rtol=0, atol=1e-12)


@pytest.mark.parametrize('name', ['two_link', 'two_link_dh'])
def test_two_link_payload_adds_to_m2(name):
    payload = 0.7                      # a point mass at the tool frame = the tip of link 2
    model = load(name).with_payload(payload)
    rng = np.random.default_rng(4)
    for _ in range(5):
        q, qd, qdd = random_state(rng, 2)
        assert np.allclose(rd.inverse_dynamics(model, q, qd, qdd),
                           craig_two_link_torque(q, qd, qdd, m2=M2 + payload),
                           rtol=0, atol=1e-12)
        M, V, G = craig_two_link(q, qd, m2=M2 + payload)
        assert np.allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-12)


def test_two_link_urdf_geometry():
    model = load('two_link')
    pose = rd.tip_pose(model, np.array([np.pi / 2, 0.0]))      # positive θ1 turns x towards +z
    assert np.allclose(pose[:3, 3], [0, 0, L1 + L2], atol=1e-15)


# ---------------------------------------------------------------------- Puma 560 golden values
@pytest.fixture(scope='module', params=['puma560', 'puma560_dh'])
def puma(request):
    return load(request.param)


def puma_moving_forward(puma):
    """Return the model with Coulomb friction |G| Tc+ (the toolbox uses Tc+ for qd > 0)."""
    return puma.replace(coulomb_friction=np.abs(PUMA_G) * PUMA_TC_PLUS)


def test_puma560_toolbox_golden_values_at_rest(puma):
    # roboticstoolbox-python tests/test_DHRobot.py, 4 decimals (their own test tolerance)
    zero, one = np.zeros(6), np.ones(6)
    gravload = [0.0, 31.6399, 6.0351, 0.0, 0.0283, 0.0]
    inertia = [[3.6594, -0.4044, 0.1006, -0.0025, 0.0000, -0.0000],
               [-0.4044, 4.4137, 0.3509, 0.0000, 0.0024, 0.0000],
               [0.1006, 0.3509, 0.9378, 0.0000, 0.0015, 0.0000],
               [-0.0025, 0.0000, 0.0000, 0.1925, 0.0000, 0.0000],
               [0.0000, 0.0024, 0.0015, 0.0000, 0.1713, 0.0000],
               [-0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.1941]]
    itorque = [3.1500, 9.4805, 3.6189, 0.1901, 0.3519, 0.5823]        # M qdd
    rne_qdd_one = [3.35311, 36.0025, 7.42596, 0.190043, 0.203441, 0.194133]
    rne_fext = [0.642756, 29.0866, 4.70321, 2.82843, -1.97175, 3]     # fext = [1, 2, 3, 1, 2, 3]
    assert np.allclose(rd.gravity_torques(puma, PUMA_QN), gravload, rtol=0, atol=5e-5)
    assert np.allclose(rd.mass_matrix(puma, PUMA_QN), inertia, rtol=0, atol=5e-5)
    assert np.allclose(rd.mass_matrix(puma, PUMA_QN) @ [1, 2, 3, 1, 2, 3], itorque,
                       rtol=0, atol=5e-5)
    assert np.allclose(rd.inverse_dynamics(puma, PUMA_QN, zero, one), rne_qdd_one,
                       rtol=0, atol=5e-5)
    assert np.allclose(rd.inverse_dynamics(puma, PUMA_QN, zero, zero, f_tip=[1, 2, 3, 1, 2, 3]),
                       rne_fext, rtol=0, atol=5e-5)


def test_puma560_toolbox_golden_values_in_motion(puma):
    # roboticstoolbox-python tests/test_DHRobot.py test_rne and test_accel (all qd > 0)
    zero, one = np.zeros(6), np.ones(6)
    forward = puma_moving_forward(puma)
    assert np.allclose(rd.inverse_dynamics(forward, PUMA_QN, one, one),
                       [32.4952, 60.867, 17.7436, 1.45452, 1.29911, 0.713781], rtol=0, atol=5e-5)
    assert np.allclose(rd.inverse_dynamics(forward, PUMA_QN, one, zero),
                       [29.1421, 56.5044, 16.3528, 1.26448, 1.12392, 0.519648], rtol=0, atol=5e-5)
    assert np.allclose(rd.inverse_dynamics(forward.with_gravity([0, 0, 0]), PUMA_QN, one, one),
                       [32.4952, 29.2271, 11.7085, 1.45452, 1.27086, 0.713781], rtol=0, atol=5e-5)
    qdd = rd.forward_dynamics(forward, PUMA_QN, [0.1, 0.2, 0.8, 0.2, 0.5, 1.0],
                              [1.0, 3.2, 1.8, 0.1, 0.7, 4.6])
    assert np.allclose(qdd, [-7.4102, -9.8432, -10.9694, -4.4314, -0.9881, 21.0228],
                       rtol=0, atol=5e-5)


def test_puma560_toolbox_coriolis_matrix(puma):
    # The toolbox builds C column by column from rne with unit velocities (DHRobot.coriolis)
    qd = np.array([1.0, 2, 3, 1, 2, 3])
    C_toolbox = [[-0.1735, -2.0494, -0.1178, -0.0002, -0.0045, 0.0001],
                 [0.6274, 1.1572, 1.9287, -0.0015, -0.0003, -0.0000],
                 [-0.3608, -0.7734, -0.0018, -0.0009, -0.0064, -0.0000],
                 [0.0011, 0.0005, -0.0001, 0.0002, 0.0002, -0.0001],
                 [-0.0002, 0.0028, 0.0046, -0.0002, -0.0000, -0.0000],
                 [0.0001, 0.0000, 0.0000, 0.0000, 0.0000, 0]]
    unit = np.eye(6)
    squares = np.array([rd.coriolis_torques(puma, PUMA_QN, unit[j]) for j in range(6)]).T
    C = squares * qd
    for j in range(6):
        for k in range(j + 1, 6):
            pair = rd.coriolis_torques(puma, PUMA_QN, unit[j] + unit[k]) \
                - squares[:, j] - squares[:, k]
            C[:, k] += pair * qd[j] / 2
            C[:, j] += pair * qd[k] / 2
    assert np.allclose(C, C_toolbox, rtol=0, atol=5e-5)
    assert np.allclose(C @ qd, rd.coriolis_torques(puma, PUMA_QN, qd), rtol=0, atol=1e-12)


def test_puma560_joint_side_friction_conversion(puma):
    B = np.array([1.48e-3, .817e-3, 1.38e-3, 71.2e-6, 82.6e-6, 36.7e-6])
    Tc = np.array([[0.395, -0.435], [0.126, -0.071], [0.132, -0.105], [11.2e-3, -16.9e-3],
                   [9.26e-3, -14.5e-3], [3.96e-3, -10.5e-3]])
    assert np.allclose(puma.viscous_friction, B * PUMA_G ** 2, rtol=1e-12, atol=0)
    assert np.allclose(puma.coulomb_friction, np.abs(PUMA_G) * np.abs(Tc).mean(axis=1),
                       rtol=1e-12, atol=0)
    assert np.allclose(puma.gear_ratio, np.abs(PUMA_G), rtol=0, atol=0)
    assert np.allclose(puma.rotor_inertia, [200e-6] * 3 + [33e-6] * 3, rtol=0, atol=0)


# ---------------------------------------------------------------------- other models
def test_stanford_warns_and_keeps_toolbox_data():
    with pytest.warns(ModelWarning, match="link 'link5' violates the triangle inequality"):
        model = rd.load_model('stanford')
    assert np.allclose(model.reflected_inertia, [0.953, 2.193, 0.782, 0.106, 0.097, 0.020])
    assert model.lower_limit[2] == pytest.approx(12 * 0.0254)
    assert model.upper_limit[2] == pytest.approx(50 * 0.0254)


def test_renaud_6r_follows_the_paper():
    model = load('renaud_6r')
    alpha = [0, np.pi / 2, 0, np.pi / 2, -np.pi / 2, np.pi / 2]
    a = [0, 0, 0.43, 0, 0, 0]
    r = [0, 0, 0, 0.43, 0, 0]
    for i in range(6):      # seed 001: T_{i-1,i} at θ_i = 0
        ca, sa = np.cos(alpha[i]), np.sin(alpha[i])
        assert np.allclose(model.placement_rotation[i], [[1, 0, 0], [0, ca, -sa], [0, sa, ca]],
                           atol=1e-15)
        assert np.allclose(model.placement_translation[i], [a[i], -r[i] * sa, r[i] * ca],
                           atol=1e-15)
    # structural zeros: centre of mass on z1, x2, y3, z4, y5, z6; no products of inertia
    axes = [2, 0, 1, 2, 1, 2]
    for i, axis in enumerate(axes):
        off_axis = np.delete(model.com[i], axis)
        assert np.all(off_axis == 0) and model.com[i][axis] != 0
        assert np.all(model.inertia[i] == np.diag(np.diag(model.inertia[i])))


def test_panda_flange_at_zero_configuration():
    # Franka: flange at x = a7 = 0.088, z = d1 + d3 + d5 - d_F = 0.333 + 0.316 + 0.384 - 0.107
    pose = rd.tip_pose(load('panda'), np.zeros(7))
    assert np.allclose(pose[:3, 3], [0.088, 0, 0.926], atol=1e-12)
    assert np.allclose(pose[:3, :3], np.diag([1, -1, -1]), atol=1e-12)
    assert load('panda').total_mass == pytest.approx(16.062132)


def test_ur5_tool0_at_zero_configuration():
    # UR DH at q = 0 in base_link (turned by pi about z from UR's base frame):
    # x = -(a2 + a3), y = d4 + d6, z = d1 - d5
    pose = rd.tip_pose(load('ur5'), np.zeros(6))
    assert np.allclose(pose[:3, 3], [0.425 + 0.39225, 0.10915 + 0.0823, 0.089159 - 0.09465],
                       atol=1e-12)
    assert load('ur5').mass == pytest.approx([3.7, 8.393, 2.33, 1.219, 1.219, 0.1879])
