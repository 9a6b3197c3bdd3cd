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
"""retime_goal (the trajectory controller's call) and ``robot-dynamics trajectory --retime``."""

import json
import warnings

import numpy as np
import pytest
import yaml

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.analysis import retime
from robot_dynamics.cli.trajectory import read_trajectory_file
from robot_dynamics.simulation.trajectory import (sample_waypoints, sample_waypoints_many,
                                                  standard_waypoints)


def ur5(payload=5.0):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rd.load_model('ur5').with_payload(payload)


def test_a_goal_from_rest_keeps_its_stops_its_path_and_the_limits():
    model = ur5()
    T, P, V, A = standard_waypoints(model, move_time=1.0, amplitude=1.0)   # 4 rest-to-rest moves
    vmax = 3 * model.velocity_limit
    goal = retime.retime_goal(model, T, P, V, A, velocity_limits=vmax)
    assert len(goal.pieces) == 4 and not goal.moving_start
    assert goal.duration < 0.6 * goal.original_duration
    assert goal.sample_peak <= 1.0 + 1e-9
    tau = rd.inverse_dynamics(model, goal.positions, goal.velocities, goal.accelerations)
    assert np.abs(tau / model.effort_limit).max() <= 1.0 + 1e-9
    # Every goal point is passed, at rest, in order.
    for point in P:
        hit = np.linalg.norm(goal.positions - point, axis=1)
        assert hit.min() < 1e-9 and np.abs(goal.velocities[hit.argmin()]).max() < 1e-12
    # The controller's quintic interpolation of the waypoints (8 points per segment).
    assert goal.interpolation_peak <= 1.02
    step = np.diff(goal.times)                      # every 1 ms; shorter at each piece's end
    assert goal.times[0] == T[0] and step.max() <= 1e-3 + 1e-12
    assert np.median(step) == pytest.approx(1e-3, abs=1e-15)


def test_the_goal_path_follows_the_controllers_interpolant():
    model = ur5()
    T, P, V, A = standard_waypoints(model, move_time=1.0, amplitude=1.0)
    path = retime.goal_path(T[:2], P[:2], V[:2], A[:2])
    deviation = retime.path_deviation(path, T[:2], P[:2], V[:2], A[:2])
    assert deviation < 2e-4                         # rad, joint space
    assert np.linalg.norm(path(path.x[:1], 1)) == pytest.approx(1.0, abs=1e-12)


def test_a_moving_start_continues_at_the_arms_velocity():
    """A goal arriving half-way through a move starts at the arm's state, its velocity too.

    The goal's first point is the arm's current state, with its velocity; the retimed motion
    starts at exactly that velocity.
    """
    model = ur5()
    T, P, V, A = standard_waypoints(model, move_time=1.0, amplitude=1.0)
    q0, v0, a0 = sample_waypoints(T, P, V, A, 0.5)
    goal = retime.retime_goal(model, np.r_[0.5, T[1:]], np.vstack([q0, P[1:]]),
                              np.vstack([v0, V[1:]]), np.vstack([a0, A[1:]]),
                              velocity_limits=3 * model.velocity_limit)
    assert goal.moving_start and goal.times[0] == 0.5
    assert goal.positions[0] == pytest.approx(q0, abs=1e-12)
    assert goal.velocities[0] == pytest.approx(v0, rel=1e-9, abs=1e-12)
    assert goal.sample_peak <= 1.0 + 1e-9
    assert np.abs(goal.velocities[-1]).max() == 0.0
    # Too fast to stop before the first stop: refused, saying what to do.
    with pytest.raises(rd.InfeasiblePathError, match='slow down first'):
        retime.retime_goal(model, np.r_[0.5, T[1:]], np.vstack([q0, P[1:]]),
                           np.vstack([v0, V[1:]]), np.vstack([a0, A[1:]]),
                           velocity_limits=0.5 * np.abs(v0).max())


def test_waypoints_the_controller_reads_reproduce_the_samples():
    model = ur5()
    T, P, V, A = standard_waypoints(model, move_time=1.0, amplitude=0.5, moves=2)
    goal = retime.retime_goal(model, T, P, V, A, every=2)
    inner = goal.times[1:-1]
    q, qd, qdd = sample_waypoints_many(goal.times, goal.positions, goal.velocities,
                                       goal.accelerations, inner)
    assert q == pytest.approx(goal.positions[1:-1], abs=1e-12)
    assert qd == pytest.approx(goal.velocities[1:-1], abs=1e-12)
    with pytest.raises(ValueError, match='every'):
        retime.retime_goal(model, T, P, V, A, every=0)


@pytest.fixture
def plan(tmp_path):
    path = tmp_path / 'move.yaml'
    path.write_text(yaml.safe_dump({'waypoints': {
        'times': [0.0, 0.6, 1.2], 'positions': [[0.0] * 6, [0.9] * 6, [0.0] * 6]}}))
    return str(path)


def test_cli_retime_writes_csv_yaml_and_plot_and_the_yaml_reads_back(plan, tmp_path, capsys):
    prefix = tmp_path / 'out' / 'move'
    code = cli.main(['trajectory', 'ur5', plan, '--retime', '--dt', '0.001', '-o', str(prefix),
                     '--json'])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    report = out['retime']
    assert report['duration'] > 0 and report['sample_peak_ratio'] <= 1.0 + 1e-9
    for suffix in ('_retimed.csv', '_retimed.yaml', '_retimed.png'):
        assert (tmp_path / 'out' / ('move' + suffix)).stat().st_size > 0
    model = ur5(0.0)
    kind, times, q, qd, qdd, _ = read_trajectory_file(str(prefix) + '_retimed.yaml', model)
    assert kind == 'waypoints' and times[-1] == pytest.approx(report['duration'], abs=1e-12)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(tau).max(axis=0) == pytest.approx(report['peak_abs_tau'], rel=1e-12)
    assert np.abs(qd / model.velocity_limit).max() <= 1.0 + 1e-9
    csv = np.loadtxt(str(prefix) + '_retimed.csv', delimiter=',', skiprows=1)
    assert csv.shape == (times.size, 1 + 4 * 6) and csv[:, 0] == pytest.approx(times)


def test_cli_retime_errors_are_one_line(plan, tmp_path, capsys):
    code = cli.main(['trajectory', 'puma560', plan, '--retime', '-o', str(tmp_path / 'p')])
    assert code == 2 and 'has no effort or velocity limits' in capsys.readouterr().err
    code = cli.main(['trajectory', 'ur5', plan, '--retime', '--retime-margin', '1.5',
                     '-o', str(tmp_path / 'p')])
    assert code == 2 and '--retime-margin' in capsys.readouterr().err
