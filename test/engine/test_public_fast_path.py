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
"""rd.mass_matrix's plain call goes to the engine without a Python frame (binding_public.c).

Every other call (keywords, a solver, the engine switched off or replaced) runs the Python
function as before; the public object reads as that function (name, docstring, signature).
"""

import copy
import inspect
import pickle
import pydoc

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import api
from robot_dynamics.engine import ENGINE
from robots import random_model, random_state

pytestmark = pytest.mark.skipif(ENGINE is None, reason='needs the compiled engine')


def case():
    rng = np.random.default_rng(31)
    model = random_model(rng, 5, rotor=True)
    return model, random_state(rng, 5)[0]


def test_the_plain_call_is_the_engines_and_every_spelling_agrees():
    model, q = case()
    M = rd.mass_matrix(model, q)
    assert np.array_equal(M, ENGINE.mass_matrix(model, q))
    assert np.array_equal(rd.mass_matrix(model, q, None), M)
    assert np.array_equal(rd.mass_matrix(model, q=q), M)
    assert np.array_equal(rd.mass_matrix(model, q, solver=None), M)
    assert np.allclose(rd.mass_matrix(model, q, solver='rnea'), M, atol=1e-12)


def test_the_engine_switched_off_or_replaced_runs_the_python_function(monkeypatch):
    model, q = case()
    calls = []

    class Stub:
        def mass_matrix(self, *args):
            calls.append(args)
            return 'stub'

    monkeypatch.setattr(api, '_engine', Stub())
    assert rd.mass_matrix(model, q) == 'stub' and len(calls) == 1
    monkeypatch.setattr(api, '_engine', None)
    assert np.allclose(rd.mass_matrix(model, q), ENGINE.mass_matrix(model, q), atol=1e-12)
    assert len(calls) == 1                           # the numpy path, not the stub again


def test_errors_are_the_python_functions():
    model, q = case()
    with pytest.raises(ValueError, match=r'q: expected shape \(5,\) or \(N, 5\)'):
        rd.mass_matrix(model, q[:3])
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'q'"):
        rd.mass_matrix(model)


def test_it_reads_as_the_python_function():
    assert rd.mass_matrix.__name__ == 'mass_matrix'
    assert rd.mass_matrix.__module__ == 'robot_dynamics.api'
    assert str(inspect.signature(rd.mass_matrix)) == '(model, q, solver=None)'
    assert rd.mass_matrix.__doc__.startswith('Joint-space inertia matrix')
    assert 'Joint-space inertia matrix' in pydoc.render_doc(rd.mass_matrix)


def test_it_pickles_and_copies_as_a_function_does():
    assert pickle.loads(pickle.dumps(rd.mass_matrix)) is rd.mass_matrix
    assert copy.deepcopy(rd.mass_matrix) is rd.mass_matrix
