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
"""Huge batches are refused up front (F1); linearize's peak memory follows its output.

Before the fix a zero-stride N = 1e8 batch ran the derivatives 73 s into a MemoryError, and
rd.linearize at that N took the machine's 23 GB and was killed. Memory is measured with
tracemalloc (numpy reports its buffers to it), never wall-clock time.
"""


import re

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.model.arguments import MAX_RESULT_BYTES
from robot_dynamics.simulation import linearize as linearize_module

from cost import peak_bytes


@pytest.fixture(scope='module')
def panda():
    return rd.load_model('panda')


def huge(n, rows=10 ** 8):
    return np.broadcast_to(np.zeros(n), (rows, n))          # zero stride: 0 bytes


@pytest.mark.parametrize('function', [rd.inverse_dynamics_derivatives,
                                      rd.forward_dynamics_derivatives])
def test_derivatives_refuse_a_batch_beyond_the_cap_before_any_work(panda, function):
    B = huge(panda.dof)                                 # a copy of one would be 5.6 GB
    largest = MAX_RESULT_BYTES // (3 * 8 * 49)

    def refused():
        with pytest.raises(ValueError, match=rf'1e\+08 rows give 110 GiB .* chunks of at most '
                                             rf'{largest} rows'):
            function(panda, B, B, B)
    assert peak_bytes(refused) < 1e6


@pytest.mark.skipif(rd.engine.ENGINE is None, reason='the compiled engine is not built')
def test_the_engine_refuses_any_batch_beyond_the_cap_before_any_copy(panda):
    B = huge(panda.dof, rows=3 * 10 ** 7)
    peak = []
    for call, what in ((lambda: rd.mass_matrix(panda, B), 'results (q)'),
                       (lambda: rd.inverse_dynamics_derivatives(panda, B, B, B[:1]),
                        'derivatives (q, qd, qdd, f_tip)')):
        def refused(call=call, what=what):
            with pytest.raises(ValueError, match=rf'a batch of {re.escape(what)}: 3e\+07 rows'):
                call()
        peak.append(peak_bytes(refused))
    assert max(peak) < 1e6, peak


def test_linearize_refuses_a_batch_beyond_the_cap(panda):
    B = huge(panda.dof)
    with pytest.raises(ValueError, match=r'linearisations .*1e\+08 rows give 219 GiB'):
        rd.linearize(panda, B, B, B, 0.01, integrator='implicit_coriolis')


def test_a_batch_just_under_the_cap_is_not_refused_by_the_check():
    from robot_dynamics.model.arguments import check_result_size
    check_result_size(MAX_RESULT_BYTES // 8, 8, 'x')
    with pytest.raises(ValueError, match='x: '):
        check_result_size(MAX_RESULT_BYTES // 8 + 1, 8, 'x')


def test_linearize_peak_memory_grows_with_its_output_alone(panda, monkeypatch):
    # Unchunked, the peak was ~5x the output (measured 1.1 GB at N = 1e5); chunked, going
    # from N to 4N adds the output's growth and nothing else.
    monkeypatch.setattr(linearize_module, 'CHUNK', 128)
    n = panda.dof
    q = np.random.default_rng(0).uniform(-1, 1, (4096, n))
    peaks = [peak_bytes(lambda: rd.linearize(panda, q[:N], q[:N], q[:N], 0.01,
                                             integrator='implicit_coriolis'))
             for N in (1024, 4096)]
    output_growth = 8 * 3072 * 6 * n * n
    assert peaks[1] - peaks[0] < 1.1 * output_growth
    A, _ = rd.linearize(panda, q, q, q, 0.01, integrator='implicit_coriolis')
    single = rd.linearize(panda, q[1500], q[1500], q[1500], 0.01,
                          integrator='implicit_coriolis')[0]
    np.testing.assert_array_equal(A[1500], single)
