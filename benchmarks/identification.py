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
"""Identification targets on simulated data (issue 15): accuracy and time, printed as a table.

    .venv/bin/python benchmarks/identification.py

PUMA 560 "as built" (masses +20 %, friction, physical inertias; see
test/identification/test_identify.py) runs an optimised excitation at 1 kHz; torques by
inverse dynamics. Noise-free, and with realistic noise (torque noise 1 % of its RMS, encoder
quantisation 2^-18 rad). Validation on another trajectory. Then 60 s of the 7-DoF Panda.
"""

import os
import sys
import time
import warnings

import numpy as np

import robot_dynamics as rd
from robot_dynamics.identification import design_excitation, identify, parameters
from robot_dynamics.identification.physical import as_built

sys.path[:0] = [os.path.join(os.path.dirname(__file__), '..', 'test', folder)
                for folder in ('identification', '')]
from measured_runs import record  # noqa: E402
from test_identify import other_trajectory  # noqa: E402


def puma_rows():
    """Noise-free and noisy identification of the PUMA: errors and times."""
    nominal = rd.load_model('puma560')
    true = as_built(nominal)
    started = time.perf_counter()
    excitation = design_excitation(nominal, time_limit=30.0)
    print(f'excitation: cond {excitation.initial_condition:.1f} (best random start) -> '
          f'{excitation.condition:.1f} in {time.perf_counter() - started:.1f} s, '
          f'{excitation.evaluations} evaluations')
    other = other_trajectory(nominal)
    for noise in (False, True):
        data = record(true, excitation.trajectory, 30.0, noise=noise)
        check_data = record(true, other, 7.0, noise=noise, seed=1)
        started = time.perf_counter()
        result = identify(nominal, data, validation=check_data)
        elapsed = time.perf_counter() - started
        truth = result.base.values(parameters(true))
        big = np.abs(truth) > 1e-6 * np.abs(truth).max()
        relative = np.abs(result.theta - truth)[big] / np.abs(truth)[big]
        check = result.validation
        exact = rd.inverse_dynamics(true, *other.evaluate(check.t))
        model_error = np.sqrt(np.mean((check.physical - exact) ** 2) / np.mean(exact ** 2))
        label = 'noisy' if noise else 'noise-free'
        print(f'{label}: max relative base-parameter error {relative.max():.2e}; validation '
              f'torque RMS error / torque RMS: nominal {check.relative_error("nominal"):.4f}, '
              f'base {check.relative_error("base"):.2e}, physical '
              f'{check.relative_error("physical"):.2e} (vs noise-free truth '
              f'{model_error:.2e}); {elapsed:.2f} s')


def panda_time():
    """60 s of the 7-DoF Panda at 1 kHz with noise: identification time."""
    nominal = rd.load_model('panda')
    true = nominal.replace(mass=nominal.mass * 1.1, viscous_friction=np.full(7, 0.5))
    excitation = design_excitation(nominal, time_limit=10.0)
    data = record(true, excitation.trajectory, 60.0, noise=True)
    started, cpu = time.perf_counter(), time.process_time()
    result = identify(nominal, data)
    print(f'panda, 60 s at 1 kHz ({result.data.samples_in} samples): '
          f'{time.perf_counter() - started:.2f} s wall, {time.process_time() - cpu:.2f} s CPU '
          f'({", ".join(f"{k} {v:.2f}" for k, v in result.timings.items())}); validation '
          f'error {result.validation.relative_error("physical"):.4f}')


if __name__ == '__main__':
    warnings.simplefilter('ignore', rd.ModelWarning)
    puma_rows()
    panda_time()
