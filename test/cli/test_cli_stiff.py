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
"""``simulate --integrator implicit --limits`` on the stiff wrist arm (issue 23.3)."""

import numpy as np

from robot_dynamics import cli
from robots import STIFF_WRIST_URDF


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
