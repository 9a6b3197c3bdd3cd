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
"""A Coriolis-implicit step matrix W = M + dt (D + 2C) singular to working precision (F10).

The state is constructed: for a velocity direction v, ``M + dt D + 2 s C(q, v)`` is singular
where ``-1/s`` is a real eigenvalue of ``(M + dt D)⁻¹ 2C(q, v)`` (C is linear in the speed), so
``qd = s v / dt`` makes W singular. Before the fix the engine returned 1e14-1e16 rad/s and
linearize |A| 1e30, silently, and engine and numpy twin disagreed ~3x.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.integrators import _advance, MAX_STEP_CONDITION

DT = 1.0


@pytest.fixture(scope='module')
def panda():
    return rd.load_model('panda')


def singular_state(model, seed=2, relative=0.0):
    """Return ``(q, qd)`` where W is singular; ``relative`` moves the speed off it by that."""
    rng = np.random.default_rng(seed)
    while True:
        q = rng.uniform(-1.5, 1.5, model.dof)
        v = rng.normal(size=model.dof)
        v /= np.abs(v).max()
        M = rd.mass_matrix(model, q)
        slopes = np.maximum(rd.inverse_dynamics_derivatives(model, q, v, 0 * v)[1]
                            - 2 * rd.coriolis_matrix(model, q, v), 0).diagonal()
        lam = np.linalg.eigvals(np.linalg.solve(M + DT * np.diag(slopes),
                                                2 * rd.coriolis_matrix(model, q, v)))
        negative = lam[(np.abs(lam.imag) < 1e-12) & (lam.real < 0)].real
        if negative.size:
            s = -1.0 / negative.min()
            return q, s * (1 + relative) * v / DT


def step_matrix(model, q, qd):
    """W = M + dt (D + 2C), built from the public API (independent of the step's code)."""
    D = np.maximum(rd.inverse_dynamics_derivatives(model, q, qd, 0 * q)[1]
                   - 2 * rd.coriolis_matrix(model, q, qd), 0).diagonal()
    return rd.mass_matrix(model, q) + DT * (np.diag(D) + 2 * rd.coriolis_matrix(model, q, qd))


def test_the_constructed_state_makes_w_singular(panda):
    q, qd = singular_state(panda)
    assert np.linalg.cond(step_matrix(panda, q, qd), 1) > 1e14
    assert np.abs(qd).max() < rd.model.bounds.MAX_VELOCITY


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_step_refuses_a_singular_w_naming_it_and_the_fix(panda, solver):
    q, qd = singular_state(panda)
    with pytest.raises(rd.SimulationError, match=r"W = M \+ dt \(D \+ 2C\) is singular at dt = 1 "
                       r"s \(condition number .*integrator='implicit'"):
        rd.step(panda, q, qd, 0 * q, DT, integrator='implicit_coriolis', solver=solver)


def test_simulate_and_linearize_refuse_it_too(panda):
    q, qd = singular_state(panda)
    with pytest.raises(rd.SimulationError, match=r'W = M \+ dt \(D \+ 2C\) is singular'):
        rd.simulate(panda, q, qd, 0 * q, 2.0, dt=DT, integrator='implicit_coriolis')
    with pytest.raises(rd.SimulationError, match=r'W = M \+ dt \(D \+ 2C\) is singular'):
        rd.linearize(panda, q, qd, 0 * q, DT, integrator='implicit_coriolis')
    Q, QD = np.stack([q, q]), np.stack([0 * q, qd])
    with pytest.raises(rd.SimulationError, match=r'batch row 1'):
        rd.linearize(panda, Q, QD, 0 * Q, DT, integrator='implicit_coriolis')


@pytest.mark.parametrize('relative, refused', [(1e-2, False), (1e-4, False), (1e-9, True),
                                               (1e-14, True)])
def test_engine_and_twin_draw_the_line_at_the_same_condition(panda, relative, refused):
    # cond(W) ~ 3e3 / relative (measured 2.9e5, 2.8e7, 2.8e12, 9e16): below and above
    # MAX_STEP_CONDITION = 1e10.
    q, qd = singular_state(panda, relative=relative)
    condition = np.linalg.cond(step_matrix(panda, q, qd), 1)
    assert (condition > MAX_STEP_CONDITION) == refused
    results = []
    for solver in (None, 'rnea'):      # the step before rd.step's speed check (F4)
        try:
            results.append(_advance(panda, q, qd, 0 * q, DT, integrator='implicit_coriolis',
                                    solver=solver))
        except rd.SimulationError:
            results.append(None)
    assert [r is None for r in results] == [refused, refused]
    if not refused:
        # 3.5 rad/s in, 5e3 and 5e5 rad/s out: rd.step refuses that speed as divergence
        assert np.abs(results[0][1]).max() > rd.model.bounds.MAX_VELOCITY
        for solver in (None, 'rnea'):
            with pytest.raises(rd.SimulationError, match='the step diverged'):
                rd.step(panda, q, qd, 0 * q, DT, integrator='implicit_coriolis', solver=solver)
        # accepted by the W check: engine and twin agree to the conditioning's round-off
        scale = np.abs(results[1][1]).max()
        np.testing.assert_allclose(results[0][1], results[1][1], rtol=0,
                                   atol=10 * np.finfo(float).eps * condition * scale)
