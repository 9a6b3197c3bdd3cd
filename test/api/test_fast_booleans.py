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
