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
"""The wall times the unit tests no longer assert: refusing hostile inputs, changing a model.

The tests bound what the machine's load cannot move (growth ratios, peak memory, call
counts: test/cost.py); this prints the absolute times beside the targets they replaced, the
best of ``--repeats`` runs each, on this machine now::

    .venv/bin/python benchmarks/hostile_inputs.py [--repeats 5]
"""

import argparse
import pathlib
import sys
import tempfile
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test'), str(ROOT / 'test' / 'io')]

import rclpy  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402

from robot_dynamics import RobotModel  # noqa: E402
from robot_dynamics.nodes.dynamics_node import DynamicsNode  # noqa: E402
from robots import billion_laughs, random_arm_urdf  # noqa: E402
from test_robustness_loaders import alias_bomb, chain_urdf  # noqa: E402


def best(function, repeats):
    """Return the least wall time (s) of ``repeats`` calls of ``function()``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def refusing(load, document):
    """Return a function that loads ``document`` and expects a refusal."""
    def refuse():
        try:
            load(document)
        except ValueError:
            return
        raise AssertionError('not refused')
    return refuse


def loader_cases(scratch):
    """(label, function, former bound in s) for each hostile loader input."""
    huge = scratch / 'huge.urdf'
    with open(huge, 'wb') as handle:
        handle.truncate(50 * 1024 * 1024 + 1)
    huge_dh = scratch / 'huge.yaml'
    with open(huge_dh, 'wb') as handle:
        handle.truncate(200 * 1024 * 1024)
    text = 'links:\n' + '  - {a: 0, alpha: 0, d: 0}\n' * 50000
    chain = chain_urdf(200)
    return [
        ('billion laughs URDF refused', refusing(RobotModel.from_urdf, billion_laughs()), 0.5),
        ('50 MiB URDF file refused', refusing(RobotModel.from_urdf, str(huge)), 0.5),
        ('200-joint URDF chain loaded', lambda: RobotModel.from_urdf(chain), 10.0),
        ('YAML alias bomb (10^9) refused', refusing(RobotModel.from_dh, alias_bomb(9)), 5.0),
        ('200 MB DH file refused', refusing(RobotModel.from_dh, str(huge_dh)), 0.5),
        ('1.25 MB DH text refused', refusing(RobotModel.from_dh, text), 0.5),
    ]


def parameter_change(repeats):
    """Return the best wall time of a dynamics_node gravity change on a 6-joint arm."""
    rclpy.init()
    try:
        node = DynamicsNode(parameter_overrides=[
            Parameter('robot_description', value=random_arm_urdf(11, 6, 'arm6'))])
        try:
            gravities = iter([[0.0, 1.0, -3.0], [0.0, 0.0, -9.81]] * repeats)
            return best(lambda: node.set_parameters([Parameter('gravity',
                                                               value=next(gravities))]),
                        repeats)
        finally:
            node.destroy_node()
    finally:
        rclpy.shutdown()


def main(argv=None):
    """Print a markdown table of the best wall times against the former bounds."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--repeats', type=int, default=5)
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')
    print('| input | best of %d, ms | former unit-test bound, ms |' % args.repeats)
    print('|---|---:|---:|')
    with tempfile.TemporaryDirectory() as scratch:
        for label, function, bound in loader_cases(pathlib.Path(scratch)):
            print(f'| {label} | {best(function, args.repeats) * 1e3:.3g} | {bound * 1e3:.0f} |')
    print(f'| dynamics_node gravity change (set_parameters) | '
          f'{parameter_change(args.repeats) * 1e3:.3g} | 50 |')


if __name__ == '__main__':
    main()
