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
"""A two-link arm turning through pi on a continuous joint: positions reported modulo a turn.

Shared by identification's and the contacts command's unwrapping tests.
"""

import warnings

import numpy as np

import robot_dynamics as rd


def turning_run(seconds=20.0, rate=94.0):
    """two_link (continuous joints): joint 1 swinging through pi; times, q and its efforts."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model('two_link')
    t = np.arange(int(seconds * rate)) / rate
    q = np.column_stack([np.pi - 0.05 + 0.8 * np.sin(1.3 * t), 0.5 * np.sin(0.7 * t + 1)])
    qd = np.column_stack([0.8 * 1.3 * np.cos(1.3 * t), 0.35 * np.cos(0.7 * t + 1)])
    qdd = np.column_stack([-0.8 * 1.69 * np.sin(1.3 * t), -0.245 * np.sin(0.7 * t + 1)])
    return model, t, q, rd.inverse_dynamics(model, q, qd, qdd)


def wrapped(q):
    """Return positions as a driver reports them modulo one turn, in [-pi, pi)."""
    return (q + np.pi) % (2 * np.pi) - np.pi
