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
"""The demo and trajectory_publisher respect the robot's limits, or refuse and say so.

Reproduction (issue 21.4): a robot whose velocity limits its own standard trajectory exceeds
had that trajectory rejected by the dynamics node; the demo then printed "rms error 0.000e+00",
plotted a flat line and exited 0. Here: a UR5 with 0.5 rad/s velocity limits.
"""

import numpy as np
import yaml

from robot_dynamics.analysis import feasibility
from robot_dynamics.bringup.demo_graph import config_path
from robot_dynamics.nodes import bringup
from robot_dynamics.simulation.tracking import report
from robot_dynamics.simulation.trajectory import standard_waypoints
from robots import quiet_bundled

SHORT = {'moves': 2, 'move_time': 0.6, 'start_delay': 0.1}


def slow_ur5(tmp_path):
    """Write a UR5 URDF with 0.5 rad/s velocity limits (its standard motion needs more)."""
    model = quiet_bundled('ur5').replace(velocity_limit=np.full(6, 0.5))
    path = tmp_path / 'slow_ur5.urdf'
    path.write_text(model.to_urdf())
    return model, str(path)


def config(tmp_path, publisher_policy):
    """Write the demo config with a short standard motion and the publisher's policy."""
    data = yaml.safe_load(open(config_path()).read())
    data['/**/trajectory_publisher']['ros__parameters'].update(SHORT,
                                                               feasibility=publisher_policy)
    # Wait up to 1 s of wall time for each command (config: 0.1 s), so that a controller
    # delayed by load does not let the simulator step on without it (test_nodes_closed_loop).
    data['/**/simulation_node']['ros__parameters']['lockstep_timeout'] = 1.0
    path = tmp_path / f'{publisher_policy}.yaml'
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_refused_motion_makes_the_demo_fail_and_say_why(tmp_path, capsys):
    _, urdf = slow_ur5(tmp_path)
    code = bringup.main(['--robot', urdf, '--config', config(tmp_path, 'reject')])
    err = capsys.readouterr().err
    assert code == 1
    assert 'the demo motion was refused' in err and 'the velocity limit is 0.5 rad/s' in err


def test_motion_the_dynamics_node_rejects_makes_the_demo_fail(tmp_path, capsys):
    _, urdf = slow_ur5(tmp_path)
    code = bringup.main(['--robot', urdf, '--config', config(tmp_path, 'warn')])
    err = capsys.readouterr().err
    assert code == 1
    assert 'never reached the controller' in err and 'velocity' in err


def test_standard_motion_is_slowed_to_fit_and_tracked(tmp_path):
    model, urdf = slow_ur5(tmp_path)
    waypoints = standard_waypoints(model, SHORT['move_time'], 0.5, SHORT['moves'])
    k = feasibility.check_trajectory(model, *waypoints).scale
    assert k > 2.0
    result = bringup.run_demo(urdf, None, True, config(tmp_path, 'scale'), wall_timeout=120.0)
    assert result.t[-1] - result.t[0] > k * waypoints[0][-1]       # it ran k times longer
    speed = np.abs(np.diff(result.q, axis=0) / np.diff(result.t)[:, None])
    assert speed.max() <= 0.5 * 1.02, speed.max()                  # within the limit (+2 %)
    assert result.max_error.max() < 0.01, report(result)
