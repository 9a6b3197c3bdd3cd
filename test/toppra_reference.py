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
"""toppra, the reference of rd.time_optimal: same path, limits and dynamics (tests, benchmark).

toppra's ``SplineInterpolator(bc_type='clamped')`` is the same scipy ``CubicSpline`` as our
waypoint path; its ``JointTorqueConstraint`` calls ``rd.inverse_dynamics``. Settings as its
docs recommend: 401 grid points, the interpolation discretisation, the seidel solver,
``ParametrizeConstAccel`` (``ParametrizeSpline`` is its default).
"""

import logging
import time

import numpy as np
import toppra
import toppra.algorithm
import toppra.constraint

import robot_dynamics as rd


def waypoints(model, seed, count=5):
    """Return ``count`` random waypoints within 40 % of each joint's range about its middle."""
    rng = np.random.default_rng(seed)
    low, high = model.lower_limit, model.upper_limit
    middle, span = 0.5 * (low + high), np.minimum(high - low, 2 * np.pi)
    return middle + 0.4 * span * rng.uniform(-0.7, 0.7, (count, model.dof))


def toppra_timing(model, path, vmax, parametrizer='ParametrizeConstAccel', dt=1e-3,
                  clock=time.perf_counter):
    """Return toppra's duration, its samples every ``dt`` and its compute times.

    ``(duration, (t, q, qd, qdd), seconds to solve, seconds to solve and sample)`` by
    ``clock``.
    """
    logging.disable(logging.CRITICAL)              # toppra logs every solve
    start = clock()
    inverse = (lambda q, qd, qdd: rd.inverse_dynamics(model, q, qd, qdd))
    constraints = [
        toppra.constraint.JointVelocityConstraint(np.c_[-vmax, vmax]),
        toppra.constraint.JointTorqueConstraint(
            inverse, np.c_[-model.effort_limit, model.effort_limit], np.zeros(model.dof),
            discretization_scheme=toppra.constraint.DiscretizationType.Interpolation)]
    instance = toppra.algorithm.TOPPRA(
        constraints, toppra.SplineInterpolator(path.x, path(path.x), bc_type='clamped'),
        gridpoints=np.linspace(path.x[0], path.x[-1], 401), parametrizer=parametrizer)
    trajectory = instance.compute_trajectory(0, 0)
    solved = clock()
    t = np.arange(0.0, trajectory.duration, dt)
    samples = (t, trajectory(t), trajectory(t, 1), trajectory(t, 2))
    return trajectory.duration, samples, solved - start, clock() - start
