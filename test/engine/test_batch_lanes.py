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
"""Batches of gravity, mass matrix and forward dynamics in lanes (batch_pair.c, batch_quad.c).

A batch runs its rows 4 (AVX2) or 2 at a time through kernels written once with the single
call's (rnea_body.h, crba_body.h, forward_body.h): every row equals the single call bit for
bit, at every batch length (whole lane groups, a remainder, threads), with and without a tool
wrench, on both forward-dynamics paths (CRBA + Cholesky below 9 joints, ABA from 9); and
every row agrees with Pinocchio.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import engine
from robot_dynamics.spatial.vectors import rpy_matrix
from robots import pinocchio_configuration, random_state
from test_engine import close, pinocchio_of, pinocchio_tip_force, random_case, without_avx2

SIZES = [1, 2, 3, 6, 7, 8, 9, 12]
ROWS = [1, 2, 3, 4, 5, 7, 9, engine.ENGINE.PARALLEL_FROM // 6 + 5]


def singles(function, model, *batch, f_tip=None):
    """Call ``function`` row by row (a single-row ``f_tip`` goes to every row)."""
    rows = []
    for k, state in enumerate(zip(*batch)):
        wrench = {} if f_tip is None else {'f_tip': np.atleast_2d(f_tip)[
            min(k, len(np.atleast_2d(f_tip)) - 1)]}
        rows.append(function(model, *state, **wrench))
    return np.array(rows)


@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
@pytest.mark.parametrize('rows', ROWS, ids=lambda r: f'N{r}')
def test_batch_rows_equal_single_calls_bit_for_bit(n, rows):
    model, _, _, _, _, rng = random_case(n, seed=rows)
    Q, QD, TAU = random_state(rng, n, rows)
    TAU = TAU * 20.0
    assert np.array_equal(rd.gravity_torques(model, Q), singles(rd.gravity_torques, model, Q))
    assert np.array_equal(rd.mass_matrix(model, Q), singles(rd.mass_matrix, model, Q))
    wrenches = rng.uniform(-20, 20, (rows, 6))
    for f_tip in (None, wrenches, wrenches[0]):
        batch = rd.forward_dynamics(model, Q, QD, TAU, f_tip=f_tip)
        assert np.array_equal(batch, singles(rd.forward_dynamics, model, Q, QD, TAU,
                                             f_tip=f_tip))


@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
def test_batch_rows_agree_with_pinocchio(n):
    model, _, _, _, f_tip, rng = random_case(n, seed=50)
    pm, data = pinocchio_of(model)
    Q, QD, TAU = random_state(rng, n, 9)
    TAU = TAU * 20.0
    G, M = rd.gravity_torques(model, Q), rd.mass_matrix(model, Q)
    QDD = rd.forward_dynamics(model, Q, QD, TAU, f_tip=f_tip)
    fext = pinocchio_tip_force(model, pm, f_tip)
    for k in range(len(Q)):
        config = pinocchio_configuration(pm, Q[k])
        assert close(G[k], pin.computeGeneralizedGravity(pm, data, config))
        upper = pin.crba(pm, data, config)
        assert close(M[k], np.triu(upper) + np.triu(upper, 1).T)
        friction = rd.friction_torques(model, QD[k])
        assert close(QDD[k], pin.aba(pm, data, config, QD[k], TAU[k] - friction, fext), 1e-9)


@pytest.mark.parametrize('name', ['ur5', 'panda'])
def test_bundled_arm_batches_agree_with_pinocchio(name):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model(name)
    pm, data = pinocchio_of(model)
    Q, QD, QDD = random_state(np.random.default_rng(2), model.dof, 11)
    tau, M = rd.inverse_dynamics(model, Q, QD, QDD), rd.mass_matrix(model, Q)
    assert close(rd.forward_dynamics(model, Q, QD, tau), QDD, 1e-9)
    for k in range(len(Q)):
        config = pinocchio_configuration(pm, Q[k])
        upper = pin.crba(pm, data, config)
        assert close(M[k], np.triu(upper) + np.triu(upper, 1).T)
        assert close(tau[k] - rd.friction_torques(model, QD[k]),
                     pin.rnea(pm, data, config, QD[k], QDD[k]))


def test_mass_matrix_of_frame_axes_agrees_with_pinocchio_single_and_batch():
    # joints along e_x, e_y, e_z (crba_body.h reads a column of the pose), a general axis and
    # a prismatic joint along e_z: every row against Pinocchio, the batch bit for bit
    model, _, _, _, _, rng = random_case(7, seed=11)
    model = model.replace(
        joint_types=('revolute', 'revolute', 'revolute', 'prismatic', 'revolute', 'revolute',
                     'revolute'),
        axis=[[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1], [0.6, 0, 0.8], [0, 0, 1], [1, 0, 0]])
    pm, data = pinocchio_of(model)
    Q, _, _ = random_state(rng, model.dof, 9)
    M = rd.mass_matrix(model, Q)
    assert np.array_equal(M, singles(rd.mass_matrix, model, Q))
    for k in range(len(Q)):
        upper = pin.crba(pm, data, pinocchio_configuration(pm, Q[k]))
        assert close(M[k], np.triu(upper) + np.triu(upper, 1).T)


def test_mass_matrix_of_degenerate_and_repeated_inertias_agrees_with_pinocchio():
    # the engine splits each Ic into Ia 1 + u0 u0^T + u1 u1^T (eigenpairs, model.c): point
    # masses, spheres, two equal moments, a flat body and a rotated general one
    model, q, _, _, _, rng = random_case(6, seed=12)
    spin = rpy_matrix([0.3, -1.1, 2.0])
    general = spin @ np.diag([0.02, 0.05, 0.06]) @ spin.T
    inertias = [np.zeros((3, 3)), 0.04 * np.eye(3), np.diag([0.03, 0.03, 0.05]),
                np.diag([0.0, 0.0, 0.35]), general, np.diag([0.07, 0.01, 0.07])]
    model = model.replace(inertia=inertias)
    pm, data = pinocchio_of(model)
    Q, _, _ = random_state(rng, model.dof, 5)
    M = rd.mass_matrix(model, Q)
    for k in range(len(Q)):
        upper = pin.crba(pm, data, pinocchio_configuration(pm, Q[k]))
        assert close(M[k], np.triu(upper) + np.triu(upper, 1).T)


@pytest.mark.parametrize('rows', [2, 4, 5])
def test_a_batch_with_a_singular_mass_matrix_is_refused(rows):
    model, _, _, _, _, rng = random_case(6, seed=3)
    massless = model.replace(mass=np.zeros(6), inertia=np.zeros((6, 3, 3)),
                             rotor_inertia=np.zeros(6))
    Q, QD, TAU = random_state(rng, 6, rows)
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.forward_dynamics(massless, Q, QD, TAU)


PAIRS_SCRIPT = r'''
import sys
import numpy as np
import robot_dynamics as rd
from robot_dynamics.engine import ENGINE
sys.path.insert(0, 'test')
from robots import random_model, random_state
rng = np.random.default_rng(6)
equal = []
for n in (6, 7, 10):
    model = random_model(rng, n, prismatic_fraction=0.3, friction=True, rotor=True)
    Q, QD, TAU = random_state(rng, n, 7)
    for function, args in ((rd.gravity_torques, (Q,)), (rd.mass_matrix, (Q,)),
                           (rd.forward_dynamics, (Q, QD, 30 * TAU))):
        single = [function(model, *row) for row in zip(*args)]
        equal.append(np.array_equal(function(model, *args), single))
print(ENGINE.BATCH_LANES, int(all(equal)))
'''


def test_the_two_lane_batches_equal_single_calls_where_avx2_is_missing():
    lanes, equal, errors = without_avx2(PAIRS_SCRIPT)
    assert lanes == '2' and equal == '1', errors
