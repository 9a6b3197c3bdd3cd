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
"""``simulate`` on stiff arms: refused before the run by rk4, run by ``--integrator implicit``.

Issue 23.3 (the stiff wrist arm) and issue 36.2 (a TIAGo-class arm with the defaults).
"""

import os
import subprocess
import sys

import numpy as np

from robot_dynamics import cli
from robots import STIFF_WRIST_URDF, TIAGO_CLASS_URDF


def run(capsys, *argv):
    """Run the command line in-process; return exit code, stdout, stderr."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rk4_fails_with_the_joint_and_the_fix(capsys, tmp_path):
    code, _, err = run(capsys, 'simulate', STIFF_WRIST_URDF, '--duration', 0.5, '--no-plot',
                       '-o', tmp_path / 'rk4')
    assert code != 0
    assert "joint 'joint7'" in err and '--integrator implicit' in err and '--dt <= ' in err
    assert "integrator='implicit'" not in err            # F13: the CLI's options, not Python's


def test_implicit_with_stops_runs_finite_and_within_the_limits(capsys, tmp_path):
    code, out, err = run(capsys, 'simulate', STIFF_WRIST_URDF, '--integrator', 'implicit',
                         '--limits', '--duration', 0.5, '--dt', 0.01, '--no-plot', '--no-progress',
                         '-o', tmp_path / 'implicit')
    assert code == 0, err
    data = np.genfromtxt(tmp_path / 'implicit.csv', delimiter=',', names=True)
    assert np.all(np.isfinite(data.view((float, len(data.dtype.names)))))
    assert data['q_joint2'].max() <= 2.0944 and 'implicit' in out


def test_implicit_coriolis_with_stops_runs_and_matches_the_library(capsys, tmp_path):
    import robot_dynamics as rd
    code, out, err = run(capsys, 'simulate', STIFF_WRIST_URDF, '--integrator', 'implicit_coriolis',
                         '--limits', '--duration', 0.5, '--dt', 0.01, '--no-plot',
                         '--no-progress', '-o', tmp_path / 'coriolis')
    assert code == 0, err
    data = np.genfromtxt(tmp_path / 'coriolis.csv', delimiter=',', names=True)
    arm = rd.RobotModel.from_urdf(str(STIFF_WRIST_URDF))
    zero = np.zeros(7)
    run_ = rd.simulate(arm, zero, zero, zero, 0.5, 0.01, integrator='implicit_coriolis',
                       position_limits=True)
    np.testing.assert_allclose(data['q_joint2'], run_.q[:, 1], rtol=0, atol=1e-9)
    assert data['q_joint2'].max() <= 2.0944 and 'implicit_coriolis' in out


def installed_cli(*argv):
    """Run the installed ``robot-dynamics`` as a user does; return the finished process."""
    script = os.path.join(os.path.dirname(sys.executable), 'robot-dynamics')
    command = [script] if os.path.exists(script) else [sys.executable, '-m', 'robot_dynamics']
    return subprocess.run(command + [str(a) for a in argv], capture_output=True, text=True,
                          timeout=120)


def test_default_simulate_on_a_tiago_class_arm_names_the_joint_before_the_run(tmp_path):
    # Was (issue 36.2): "state diverged (|qd| > 1000) and the mass matrix failed", no joint.
    done = installed_cli('simulate', TIAGO_CLASS_URDF, '-o', tmp_path / 'sim')
    assert done.returncode == 2 and done.stdout == ''
    error = done.stderr.splitlines()[0]
    assert error.startswith('robot-dynamics simulate: error: refused before the run: the joint '
                            'damping is too stiff for explicit rk4 at dt = 0.001 s: joint '
                            "'arm_7_joint' has 1 N m s/rad on ")
    assert 'lambda dt = 4.45, beyond the rk4 stability limit 2.785; use --integrator ' \
           'implicit (stable for any damping) or --dt <= ' in error
    assert 'diverged' not in done.stderr and not os.path.exists(tmp_path / 'sim.csv')
    assert 'refuses at once with an error that\nnames the stiff joint' in installed_cli(
        'simulate', '--help').stdout
    done = installed_cli('simulate', TIAGO_CLASS_URDF, '--integrator', 'implicit', '--no-plot',
                         '-o', tmp_path / 'sim')
    assert done.returncode == 0, done.stderr
    data = np.genfromtxt(tmp_path / 'sim.csv', delimiter=',', names=True)
    assert len(data) == 2001 and np.all(np.abs(data['qd_arm_7_joint']) < 10)


def test_the_stiffness_check_is_the_librarys_at_the_start_state(capsys, tmp_path):
    from robot_dynamics.simulation.stability import damping_rate
    import robot_dynamics as rd
    arm = rd.load_model(str(TIAGO_CLASS_URDF))
    zero = np.zeros(arm.dof)
    rate, joint = damping_rate(arm, zero, zero)
    assert joint == 7 and round(rate * 1e-3, 2) == 4.45
    # Just below the limit the default runs: the refusal is no blanket one.
    dt = 0.99 * 2.785 / rate
    code, out, err = run(capsys, 'simulate', TIAGO_CLASS_URDF, '--dt', dt, '--duration', 0.05,
                         '--no-plot', '-o', tmp_path / 'fine')
    assert code == 0, err


def test_limits_say_where_the_default_start_moved(capsys, tmp_path):
    # Was (issue 36.4): the default start moved into the limits silently; help said zeros.
    code, out, err = run(capsys, 'simulate', TIAGO_CLASS_URDF, '--limits', '--integrator',
                         'implicit', '--duration', 0.01, '--no-plot', '-o', tmp_path / 'lim')
    assert code == 0, err
    assert 'robot-dynamics: note: --limits: the default start q0 = 0 lies outside the limits ' \
           'of 1 joint(s), started at the nearest limit: arm_1_joint=0.07 (give --q0 to ' \
           'choose)' in err
    data = np.genfromtxt(tmp_path / 'lim.csv', delimiter=',', names=True)
    assert data['q_arm_1_joint'][0] == 0.07 and data['q_arm_2_joint'][0] == 0.0
    code, out, err = run(capsys, 'simulate', TIAGO_CLASS_URDF, '--limits', '--integrator',
                         'implicit', '--duration', 0.01, '--no-plot', '-o', tmp_path / 'given',
                         '--q0', *[0] * 8)
    assert code == 2 and 'arm_1_joint' in err                 # a given start is not moved
