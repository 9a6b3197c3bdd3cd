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
"""``robot-dynamics trajectory FILE --check-effort``: the scale that fits, the ratio plot."""

import json
import pathlib
import re

import numpy as np
import pytest
import yaml

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.analysis import feasibility
from robot_dynamics.cli.trajectory import interpolate
from robots import quiet_bundled


def plan(tmp_path, move_time):
    """Write a UR5 move of every joint by 0.7 rad in ``move_time`` s, at rest at both ends."""
    path = tmp_path / 'move.yaml'
    zeros = [[0.0] * 6, [0.0] * 6]
    path.write_text(yaml.safe_dump({'waypoints': {
        'times': [0.0, move_time], 'positions': [[0.0] * 6, [0.7] * 6],
        'velocities': zeros, 'accelerations': zeros}}))
    return str(path)


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_too_fast_motion_is_reported_with_the_scale_and_plot(capsys, tmp_path):
    path = plan(tmp_path, 0.3)
    prefix = tmp_path / 'out'
    code, out, _ = run(capsys, 'trajectory', 'ur5', path, '--check-effort', '-o', prefix,
                       '--dt', 0.001)
    assert code == 1
    model = quiet_bundled('ur5')
    t = np.linspace(0.0, 0.3, 301)
    zeros = np.zeros((2, 6))
    q, qd, qdd = interpolate('waypoints', np.array([0.0, 0.3]),
                             np.array([np.zeros(6), np.full(6, 0.7)]), zeros, zeros,
                             'quintic', t)
    report = feasibility.check_samples(model, t, q, qd, qdd)
    assert f'slowed by {report.scale:.3g}x it fits' in out
    assert 'would need' in out and 'N m at t =' in out and 'the effort limit is 150 N m' in out
    assert (tmp_path / 'out_effort.png').stat().st_size > 10000
    # The same motion in the library's interpolant: the same k to the sampling's accuracy.
    library = feasibility.check_trajectory(model, [0.0, 0.3], [np.zeros(6), np.full(6, 0.7)],
                                           zeros, zeros)
    assert abs(library.scale - report.scale) < 2e-3 * report.scale


def test_slowed_file_passes_and_json_reports_it(capsys, tmp_path):
    model = quiet_bundled('ur5')
    zeros = np.zeros((2, 6))
    k = feasibility.check_trajectory(model, [0.0, 0.3], [np.zeros(6), np.full(6, 0.7)],
                                     zeros, zeros).scale
    path = plan(tmp_path, 0.3 * k * 1.01)
    code, out, _ = run(capsys, 'trajectory', 'ur5', path, '--check-effort', '--json',
                       '--no-plot', '-o', tmp_path / 'x')
    assert code == 0
    check = json.loads(out)['effort_check']
    assert check['feasible'] and check['scale'] == 1.0
    assert max(check['peak_effort_ratio']) < 0.95


def test_no_limits_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, 'trajectory', 'puma560', plan(tmp_path, 1.0), '--check-effort',
                       '-o', tmp_path / 'x')
    assert code != 0 and 'no effort or velocity limits' in err


def test_an_exporters_all_zero_limits_are_unknown_not_zero(capsys, tmp_path):
    # SolidWorks' "not set" on every joint of the UR5: no position, effort or velocity limit
    # is violated (0 would mean "no torque, no speed"), and --check-effort says none is known.
    text = pathlib.Path(rd.data_path('urdf/ur5.urdf')).read_text()
    zeroed = tmp_path / 'ur5_solidworks.urdf'
    zeroed.write_text(re.sub(r'<limit [^>]*/>', '<limit lower="0" upper="0" effort="0" '
                                                'velocity="0"/>', text))
    code, out, err = run(capsys, 'trajectory', zeroed, plan(tmp_path, 0.3), '--json',
                         '--no-plot', '-o', tmp_path / 'x')
    assert code == 0 and json.loads(out)['violations'] == [], out
    assert "'ur5' has 1 warning(s)" in err                  # the all-zero <limit> line
    code, _, err = run(capsys, 'trajectory', zeroed, plan(tmp_path, 0.3), '--check-effort',
                       '-o', tmp_path / 'x')
    assert code == 2 and 'no effort or velocity limits (none given, or 0: unknown' in err


def test_payload_makes_the_motion_slower(capsys, tmp_path):
    model = quiet_bundled('ur5')
    zeros = np.zeros((2, 6))
    waypoints = ([0.0, 0.6], [np.zeros(6), np.full(6, 0.7)], zeros, zeros)
    bare = feasibility.check_trajectory(model, *waypoints)
    loaded = feasibility.check_trajectory(model.with_payload(5.0, (0.0, 0.0, 0.1)), *waypoints)
    assert bare.feasible and not loaded.feasible and loaded.scale > 1.0
    code, out, _ = run(capsys, 'trajectory', 'ur5', plan(tmp_path, 0.6), '--check-effort',
                       '--json', '--no-plot', '--payload', '5,0,0,0.1', '-o', tmp_path / 'x')
    check = json.loads(out)['effort_check']
    assert code == 1 and check['scale'] == pytest.approx(loaded.scale, rel=2e-3)
    code, _, err = run(capsys, 'trajectory', 'ur5', plan(tmp_path, 0.6), '--payload', '-1',
                       '-o', tmp_path / 'x')
    assert code != 0 and '--payload' in err
