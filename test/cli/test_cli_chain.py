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
"""The command line's URDF chain options: --base-link, --tip-link, --lock NAME=VALUE."""

import json

import numpy as np
import pytest
from urdf_trees import arm, gripper, oracle_dynamics, reduced_oracle, tree_urdf

from robot_dynamics import cli

Q = '0.3 -0.2 0.5 0.1 -0.4'


@pytest.fixture(scope='module')
def tree(tmp_path_factory):
    """Write a torso joint carrying a 3-joint arm with a gripper and a 4-joint arm."""
    joints = [('torso_joint', 'revolute', 'base', 'torso')]
    joints += arm('left', 'torso', 3) + gripper('lg', 'left_link3') + arm('right', 'torso', 4)
    path = tmp_path_factory.mktemp('trees') / 'torso.urdf'
    path.write_text(tree_urdf(4, joints, 'torso'))
    return str(path)


def run(capsys, *argv):
    """Run the command line in-process; return exit code, stdout, stderr."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_model_subcommand_has_the_chain_options():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == 'command').choices
    with_model = {name: sub for name, sub in commands.items()
                  if any(a.dest == 'model' for a in sub._actions)}
    assert len(with_model) >= 8
    for name, sub in with_model.items():
        flags = {flag for action in sub._actions for flag in action.option_strings}
        assert {'--base-link', '--tip-link', '--lock'} <= flags, name


def test_gravity_with_tip_and_locks_matches_pinocchio(capsys, tree):
    code, out, err = run(capsys, 'gravity', tree, '--q', Q, '--json', '--tip-link',
                         'right_link4', '--lock', 'lg_finger_joint1=0.03', '--lock',
                         'left_j2=-0.8')
    assert code == 0, err
    result = json.loads(out)
    assert result['joint_names'] == ['torso_joint', 'right_j1', 'right_j2', 'right_j3',
                                     'right_j4']
    assert 'lg_finger_joint1=0.03' in err and 'lg_finger_joint2=0.03' in err
    with open(tree) as handle:
        urdf = handle.read()
    locked = {'lg_finger_joint1': 0.03, 'lg_finger_joint2': 0.03, 'left_j2': -0.8}
    reduced = reduced_oracle(urdf, result['joint_names'], locked)
    q = np.array([float(v) for v in Q.split()])
    _, _, g, gravity = oracle_dynamics(reduced, q, q * 0, q * 0, 'base')
    assert np.allclose(gravity, [0, 0, -9.81], atol=1e-15)
    assert np.allclose(result['gravity_torques'], g, rtol=0, atol=1e-10 * max(1, abs(g).max()))


def test_ambiguous_tree_names_the_cli_option(capsys, tree):
    code, _, err = run(capsys, 'info', tree)
    assert code == 2
    assert "candidate tips ['lg_hand', 'right_link4']" in err and '--tip-link' in err


def test_base_link_selects_a_sub_chain(capsys, tree):
    code, out, err = run(capsys, 'info', tree, '--base-link', 'torso', '--tip-link', 'lg_hand',
                         '--json')
    assert code == 0, err
    info = json.loads(out)
    assert [j['name'] for j in info['joints']] == ['left_j1', 'left_j2', 'left_j3']
    assert info['locked_joints'] == {'lg_finger_joint1': 0.0, 'lg_finger_joint2': 0.0}


@pytest.mark.parametrize('argv, message', [
    (['--lock', 'no_equals_sign'], "--lock: 'no_equals_sign' is not NAME=VALUE"),
    (['--lock', 'lg_finger_joint1=wide'], "--lock: 'lg_finger_joint1=wide' is not NAME=VALUE"),
    (['--tip-link', 'right_link4', '--lock', 'right_j1=5'], "'right_j1' = 5.0 is outside its "
                                                            'limits [-2.0, 2.0]'),  # chain
    (['--tip-link', 'nowhere'], "tip_link: unknown link 'nowhere'"),
])
def test_bad_chain_options_are_one_line_errors(capsys, tree, argv, message):
    code, _, err = run(capsys, 'gravity', tree, '--q', Q, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_chain_options_refused_for_dh_tables(capsys):
    code, _, err = run(capsys, 'gravity', 'puma560_dh', '--q', '0 0 0 0 0 0', '--tip-link', 'x')
    assert code == 2 and 'apply to URDF models' in err
