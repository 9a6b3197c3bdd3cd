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
"""The simulation demo graph (simulator + dynamics + controller + trajectory) on the PUMA 560.

Computed torque with the dynamics node's feed-forward tracks the standard trajectory closely;
without the feed-forward (PD on M(q) only) gravity and friction are uncompensated and the error
is much larger.
"""

import os
import warnings

import numpy as np
import pytest

import rclpy  # noqa: E402,F401  (the test environment installs the ROS 2 wheels)

from robot_dynamics.nodes import bringup  # noqa: E402
from robot_dynamics.simulation import tracking  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUMA = os.path.join(ROOT, 'urdf', 'puma560.urdf')
CONFIG = os.path.join(ROOT, 'config', 'simulation.yaml')
# A shorter run of the standard trajectory than the demo's, to keep the suite fast. The
# simulator waits up to 1 s of wall time (config: 0.1 s) for the controller's command after each
# state: a controller callback delayed 0.2 s on every 20th state made 18 steps go on without a
# new command at 0.1 s (RMS 6.3e-4 -> 7.4e-4 rad), none at 1 s (errors as unloaded, to 4 digits).
LOCKSTEP = {'simulation_node': {'lockstep_timeout': 1.0}}
SHORT = {'trajectory_publisher': {'moves': 2, 'move_time': 0.6, 'start_delay': 0.1}, **LOCKSTEP}
RMS_BOUND = 3e-3       # rad, every joint, with feed-forward
RATIO_BOUND = 20.0     # overall RMS without / with feed-forward


@pytest.fixture(scope='module')
def runs():
    """One run with and one without the feed-forward."""
    assert os.path.exists(PUMA), 'urdf/puma560.urdf is bundled'
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return {feedforward: bringup.run_demo(PUMA, None, feedforward, CONFIG, extra=SHORT,
                                              wall_timeout=60.0)
                for feedforward in (True, False)}


def test_feedforward_tracks_below_bound(runs):
    result = runs[True]
    assert result.t[-1] - result.t[0] > 1.2           # the whole trajectory was recorded
    assert np.all(np.isfinite(result.q)) and np.all(np.isfinite(result.tau))
    assert np.all(result.rms_error < RMS_BOUND), tracking.report(result)
    moved = np.ptp(result.q_desired, axis=0)
    assert np.all(moved > 0.1), 'the trajectory does not move every joint'
    assert result.compute_times.size > 100


def test_without_feedforward_error_is_much_larger(runs):
    def overall(result):
        return np.sqrt(np.mean(result.rms_error ** 2))
    ratio = overall(runs[False]) / overall(runs[True])
    assert ratio > RATIO_BOUND, (tracking.report(runs[True]), tracking.report(runs[False]))


def test_plot_is_written(runs, tmp_path):
    path = tmp_path / 'demo.png'
    tracking.plot(runs[True], str(path))
    assert path.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_demo_figure_shows_error_per_joint_with_and_without_feedforward(runs):
    figure = tracking.demo_figure(runs[True], runs[False])
    axes = np.array(figure.axes).reshape(2, 2)
    for row, feedforward in ((0, True), (1, False)):
        run = runs[feedforward]
        error_axis, torque_axis = axes[row]
        assert ('with feed-forward' if feedforward else 'without feed-forward') in \
            error_axis.get_title()
        assert 'tracking error' in error_axis.get_title()
        assert len(error_axis.lines) == len(run.joint_names)
        for j, line in enumerate(error_axis.lines):
            np.testing.assert_allclose(line.get_ydata(),
                                       1e3 * (run.q_desired[:, j] - run.q[:, j]))
        for j, line in enumerate(torque_axis.lines):
            np.testing.assert_allclose(line.get_ydata(), run.tau[:, j])


@pytest.mark.parametrize('robot', ['panda', 'stanford', 'ur5'])
def test_other_robots_start_where_the_trajectory_starts(robot):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        result = bringup.run_demo(robot, None, True, CONFIG, extra=SHORT, wall_timeout=60.0)
    start_error = np.abs(result.q_desired[0] - result.q[0])
    assert start_error.max() < 1e-3, (robot, start_error)
    assert result.max_error.max() < 0.1, tracking.report(result)   # was 0.95 rad


def test_a_late_trajectory_publisher_is_recorded_to_the_end_of_its_motion(monkeypatch):
    """Its timer first publishes 0.5 simulated s late (as on a loaded machine).

    The run lasts until the motion it actually published has ended, plus the settling time:
    the run to ``start_delay`` + the motion's duration cut it to 1.0 of its 1.2 s.
    """
    from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher
    on_timer, late = TrajectoryPublisher._on_timer, 0.5

    def late_timer(self):
        if self.get_clock().now().nanoseconds >= late * 1e9:
            on_timer(self)
    monkeypatch.setattr(TrajectoryPublisher, '_on_timer', late_timer)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        result = bringup.run_demo(PUMA, None, True, CONFIG, extra=SHORT, wall_timeout=60.0)
    assert result.t[0] >= late + 0.1 - 1e-9, 'the motion did not start late'
    assert result.t[-1] - result.t[0] > 1.2 + 0.2, tracking.report(result)   # + most of 0.3 s
    assert result.sim_time >= result.t[0] + 1.2 + bringup.SETTLE - 1e-9


def test_unknown_robot_is_one_line_and_a_nonzero_exit():
    import subprocess
    import sys
    result = subprocess.run([sys.executable, '-m', 'robot_dynamics.nodes.bringup', '--robot',
                             'no_such_robot'], capture_output=True, text=True, timeout=120,
                            cwd=ROOT)
    assert result.returncode != 0
    assert result.stderr.count('\n') == 1 and 'no_such_robot' in result.stderr, result.stderr
    assert 'puma560' in result.stderr and 'Traceback' not in result.stderr
