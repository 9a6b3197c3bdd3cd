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
"""Files as the exporters users have write them: none refused, every chain = Pinocchio (issue 32).

Each file of the corpus (``test/urdf_exporters.py``: xacro output, SolidWorks, Onshape, Fusion,
phobos, a ROS 2 robot_description; as text, as UTF-8 bytes with a BOM and CRLF, as a file) is
loaded by Pinocchio (``pin.buildModelFromXML``) and by the package, and the package's chain
equals Pinocchio's model of the whole file with every other joint locked where the package
locked it: inverse dynamics, mass matrix and gravity to 1e-13 of their largest entry (the
target is 1e-9; measured at most 3.3e-15). A tree with two equal arms is the one file that is not
loaded as is: the error names the candidate tips, and with one of them it loads and agrees.
"""

import re
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.analysis import feasibility
from robot_dynamics.model import bounds
from robot_dynamics.simulation.drives import drive_torque
from urdf_corpus import CORPUS, industrial_arm, solidworks_arm, TOLERANCE, upper_body
from urdf_exporters import phobos, solidworks, xacro_output
from urdf_trees import oracle_dynamics, reduced_oracle

DELIVERIES = {
    'text': lambda text, path: text,
    'bytes-bom-crlf': lambda text, path: '\ufeff'.encode() + text.replace(
        '\r\n', '\n').replace('\n', '\r\n').encode('utf-8'),
    'file-bom': lambda text, path: (path.write_bytes('\ufeff'.encode() + text.encode('utf-8')),
                                    str(path))[1],
    'file-latin-1-declared': lambda text, path: (path.write_bytes(re.sub(
        r'^\s*(<\?xml[^>]*\?>)?', '<?xml version="1.0" encoding="ISO-8859-1"?>\n', text).encode(
        'latin-1')), str(path))[1],
}


def load(source, **options):
    """Load; return the model and its ModelWarning lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(source, **options)
    return model, [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]


def largest_relative_error(model, text, held=None, seed=3):
    """Largest error of ID, M and G against Pinocchio, relative to each one's largest entry.

    Pinocchio's model of the whole file, every joint off the chain locked at the package's
    positions (``held``: chain joints the package was asked to hold, and where).
    """
    locked = dict(model.locked_joints, **(held or {}))
    reduced = reduced_oracle(text, list(model.joint_names), locked)
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(3):
        q, qd, qdd = rng.uniform(-1.5, 1.5, (3, model.dof))
        tau, M, g, gravity = oracle_dynamics(reduced, q, qd, qdd, model.base_link)
        np.testing.assert_allclose(gravity, model.gravity, rtol=0, atol=1e-15)
        for ours, theirs in ((rd.inverse_dynamics(model, q, qd, qdd), tau),
                             (rd.mass_matrix(model, q), M), (rd.gravity_torques(model, q), g)):
            worst = max(worst, np.abs(ours - theirs).max() / np.abs(theirs).max())
    return worst


@pytest.mark.parametrize('delivery', DELIVERIES)
@pytest.mark.parametrize('case', CORPUS)
def test_every_exported_file_loads_and_its_chain_equals_pinocchios(case, delivery, tmp_path):
    text = CORPUS[case]()
    pin.buildModelFromXML(text)                              # the peer loads it
    model, _ = load(DELIVERIES[delivery](text, tmp_path / 'robot.urdf'), urdf_friction=False)
    assert largest_relative_error(model, text) <= TOLERANCE


def test_the_corpus_chains_are_the_expected_ones():
    """The chain rule's choice on each file: the arm, fingers and hand locked, tool frames."""
    expected = {
        'xacro-industrial-arm': (6, 'tool0', 0), 'xacro-humanoid-arm-v1': (7, 'l_hand', 2),
        'xacro-humanoid-arm-v2': (7, 'l_hand', 15), 'solidworks-arm': (5, 'link5', 0),
        'onshape-leg': (6, 'tool', 0), 'fusion-scara': (4, 'link4', 0),
        'robot-description': (6, 'gripper', 2), 'drake-arm': (6, 'tool0', 0),
        'fusion-stale-transmissions': (4, 'link4', 0)}
    for case, (dof, tip, locked) in expected.items():
        model, _ = load(CORPUS[case]())
        assert (model.dof, model.tip_link, len(model.locked_joints)) == (dof, tip, locked), case


def test_two_equal_arms_ask_for_the_tip_by_name_then_agree():
    text = xacro_output(upper_body())
    pin.buildModelFromXML(text)
    with pytest.raises(rd.URDFError, match=r"candidate tips \['l_link7', 'r_link7'\]; pass "
                                           r'tip_link='):
        load(text)
    for tip in ('l_link7', 'r_link7'):
        model, _ = load(text, tip_link=tip)
        assert model.dof == 8 and len(model.locked_joints) == 7
        assert largest_relative_error(model, text) <= TOLERANCE


# ---------------------------------------------------------------------- SolidWorks' "not set"
def test_solidworks_zero_limits_move_with_no_limits_and_one_warning():
    model, said = load(solidworks(solidworks_arm()))
    assert model.joint_names == ('joint1', 'joint2', 'joint3', 'joint4', 'joint5')
    for field in ('upper_limit', 'velocity_limit', 'effort_limit'):
        assert np.all(getattr(model, field) == np.inf), field
    assert np.all(model.lower_limit == -np.inf)
    notes = [line for line in said if 'effort="0" velocity="0"/>' in line]
    assert len(notes) == 1 and '4 joint(s) (joint1, joint2, joint3, joint4)' in notes[0] and \
        "locked_joints={'joint1': 0}" in notes[0], said       # joint5 is continuous: no <limit>


def test_a_declared_latin_1_file_keeps_its_names_and_undeclared_is_refused(tmp_path):
    text = solidworks(solidworks_arm()).replace('encoding="utf-8"', 'encoding="ISO-8859-1"')
    path = tmp_path / 'arm.urdf'
    path.write_bytes(text.encode('latin-1'))
    model, _ = load(str(path))
    assert model.link_names[1] == 'Glied_2_ä'
    path.write_bytes(text.replace(' encoding="ISO-8859-1"', '').encode('latin-1'))
    with pytest.raises(rd.URDFError, match=r"is not UTF-8 text \(invalid continuation byte at "
                                           r'byte \d+\); save it as UTF-8, or declare its '
                                           'encoding'):
        load(str(path))


@pytest.mark.parametrize('held', [{'joint2': 0.4}, {'joint1': -1.0, 'joint4': 2.0}])
def test_a_solidworks_joint_is_held_only_when_asked(held):
    text = solidworks(solidworks_arm())
    model, _ = load(text, locked_joints=held)
    assert set(model.joint_names).isdisjoint(held) and model.dof == 5 - len(held)
    assert largest_relative_error(model, text, held) <= TOLERANCE


def test_unknown_effort_and_velocity_limit_nothing_anywhere():
    """Effort and velocity 0 (SolidWorks, phobos) are unknown: no consumer reads them as 0."""
    for text in (solidworks(solidworks_arm()), phobos(industrial_arm(10))):
        model, _ = load(text)
        assert np.all(model.effort_limit == np.inf) and np.all(model.velocity_limit == np.inf)
        n, t = model.dof, np.linspace(0.0, 1.0, 11)
        q = np.outer(t, np.full(n, 1.0))
        qd, qdd = np.ones((11, n)) * 5.0, np.ones((11, n)) * 50.0
        report = feasibility.check_samples(model, t, q, qd, qdd)
        assert report.feasible and not report.violations
        tau = rd.inverse_dynamics(model, q[3], qd[3], qdd[3])
        np.testing.assert_array_equal(drive_torque(model, q[3], qd[3], tau, 0.01), tau)
        np.testing.assert_array_equal(bounds.velocity_bounds(model),
                                      np.full(n, bounds.MAX_VELOCITY))


def test_a_zero_limit_means_unknown_in_every_model_source():
    """DH YAML and arrays too: 0 effort or velocity is "not given" (inf), as in a URDF."""
    dh = rd.RobotModel.from_dh({'convention': 'standard', 'links': [
        {'a': 0.3, 'alpha': 0, 'd': 0, 'mass': 1.0, 'inertia': [0.01, 0.02, 0.02, 0, 0, 0],
         'limits': {'effort': 0, 'velocity': 0}}]})
    assert dh.effort_limit[0] == np.inf and dh.velocity_limit[0] == np.inf
    ur5 = rd.load_model('ur5')
    changed = ur5.replace(effort_limit=np.zeros(6), velocity_limit=np.r_[0.0, np.ones(5)])
    assert np.all(changed.effort_limit == np.inf) and changed.velocity_limit[0] == np.inf
    assert np.all(changed.velocity_limit[1:] == 1.0)
