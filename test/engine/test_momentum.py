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
"""The engine's one-pass momentum terms (engine/src/momentum.c) against Pinocchio.

``p = M q̇`` against ``crba``, ``Cᵀ q̇`` against ``computeCoriolisMatrix`` (Pinocchio's C has
``Ṁ - 2C`` skew-symmetric: ``Cᵀ q̇`` is the same for every such C), ``G`` against
``computeGeneralizedGravity``, on random chains of 1-12 joints with prismatic joints and
rotors, and on the bundled arms; and against the numpy twin (an independent derivation:
CRBA, complex-step ``Ṁ`` and Newton-Euler).
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts.observer import momentum_terms
from robot_dynamics.engine import ENGINE
from robots import pinocchio_configuration, quiet_bundled, random_model, random_state

pytestmark = pytest.mark.skipif(ENGINE is None, reason='the compiled engine is not built')

TOL = 1e-12


def pinocchio_terms(model, q, qd):
    """``M q̇``, ``Cᵀ q̇``, ``G`` by Pinocchio (rotors as armature)."""
    pin_model = pin.buildModelFromXML(model.to_urdf())
    pin_model.gravity.linear = np.array(model.gravity)
    pin_model.armature = np.array(model.reflected_inertia)
    data = pin_model.createData()
    out = []
    for q_, qd_ in zip(q, qd):
        config = pinocchio_configuration(pin_model, q_)
        M = pin.crba(pin_model, data, config)
        M = np.triu(M) + np.triu(M, 1).T
        C = pin.computeCoriolisMatrix(pin_model, data, config, qd_)
        G = pin.computeGeneralizedGravity(pin_model, data, config)
        out.append((M @ qd_, C.T @ qd_, G))
    return np.array(out)                                   # (N, 3, n)


@pytest.mark.parametrize('n', [1, 2, 3, 6, 7, 12])
def test_momentum_terms_equal_pinocchio_on_random_chains(n):
    rng = np.random.default_rng(3300 + n)
    model = rd.RobotModel.from_urdf(random_model(rng, n, prismatic_fraction=0.35,
                                                 rotor=True).to_urdf())
    q, qd, _ = random_state(rng, n, N=5)
    ours = ENGINE.momentum(model, q, qd)
    theirs = pinocchio_terms(model, q, qd)
    for k, what in enumerate(('M qd', 'C^T qd', 'G')):
        scale = max(1.0, np.abs(theirs[:, k]).max())
        assert np.abs(ours[:, k] - theirs[:, k]).max() <= TOL * scale, what


@pytest.mark.parametrize('name', ['panda', 'ur5', 'puma560', 'stanford'])
def test_momentum_terms_equal_pinocchio_and_numpy_on_bundled_arms(name):
    model = quiet_bundled(name)
    rng = np.random.default_rng(33)
    q, qd, _ = random_state(rng, model.dof, N=4)
    ours = ENGINE.momentum(model, q, qd)
    theirs = pinocchio_terms(model, q, qd)
    twin = np.stack(momentum_terms(model, q, qd), axis=1)
    scale = np.abs(theirs).max(axis=(0, 2))[None, :, None]
    assert np.all(np.abs(ours - theirs) <= TOL * np.maximum(scale, 1.0))
    assert np.all(np.abs(twin - ours) <= 1e-10 * np.maximum(scale, 1.0))


def test_one_state_and_batch_shapes_and_checks():
    model = quiet_bundled('ur5')
    q, qd = np.full(6, 0.4), np.linspace(-1, 1, 6)
    single = ENGINE.momentum(model, q, qd)
    assert single.shape == (3, 6)
    batch = ENGINE.momentum(model, np.tile(q, (3, 1)), qd)         # a row broadcast
    assert batch.shape == (3, 3, 6) and np.array_equal(batch[1], single)
    with pytest.raises(ValueError, match='qd: contains NaN or inf'):
        ENGINE.momentum(model, q, np.r_[np.nan, qd[1:]])
    with pytest.raises(ValueError, match=r'q: expected shape \(6,\)'):
        ENGINE.momentum(model, q[:5], qd)
