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
"""Trajectory sampling (library) and the message conversions the nodes use."""

import os
import subprocess
import sys

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.trajectory import (check_waypoints, sample_waypoints,
                                                  standard_waypoints)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def numeric_derivative(f, t, h=1e-6):
    """Central difference of a vector function of time."""
    return (f(t + h) - f(t - h)) / (2 * h)


def test_quintic_hermite_meets_every_waypoint_and_is_smooth():
    rng = np.random.default_rng(3)
    times = np.array([0.0, 0.7, 1.5, 2.0])
    p, v, a = (rng.normal(size=(4, 2)) for _ in range(3))
    for k, t in enumerate(times[1:-1], start=1):         # continuous at inner waypoints
        for side in (t - 1e-9, t + 1e-9):
            q, qd, qdd = sample_waypoints(times, p, v, a, side)
            np.testing.assert_allclose(q, p[k], atol=1e-7)
            np.testing.assert_allclose(qd, v[k], atol=1e-6)
            np.testing.assert_allclose(qdd, a[k], atol=1e-5)
    t = 1.1                                              # derivatives are consistent
    np.testing.assert_allclose(numeric_derivative(
        lambda s: sample_waypoints(times, p, v, a, s)[0], t),
        sample_waypoints(times, p, v, a, t)[1], atol=1e-6)
    np.testing.assert_allclose(numeric_derivative(
        lambda s: sample_waypoints(times, p, v, a, s)[1], t),
        sample_waypoints(times, p, v, a, t)[2], atol=1e-5)


def test_rest_to_rest_quintic_is_the_classic_profile():
    # Craig eq. 7.18 with zero end velocities/accelerations: 10 s^3 - 15 s^4 + 6 s^5.
    times, p = np.array([0.0, 2.0]), np.array([[1.0], [3.0]])
    zeros = np.zeros_like(p)
    s = 0.3
    q, qd, qdd = sample_waypoints(times, p, zeros, zeros, 2.0 * s)
    assert q[0] == pytest.approx(1.0 + 2.0 * (10 * s ** 3 - 15 * s ** 4 + 6 * s ** 5), abs=1e-14)
    assert qd[0] == pytest.approx(2.0 * (30 * s ** 2 - 60 * s ** 3 + 30 * s ** 4) / 2.0,
                                  abs=1e-13)


def test_cubic_and_linear_interpolation():
    times, p = np.array([0.0, 1.0]), np.array([[0.0], [1.0]])
    v = np.array([[0.0], [0.0]])
    q, qd, qdd = sample_waypoints(times, p, v, None, 0.5)        # cubic: 3 s^2 - 2 s^3
    assert (q[0], qd[0], qdd[0]) == pytest.approx((0.5, 1.5, 0.0), abs=1e-14)
    q, qd, qdd = sample_waypoints(times, p, None, None, 0.25)    # linear
    assert (q[0], qd[0], qdd[0]) == pytest.approx((0.25, 1.0, 0.0), abs=1e-14)


def test_holds_the_ends_at_rest():
    times, p = np.array([0.5, 1.0]), np.array([[1.0, 2.0], [3.0, 4.0]])
    v = np.ones_like(p)
    for t, expected in ((0.0, p[0]), (5.0, p[-1])):
        q, qd, qdd = sample_waypoints(times, p, v, v, t)
        np.testing.assert_array_equal(q, expected)
        assert not qd.any() and not qdd.any()


def test_bad_waypoints_are_rejected():
    with pytest.raises(ValueError, match='increase'):
        check_waypoints([0.0, 0.0], [[0.0], [1.0]])
    with pytest.raises(ValueError, match='NaN'):
        check_waypoints([0.0, 1.0], [[0.0], [np.nan]])
    with pytest.raises(ValueError, match='velocities'):
        check_waypoints([0.0, 1.0], [[0.0], [1.0]], velocities=[[0.0]])


def test_standard_waypoints_stay_within_limits():
    model = rd.RobotModel(joint_types=['revolute', 'prismatic'], axis=np.eye(3)[[2, 0]],
                          placement_rotation=np.tile(np.eye(3), (2, 1, 1)),
                          placement_translation=np.zeros((2, 3)), mass=[1.0, 1.0],
                          com=np.zeros((2, 3)), inertia=np.tile(np.eye(3) * 0.1, (2, 1, 1)),
                          lower_limit=[-3.0, 0.2], upper_limit=[3.0, 0.6])
    times, p, v, a = standard_waypoints(model, move_time=0.5, amplitude=0.5, moves=4)
    assert times.tolist() == [0.0, 0.5, 1.0, 1.5, 2.0]
    samples = np.array([sample_waypoints(times, p, v, a, t)[0]
                        for t in np.linspace(0, 2, 201)])
    assert np.all(samples >= model.lower_limit) and np.all(samples <= model.upper_limit)
    assert np.all(np.ptp(samples, axis=0) > 0.1)
    np.testing.assert_array_equal(p[0], p[-1])


def test_library_never_imports_rclpy():
    code = ('import sys, pkgutil, importlib, robot_dynamics\n'
            'for m in pkgutil.walk_packages(robot_dynamics.__path__, "robot_dynamics."):\n'
            '    if not m.name.startswith("robot_dynamics.nodes"):\n'
            '        importlib.import_module(m.name)\n'
            'print("rclpy" in sys.modules)\n')
    output = subprocess.run([sys.executable, '-W', 'ignore', '-c', code], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    assert output.strip() == 'False'


def test_message_conversions():
    from sensor_msgs.msg import JointState
    from robot_dynamics.nodes import conversions as c
    matrix = np.arange(9.0).reshape(3, 3)
    msg = c.matrix_to_array(matrix)
    assert [d.label for d in msg.layout.dim] == ['rows', 'cols']
    assert [(d.size, d.stride) for d in msg.layout.dim] == [(3, 9), (3, 3)]
    i, j = 2, 1
    assert msg.data[msg.layout.data_offset + i * msg.layout.dim[1].stride + j] == matrix[i, j]
    np.testing.assert_array_equal(c.array_to_matrix(msg, 3), matrix)
    state = JointState(name=['b', 'x', 'a'], position=[2.0, 9.0, 1.0], velocity=[0.2, 9.0, 0.1])
    q, qd, effort = c.joint_state_to_arrays(state, ['a', 'b'])
    assert q.tolist() == [1.0, 2.0] and qd.tolist() == [0.1, 0.2] and effort is None
    with pytest.raises(c.BadInput, match='repeated'):
        c.joint_state_to_arrays(JointState(name=['a', 'a'], position=[1.0, 1.0]), ['a'])
    trajectory = c.trajectory_message(['a', 'b'], [0.0, 1.5], [[0, 1], [2, 3]])
    assert trajectory.points[1].time_from_start.sec == 1
    assert trajectory.points[1].time_from_start.nanosec == 500_000_000
    times, p, v, a = c.trajectory_to_arrays(trajectory, ['b', 'a'])
    assert p.tolist() == [[1.0, 0.0], [3.0, 2.0]] and v is None and a is None
