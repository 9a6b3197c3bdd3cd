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
"""Write the sample recording to try ``robot-dynamics identify`` on, and its truth.

A PUMA 560 "as built" (``robot_dynamics.identification.physical.as_built``: the bundled
model's masses × 1.2, every link a real rigid body, viscous and Coulomb friction falling from
1.5 to 0.3 N m s/rad and 0.8 to 0.2 N m from the first joint to the last) runs a periodic
five-harmonic motion (period 10 s, seeded coefficients) for 20 s, sampled at 200 Hz: encoder
positions quantised to 2^-18 rad, efforts the exact inverse dynamics plus 1 % of each joint's
torque RMS of Gaussian noise. Writes, from the repository root::

    python tools/sample_recording.py
    docs/examples/puma560_run.csv          t, q_joint1..6 (rad), tau_joint1..6 (N m)
    docs/examples/puma560_truth.urdf       the robot that produced it (its true parameters)

The output depends only on the seed and the library's inverse dynamics; docs/identification.md
runs ``identify`` on it (test/test_docs_commands.py), test/identification/test_sample_run.py
checks it is what this script writes.
"""

import argparse
import pathlib
import warnings

import numpy as np

import robot_dynamics as rd
from robot_dynamics.identification import FourierTrajectory
from robot_dynamics.identification.physical import as_built

ROOT = pathlib.Path(__file__).resolve().parents[1]
RATE, SECONDS, QUANTUM, NOISE, SEED = 200.0, 20.0, 2.0 ** -18, 0.01, 5


def truth():
    """Return the "as built" PUMA 560 that produced the recording."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        nominal = rd.load_model('puma560')
    return as_built(nominal).replace(name='puma560_truth')


def motion(model, rng):
    """Return the periodic excitation: fixed offsets, seeded harmonics."""
    return FourierTrajectory(model.joint_names, 10.0, np.array([0.0, 1.5, -1.5, 0.5, 0.0, 0.0]),
                             rng.normal(size=(6, 5)) * 0.25, rng.normal(size=(6, 5)) * 0.25)


def recording(model, seed=SEED):
    """Return ``t`` (K,), quantised positions and noisy efforts (K, 6) of the sample run."""
    rng = np.random.default_rng(seed)
    trajectory = motion(model, rng)
    t = (np.arange(int(SECONDS * RATE)) + 0.5) / RATE          # no sample at q̇ = 0 exactly
    q, qd, qdd = trajectory.evaluate(t)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    noise = NOISE * np.sqrt(np.mean(tau ** 2, axis=0)) * rng.normal(size=tau.shape)
    return t, np.round(q / QUANTUM) * QUANTUM, tau + noise


def csv_text(model, t, q, tau):
    """Return the CSV text: a comment saying what it is, a header, rows of 13 numbers."""
    header = ','.join(['t'] + [f'q_{n}' for n in model.joint_names]
                      + [f'tau_{n}' for n in model.joint_names])
    lines = ['# sample recording of a PUMA 560 "as built" (tools/sample_recording.py); its true '
             'parameters: docs/examples/puma560_truth.urdf', header]
    lines += [','.join([f'{row[0]:.4f}'] + [f'{x:.7f}' for x in row[1:7]]
                       + [f'{x:.5f}' for x in row[7:]])
              for row in np.column_stack((t, q, tau))]
    return '\n'.join(lines) + '\n'


def main(argv=None):
    """Write the recording and the truth (default into docs/examples/)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--folder', default=str(ROOT / 'docs' / 'examples'))
    folder = pathlib.Path(parser.parse_args(argv).folder)
    model = truth()
    (folder / 'puma560_run.csv').write_text(csv_text(model, *recording(model)))
    (folder / 'puma560_truth.urdf').write_text(model.to_urdf())
    print(f'wrote {folder / "puma560_run.csv"} and {folder / "puma560_truth.urdf"}')


if __name__ == '__main__':
    main()
