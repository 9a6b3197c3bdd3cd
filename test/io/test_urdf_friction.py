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
"""URDF ``<dynamics damping friction>``: included by default, named, and optional (issue 20.8).

Many URDFs carry Gazebo tuning values in these tags (TIAGo's torso at 0.1 m/s: 287.7 N instead
of 187.7 N); Pinocchio and KDL ignore them. The library includes them (the URDF describes the
robot) and says so in one ModelWarning; ``urdf_friction=False``, ``--no-urdf-friction`` and the
node parameter ``urdf_friction: false`` leave them out, and the result then equals Pinocchio's.
"""

import json
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robots import pinocchio_configuration
from urdf_trees import TORSO_ARM_URDF as URDF

Q, QD, QDD = np.array([0.1, 0.4]), np.array([0.1, -0.8]), np.array([0.3, 1.1])


def pinocchio_torque(q, qd, qdd):
    """Pinocchio's inverse dynamics of URDF (it ignores <dynamics>)."""
    model = pin.buildModelFromXML(URDF)
    return pin.rnea(model, model.createData(), pinocchio_configuration(model, q), qd, qdd)


def load(**kwargs):
    """Load URDF; return the model and the ModelWarning lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(URDF, **kwargs)
    return model, [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]


def test_included_by_default_and_named_at_load():
    model, said = load()
    np.testing.assert_array_equal(model.viscous_friction, [1000.0, 0.5])
    np.testing.assert_array_equal(model.coulomb_friction, [0.0, 1.5])
    note = [line for line in said if 'URDF <dynamics> friction included' in line]
    assert len(note) == 1 and 'torso_lift (damping 1000' in note[0] \
        and 'shoulder (damping 0.5' in note[0] and 'urdf_friction=False' in note[0]
    # The torso at 0.1 m/s: the damping adds 100 N to what Pinocchio computes.
    tau = rd.inverse_dynamics(model, Q, QD, QDD)
    expected = pinocchio_torque(Q, QD, QDD) + [1000.0 * 0.1, 0.5 * -0.8 + 1.5 * np.sign(-0.8)]
    np.testing.assert_allclose(tau, expected, rtol=0, atol=1e-10)


def test_left_out_on_request_equals_pinocchio():
    model, said = load(urdf_friction=False)
    assert not model.viscous_friction.any() and not model.coulomb_friction.any()
    assert any('friction left out (urdf_friction off): torso_lift' in line for line in said)
    np.testing.assert_allclose(rd.inverse_dynamics(model, Q, QD, QDD),
                               pinocchio_torque(Q, QD, QDD), rtol=0, atol=1e-10)
    assert rd.load_model('puma560', urdf_friction=False).viscous_friction.sum() == 0.0


def test_cli_no_urdf_friction(capsys, tmp_path):
    path = tmp_path / 'torso_arm.urdf'
    path.write_text(URDF)
    common = ['torque', str(path), '--q', *map(str, Q), '--qd', *map(str, QD), '--qdd',
              *map(str, QDD), '--json']
    results = {}
    for flag in ([], ['--no-urdf-friction']):
        code = cli.main(common + flag)
        out, err = capsys.readouterr()
        assert code == 0, err
        results[bool(flag)] = np.array(json.loads(out)['tau'])
    np.testing.assert_allclose(results[True], pinocchio_torque(Q, QD, QDD), rtol=0, atol=1e-10)
    assert results[False][0] - results[True][0] == pytest.approx(100.0, abs=1e-9)


def test_negative_friction_names_the_joint_and_both_fixes():
    negative = URDF.replace('damping="0.5"', 'damping="-0.5"')
    assert negative != URDF
    with pytest.raises(rd.URDFError, match=r"negative on shoulder \(damping -0\.5 N m s/rad.*"
                                           r"fix the URDF, or .*urdf_friction=False"):
        rd.RobotModel.from_urdf(negative)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(negative, urdf_friction=False)
    np.testing.assert_allclose(rd.inverse_dynamics(model, Q, QD, QDD),
                               pinocchio_torque(Q, QD, QDD), rtol=0, atol=1e-10)
