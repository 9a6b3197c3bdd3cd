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
"""TOPP-RA's passes and per-stage bound in the engine against the Python loops and an LP solver.

:mod:`robot_dynamics.analysis.reachability` steps through the backward and forward passes and
takes the Newton steps of ``largest_feasible`` in the engine (``min_affine``,
``largest_feasible`` of recurrence.c) when it is built; the Python loops stay the fallback.
Judged here: against those loops (independent code, the same arithmetic: the same bits), a
hand-stepped constant-acceleration profile, scipy's ``linprog`` (HiGHS) for the per-stage
linear program, and a whole timing with and without the engine.
"""

import warnings

import numpy as np
import pytest
from scipy.optimize import linprog

import robot_dynamics as rd
from robot_dynamics.analysis import reachability as ra
from robot_dynamics.analysis.path_dynamics import BIG
from robot_dynamics.engine import ENGINE

pytestmark = pytest.mark.skipif(getattr(ENGINE, 'min_affine', None) is None,
                                reason='the compiled engine is not built')


def random_lines(rng, N, W, negative_slopes):
    """Slopes, offsets (N, W) and caps (N,) of a random min-affine recurrence."""
    slope = rng.uniform(-0.5 if negative_slopes else 0.0, 1.5, (N, W))
    offset = rng.uniform(0.0, 5.0, (N, W))
    unused = rng.random((N, W)) < 0.2                       # neutral padding, as in Stages
    slope[unused], offset[unused] = 0.0, BIG
    return slope, offset, rng.uniform(0.5, 20.0, N)


@pytest.mark.parametrize('seed', range(5))
def test_the_engine_passes_equal_the_python_loops_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    N, W = 300, 7
    m, e, X = random_lines(rng, N, W, negative_slopes=False)
    k_python = ra.backward_pass(X, m, e, 0.0)
    k_engine = np.maximum(ENGINE.min_affine(m, e, X, 0.0, True), 0.0)
    assert np.array_equal(k_engine, k_python)
    A, F, _ = random_lines(rng, N, W, negative_slopes=True)
    x_python = ra.forward_pass(k_python, A, F, 0.0)
    x_engine = np.maximum(ENGINE.min_affine(A, F, k_python[1:], 0.0, False), 0.0)
    assert np.array_equal(x_engine, x_python)
    assert np.all(x_engine <= k_engine) and x_engine[-1] == 0.0 and x_engine[1:-1].max() > 0


def test_a_constant_acceleration_stretch_by_hand():
    # x_{i+1} = min(cap, x_i + 2 Δ u) from rest: 2 Δ u i until the cap, then the cap.
    N, step = 10, 0.75
    slope, offset = np.ones((N, 1)), np.full((N, 1), step)
    cap = np.full(N, 4.0)
    y = ENGINE.min_affine(slope, offset, cap, 0.0, False)
    assert y.tolist() == [0.0, 0.75, 1.5, 2.25, 3.0, 3.75] + [4.0] * 5
    back = ENGINE.min_affine(slope, offset, cap, 1.0, True)  # backwards from y_N = 1
    assert back.tolist()[::-1] == [1.0, 1.75, 2.5, 3.25] + [4.0] * 7


def stage_lp(alpha, beta, lo, hi, delta):
    """Largest x >= 0 with some u: lo <= α u + β x <= hi and x + 2Δu >= 0 (scipy HiGHS)."""
    rows, bounds = [], []
    for a, b, low, high in zip(alpha, beta, lo, hi):
        if high < BIG / 2:
            rows.append([b, a]), bounds.append(high)
        if low > -BIG / 2:
            rows.append([-b, -a]), bounds.append(-low)
    rows.append([-1.0, -2.0 * delta]), bounds.append(0.0)
    result = linprog([-1.0, 0.0], A_ub=rows, b_ub=bounds, bounds=[(0, None), (None, None)],
                     method='highs')
    assert result.status == 0
    return result.x[0]


@pytest.mark.parametrize('seed', range(3))
def test_the_engine_largest_feasible_equals_numpy_and_an_lp_solver(seed):
    rng = np.random.default_rng(10 + seed)
    k, W = 40, 6
    alpha = rng.uniform(0.1, 2.0, (k, W))
    alpha[:, -1] = 0.0                                        # a speed-like slab: β x <= hi
    beta = rng.uniform(-1.0, 1.0, (k, W))
    beta[:, -1] = 1.0
    hi = rng.uniform(0.5, 5.0, (k, W))                        # rest (u = x = 0) is feasible
    lo = -rng.uniform(0.5, 5.0, (k, W))
    lo[:, -1] = -BIG
    delta = rng.uniform(0.005, 0.02, k)
    engine = ENGINE.largest_feasible(alpha, beta, lo, hi, delta, BIG, 100)
    assert np.array_equal(engine, ra.largest_feasible(alpha, beta, lo, hi, delta))
    reference = [stage_lp(*row) for row in zip(alpha, beta, lo, hi, delta)]
    assert np.allclose(engine, reference, rtol=1e-7, atol=1e-9)


def test_a_timing_is_the_same_without_the_engine_loops(monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        model = rd.load_model('ur5').with_payload(5.0)
    path = np.array([[0.0, -1.2, 1.0, -1.4, -1.5, 0.0], [1.0, -0.8, 1.4, -1.0, -1.2, 0.6],
                     [1.6, -1.4, 0.8, -1.8, -1.6, 1.2]])
    fast = rd.time_optimal_retiming(model, path, velocity_limits=3 * model.velocity_limit)
    monkeypatch.setattr(ra, '_PASSES', None)
    monkeypatch.setattr(ra, '_LARGEST', ra.largest_feasible)
    slow = rd.time_optimal_retiming(model, path, velocity_limits=3 * model.velocity_limit)
    assert np.array_equal(fast.sd, slow.sd) and np.array_equal(fast.tau, slow.tau)
    assert fast.report.worst <= 1.0 + 1e-9 and fast.report.worst > 0.99


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match='slope, offset'):
        ENGINE.min_affine(np.ones((3, 2)), np.ones((3, 1)), np.ones(3), 0.0, False)
    with pytest.raises(ValueError, match='delta'):
        ENGINE.largest_feasible(*[np.ones((3, 2))] * 4, np.ones(2), BIG, 100)
    with pytest.raises(TypeError):
        ENGINE.min_affine(np.ones((3, 2)), np.ones((3, 2)), np.ones(3), 0.0)
