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
"""The bringups' command lines without ROS: a stand-in runs the demo (nodes/bringup.py's role)."""

import numpy as np
import pytest

from robot_dynamics.bringup.command_lines import arms_arguments, bringup_main
from robot_dynamics.simulation.tracking import TrackingRun


def constant_error(error, feedforward):
    """Return a 2-joint TrackingRun whose tracking error is ``error`` throughout."""
    t = np.linspace(0.0, 1.0, 11)
    q = np.zeros((11, 2))
    return TrackingRun(['j1', 'j2'], t, q + error, q, q, np.full(5, 1e-5), 2.0, 1.3, feedforward)


class Runs:
    """A stand-in for run_demo: records its calls, returns constant-error runs."""

    def __init__(self, failure=None):
        self.calls, self.failure = [], failure

    def __call__(self, robot, duration, feedforward, config):
        self.calls.append((robot, duration, feedforward, config))
        if self.failure:
            raise self.failure
        return constant_error(0.001 if feedforward else 0.004, feedforward)


def test_the_comparison_prints_both_reports_the_ratio_and_plots(tmp_path, capsys):
    runs = Runs()
    plot = tmp_path / 'demo.png'
    argv = ['--robot', 'ur5', '--duration', '2', '--compare', '--plot', str(plot)]
    assert bringup_main(argv, runs) == 0
    assert runs.calls == [('ur5', 2.0, True, None), ('ur5', 2.0, False, None)]
    out = capsys.readouterr().out
    assert '[ur5, with feed-forward] tracked 1.00 s' in out
    assert '[ur5, without feed-forward] tracked 1.00 s' in out
    assert 'feed-forward reduces the overall RMS tracking error 4.0x' in out
    assert plot.read_bytes().startswith(b'\x89PNG')


def test_an_unknown_robot_is_refused_before_any_run(capsys):
    runs = Runs()
    assert bringup_main(['--robot', 'pumaa'], runs) == 2 and runs.calls == []
    assert "--robot 'pumaa' is neither a bundled model" in capsys.readouterr().err


def test_a_failed_run_is_one_line_and_code_1(capsys):
    runs = Runs(failure=RuntimeError('the demo motion was refused,\n   nothing to run'))
    assert bringup_main(['--no-feedforward'], runs) == 1
    assert runs.calls == [('puma560', None, False, None)]
    err = capsys.readouterr().err
    assert err == ('robot_dynamics_bringup: error: the demo motion was refused, nothing to '
                   'run\n')


def test_the_arms_command_line_reads_the_file_and_leaves_the_ros_arguments(tmp_path):
    arms, nodes, parameters, ros = arms_arguments(['--robot', ' ur5 ', '--ros-args', '-p',
                                                   'x:=1'])
    assert arms == [('/left', 'ur5'), ('/right', 'ur5')] and nodes == ['dynamics_node']
    assert parameters['dynamics_node']['publish_mode'] == 'on_message'
    assert ros == ['--ros-args', '-p', 'x:=1']
    with pytest.raises(SystemExit) as exit_:
        arms_arguments(['--arms', str(tmp_path / 'missing.yaml')])
    assert exit_.value.code == 2
