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
"""The speed targets of issue 32 in one run, as ratios against Pinocchio; one line of JSON.

Run on demand (not in CI), e.g. paired against another build (``PYTHONPATH=<its site>``)::

    .venv/bin/python benchmarks/speed_targets.py [--arms ur5 panda] [--rows 10000]

For each arm: ``rd.fast`` per call (the generated code, rigid body) and the public functions
per call, each over ``pin``'s call at the same state timed right after it (best of 3 loops,
median over ``--repeat`` pairs); every public batch function on ``--rows`` states over a
Python loop of Pinocchio's call on them; ``RobotModel.from_urdf`` of the bundled URDF over
``pin.buildModelFromXML`` of the same text. Targets: ``rd.fast`` ≤ 0.35, ``rd.mass_matrix`` ≤
0.5, every batch ≤ 0.1, URDF loading ≤ 2. The machine's load average is in the line: on a
shared machine compare runs taken in alternation, not one run with another day's.
"""

import argparse
import json
import os
import pathlib
import sys
import warnings

import numpy as np
import pinocchio as pin

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / 'test'), str(HERE)]

import robot_dynamics as rd  # noqa: E402
from engine_vs_pinocchio import BATCHES  # noqa: E402
from harness import (batch_against_loop, load, pinocchio, require_engine, seconds,  # noqa: E402
                     state)
from robots import pinocchio_configuration  # noqa: E402


def paired_ratio(ours, theirs, repeat, number):
    """Median over ``repeat`` of (our time / theirs), each the best of 3 loops, back to back."""
    return float(np.median([seconds(ours, number) / seconds(theirs, number)
                            for _ in range(repeat)]))


def per_call(name, repeat, number):
    """Name → ratio: rd.fast (rigid model) and the public functions, per call."""
    model = load(name)
    rigid = model.without_joint_effects()
    fast = rd.fast.compile(rigid)
    q, qd, x = state(np.random.default_rng(0), model.dof)
    out = {}
    for label, robot, ours in (
            ('fast', rigid, {'ID': lambda: fast.inverse_dynamics(q, qd, x),
                             'M': lambda: fast.mass_matrix(q), 'G': lambda: fast.gravity(q),
                             'FD': lambda: fast.forward_dynamics(q, qd, x)}),
            ('rd', model, {'ID': lambda: rd.inverse_dynamics(model, q, qd, x),
                           'M': lambda: rd.mass_matrix(model, q),
                           'G': lambda: rd.gravity_torques(model, q),
                           'FD': lambda: rd.forward_dynamics(model, q, qd, x)})):
        pm, pd = pinocchio(robot)
        c = pinocchio_configuration(pm, q)
        theirs = {'ID': lambda: pin.rnea(pm, pd, c, qd, x), 'M': lambda: pin.crba(pm, pd, c),
                  'G': lambda: pin.computeGeneralizedGravity(pm, pd, c),
                  'FD': lambda: pin.aba(pm, pd, c, qd, x)}
        for key, call in ours.items():
            out[f'{name} {label} {key}'] = paired_ratio(call, theirs[key], repeat, number)
    return out


def batches(name, rows, repeat):
    """Name → ratio: every public batch function over a Python loop of Pinocchio's call."""
    return {f'{name} batch {label}': float(np.median(ratios)) for label, (_, _, ratios)
            in batch_against_loop(load(name), BATCHES, rows, repeat).items()}


def urdf_loading(name, repeat):
    """``{name urdf: ratio}``: RobotModel.from_urdf over pin.buildModelFromXML, same text."""
    text = pathlib.Path(rd.data_path(rd.BUNDLED_MODELS[name])).read_text(encoding='utf-8')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ratio = paired_ratio(lambda: rd.RobotModel.from_urdf(text),
                             lambda: pin.buildModelFromXML(text), repeat, 20)
    return {f'{name} urdf': ratio}


def main():
    """Print one JSON line: load, engine threads, ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--arms', nargs='+', default=['ur5', 'panda'])
    parser.add_argument('--rows', type=int, default=10_000)
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--number', type=int, default=3000, help='calls per timed loop')
    parser.add_argument('--label', default='')
    args = parser.parse_args()
    require_engine()
    result = {'label': args.label, 'package': str(pathlib.Path(rd.__file__).parent),
              'threads': rd.engine.ENGINE.THREADS, 'load': round(os.getloadavg()[0], 2)}
    for name in args.arms:
        result.update(per_call(name, args.repeat, args.number))
        result.update(batches(name, args.rows, max(3, args.repeat // 2)))
        result.update(urdf_loading(name, args.repeat))
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                      for k, v in result.items()}))


if __name__ == '__main__':
    main()
