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
"""``simulate`` gives the command line's options in its errors (trial findings F11-F13)."""

import numpy as np
import pytest

from robot_dynamics import cli
from robot_dynamics.cli.simulation import in_cli_words
from robot_dynamics.simulation.integrators import MAX_DT


def run(capsys, *argv):
    """Run the command line in-process; return exit code, stdout, stderr."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize('python, command_line', [
    ("use integrator='implicit' (stable) or dt <= 0.000166 s",
     'use --integrator implicit (stable) or --dt <= 0.000166 s'),
    ("q0: joint 'j' starts at 0, outside its limits [1, 2]; start within them or pass "
     'position_limits=False',
     "--q0: joint 'j' starts at 0, outside its limits [1, 2]; give --q0 within them or drop "
     '--limits'),
    ("W is singular at dt = 1 s: use a smaller dt, or integrator='implicit_coriolis'",
     'W is singular at dt = 1 s: use a smaller --dt, or --integrator implicit_coriolis'),
    ('qd0: joint starts at 1e+300 rad/s', '--qd0: joint starts at 1e+300 rad/s')])
def test_the_library_advice_is_translated_in_one_place(python, command_line):
    assert in_cli_words(python) == command_line


def test_limits_with_the_default_start_begins_within_the_range(capsys, tmp_path):
    # F11: q0 = 0 lies outside panda_joint4's [-3.07, -0.07]: --limits alone used to fail.
    code, out, err = run(capsys, 'simulate', 'panda', '--limits', '--integrator', 'implicit',
                         '--duration', 0.02, '--dt', 0.01, '--no-plot', '-o', tmp_path / 's')
    assert code == 0, err
    data = np.genfromtxt(tmp_path / 's.csv', delimiter=',', names=True)
    assert data['q_panda_joint4'][0] == pytest.approx(-0.0698, abs=1e-4)


def test_an_absurd_start_speed_names_the_option(capsys, tmp_path):
    # F12: --qd0 1e300 was blamed on dt ("use a smaller dt").
    code, _, err = run(capsys, 'simulate', 'panda', '--integrator', 'implicit_coriolis',
                       '--qd0', 1e300, 0, 0, 0, 0, 0, 0, '--no-plot', '-o', tmp_path / 's')
    assert code == 2
    assert "--qd0: joint 'panda_joint1' starts at 1e+300 rad/s" in err and 'smaller' not in err


def test_a_start_outside_the_limits_names_the_options(capsys, tmp_path):
    code, _, err = run(capsys, 'simulate', 'panda', '--limits', '--q0', 0, 0, 0, 0, 0, 0, 0,
                       '--no-plot', '-o', tmp_path / 's')
    assert code == 2
    assert 'give --q0 within them or drop --limits' in err and 'position_limits' not in err


def test_a_step_longer_than_the_bound_names_the_option(capsys, tmp_path):
    # F4: the library's bound on dt (simulation.integrators.MAX_DT, the node's dt range too)
    # reached the command line as "dt: ..."; the option is --dt.
    code, _, err = run(capsys, 'simulate', 'two_link', '--duration', 5, '--dt', 2,
                       '--no-plot', '-o', tmp_path / 's')
    assert code == 2
    assert f'--dt: 2 s is longer than the {MAX_DT:g} s a step may take' in err, err
