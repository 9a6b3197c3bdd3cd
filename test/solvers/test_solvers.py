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
"""Every registered solver against the reference RNEA, Pinocchio, CRBA and itself.

Random robots of 1-12 joints (mixed revolute/prismatic, random axes and placements, a tip
wrench, a non-default gravity) and every bundled model whose file exists. Tolerances are
relative to the torque scale ``max(1, max |τ|)``.
"""

import math
import pathlib
import warnings

import numpy as np
import pinocchio as pin
import pytest
import yaml

import robot_dynamics as rd
from robot_dynamics.algorithms.rnea import rnea
from robot_dynamics.model.frames import distal_frames, proximal_frames
from robot_dynamics.solvers.renaud import augmented_bodies
from robots import pinocchio_configuration, random_model, random_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOLVERS = rd.solvers.available()
NEWTON_EULER = ['lwp_base', 'lwp_link', 'turney_mudge_lee', 'renaud', 'craig']
SIZES = list(range(1, 13))
#: Agreement of torques and mass matrices, relative to the largest entry of the quantity:
#: measured at most 4.0e-15 (random robots of 1-12 joints, every solver against Pinocchio),
#: 3.5e-15 (strobed M against CRBA), 7e-16 (bundled models). README.md quotes it.
TOL = 2e-14
#: Forward dynamics inverting inverse dynamics, relative to the largest acceleration:
#: measured at most 3.0e-14 (condition numbers of M up to ~1e3 amplify the round-off).
FD_TOL = 1e-12


def scale(x):
    """Tolerance scale: the size of the quantity, its largest magnitude."""
    return float(np.max(np.abs(x)))


def random_case(n, N=3):
    """Give a seeded random robot, states, tip wrench and gravity."""
    rng = np.random.default_rng(7000 + n)
    model = random_model(rng, n, prismatic_fraction=0.4, name=f'random{n}')
    q, qd, qdd = random_state(rng, n, N)
    f_tip = rng.uniform(-20, 20, (N, 6))
    gravity = rng.normal(size=3) * 4.0
    return model, q, qd, qdd, f_tip, gravity


def pinocchio_torques(model, q, qd, qdd, gravity, f_tip):
    """Rigid-body torques by Pinocchio, the tip wrench as an external force on the last body."""
    pm = pin.buildModelFromXML(model.without_joint_effects().to_urdf())
    pm.gravity = pin.Motion(np.asarray(gravity, float), np.zeros(3))
    data = pm.createData()
    out = []
    for k in range(q.shape[0]):
        f = model.tip_rotation @ f_tip[k, :3]                     # tool wrench at frame {n}
        m = model.tip_rotation @ f_tip[k, 3:] + np.cross(model.tip_translation, f)
        fext = [pin.Force.Zero() for _ in range(pm.njoints)]
        fext[-1] = pin.Force(-f, -m)                              # environment on the robot
        out.append(pin.rnea(pm, data, pinocchio_configuration(pm, q[k]), qd[k], qdd[k], fext))
    return np.array(out)


def bundled_models():
    """Bundled model names whose file already exists in the source tree."""
    return [name for name, path in sorted(rd.BUNDLED_MODELS.items())
            if (ROOT / path).exists()]


def load_bundled(name):
    """Load a bundled model from the source tree (model warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(ROOT / rd.BUNDLED_MODELS[name]))


# ---------------------------------------------------------------------- registry
def test_newton_euler_variants_are_registered():
    assert set(NEWTON_EULER) | {'rnea'} <= set(SOLVERS)
    for name in NEWTON_EULER:
        solver = rd.solvers.get(name)
        assert solver.name == name and solver.description and 'seed' in solver.reference


def test_puma560_is_bundled_and_exercised():
    assert 'puma560' in bundled_models() and 'puma560_dh' in bundled_models()


# ---------------------------------------------------------------------- random robots
@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
def test_every_solver_matches_reference_and_pinocchio(n):
    model, q, qd, qdd, f_tip, gravity = random_case(n)
    reference = rnea(model, q, qd, qdd, gravity, f_tip)
    oracle = pinocchio_torques(model, q, qd, qdd, gravity, f_tip)
    assert np.abs(reference - oracle).max() <= TOL * scale(oracle)
    for name in SOLVERS:
        tau = rd.solvers.get(name)(model, q, qd, qdd, gravity, f_tip)
        assert tau.shape == (3, n)
        error = np.abs(tau - oracle).max() / scale(oracle)
        assert error <= TOL, f'{name}: relative error {error:.2e} against Pinocchio'


@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
def test_strobed_mass_matrix_equals_crba(n):
    model, q, _, _, _, _ = random_case(n)
    model = model.replace(rotor_inertia=np.full(n, 1e-4), gear_ratio=np.full(n, 20.0))
    M = rd.mass_matrix(model, q)
    for name in SOLVERS:
        error = np.abs(rd.mass_matrix(model, q, solver=name) - M).max() / scale(M)
        assert error <= TOL, f'{name}: strobed M differs from CRBA by {error:.2e}'


@pytest.mark.parametrize('n', [1, 2, 5, 8, 12], ids=lambda n: f'n{n}')
def test_forward_dynamics_inverts_inverse_dynamics(n):
    model, q, qd, qdd, f_tip, _ = random_case(n)
    model = model.replace(viscous_friction=np.full(n, 0.3), coulomb_friction=np.full(n, 0.1),
                          rotor_inertia=np.full(n, 1e-4), gear_ratio=np.full(n, 30.0))
    for name in SOLVERS:
        tau = rd.inverse_dynamics(model, q, qd, qdd, f_tip, solver=name)
        back = rd.forward_dynamics(model, q, qd, tau, f_tip, solver=name)
        assert np.abs(back - qdd).max() <= FD_TOL * scale(qdd), name


def test_single_state_and_zero_wrench_paths():
    model, q, qd, qdd, _, gravity = random_case(4, N=1)
    reference = rnea(model, q, qd, qdd, gravity)
    for name in NEWTON_EULER:
        tau = rd.solvers.get(name)(model, q, qd, qdd, gravity, None)
        assert np.abs(tau - reference).max() <= TOL * scale(reference), name


# ---------------------------------------------------------------------- bundled models
@pytest.mark.parametrize('name', bundled_models())
def test_bundled_models_every_solver_matches_pinocchio(name):
    model = load_bundled(name)
    rng = np.random.default_rng(11)
    q, qd, qdd = random_state(rng, model.dof, 3)
    f_tip = rng.uniform(-20, 20, (3, 6))
    oracle = pinocchio_torques(model, q, qd, qdd, model.gravity, f_tip)
    M = rd.mass_matrix(model, q)
    for solver in SOLVERS:
        tau = rd.solvers.get(solver)(model, q, qd, qdd, model.gravity, f_tip)
        error = np.abs(tau - oracle).max() / scale(oracle)
        assert error <= TOL, f'{name}/{solver}: relative error {error:.2e}'
        M_error = np.abs(rd.mass_matrix(model, q, solver=solver) - M).max() / scale(M)
        assert M_error <= TOL, f'{name}/{solver}: strobed M error {M_error:.2e}'


# ---------------------------------------------------------------------- frames
def test_standard_dh_model_gives_back_its_dh_frames():
    """Distal frames of the PUMA 560 DH file: X = Rx(α_i), r_i = (a, d sin α, d cos α)."""
    model = load_bundled('puma560_dh')
    links = yaml.safe_load((ROOT / rd.BUNDLED_MODELS['puma560_dh']).read_text())['links']
    frames = distal_frames(model)
    for i, link in enumerate(links):
        a, d = float(link['a']), float(link['d'])
        alpha = _angle(link['alpha'])
        c, s = round(math.cos(alpha), 14) + 0.0, round(math.sin(alpha), 14) + 0.0
        np.testing.assert_allclose(frames.X_rotation[i], [[1, 0, 0], [0, c, -s], [0, s, c]],
                                   atol=1e-15)
        np.testing.assert_allclose(frames.r[i], [a, d * s, d * c], atol=1e-15)
        np.testing.assert_allclose(frames.z[i], [0, s, c], atol=1e-15)
        assert np.all((frames.X_rotation[i] == 0) == (np.abs([[1, 0, 0], [0, c, -s],
                                                              [0, s, c]]) == 0))


def test_modified_dh_model_gives_back_its_dh_frames():
    """Proximal frames of Renaud's 6R: P_i = Rx(α_{i-1}), p_i = (a, -d sin α, d cos α)."""
    model = load_bundled('renaud_6r')
    links = yaml.safe_load((ROOT / rd.BUNDLED_MODELS['renaud_6r']).read_text())['links']
    frames = proximal_frames(model)
    for i, link in enumerate(links):
        alpha = _angle(link['alpha'])
        c, s = round(math.cos(alpha), 14) + 0.0, round(math.sin(alpha), 14) + 0.0
        assert np.array_equal(frames.P[i], [[1, 0, 0], [0, c, -s], [0, s, c]])
        np.testing.assert_allclose(frames.p[i], [link['a'], -link['d'] * s, link['d'] * c],
                                   atol=1e-15)


def test_renaud_augmented_bodies_follow_the_papers_table():
    """Seed 001 example: only x*2 = x2 + m*3 a2, y*3 = y3 - m*4 r4 and the k* of 2, 3 change."""
    model = load_bundled('renaud_6r')
    aug, m, com = augmented_bodies(model), model.mass, model.com
    m_star = np.cumsum(m[::-1])[::-1]
    np.testing.assert_allclose(aug.m_star, m_star, rtol=1e-15)
    a2, r4 = 0.43, 0.43
    expected_u = m[:, None] * com
    expected_u[1, 0] += m_star[2] * a2                               # x*2
    expected_u[2, 1] -= m_star[3] * r4                               # y*3
    np.testing.assert_allclose(aug.u_star, expected_u, atol=1e-14)
    assert np.array_equal(aug.u_star != 0, [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1],
                                            [0, 1, 0], [0, 0, 1]])
    k = [model.inertia[i] + m[i] * (com[i] @ com[i] * np.eye(3) - np.outer(com[i], com[i]))
         for i in range(6)]                                           # Huygens at O_i
    np.testing.assert_allclose(aug.k_star[1] - k[1], m_star[2] * np.diag([0, a2**2, a2**2]),
                               atol=1e-14)                            # b*2, c*2
    np.testing.assert_allclose(aug.k_star[2] - k[2], m_star[3] * np.diag([r4**2, 0, r4**2]),
                               atol=1e-14)                            # a*3, c*3
    for i in (0, 3, 4, 5):
        np.testing.assert_allclose(aug.k_star[i], k[i], atol=1e-14)
    assert all(np.count_nonzero(kk - np.diag(np.diag(kk))) == 0 for kk in aug.k_star)


def _angle(value):
    """Read a DH angle from the YAML (a number or an expression in ``pi``)."""
    return float(eval(str(value), {'pi': math.pi}))  # noqa: S307 - trusted test data


# ---------------------------------------------------------------------- object arrays
class Tally:
    """A scalar that counts its multiplications and additions (a stand-in counting type)."""

    multiplications = 0
    additions = 0

    def __init__(self, value):
        self.value = float(value)

    @staticmethod
    def _plain(x):
        return x.value if isinstance(x, Tally) else float(x)

    def __mul__(self, other):
        Tally.multiplications += 1
        return Tally(self.value * Tally._plain(other))

    __rmul__ = __mul__

    def __add__(self, other):
        Tally.additions += 1
        return Tally(self.value + Tally._plain(other))

    __radd__ = __add__

    def __sub__(self, other):
        Tally.additions += 1
        return Tally(self.value - Tally._plain(other))

    def __rsub__(self, other):
        Tally.additions += 1
        return Tally(Tally._plain(other) - self.value)

    def __neg__(self):
        return Tally(-self.value)

    def sin(self):
        return Tally(math.sin(self.value))

    def cos(self):
        return Tally(math.cos(self.value))


@pytest.mark.parametrize('name', NEWTON_EULER)
def test_newton_euler_variants_run_on_object_arrays(name):
    model, q, qd, qdd, f_tip, gravity = random_case(5, N=2)
    wrap = np.vectorize(Tally, otypes=[object])
    Tally.multiplications = Tally.additions = 0
    tau = rd.solvers.get(name)(model, wrap(q), wrap(qd), wrap(qdd), gravity, f_tip)
    values = np.vectorize(Tally._plain, otypes=[float])(tau)
    reference = rnea(model, q, qd, qdd, gravity, f_tip)
    assert np.abs(values - reference).max() <= TOL * scale(reference)
    assert Tally.multiplications > 0 and Tally.additions > 0
