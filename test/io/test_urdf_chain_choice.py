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
"""The automatic chain says which chain and tool frame it chose, and why (issue 36.4).

Was: a Z1-class arm's gripper joint silently became the 7th chain joint, and a TIAGo-class
wrist silently put the tool frame on ``arm_7_link``.
"""

import pathlib
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from cli_helpers import run
from robots import TIAGO_CLASS_URDF
from urdf_trees import arm, oracle_dynamics, reduced_oracle, tree_urdf

Z1_CLASS_URDF = pathlib.Path(__file__).resolve().parents[1] / 'fixtures' / 'z1_class_arm.urdf'


def load(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(path), **kwargs)


def test_a_gripper_joint_at_the_end_of_the_chain_is_named_with_the_fix():
    with pytest.warns(rd.ModelWarning, match="the automatic chain ends with joint "
                      "'jointGripper', named like a gripper's: the model has 7 joints with it as "
                      "the last; if the arm ends before it, pass tip_link='gripperStator'"):
        arm = rd.load_model(str(Z1_CLASS_URDF))
    assert arm.dof == 7 and arm.joint_names[-1] == 'jointGripper'
    assert arm.chain_choice.startswith("chain 'link00' -> 'gripperMover' chosen automatically: "
                                       "the longest moving path from 'link00' (7 joint(s), "
                                       "'joint1' to 'jointGripper')")
    assert any('jointGripper' in w for w in arm.warnings)
    six = load(Z1_CLASS_URDF, tip_link='gripperStator')             # the fix it names
    assert six.dof == 6 and dict(six.locked_joints) == {'jointGripper': 0.0}
    assert six.chain_choice == '' and not any('gripper\'s' in w for w in six.warnings)
    q, qd, qdd = np.full(6, 0.3), np.full(6, -0.2), np.full(6, 0.5)
    reduced = reduced_oracle(Z1_CLASS_URDF.read_text(), list(six.joint_names),
                             dict(six.locked_joints))
    tau, M, *_ = oracle_dynamics(reduced, q, qd, qdd, 'link00')
    np.testing.assert_allclose(rd.inverse_dynamics(six, q, qd, qdd), tau, rtol=0,
                               atol=2e-14 * np.abs(tau).max())
    np.testing.assert_allclose(rd.mass_matrix(six, q), M, rtol=0, atol=2e-14 * np.abs(M).max())


def test_a_tool_frame_no_rule_names_is_said_and_info_shows_the_choice(capsys):
    with pytest.warns(rd.ModelWarning, match="tool frame 'arm_7_link': the last moving link "
                      r"itself: the fixed links below it branch \(at 'wrist_ft_link': "
                      "'wrist_ft_tool_link', 'gripper_link'\\) and none is named like a tool "
                      'frame'):
        arm = rd.load_model(str(TIAGO_CLASS_URDF))
    assert arm.tip_link == 'arm_7_link'
    assert "ending at 'arm_7_link' because its moving branches ('gripper_left_finger_joint', " \
           "'gripper_right_finger_joint') tie and are shorter than the chain: an end " \
           'effector, locked' in arm.chain_choice
    code, out, _ = run(capsys, 'info', TIAGO_CLASS_URDF)
    assert code == 0 and arm.chain_choice in out.splitlines()
    tool = load(TIAGO_CLASS_URDF, tip_link='arm_tool_link')
    assert tool.tip_link == 'arm_tool_link' and tool.chain_choice == ''
    assert tool.tip_translation[2] == pytest.approx(0.046)


@pytest.mark.parametrize('name', ['puma560', 'ur5', 'panda', 'stanford', 'two_link'])
def test_plain_chains_explain_without_warning(name):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.load_model(name)
    assert not any('tool frame' in str(w.message) or 'gripper' in str(w.message)
                   for w in said)
    assert 'chosen automatically' in model.chain_choice
    assert 'because no moving joint is below it' in model.chain_choice
    assert len(said) == len(model.warnings)                 # one list: what Python printed


@pytest.mark.parametrize('kind', ['floating', 'planar'])
def test_a_free_object_hung_from_a_link_never_takes_the_chain(kind):
    """A floating or planar joint beside a serial one counts as fixed (issue 32 red team).

    It used to tie with the arm's next joint, so the chain ended there and locked the rest of
    the arm; now it is locked at its origin and the arm goes on. Alone at the root, the
    chain starts below it (issue 32; it was refused, as with base_link= the root still is).
    """
    joints = arm('arm', 'base_link', 4) + [('object_joint', kind, 'arm_link3', 'object')]
    text = tree_urdf(6, joints, 'arm_with_object')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(text)
    assert model.dof == 4 and model.tip_link == 'arm_link4'
    assert list(model.locked_joints) == ['object_joint']
    reduced = reduced_oracle(text, list(model.joint_names), {})
    q, qd, qdd = np.random.default_rng(1).uniform(-1, 1, (3, 4))
    tau, M, *_ = oracle_dynamics(reduced, q, qd, qdd, model.base_link)
    np.testing.assert_allclose(rd.inverse_dynamics(model, q, qd, qdd), tau, rtol=0,
                               atol=1e-13 * np.abs(tau).max())
    np.testing.assert_allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-13 * np.abs(M).max())
    rooted = tree_urdf(6, [('root', kind, 'world', 'base_link')] + arm('arm', 'base_link', 2))
    with pytest.raises(rd.URDFError, match=f"joint 'root' is '{kind}'.*base_link='base_link'"):
        rd.RobotModel.from_urdf(rooted, base_link='world')
    with pytest.warns(rd.ModelWarning, match=f"'root' \\({kind}\\) above the arm"):
        assert rd.RobotModel.from_urdf(rooted).base_link == 'base_link'      # issue 32
