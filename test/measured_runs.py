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
"""Simulated measurements for identification: sampled runs of a "true" robot."""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.io.recordings import Recording

RATE = 1000.0
QUANTUM = 2.0 ** -18                                       # rad per encoder count


def record(model, trajectory, seconds, noise=False, seed=0):
    """Sample a run of ``trajectory`` on ``model``: exact torques by inverse dynamics.

    Samples sit half a period off the trajectory's start so that no sample has q̇ = 0
    exactly (where sign(q̇) = 0 would put a one-sample notch in the Coulomb friction).
    """
    t = (np.arange(int(seconds * RATE)) + 0.5) / RATE
    q, qd, qdd = trajectory.evaluate(t)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    if noise:
        rng = np.random.default_rng(seed)
        q = np.round(q / QUANTUM) * QUANTUM
        tau = tau + 0.01 * np.sqrt(np.mean(tau ** 2, axis=0)) * rng.normal(size=tau.shape)
    return Recording(model.joint_names, t, q, tau)
