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
"""The demo's figure explains itself (issue 36.4): legends on every panel, the torque steps.

Was: the error panels had no legend, and the feed-forward torque's steps at every waypoint
were unexplained. No ROS graph here: the figure of a run recorded from the library
(robot_dynamics.simulation.tracking, what robot_dynamics_bringup plots).
"""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.simulation import tracking
from robot_dynamics.simulation.trajectory import sample_waypoints, standard_waypoints


def feedforward_run(model):
    """Return a TrackingRun whose torques are the motion's feed-forward ID(q_d, q̇_d, q̈_d)."""
    waypoints = standard_waypoints(model, 1.0, 0.5, 4)
    t = np.arange(0.0, 4.0, 0.002)
    q, qd, qdd = (np.array(x) for x in zip(*(sample_waypoints(*waypoints, s) for s in t)))
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    return tracking.TrackingRun(list(model.joint_names), t, q, q + 1e-4, tau, np.zeros(0), 1.0,
                                4.0), tau, t


def test_every_panel_has_a_legend_and_the_torque_steps_are_explained():
    model = rd.load_model('puma560')
    run, tau, t = feedforward_run(model)
    figure = tracking.demo_figure(run, run)
    for axis in figure.axes:
        legend = axis.get_legend()
        assert legend is not None
        assert [text.get_text() for text in legend.get_texts()] == list(model.joint_names)
    torque_titles = [axis.get_title() for axis in figure.axes[1::2]]
    assert all(tracking.STEP_NOTE in title for title in torque_titles)
    # What the note says: the steps sit at the waypoints and are 2 Fc (Coulomb flipping; at
    # the waypoint sample itself q̇ = 0 and sign(0) = 0: half the step on either side).
    at = [int(np.argmin(np.abs(t - waypoint))) for waypoint in (1.0, 2.0, 3.0)]
    for k in at:
        np.testing.assert_allclose(np.abs(tau[k + 1] - tau[k - 1]), 2 * model.coulomb_friction,
                                   rtol=0.01)
    jumps = np.abs(np.diff(tau, axis=0))
    smooth = np.delete(jumps, [0] + [k + d for k in at for d in (-1, 0)], axis=0)  # 0: start
    assert smooth.max() < 0.05 * (2 * model.coulomb_friction).max()


def test_the_summary_table_lines_up_for_long_joint_names_and_gives_the_median():
    """Panda's 12-character names overran the 10-character column; a mean above p99 puzzled."""
    names = ['panda_joint1', 'a_much_longer_joint_name_2']
    q = np.zeros((3, 2))
    times = np.array([1e-5] * 99 + [2e-3])             # one slow message among fast ones
    run = tracking.TrackingRun(names, np.arange(3) * 0.01, q, q + [[1e-3, 2e-3]], q, times,
                               1.0, 0.02)
    lines = tracking.report(run).splitlines()
    table = lines[1:4]
    assert len({len(line) for line in table}) == 1, table
    assert [line.split()[0] for line in table] == ['joint', *names]
    assert 'median 0.010 ms, mean 0.030 ms' in lines[-1] and 'max 2.000 ms' in lines[-1]
