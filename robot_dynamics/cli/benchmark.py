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
"""``benchmark``: microseconds per call of each solver, with Pinocchio as a peer."""

import timeit

import numpy as np

import robot_dynamics as rd
from robot_dynamics.cli.common import CLIError, add_model_argument, format_table, load_model
from robot_dynamics.cli.common import print_json

BENCHMARK_EPILOG = """\
examples:
  robot-dynamics benchmark puma560
  robot-dynamics benchmark my_arm.urdf --batch 10000 --min-time 0.5
  robot-dynamics benchmark two_link --no-pinocchio --json

Times what a user calls: the public functions (input checks included) at one random state
drawn over the full joint range (q in [-pi, pi], qd and qdd in [-2, 2]): inverse dynamics,
gravity, mass matrix, forward dynamics and Coriolis matrix by the compiled engine, inverse
dynamics on a batch of --batch states (reported per state), and inverse dynamics through
every registered solver (solver='name', numpy). When Pinocchio (`pin`) is importable it runs
the same operations on the same model in the same run (rnea, computeGeneralizedGravity, crba,
aba, computeCoriolisMatrix, and a Python loop of rnea for the batch) and the ratio
robot_dynamics / Pinocchio is printed (below 1: faster). Best of 3 repeats.
"""


def add_parsers(subparsers, formatter):
    """Register ``benchmark``."""
    parser = subparsers.add_parser(
        'benchmark', help='µs per call of each solver (and Pinocchio)',
        description='Time inverse dynamics, mass matrix and forward dynamics.',
        epilog=BENCHMARK_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('--batch', type=int, default=1000, metavar='N',
                        help='states in the batched inverse dynamics (default 1000)')
    parser.add_argument('--min-time', type=float, default=0.2, metavar='S',
                        help='time spent per measurement, s (default 0.2)')
    parser.add_argument('--no-pinocchio', action='store_true', help='skip the Pinocchio peer')
    parser.add_argument('--json', action='store_true', help='machine-readable JSON output')
    parser.set_defaults(handler=run_benchmark)


def microseconds_per_call(function, min_time, calls_per_run=1):
    """Best-of-3 time of ``function()`` in µs, divided by ``calls_per_run``."""
    timer = timeit.Timer(function)
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= min_time / 3 or number >= 1_000_000:
            break
        number = max(number * 2, int(number * (min_time / 3) / max(elapsed, 1e-9) * 1.2))
    best = min([elapsed] + timer.repeat(2, number))
    return best / number / calls_per_run * 1e6


def _operations(model, q, qd, qdd, tau, Q, QD, QDD):
    """(label, function, calls_per_run) of robot_dynamics for every timed operation."""
    operations = [
        ('inverse dynamics', lambda: rd.inverse_dynamics(model, q, qd, qdd), 1),
        ('gravity', lambda: rd.gravity_torques(model, q), 1),
        ('mass matrix', lambda: rd.mass_matrix(model, q), 1),
        ('forward dynamics', lambda: rd.forward_dynamics(model, q, qd, tau), 1),
        ('coriolis matrix', lambda: rd.coriolis_matrix(model, q, qd), 1),
        (f'inverse dynamics batch of {len(Q)}, per state',
         lambda: rd.inverse_dynamics(model, Q, QD, QDD), len(Q)),
    ]
    operations += [(f'inverse dynamics [{name}]',
                    lambda name=name: rd.inverse_dynamics(model, q, qd, qdd, solver=name), 1)
                   for name in rd.solvers.available()]
    return operations


def _pinocchio_peers(model, q, qd, qdd, tau, Q, QD, QDD):
    """Label → (function, calls_per_run) for Pinocchio, or None if it is not importable."""
    try:
        import pinocchio as pin
    except ImportError:
        return None
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.gravity.linear = np.asarray(model.gravity, dtype=float)
    pm.armature = np.asarray(model.reflected_inertia, dtype=float)
    pd = pm.createData()
    c = pinocchio_configuration(pm, q)
    configs = [pinocchio_configuration(pm, row) for row in Q]

    def batch():
        for config, v, a in zip(configs, QD, QDD):
            pin.rnea(pm, pd, config, v, a)
    peers = {'inverse dynamics': (lambda: pin.rnea(pm, pd, c, qd, qdd), 1),
             'gravity': (lambda: pin.computeGeneralizedGravity(pm, pd, c), 1),
             'mass matrix': (lambda: pin.crba(pm, pd, c), 1),
             'forward dynamics': (lambda: pin.aba(pm, pd, c, qd, tau), 1),
             'coriolis matrix': (lambda: pin.computeCoriolisMatrix(pm, pd, c, qd), 1),
             f'inverse dynamics batch of {len(Q)}, per state': (batch, len(Q))}
    return peers, peers['inverse dynamics']


def sample_states(n, rows=None, seed=0):
    """Return ``q`` in [-π, π] and ``qd``, ``qdd`` in [-2, 2]: (n,) or (rows, n) each."""
    rng = np.random.default_rng(seed if rows is None else seed + 1)
    shape = (n,) if rows is None else (rows, n)
    return rng.uniform(-np.pi, np.pi, shape), rng.uniform(-2, 2, shape), rng.uniform(-2, 2, shape)


def pinocchio_configuration(pin_model, q):
    """Joint values (n,) as Pinocchio's configuration (continuous joints as cos, sin)."""
    config = np.zeros(pin_model.nq)
    for joint in list(pin_model.joints)[1:]:
        value = q[joint.idx_v]
        if joint.nq == 2:
            config[joint.idx_q:joint.idx_q + 2] = np.cos(value), np.sin(value)
        else:
            config[joint.idx_q] = value
    return config


def run_benchmark(args):
    """Time every operation and print the table."""
    model = load_model(args)
    if args.batch < 1:
        raise CLIError(f'--batch: must be >= 1, got {args.batch}')
    if not args.min_time > 0:
        raise CLIError(f'--min-time: must be a positive number of seconds, got {args.min_time}')
    n = model.dof
    (q, qd, qdd), (Q, QD, QDD) = sample_states(n), sample_states(n, args.batch)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    peers = None if args.no_pinocchio else _pinocchio_peers(model, q, qd, qdd, tau, Q, QD, QDD)
    rows = []
    for label, function, calls in _operations(model, q, qd, qdd, tau, Q, QD, QDD):
        ours = microseconds_per_call(function, args.min_time, calls)
        peer = None
        if peers is not None:
            table, rnea = peers
            entry = rnea if label.startswith('inverse dynamics [') else table.get(label)
            if entry is not None:
                peer = microseconds_per_call(entry[0], args.min_time, entry[1])
        rows.append({'operation': label, 'robot_dynamics_us': ours, 'pinocchio_us': peer,
                     'ratio': None if peer is None else ours / peer})
    if args.json:
        print_json({'model': model.name, 'dof': n, 'batch': args.batch,
                    'pinocchio': peers is not None, 'results': rows})
        return 0
    print(f'{model.name}: {n} joints, µs per call (best of 3)'
          + ('' if peers is not None else '; Pinocchio not available or skipped'))
    print(format_table(
        ['operation', 'robot_dynamics µs', 'pinocchio µs', 'ratio'],
        [(r['operation'], f'{r["robot_dynamics_us"]:.2f}',
          '-' if r['pinocchio_us'] is None else f'{r["pinocchio_us"]:.2f}',
          '-' if r['ratio'] is None else f'{r["ratio"]:.2f}x') for r in rows]))
    return 0
