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
"""Issue 33's detection protocol on the simulated Panda of test/contact_runs.py, per motion.

Run on demand (a few minutes)::

    .venv/bin/python benchmarks/contacts_detection.py [--motions 1,2,3] [--gain 50]
        [--safety 2]

For each motion and each kind of effort (1 kHz torque sensors; ~100 Hz motor currents with
2 % noise and a 3 % torque-constant error): ``identify`` on the first 30 s of a 60 s run
without contact, the thresholds there (:func:`robot_dynamics.contacts.collision_thresholds`),
then on the held-out 30 s the false alarms and the largest ``|τ̂_ext| / T``, and on six 3 s
runs of the held-out time with a step of 6-8 N m on joint 2 or 4 the detection delays.
docs/contacts.md quotes the results.
"""

import argparse
import pathlib
import sys
import warnings

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / 'test')]

from robot_dynamics.contacts import (  # noqa: E402
    collision_thresholds, detect_collisions, observer_samples,
)
from robot_dynamics.identification import identify  # noqa: E402
import contact_runs  # noqa: E402

EFFORTS = {'1 kHz torque sensors': dict(every=1, noise=0.01, gain_error=0.0),
           '100 Hz motor currents': dict(every=10, noise=0.02, gain_error=0.03)}
STEPS = [(1.3, 1, 6.0), (2.1, 3, -6.0), (1.7, 1, 7.0), (2.4, 3, -8.0), (1.1, 1, 6.0),
         (1.9, 3, -7.0)]


def runs(truth, motion):
    """Return the 60 s run without contact and the six runs with a step (held-out time)."""
    free = contact_runs.simulate(truth, motion, 60.0)
    touched = []
    for k, (offset, joint, torque) in enumerate(STEPS):
        start = 30.0 + 4.5 * k
        step = (start + offset, joint, torque)
        touched.append((step, contact_runs.simulate(truth, motion, 3.0, contact=step,
                                                    start=start)))
    return free, touched


def protocol(nominal, free, touched, effort, seed, gain, safety):
    """Return false alarms, the largest ratio, delays (s), the major joints' thresholds."""
    learn = contact_runs.record(free, nominal, seed=seed, start=0.0, end=30.0, **effort)
    model = identify(nominal, learn).model
    s = observer_samples(learn, model)
    thresholds = collision_thresholds(model, s.t, s.q, s.qd, s.tau, gain=gain, safety=safety)
    rest = observer_samples(contact_runs.record(free, nominal, seed=seed, start=30.0, end=60.0,
                                                **effort), model)
    held_out = detect_collisions(model, rest.t, rest.q, rest.qd, rest.tau, thresholds)
    alarms, delays = len(held_out.events), []
    for (onset, _, _), run in touched:
        s = observer_samples(contact_runs.record(run, nominal, seed=seed + 7, **effort), model)
        found = detect_collisions(model, s.t, s.q, s.qd, s.tau, thresholds).events
        alarms += sum(e.end < onset for e in found)
        after = [e.start - onset for e in found if e.end >= onset]
        delays.append(after[0] if after else np.inf)
    ratio = (np.abs(held_out.tau_ext) / held_out.threshold).max()
    major = np.median(held_out.threshold[:, [1, 3]], axis=0)
    return alarms, ratio, np.array(delays), major


def main():
    """Print one line per motion and kind of effort."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--motions', default='1,2,3')
    parser.add_argument('--gain', type=float, default=50.0)
    parser.add_argument('--safety', type=float, default=2.0)
    args = parser.parse_args()
    warnings.simplefilter('ignore')
    truth, nominal = contact_runs.truth_model(), contact_runs.nominal_model()
    print(f'gain {args.gain:g} 1/s, safety {args.safety:g}; held-out 30 s and six steps of '
          '6-8 N m on joints 2 and 4 per motion')
    for seed in (int(x) for x in args.motions.split(',')):
        free, touched = runs(truth, contact_runs.Motion.random(nominal, seed=seed))
        for label, effort in EFFORTS.items():
            alarms, ratio, delays, major = protocol(nominal, free, touched, effort, seed,
                                                    args.gain, args.safety)
            print(f'motion {seed}, {label}: false alarms {alarms}, largest |estimate| / '
                  f'threshold {ratio:.2f}; delays ms mean {1e3 * delays.mean():.1f} max '
                  f'{1e3 * delays.max():.1f}; thresholds of joints 2, 4 (median) '
                  f'{major[0]:.2f}, {major[1]:.2f} N m', flush=True)


if __name__ == '__main__':
    main()
