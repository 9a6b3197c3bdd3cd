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
"""Cost of a simulated step per integrator, and what the hard stops cost (docs/simulation.md).

For the stiff wrist arm (``test/fixtures/stiff_wrist_arm.urdf``, frictionless for the
explicit schemes, which diverge on it otherwise) and the bundled Panda: CPU µs per step of an
engine run (``rd.simulate``, constant torque, one call) for every integrator, and of a
per-step run with ``position_limits=True``::

    .venv/bin/python benchmarks/integrators_stiff.py [--steps 20000]
"""

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / 'test')]

import numpy as np  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.simulation.trajectory import home_posture  # noqa: E402

URDF = ROOT / 'test' / 'fixtures' / 'stiff_wrist_arm.urdf'


def per_step(model, integrator, steps, limits=False):
    """Return the best CPU µs per step of three runs."""
    zero = np.zeros(model.dof)
    q0 = home_posture(model)
    best = np.inf
    for _ in range(3):
        start = time.process_time()
        rd.simulate(model, q0, zero, zero, steps * 1e-3, 1e-3, integrator=integrator,
                    position_limits=limits)
        best = min(best, time.process_time() - start)
    return 1e6 * best / steps


def main():
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=20000)
    args = parser.parse_args()
    stiff = rd.RobotModel.from_urdf(str(URDF))
    for name, model in (('stiff wrist arm', stiff), ('panda', rd.load_model('panda'))):
        for integrator in ('euler', 'semi_implicit_euler', 'rk4', 'implicit'):
            run = model if integrator == 'implicit' else model.without_joint_effects()
            print(f'{name:16s} {integrator:20s} {per_step(run, integrator, args.steps):8.2f} '
                  'µs/step (engine run)')
        steps = max(1, args.steps // 10)
        print(f'{name:16s} {"implicit + stops":20s} '
              f'{per_step(model, "implicit", steps, limits=True):8.2f} µs/step (per-step run)')


if __name__ == '__main__':
    main()
