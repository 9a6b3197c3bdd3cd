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
"""An overflowing result raises ResultOverflowError on both paths; feasibility catches only it.

Finite inputs can overflow (``|qd| >= 1e160`` squares past 1e308): the public functions raise
:class:`~robot_dynamics.ResultOverflowError` (a ``ValueError``) naming the largest input,
from the engine and from the numpy path alike, and ``analysis/feasibility.py`` recognises it by
its type (it used to match the message text).
"""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import api, engine
from robot_dynamics.analysis import feasibility
from robot_dynamics.engine import ENGINE
from robot_dynamics.errors import RESULT_NOT_FINITE

ZERO = np.zeros(2)
CALLS = {
    'inverse_dynamics': (lambda m, s: rd.inverse_dynamics(m, ZERO, [1e160, 0.0], ZERO, solver=s),
                         'qd', 1e160),
    'coriolis_torques': (lambda m, s: rd.coriolis_torques(m, ZERO, [0.0, 1e200], solver=s),
                         'qd', 1e200),
    'forward_dynamics': (lambda m, s: rd.forward_dynamics(m, ZERO, ZERO, [1e308, -1e308],
                                                          solver=s), 'tau', 1e308),
}


@pytest.fixture(scope='module')
def model():
    """Return the bundled two-link arm."""
    return rd.load_model('two_link')


@pytest.mark.parametrize('solver', [None, 'rnea'])
@pytest.mark.parametrize('name', sorted(CALLS))
def test_overflow_is_a_result_overflow_error_on_both_paths(model, solver, name):
    call, field, largest = CALLS[name]
    with pytest.raises(rd.ResultOverflowError) as raised:
        call(model, solver)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(RESULT_NOT_FINITE)
    assert f'largest |{field}| = {largest:.3g}' in str(raised.value)


@pytest.mark.skipif(ENGINE is None, reason='the compiled engine is not built')
def test_the_engine_itself_raises_result_overflow_error(model):
    """The C engine raises the library's type (handed over by set_hooks): no caller maps it."""
    with pytest.raises(rd.ResultOverflowError) as raised:
        ENGINE.inverse_dynamics(model, ZERO, np.array([1e160, 0.0]), ZERO, None)
    assert str(raised.value).startswith(RESULT_NOT_FINITE)
    assert not hasattr(engine, 'typed_error')


#: Every public function whose result depends on speeds, torques or wrenches, with an input
#: that overflows it: ``(call(model, use_engine), field, largest)``.
EVERY = {
    'inverse_dynamics': (lambda m: rd.inverse_dynamics(m, ZERO, [1e160, 0.0], ZERO), 'qd', 1e160),
    'coriolis_torques': (lambda m: rd.coriolis_torques(m, ZERO, [0.0, 1e200]), 'qd', 1e200),
    'forward_dynamics': (lambda m: rd.forward_dynamics(m, ZERO, ZERO, [1e308, -1e308]),
                         'tau', 1e308),
    'coriolis_matrix': (lambda m: rd.coriolis_matrix(m, [0.3, 0.4], [1e308, 1e308]), 'qd', 1e308),
    'kinetic_energy': (lambda m: rd.kinetic_energy(m, ZERO, [1e160, 0.0]), 'qd', 1e160),
    'static_torques': (lambda m: rd.static_torques(m, [0.3, 0.4], [1e308] * 6), 'f_tip', 1e308),
    'inverse_dynamics_derivatives': (
        lambda m: rd.inverse_dynamics_derivatives(m, ZERO, [1e200, 0.0], ZERO), 'qd', 1e200),
    'forward_dynamics_derivatives': (
        lambda m: rd.forward_dynamics_derivatives(m, ZERO, [1e200, 0.0], ZERO), 'qd', 1e200),
}


@pytest.mark.parametrize('name', sorted(EVERY))
def test_the_message_is_the_same_from_the_engine_and_from_numpy(model, name, monkeypatch):
    """Engine and numpy path raise ResultOverflowError with the same message, word for word.

    The numpy path used to return NaN from both derivative functions (and inf or NaN from
    kinetic_energy, coriolis_matrix and static_torques).
    """
    call, field, largest = EVERY[name]
    messages = []
    for engine_ in ([ENGINE] if ENGINE is not None else []) + [None]:
        monkeypatch.setattr(api, '_engine', engine_)
        with pytest.raises(rd.ResultOverflowError) as raised:
            call(model)
        messages.append(str(raised.value))
    expected = (f'{RESULT_NOT_FINITE}: the inputs are too large for double precision '
                f'(largest |{field}| = {largest:.3g}); give physically meaningful values')
    assert messages == [expected] * len(messages)


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_argument_errors_are_not_overflow_errors(model, solver):
    with pytest.raises(ValueError) as raised:
        rd.inverse_dynamics(model, ZERO, np.zeros(3), ZERO, solver=solver)
    assert not isinstance(raised.value, rd.ResultOverflowError)


def test_feasibility_marks_only_the_overflowing_rows(model):
    q, qdd = np.zeros((3, 2)), np.zeros((3, 2))
    qd = np.array([[0.5, -0.2], [1e160, 0.0], [0.0, 1.0]])
    tau = feasibility._torques(model, q, qd, qdd)
    assert np.all(np.isinf(tau[1]))
    for row in (0, 2):
        np.testing.assert_array_equal(tau[row], rd.inverse_dynamics(model, q[row], qd[row],
                                                                    qdd[row]))
    with pytest.raises(ValueError, match='qd'):           # not an overflow: not swallowed
        feasibility._torques(model, q, np.zeros((3, 3)), qdd)
