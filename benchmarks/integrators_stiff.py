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
"""Cost of a simulated step per integrator, what the hard stops cost, and a spinning arm.

For the stiff wrist arm (``test/fixtures/stiff_wrist_arm.urdf``, frictionless for the
explicit schemes, which diverge on it otherwise) and the bundled Panda: CPU µs per step of an
engine run (``rd.simulate``, constant torque, one call) for every integrator; the hard stops
(``position_limits=True``) inside the engine's run against a Python loop of ``rd.step`` and
``stops.stop_step`` (the simulation node's path, without its bookkeeping; ``stop_step`` is the
engine's ``rd_stop_step``, the numpy reference with ``--numpy-stops``), timed interleaved in
the same run, as a ratio; and the case where the Coriolis term's velocity
derivative matters: the frictionless Panda spinning (base 10 rad/s, the others 2 rad/s) at
dt = 10 ms, ``implicit`` against ``implicit_coriolis``::

    .venv/bin/python benchmarks/integrators_stiff.py [--steps 5000] [--numpy-stops]
"""

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test')]   # test helpers; the installed package, not the tree

import numpy as np  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.engine import ENGINE  # noqa: E402
from robot_dynamics.simulation import stops  # noqa: E402
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


def python_stops(model, steps, solver=None):
    """CPU µs per step of a Python loop: ``rd.step`` then ``stops.stop_step`` (``solver``)."""
    zero = np.zeros(model.dof)
    q, qd = home_posture(model), zero
    start = time.process_time()
    for _ in range(steps):
        q_next, qd_next, _ = rd.step(model, q, qd, zero, 1e-3, 'implicit')
        q, qd = stops.stop_step(model, q, q_next, qd_next, 1e-3, solver)
    return 1e6 * (time.process_time() - start) / steps


def stops_table(name, model, steps, solver=None):
    """Interleaved best-of-five: Python loop with stops, engine stops, engine without stops."""
    best = {'python': np.inf, 'engine': np.inf, 'none': np.inf}
    for _ in range(5):
        best['python'] = min(best['python'], python_stops(model, steps, solver))
        best['engine'] = min(best['engine'], per_step(model, 'implicit', steps, limits=True))
        best['none'] = min(best['none'], per_step(model, 'implicit', steps))
    loop = 'Python loop, numpy stops' if solver else 'Python loop'
    print(f'{name:16s} implicit + stops: {loop} {best["python"]:.2f}, engine '
          f'{best["engine"]:.2f}, engine without stops {best["none"]:.2f} µs/step; '
          f'Python / engine = {best["python"] / best["engine"]:.1f}, engine stops / none = '
          f'{best["engine"] / best["none"]:.2f}')


def spinning_panda():
    """Print which implicit scheme survives the frictionless Panda spinning at dt = 10 ms."""
    panda = rd.load_model('panda').without_joint_effects()
    q0, qd0, zero = np.full(7, 0.3), np.array([10.0, 2, 2, 2, 2, 2, 2]), np.zeros(7)
    for integrator in ('implicit', 'implicit_coriolis'):
        try:
            run = rd.simulate(panda, q0, qd0, zero, 2.0, 1e-2, integrator=integrator)
            result = (f'finite, energy {run.energy[0]:.1f} J -> {run.energy[-1]:.1f} J, at most '
                      f'{run.energy.max():.1f} J, max |qd| {np.abs(run.qd).max():.1f} rad/s')
        except rd.SimulationError as exc:
            result = f'diverged: {str(exc)[:70]}...'
        print(f'spinning panda   {integrator:20s} {result}')


def main():
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=5000)
    parser.add_argument('--numpy-stops', action='store_true',
                        help="the loop's stops in numpy (solver='rnea'), not the engine's")
    args = parser.parse_args()
    if ENGINE is None:
        sys.exit('the installed robot_dynamics has no compiled engine: install the package '
                 '(./scripts/setup_venv.sh) and run this with .venv/bin/python')
    stiff = rd.RobotModel.from_urdf(str(URDF))
    for name, model in (('stiff wrist arm', stiff), ('panda', rd.load_model('panda'))):
        for integrator in ('euler', 'semi_implicit_euler', 'rk4', 'implicit',
                           'implicit_coriolis'):
            run = model if integrator.startswith('implicit') else model.without_joint_effects()
            print(f'{name:16s} {integrator:20s} {per_step(run, integrator, args.steps):8.2f} '
                  'µs/step (engine run)')
        stops_table(name, model, args.steps, 'rnea' if args.numpy_stops else None)
    spinning_panda()


if __name__ == '__main__':
    main()
