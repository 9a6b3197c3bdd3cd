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
"""Per-message compute time of the dynamics node: numpy 'rnea' against the engine.

Calls the node's ``compute`` (feed-forward on a live desired trajectory, gravity vector and mass
matrix: the dynamics of one joint_states message, no DDS and no message conversion in the
timing) and prints the median and 99th percentile::

    .venv/bin/python benchmarks/node_compute_time.py [--model puma560] [--messages 2000]
"""

import argparse
import time
import warnings

import numpy as np


import rclpy  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402

from robot_dynamics.nodes.conversions import trajectory_message  # noqa: E402
from robot_dynamics.nodes.dynamics_node import DynamicsNode  # noqa: E402


def measure(model_name, messages, fast_path):
    """Median and p99 compute time (s) per joint_states message; None if unsupported."""
    overrides = [Parameter('model', value=model_name)]
    node = DynamicsNode(parameter_overrides=overrides)
    try:
        if fast_path is not None:
            if not node.has_parameter('fast_path'):
                return None
            node.set_parameters([Parameter('fast_path', value=fast_path)])
        names = list(node.model.joint_names)
        n = len(names)
        rng = np.random.default_rng(0)
        low = np.maximum(node.model.lower_limit, -1.0)      # inside the joint limits: the
        high = np.minimum(node.model.upper_limit, 1.0)      # node refuses states beyond them
        positions = rng.uniform(low, high, (3, n))          # a 100 s trajectory, sampled live
        node._on_trajectory(trajectory_message(names, [0.0, 50.0, 100.0], positions,
                                               stamp=node.get_clock().now().to_msg()))
        assert node._trajectory is not None, node.last_error
        durations = []
        for _ in range(messages):
            q, qd = rng.uniform(low, high), rng.uniform(-1, 1, n)
            now = node.get_clock().now().nanoseconds
            start = time.perf_counter()
            node.compute(q, qd, now)
            durations.append(time.perf_counter() - start)
        durations = np.array(durations)[messages // 10:]
        return float(np.median(durations)), float(np.percentile(durations, 99))
    finally:
        node.destroy_node()


def main(argv=None):
    """Print a markdown table: numpy 'rnea' against the engine."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--model', default='puma560')
    parser.add_argument('--messages', type=int, default=2000)
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')
    rclpy.init()
    try:
        print(f'dynamics_node, model {args.model}, {args.messages} joint_states messages')
        print('| path | median µs | p99 µs |')
        print('|---|---:|---:|')
        for label, fast_path in (("numpy 'rnea' (fast_path: false)", False),
                                 ('engine (fast_path: true)', True),
                                 ('node default', None)):
            result = measure(args.model, args.messages, fast_path)
            if result is None:
                print(f'| {label} | n/a (no fast_path parameter) | |')
            else:
                print(f'| {label} | {result[0] * 1e6:.1f} | {result[1] * 1e6:.1f} |')
    finally:
        rclpy.shutdown()


if __name__ == '__main__':
    main()
