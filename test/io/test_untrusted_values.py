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
"""Issue 22, LOW items: strict numbers, overflow refused, transmissions, bounded messages.

Each reproduced the defect on main first (see the commit message).
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.analysis import feasibility
from robot_dynamics.errors import bounded, MAX_MESSAGE, PlausibilityError
from robots import joint, link, robot

TRANSMISSION = ('<transmission name="{name}"><type>transmission_interface/SimpleTransmission'
                '</type><joint name="{joint}"/><actuator name="m{name}"><mechanicalReduction>'
                '{ratio}</mechanicalReduction></actuator></transmission>')


def arm(*extra, mass='1.0', ixx=0.02, name='j1'):
    """Return a one-joint URDF with ``extra`` elements."""
    return robot(link('base'), link('l1', m=mass, ixx=ixx), joint(name, 'base', 'l1'), *extra)


def load(text):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.RobotModel.from_urdf(text)


# ---------------------------------------------------------------------- numbers
@pytest.mark.parametrize('text', ['1_5', '١٥', '0x10', '1.5.2', '', '1e', 'e5', '--1', '1 5',
                                  '15\u00a0', '\u20071'])
def test_numbers_python_alone_would_accept_or_misread_are_refused(text):
    with pytest.raises(rd.URDFError, match=r"link\[@name='l1'\]/inertial/mass value: .* is "
                                           r'not a number'):
        load(arm(mass=text))


@pytest.mark.parametrize('text, value', [('15', 15.0), (' 1.5 ', 1.5), ('+2.', 2.0),
                                         ('.5', 0.5), ('1e-3', 1e-3), ('2.5E+1', 25.0)])
def test_ordinary_numbers_are_read(text, value):
    assert load(arm(mass=text)).mass[0] == value


# ---------------------------------------------------------------------- huge inertia
@pytest.mark.parametrize('ixx', [1e308, 1e200])
def test_huge_inertia_is_a_model_error_not_a_linalg_error(ixx):
    with pytest.raises(rd.ModelError, match=r"inertia of link 'l1' has an entry of 1e\+(308|200)"
                                            r' kg m\^2.*check the units'):
        load(arm(ixx=ixx))
    model = rd.load_model('two_link')
    with pytest.raises(rd.ModelError, match='beyond what double precision'):
        model.replace(inertia=[np.diag([ixx, ixx, ixx]), model.inertia[1]])


# ---------------------------------------------------------------------- overflow
@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_finite_inputs_whose_result_overflows_are_refused(solver):
    model = rd.load_model('two_link')
    zero = np.zeros(2)
    tau = rd.inverse_dynamics(model, zero, [1e150, 0.0], zero, solver=solver)
    assert np.all(np.isfinite(tau))                 # large but representable: answered
    for qd in ([1e160, 0.0], [0.0, 1e200], [1e308, 1e308]):
        with pytest.raises(ValueError, match=r'the result is not finite: the inputs are too '
                                             r'large for double precision \(largest \|qd\| = '):
            rd.inverse_dynamics(model, zero, qd, zero, solver=solver)
    with pytest.raises(ValueError, match=r'largest \|qd\| = 1e\+160'):
        rd.inverse_dynamics(model, np.zeros((3, 2)), [[0, 0], [1e160, 0], [0, 0]],
                            np.zeros((3, 2)), solver=solver)
    with pytest.raises(ValueError, match=r'largest \|tau\| = 1e\+308'):
        rd.forward_dynamics(model, zero, zero, [1e308, -1e308], solver=solver)
    with pytest.raises(ValueError, match=r'largest \|qd\| = 1e\+200'):
        rd.coriolis_torques(model, zero, [1e200, 0.0], solver=solver)


def test_torque_command_refuses_overflow_with_exit_2(capsys):
    code = cli.main(['torque', 'two_link', '--q', '0', '0', '--qd', '1e308', '0', '--qdd', '0',
                     '0'])
    out, err = capsys.readouterr()
    assert code == 2 and 'nan' not in out.lower()
    assert err.strip().endswith('the result is not finite: the inputs are too large for double '
                                'precision (largest |qd| = 1e+308); give physically meaningful '
                                'values')


# ---------------------------------------------------------------------- transmissions
ROTOR = '<rotorInertia>2e-5</rotorInertia></actuator>'


def test_two_disagreeing_transmissions_for_one_joint_are_refused_if_a_rotor_is_at_stake():
    first, second = (TRANSMISSION.format(name=name, joint='j1', ratio=ratio)
                     for name, ratio in (('t1', 10), ('t2', 50)))
    with pytest.raises(rd.URDFError, match=r"transmission\[@name='t2'\] and transmission"
                                           r"\[@name='t1'\] both drive joint 'j1' with "
                                           'different values; keep one'):
        load(arm(first.replace('</actuator>', ROTOR), second))
    with pytest.warns(rd.ModelWarning, match='with different values: the first is kept'):
        model = rd.RobotModel.from_urdf(arm(first, second))      # Pinocchio loads it too
    assert model.gear_ratio[0] == 10.0 and model.rotor_inertia[0] == 0.0
    twice = load(arm(first, first.replace("name=\"t1\"", "name=\"t2\"")))
    assert twice.gear_ratio[0] == 10.0


def test_a_transmission_of_an_unknown_joint_is_ignored_unless_it_carries_a_rotor():
    # Pinocchio and KDL ignore transmissions; one left behind by a removed joint carries no
    # dynamics here either (a gear ratio only scales a rotor inertia): a warning, not a refusal.
    with pytest.warns(rd.ModelWarning, match=r"transmission\[@name='t1'\] names joint 'j9', "
                                             r'which the URDF does not have: ignored'):
        model = rd.RobotModel.from_urdf(arm(TRANSMISSION.format(name='t1', joint='j9',
                                                                ratio=10)))
    assert model.gear_ratio[0] == 1.0
    with_rotor = TRANSMISSION.format(name='t1', joint='j9', ratio=10)
    with_rotor = with_rotor.replace('</actuator>', ROTOR)
    with pytest.raises(rd.URDFError, match=r"names joint 'j9', which the URDF does not have; "
                                           'fix the name'):
        load(arm(with_rotor))


def test_one_transmission_per_joint_still_reads():
    model = load(arm(TRANSMISSION.format(name='t1', joint='j1', ratio=10)))
    assert model.gear_ratio[0] == 10.0


# ---------------------------------------------------------------------- message length
def test_a_20_mb_link_name_gives_bounded_errors_and_warnings():
    name = 'x' * 20_000_000
    with pytest.raises(rd.URDFError) as info:
        load(arm(mass='-1').replace("name=\"l1\"", f'name="{name}"').replace(
            'link="l1"', f'link="{name}"'))
    assert len(str(info.value)) <= MAX_MESSAGE + 60
    with pytest.warns(rd.ModelWarning) as caught:
        model = rd.RobotModel.from_urdf(arm(mass='0').replace(
            "name=\"l1\"", f'name="{name}"').replace('link="l1"', f'link="{name}"'))
    assert caught and all(len(str(w.message)) <= MAX_MESSAGE + 60 for w in caught)
    assert all(len(text) <= MAX_MESSAGE + 60 for text in model.warnings)
    assert model.link_names[0] == name                     # the data itself is kept


def test_bounded_keeps_both_ends():
    text = 'start ' + 'y' * 10 ** 6 + ' end'
    short = bounded(text)
    assert short.startswith('start ') and short.endswith(' end') and len(short) < 2100
    assert bounded('short') == 'short'
    assert str(PlausibilityError(text)) == short
    assert str(rd.ModelError(text)) == short


def test_argument_errors_naming_huge_joint_names_are_bounded():
    model = rd.load_model('two_link').replace(joint_names=['a' * 10 ** 7, 'b' * 10 ** 7])
    for solver in (None, 'rnea'):
        with pytest.raises(ValueError, match='contains NaN or inf') as info:
            rd.inverse_dynamics(model, [np.nan, 0], [0, 0], [0, 0], solver=solver)
        assert len(str(info.value)) <= MAX_MESSAGE + 60


def test_feasibility_counts_samples_whose_torques_overflow_as_infeasible():
    """The engine refuses an overflowing result; the feasibility check reads it as +inf."""
    model = rd.load_model('ur5')
    n = model.dof
    with np.errstate(all='ignore'):             # inf torques, as apply_policy runs it
        report = feasibility.check_trajectory(model, [0.0, 1.0], np.zeros((2, n)),
                                              np.full((2, n), 1e200))
    assert not report.feasible
    assert 'would need inf N m' in report.message()
