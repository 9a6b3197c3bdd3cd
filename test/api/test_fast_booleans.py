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
"""rd.fast refuses bool arrays naming the field, as the public functions do (check_array).

Before: ``fast.gravity([True, False])`` returned the gravity at q = [1, 0] rad, silently.
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.codegen import compiled

BACKENDS = [('python', 'generated'), ('python', 'reference'),
            pytest.param('c', 'generated', marks=pytest.mark.skipif(
                not compiled.compiler_available(), reason='no C compiler or Python headers'))]


@pytest.fixture(scope='module')
def model():
    """Return the two-link arm."""
    return rd.load_model('two_link')


@pytest.mark.parametrize('backend, method', BACKENDS)
def test_fast_functions_refuse_booleans_naming_the_field(model, backend, method):
    compiled_model = fast.compile(model, backend=backend, method=method)
    flags, zeros = np.array([True, False]), np.zeros(2)
    calls = {'q': lambda: compiled_model.gravity(flags),
             'q ': lambda: compiled_model.mass_matrix([[True, True]]),
             'qd': lambda: compiled_model.inverse_dynamics(zeros, flags, zeros),
             'tau': lambda: compiled_model.forward_dynamics(zeros, zeros, flags),
             'qdd': lambda: compiled_model.inverse_dynamics_batch(zeros, zeros, flags)}
    for field, call in calls.items():
        with pytest.raises(ValueError, match=rf'^{field.strip()}: .*booleans \(dtype bool\)'):
            call()
    # numbers still pass, and equal the public function's
    assert np.allclose(compiled_model.gravity(np.array([1.0, 0.0])),
                       rd.gravity_torques(model, [1.0, 0.0]), rtol=0, atol=1e-12)


def test_fast_step_refuses_boolean_torque(model):
    compiled_model = fast.compile(model, backend='python')
    with pytest.raises(ValueError, match=r'^tau: .*booleans'):
        fast.step(compiled_model, np.zeros(2), np.zeros(2), [True, True], 1e-3)
    with pytest.raises(ValueError, match=r'^q: .*booleans'):
        fast.step(compiled_model, [False, False], np.zeros(2), np.zeros(2), 1e-3)


def test_public_function_message_is_the_same(model):
    with pytest.raises(ValueError) as public:
        rd.gravity_torques(model, np.array([True, False]))
    with pytest.raises(ValueError) as compiled_one:
        fast.compile(model, backend='python').gravity(np.array([True, False]))
    assert str(public.value) == str(compiled_one.value)


@pytest.mark.skipif(not compiled.compiler_available(), reason='no C compiler or Python headers')
def test_compiled_functions_check_in_c_with_the_library_message(model):
    """The C backend's functions are the module's own and say what the Python check says.

    No Python wrapper runs per call; the message is the same word for word, for every form of
    booleans (arrays, lists, numpy scalars).
    """
    c_model = fast.compile(model, backend='c', method='generated')
    python_model = fast.compile(model, backend='python', method='generated')
    for name in ('inverse_dynamics', 'mass_matrix', 'gravity', 'forward_dynamics'):
        assert type(getattr(c_model, name)).__name__ == 'builtin_function_or_method'
    for flags in (np.array([True, False]), [True, False], [np.True_, np.False_],
                  np.array([[True, True], [False, True]]), np.True_):
        for call in (lambda m: m.gravity(flags),
                     lambda m: m.forward_dynamics(np.zeros(2), flags, np.zeros(2))):
            with pytest.raises(ValueError) as c_error:
                call(c_model)
            with pytest.raises(ValueError) as python_error:
                call(python_model)
            assert str(c_error.value) == str(python_error.value)
            assert f'joints {list(model.joint_names)}' in str(c_error.value)


@pytest.mark.skipif(not compiled.compiler_available(), reason='no C compiler or Python headers')
def test_compiled_functions_take_any_real_array_as_before(model):
    """Float64 arrays are read in place; other dtypes, views and lists are converted."""
    c_model = fast.compile(model, backend='c', method='generated')
    q = np.array([0.5, -1.25])                   # exact in float32 too
    expected = rd.gravity_torques(model, q)
    for value in (q, q.astype(np.float32), [0.5, -1.25], (0.5, -1.25),
                  np.array([[0.5, 9.0], [-1.25, 9.0]])[:, 0], q.astype('>f8')):
        assert np.allclose(c_model.gravity(value), expected, rtol=0, atol=1e-12)
    assert np.allclose(c_model.gravity(np.array([0, 1], dtype=np.int32)),
                       rd.gravity_torques(model, [0.0, 1.0]), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r'^gravity\(\): q must have shape \(2,\)'):
        c_model.gravity(np.zeros(3))
    with pytest.raises(ValueError, match=r'q contains NaN or inf'):
        c_model.gravity([np.nan, 0.0])
    with pytest.raises(TypeError, match=r'takes 1 arrays, got 2'):
        c_model.gravity(q, q)
    module_level = c_model.functions['gravity']        # the module's own, not bound to a model
    with pytest.raises(ValueError, match=r'^q: expected real numbers, got booleans'):
        module_level([True, False])
