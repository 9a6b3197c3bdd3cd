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
"""The momentum observer's cost against a Pinocchio-based observer, in the same run.

Run on demand (not in CI), with the installed package::

    .venv/bin/python benchmarks/contacts.py [--repeat 7] [--seconds 60]

For the Panda with friction (7 joints): µs per streaming update (``MomentumObserver.update``,
one sample, Python call included) against the same observer written over Pinocchio
(``crba``, ``computeCoriolisMatrix``, ``computeGeneralizedGravity`` per sample, the friction
and the update in numpy), µs per ``M q̇, Cᵀ q̇, G`` (the engine's one O(n) pass against
Pinocchio's three calls), and ms for a whole recording (``--seconds`` at 1 kHz,
``rd.momentum_observer``, its momentum terms on the engine's threads). Each repeat times ours
and the peer back to back, each the best of 3 passes; the table gives the medians over the
repeats and the ratio's median and range (the machine is shared: ratios are steadier than
times; the load average is printed).
"""

import argparse
import os
import pathlib
import sys
import time

import numpy as np
import pinocchio as pin

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / 'test'), str(HERE)]

import robot_dynamics as rd  # noqa: E402
from harness import machine, pinocchio, ratio_text, require_engine  # noqa: E402
from robots import pinocchio_configuration  # noqa: E402


class PinocchioObserver:
    """The same observer (exact discretisation, trapezoid) over Pinocchio's algorithms."""

    def __init__(self, model, gain):
        """Observe ``model`` with gains ``gain`` (n,) through Pinocchio."""
        self.model, self.K = model, gain
        self.pm, self.pd = pinocchio(model)
        self.previous = None

    def reset(self):
        """Forget every sample."""
        self.previous = None

    def update(self, t, q, qd, tau):
        """One sample; return the estimate."""
        config = pinocchio_configuration(self.pm, q)
        M = pin.crba(self.pm, self.pd, config)
        M = np.triu(M) + np.triu(M, 1).T
        C = pin.computeCoriolisMatrix(self.pm, self.pd, config, qd)
        G = pin.computeGeneralizedGravity(self.pm, self.pd, config)
        friction = (self.model.viscous_friction * qd
                    + self.model.coulomb_friction * np.sign(qd))
        p, w = M @ qd, C.T @ qd - G - friction
        if self.previous is None:
            self.r = np.zeros_like(p)
        else:
            t0, p0, w0, tau0 = self.previous
            h = t - t0
            dy = p - p0 - h * (0.5 * (tau0 + tau) + 0.5 * (w0 + w))
            b = -np.expm1(-self.K * h)
            self.r = self.r + b * (dy / h - self.r)
        self.previous = (t, p, w, tau)
        return self.r


def recording(model, seconds, rng):
    """Return samples at 1 kHz ± 10 %: t, q, qd, tau."""
    N = int(seconds * 1000)
    t = np.cumsum(rng.uniform(0.9e-3, 1.1e-3, N))
    w = np.linspace(0.5, 1.5, model.dof)
    q, qd = np.sin(np.outer(t, w)), np.cos(np.outer(t, w)) * w
    tau = rd.gravity_torques(model, q) + rng.normal(0, 0.5, q.shape)
    return t, q, qd, tau


def per_sample(function, rows, repeat_rows=2000, reset=None):
    """Return µs per call of ``function(*row)`` over the first ``repeat_rows`` rows.

    The best of 3 passes, ``reset()`` before each.
    """
    best = np.inf
    for _ in range(3):
        if reset is not None:
            reset()
        start = time.perf_counter()
        for row in zip(*(r[:repeat_rows] for r in rows)):
            function(*row)
        best = min(best, time.perf_counter() - start)
    return best / repeat_rows * 1e6


def main():
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--seconds', type=float, default=60.0)
    args = parser.parse_args()
    require_engine()
    model = rd.load_model('panda').replace(viscous_friction=np.full(7, 0.6),
                                           coulomb_friction=np.full(7, 0.4))
    rng = np.random.default_rng(0)
    t, q, qd, tau = recording(model, args.seconds, rng)
    pm, pd = pinocchio(model)
    configs = [pinocchio_configuration(pm, x) for x in q[:2000]]

    def terms_pin(config, v):
        pin.crba(pm, pd, config)
        pin.computeCoriolisMatrix(pm, pd, config, v)
        pin.computeGeneralizedGravity(pm, pd, config)
    rows = {'update': [], 'terms': [], 'batch': []}
    for k in range(args.repeat):
        ours = rd.MomentumObserver(model)
        theirs = PinocchioObserver(model, ours.gain)
        rows['update'].append((per_sample(ours.update, (t, q, qd, tau), reset=ours.reset),
                               per_sample(theirs.update, (t, q, qd, tau),
                                          reset=theirs.reset)))
        rows['terms'].append((per_sample(lambda a, b: rd.engine.ENGINE.momentum(model, a, b),
                                         (q, qd)),
                              per_sample(terms_pin, (configs, qd))))
        batch = np.inf
        for _ in range(3):                                     # best of 3, as per_sample
            start = time.perf_counter()
            rd.momentum_observer(model, t, q, qd, tau)
            batch = min(batch, time.perf_counter() - start)
        loop = per_sample(theirs.update, (t, q, qd, tau), 1000, theirs.reset) * len(t) * 1e-6
        rows['batch'].append((batch * 1e3, loop * 1e3))
    print(f'machine: {machine()}; load average {os.getloadavg()[0]:.1f}; engine threads '
          f'{rd.engine.ENGINE.THREADS}')
    print(f'Panda (7 joints, friction); {args.repeat} repeats; medians; ratio = ours / '
          'Pinocchio-based, median [min, max]')
    labels = {'update': ('streaming update, µs per sample', 'Pinocchio observer loop'),
              'terms': ('M qd, C^T qd, G, µs per state', 'crba + Coriolis matrix + gravity'),
              'batch': (f'{args.seconds:g} s at 1 kHz ({len(t)} samples), ms',
                        'Pinocchio loop (extrapolated from 1000)')}
    for key, (ours_label, peer_label) in labels.items():
        a, b = np.array(rows[key]).T
        print(f'  {ours_label:<44} {np.median(a):9.3f}   {peer_label}: {np.median(b):9.3f}   '
              f'{ratio_text(a / b)}')


if __name__ == '__main__':
    main()
