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
"""``rd.linearize``: the discrete (A, B) of one step against central differences of that step.

The step is the public ``rd.step`` (the engine's integrators); the linearisation goes through
the analytic forward-dynamics derivatives. Central differences with h = 1e-5 carry an error of
about h² |Φ'''| + ε/h ≈ 1e-10 relative here; the tolerance is 1e-8.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.linearize import LINEARIZATIONS
from robot_dynamics.simulation.schemes import INTEGRATORS
from robots import random_model, random_state

STEP = 1e-5


def central_differences(model, q, qd, tau, dt, integrator, f_tip):
    """Return ``(A, B)`` of one ``rd.step`` by central differences in ``[q; qd]`` and ``tau``."""
    n = q.size
    x = np.concatenate((q, qd))

    def step(x_, tau_):
        q_next, qd_next, _ = rd.step(model, x_[:n], x_[n:], tau_, dt, integrator, f_tip=f_tip)
        return np.concatenate((q_next, qd_next))
    eye = np.eye(3 * n) * STEP
    columns = [(step(x + e[:2 * n], tau + e[2 * n:]) - step(x - e[:2 * n], tau - e[2 * n:]))
               / (2 * STEP) for e in eye]
    J = np.array(columns).T
    return J[:, :2 * n], J[:, 2 * n:]


@pytest.fixture(scope='module')
def model():
    rng = np.random.default_rng(21)
    arm = random_model(rng, 6, prismatic_fraction=0.3, friction=True, rotor=True)
    return arm.replace(friction_smoothing=np.full(6, 0.1), coulomb_friction=np.full(6, 0.5))


@pytest.mark.parametrize('integrator', sorted(LINEARIZATIONS))
@pytest.mark.parametrize('dt', [1e-3, 2e-2])
def test_linearize_equals_central_differences_of_one_step(model, integrator, dt):
    rng = np.random.default_rng(3)
    q, qd, tau = random_state(rng, 6)
    f_tip = rng.uniform(-5, 5, 6)
    A, B = rd.linearize(model, q, qd, tau, dt, integrator=integrator, f_tip=f_tip)
    A_fd, B_fd = central_differences(model, q, qd, tau, dt, integrator, f_tip)
    assert A.shape == (12, 12) and B.shape == (12, 6)
    assert np.linalg.norm(A - A_fd) <= 1e-8 * np.linalg.norm(A_fd)
    assert np.linalg.norm(B - B_fd) <= 1e-8 * np.linalg.norm(B_fd)


def test_every_integrator_has_a_linearisation():
    """A new scheme in simulation/schemes.py needs its function in linearize.LINEARIZATIONS."""
    assert set(LINEARIZATIONS) == set(INTEGRATORS)


def test_batch_rows_equal_single_linearisations(model):
    Q, QD, TAU = random_state(np.random.default_rng(4), 6, 5)
    A, B = rd.linearize(model, Q, QD, TAU, 1e-3)
    assert A.shape == (5, 12, 12) and B.shape == (5, 12, 6)
    for k in range(5):
        A_k, B_k = rd.linearize(model, Q[k], QD[k], TAU[k], 1e-3)
        assert np.allclose(A[k], A_k, rtol=0, atol=1e-14) and np.allclose(B[k], B_k, atol=1e-15)


def test_euler_closed_form_on_one_free_joint():
    """One prismatic joint, no gravity: q̈ = τ/m, A = [[1, dt], [0, 1]], B = [dt²/2m; dt/m]."""
    body = random_model(np.random.default_rng(1), 1, prismatic_fraction=1.0)
    body = body.with_gravity([0, 0, 0])
    A, B = rd.linearize(body, [0.2], [0.3], [1.0], 0.01, integrator='euler')
    m = rd.mass_matrix(body, [0.2])[0, 0]
    assert np.allclose(A, [[1, 0.01], [0, 1]], rtol=0, atol=1e-15)
    assert np.allclose(B, [[0.5e-4 / m], [0.01 / m]], rtol=1e-14, atol=0)


@pytest.mark.parametrize('given, message', [
    (dict(dt=0.0), 'dt: must be a positive number'),
    (dict(dt=True), 'dt: expected a number of seconds, got True'),   # was A, B of a 1 s step
    (dict(integrator='leapfrog'), "integrator: unknown 'leapfrog'"),
    (dict(tau=np.zeros(5)), r'tau: expected shape \(6,\)'),
])
def test_bad_settings_are_named(model, given, message):
    arguments = dict(q=np.zeros(6), qd=np.zeros(6), tau=np.zeros(6), dt=1e-3)
    arguments.update(given)
    with pytest.raises(ValueError, match=message):
        rd.linearize(model, **arguments)
