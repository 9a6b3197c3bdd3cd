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
"""The hard stops inside the engine (``engine/src/stops.c``) against ``simulation/stops.py``.

``stops.py`` is the reference: the same model (impulses that land the passing joints on their
stops within the step, an active-set complementarity solve, then the landed joints halted),
in numpy. The engine's step with the limits must give what the reference gives applied to the
engine's free step, on states built to exercise coupled impacts and active-set changes.
"""


import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation import stops
from robots import random_model, stiff_wrist_arm


@pytest.fixture(scope='module')
def arm():
    return stiff_wrist_arm()


def limited_random_model(seed, n=6):
    rng = np.random.default_rng(seed)
    model = random_model(rng, n, prismatic_fraction=0.3, friction=True, rotor=True)
    half = rng.uniform(0.05, 0.5, n)
    centre = rng.uniform(-0.5, 0.5, n)
    lower, upper = centre - half, centre + half
    lower[0], upper[0] = -np.inf, np.inf                      # one joint without limits
    return model.replace(lower_limit=lower, upper_limit=upper)


def reference_step(model, q, qd, tau, dt, integrator):
    """Step freely in the engine, then apply the stops in numpy (stops.stop_step, a solver)."""
    q_next, qd_next, qdd = rd.step(model, q, qd, tau, dt, integrator)
    return (*stops.stop_step(model, q, q_next, qd_next, dt, solver='rnea'), qdd)


def states_at_the_stops(model, rng, count):
    """States within the limits, many joints at or near a stop, fast into and out of them."""
    lower, upper = model.lower_limit, model.upper_limit
    finite_lower = np.where(np.isfinite(lower), lower, -1.0)
    finite_upper = np.where(np.isfinite(upper), upper, 1.0)
    for _ in range(count):
        u = rng.uniform(0, 1, model.dof)
        q = finite_lower + u * (finite_upper - finite_lower)
        pick = rng.integers(0, 3, model.dof)                  # 0: free, 1: at lower, 2: upper
        q = np.where(pick == 1, finite_lower, np.where(pick == 2, finite_upper, q))
        q = np.clip(q, lower, upper)
        yield q, rng.uniform(-20, 20, model.dof), rng.uniform(-30, 30, model.dof)


@pytest.mark.parametrize('integrator', ['implicit', 'rk4', 'semi_implicit_euler'])
@pytest.mark.parametrize('seed', [0, 1, 2])
def test_engine_stops_equal_the_reference_step_by_step(integrator, seed):
    model = limited_random_model(seed)
    rng = np.random.default_rng(100 + seed)
    dt = 2e-2
    acted = coupled = 0
    for q, qd, tau in states_at_the_stops(model, rng, 40):
        engine = rd.step(model, q, qd, tau, dt, integrator, position_limits=True)
        reference = reference_step(model, q, qd, tau, dt, integrator)
        for a, b in zip(engine, reference):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * max(1.0, np.abs(b).max()))
        free = rd.step(model, q, qd, tau, dt, integrator)
        passed = (free[0] < model.lower_limit) | (free[0] > model.upper_limit)
        acted += bool(passed.any())
        # A joint that passed its stop in the free step but ends off it: the coupling moved it
        # back (its stop would have pulled) - the active set changed.
        on_stop = (engine[0] == model.lower_limit) | (engine[0] == model.upper_limit)
        coupled += bool(np.any(passed & ~on_stop))
    # Measured over the 40 states: the stops act in 37-40, a passing joint ends off its stop
    # in 8-14, the active set changes (more than one impulse solve) in 18-31.
    assert acted >= 30 and coupled >= 5


def test_a_whole_run_with_stops_equals_the_reference_run(arm):
    # The run in the engine (one call) against the per-step reference, the stiff arm falling
    # onto its stops (joint 2 comes to rest on its upper stop) for 1 s at 10 ms. Measured:
    # 2.2e-16 rad, 5.3e-15 rad/s at most; step by step 1.2e-14 relative.
    zero = np.zeros(7)
    run = rd.simulate(arm, zero, zero, zero, 1.0, 1e-2, integrator='implicit',
                      position_limits=True)
    q, qd = zero.copy(), zero.copy()
    for k in range(len(run.t) - 1):
        q, qd, _ = reference_step(arm, q, qd, zero, 1e-2, 'implicit')
        np.testing.assert_allclose(run.q[k + 1], q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(run.qd[k + 1], qd, rtol=0, atol=1e-12)
    assert np.sum(run.q[:, 1] == arm.upper_limit[1]) > 10


def test_limits_without_any_finite_value_change_nothing(arm):
    free = arm.replace(lower_limit=np.full(7, -np.inf), upper_limit=np.full(7, np.inf))
    q, qd, tau = np.full(7, 0.1), np.full(7, 3.0), np.full(7, 5.0)
    a = rd.step(free, q, qd, tau, 1e-2, 'implicit', position_limits=True)
    b = rd.step(free, q, qd, tau, 1e-2, 'implicit')
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_the_engine_refuses_nan_limits_and_wrong_shapes(arm):
    from robot_dynamics.engine import ENGINE
    zero = np.zeros(7)
    with pytest.raises(ValueError, match='NaN limit'):
        ENGINE.step(arm, zero, zero, zero, None, 1e-3, 3, np.full(7, np.nan), np.ones(7))
    with pytest.raises(ValueError, match=r'lower, upper: expected shape \(7,\)'):
        ENGINE.step(arm, zero, zero, zero, None, 1e-3, 3, np.zeros(6), np.ones(6))


@pytest.mark.parametrize('seed', [0, 1, 2])
def test_the_engine_stop_step_is_the_one_of_the_step_and_equals_the_reference(seed):
    """The node's stop_step is the engine's: rd.step(position_limits=True) bit for bit.

    stops.stop_step (what the simulation node applies to its free step) runs the engine's
    rd_stop_step, and equals the numpy reference to 1e-12. The node used to apply the numpy
    stop_step after the engine's step.
    """
    model = limited_random_model(seed)
    rng = np.random.default_rng(200 + seed)
    dt = 2e-2
    acted = 0
    for q, qd, tau in states_at_the_stops(model, rng, 40):
        q_free, qd_free, _ = rd.step(model, q, qd, tau, dt, 'implicit')
        engine = stops.stop_step(model, q, q_free, qd_free, dt)
        stepped = rd.step(model, q, qd, tau, dt, 'implicit', position_limits=True)
        for a, b in zip(engine, stepped[:2]):
            np.testing.assert_array_equal(a, b)
        reference = stops.stop_step(model, q, q_free, qd_free, dt, solver='rnea')
        for a, b in zip(engine, reference):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * max(1.0, np.abs(b).max()))
        acted += not np.array_equal(engine[1], qd_free)
    assert acted >= 30


def test_the_engine_stop_step_refuses_what_it_cannot_take(arm):
    from robot_dynamics.engine import ENGINE
    zero, limits = np.zeros(7), (arm.lower_limit, arm.upper_limit)
    with pytest.raises(ValueError, match='stop_step: q, q_next, qd_next: expected 7 finite'):
        ENGINE.stop_step(arm, zero, np.zeros((2, 7)), zero, 1e-3, *limits)
    with pytest.raises(ValueError, match='stop_step: q, q_next, qd_next: expected 7 finite'):
        ENGINE.stop_step(arm, zero, zero, np.full(7, np.nan), 1e-3, *limits)
    with pytest.raises(ValueError, match='dt: must be a positive'):
        ENGINE.stop_step(arm, zero, zero, zero, 0.0, *limits)
    with pytest.raises(ValueError, match='NaN limit'):
        ENGINE.stop_step(arm, zero, zero, zero, 1e-3, np.full(7, np.nan), arm.upper_limit)
