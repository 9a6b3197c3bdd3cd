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
"""A single call's result array is recycled only when nothing can reach it (binding_results.c).

The engine keeps the small results it hands out and writes a later result into one only when
no variable, container, view, memoryview or weak reference holds it and it is as numpy made
it. Each test keeps results in one of those ways, runs more calls, and checks the kept values
against the Python solvers (an independent path), or checks that a dropped result is reused.
"""

import gc
import weakref

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.engine import ENGINE
from robots import random_model, random_state

pytestmark = pytest.mark.skipif(ENGINE is None, reason='needs the compiled engine')

N_JOINTS = 6


def case(n=N_JOINTS, seed=5):
    rng = np.random.default_rng(seed)
    model = random_model(rng, n, rotor=True)
    return model, [random_state(rng, n)[0] for _ in range(4)]


def reference_mass_matrix(model, q):
    """M(q) by strobing the Python Newton-Euler solver: no engine involved."""
    return rd.mass_matrix(model, q, solver='rnea')


def churn(model, qs):
    """Call every shape of result once per state, dropping each result at once."""
    for q in qs:
        rd.mass_matrix(model, q)
        rd.gravity_torques(model, q)
        rd.inverse_dynamics(model, q, q, q)
        rd.kinetic_energy(model, q, q)


def test_held_results_keep_their_values_while_others_are_computed():
    model, qs = case()
    held = [rd.mass_matrix(model, q) for q in qs]
    gravity = [rd.gravity_torques(model, q) for q in qs]
    churn(model, qs[::-1] * 3)
    for q, M, G in zip(qs, held, gravity):
        np.testing.assert_allclose(M, reference_mass_matrix(model, q), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(G, rd.gravity_torques(model, q, solver='rnea'),
                                   rtol=1e-12, atol=1e-12)


def test_a_loop_that_keeps_its_previous_result_never_sees_it_change():
    model, qs = case()
    previous = rd.mass_matrix(model, qs[0])
    for k in range(1, 12):
        current = rd.mass_matrix(model, qs[k % 4])
        assert current is not previous
        np.testing.assert_allclose(previous, reference_mass_matrix(model, qs[(k - 1) % 4]),
                                   rtol=1e-12, atol=1e-12)
        previous = current


@pytest.mark.parametrize('keep', ['row view', 'transpose', 'memoryview', 'list', 'dict'])
def test_every_way_of_holding_a_result_keeps_it(keep):
    model, qs = case()
    holders = {'row view': lambda M: M[2], 'transpose': lambda M: M.T,
               'memoryview': memoryview, 'list': lambda M: [M], 'dict': lambda M: {'M': M}}
    holder = holders[keep](rd.mass_matrix(model, qs[0]))
    expected = reference_mass_matrix(model, qs[0])
    churn(model, qs[1:] * 3)
    values = {'row view': lambda: (holder, expected[2]), 'transpose': lambda: (holder, expected.T),
              'memoryview': lambda: (np.asarray(holder), expected),
              'list': lambda: (holder[0], expected), 'dict': lambda: (holder['M'], expected)}
    got, want = values[keep]()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('change', ['shape', 'read-only', 'dtype', 'dtype metadata'])
def test_a_result_its_user_changed_is_never_handed_out_again(change):
    model, qs = case()
    M = rd.mass_matrix(model, qs[0])
    if change == 'shape':
        M.shape = (N_JOINTS * N_JOINTS,)
    elif change == 'read-only':
        M.flags.writeable = False
    elif change == 'dtype':
        M.dtype = np.int64
    else:                                   # float64 still, but not numpy's own dtype object
        M.dtype = np.dtype(np.float64, metadata={'unit': 'kg m^2'})
    del M
    for q in qs:
        M = rd.mass_matrix(model, q)
        assert M.shape == (N_JOINTS, N_JOINTS) and M.dtype is np.dtype(np.float64)
        assert M.flags.writeable and M.flags.c_contiguous and M.flags.owndata
        np.testing.assert_allclose(M, reference_mass_matrix(model, q), rtol=1e-12, atol=1e-12)


def test_a_result_held_by_a_weak_reference_only_is_let_go_at_the_next_call():
    model, qs = case()
    M = rd.mass_matrix(model, qs[0])
    ref = weakref.ref(M)
    del M
    rd.mass_matrix(model, qs[1])
    assert ref() is None


def test_a_dropped_result_is_recycled():
    """Without recycling each dropped array is freed and the arrays made next take its memory."""
    model, qs = case()
    gc.collect()            # results held by garbage cycles are freed now, not in between
    gc.disable()
    try:
        handed_out = {id(rd.mass_matrix(model, q)) for q in qs * 5}      # each dropped at once
        others = [np.empty((N_JOINTS, N_JOINTS)) for _ in range(8)]
        M = rd.mass_matrix(model, qs[1])
    finally:
        gc.enable()
    assert id(M) in handed_out and all(id(other) not in handed_out for other in others)
    np.testing.assert_allclose(M, reference_mass_matrix(model, qs[1]), rtol=1e-12, atol=1e-12)


def test_large_results_are_not_kept():
    model, qs = case(n=40)
    M = rd.mass_matrix(model, qs[0])
    ref = weakref.ref(M)
    del M
    assert ref() is None
