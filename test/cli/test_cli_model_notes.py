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
"""What a command says about the model it loaded: URDF friction, warnings, the chain (issue 36).

Was (36.3): ``torque`` on TIAGo gave 287.74 N on the torso with friction, 187.74 N without, and
stderr only said "model 'tiago' has 1 warning(s)" while ``info`` listed 3 (the loader's notes
were warnings Python printed but not in ``model.warnings``). Now one list counts them, and
every command that loads a URDF with ``<dynamics>`` friction says so in one line.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import robot_dynamics as rd
from robots import TIAGO_CLASS_URDF
from urdf_trees import oracle_dynamics, reduced_oracle

pin = pytest.importorskip('pinocchio')

FRICTION_LINE = ('robot-dynamics: note: URDF friction included on 8 joint(s); '
                 '--no-urdf-friction to match Pinocchio')
Q = [0.1, 0.3, 0.2, -0.4, 1.0, 0.3, -0.2, 0.5]
QD = [0.01, 0.2, -0.1, 0.3, 0.1, -0.2, 0.4, 0.1]


def cli(*argv):
    """Run the installed ``robot-dynamics`` as a user does; return the finished process."""
    script = os.path.join(os.path.dirname(sys.executable), 'robot-dynamics')
    command = [script] if os.path.exists(script) else [sys.executable, '-m', 'robot_dynamics']
    done = subprocess.run(command + [str(a) for a in argv], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def torques(*options):
    done = cli('torque', TIAGO_CLASS_URDF, '--q', *Q, '--qd', *QD, '--json', *options)
    return np.array(json.loads(done.stdout)['tau']), done.stderr.splitlines()


def test_every_command_says_urdf_friction_is_in_the_numbers_and_counts_warnings_alike():
    with pytest.warns(rd.ModelWarning) as said:
        model = rd.load_model(str(TIAGO_CLASS_URDF))
    assert len(model.warnings) == 3 == len({str(w.message) for w in said})
    with_friction, err = torques()
    assert FRICTION_LINE in err
    assert f"robot-dynamics: note: model 'tiago_class' has 3 warning(s); see `robot-dynamics " \
           f'info {TIAGO_CLASS_URDF}`' in err
    info = json.loads(cli('info', TIAGO_CLASS_URDF, '--json').stdout)
    assert info['warnings'] == list(model.warnings)
    assert FRICTION_LINE in cli('gravity', TIAGO_CLASS_URDF, '--q', *Q).stderr.splitlines()
    without, err = torques('--no-urdf-friction')
    assert not any('URDF friction' in line for line in err)
    # The friction line's promise: without it the torques are Pinocchio's.
    chain = list(model.joint_names)
    reduced = reduced_oracle(TIAGO_CLASS_URDF.read_text(), chain, dict(model.locked_joints))
    tau, *_ = oracle_dynamics(reduced, np.array(Q), np.array(QD), np.zeros(8), 'base_link')
    scale = np.abs(tau).max()                               # JSON floats round-trip exactly
    np.testing.assert_allclose(without, tau, rtol=0, atol=2e-14 * scale)
    friction = rd.friction_torques(model, np.array(QD))
    np.testing.assert_allclose(with_friction - without, friction, rtol=0, atol=2e-14 * scale)
    assert with_friction[0] - without[0] == pytest.approx(1000 * 0.01 + 100, abs=1e-10)


def test_a_derived_model_has_its_own_warnings_and_info_counts_them_alike(capsys, tmp_path):
    from cli_helpers import run
    with pytest.warns(rd.ModelWarning):
        model = rd.load_model(str(TIAGO_CLASS_URDF))
    heavy = model.with_payload(1.0)            # the notes said how the file was read
    assert heavy.notes == () and heavy.warnings == () and model.notes == model.warnings
    assert heavy.chain_choice == model.chain_choice
    sidecar = tmp_path / 'arm.friction.yaml'
    sidecar.write_text('joints:\n  arm_7_joint: {viscous: 0.1, coulomb: 0.2}\n')
    code, out, err = run(capsys, 'info', TIAGO_CLASS_URDF, '--friction', sidecar, '--json')
    listed = json.loads(out)['warnings']
    assert code == 0 and listed == list(model.with_friction(str(sidecar)).warnings) == []
    assert 'URDF friction' not in err          # the sidecar sets the friction law
