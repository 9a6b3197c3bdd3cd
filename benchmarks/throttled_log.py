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
"""Cost of a drop's log line under a flood: per-reason ThrottledLog vs rclpy's per-site throttle.

Run on demand (not in CI)::

    .venv/bin/python benchmarks/throttled_log.py [--rounds 15]

Each round logs the same 1,000 drop reasons (numbers differ, six joints) through
:class:`~robot_dynamics.control.health.ThrottledLog` and through rclpy's
``logger.warning(..., throttle_duration_sec=1.0)``, interleaved, and prints the median ratio
of the two (paired in the same round: the machine's load cancels).
"""

import argparse
import os
import statistics
import time

import rclpy.logging

from robot_dynamics.control.health import ThrottledLog


def main():
    """Print the per-line times of the last round and the median ratio ours / rclpy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=15)
    rounds = parser.parse_args().rounds
    logger = rclpy.logging.get_logger('benchmark_throttled_log')
    ours = ThrottledLog(logger)
    texts = [f"joint_states dropped: joint state position of 'joint{k % 6}' is {k * 1.5e3:.6g}, "
             'outside the joint limits widened by 0.1 ([-4.02699, 0.885398])'
             for k in range(1000)]
    ratios = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            ours.warning(text)
        middle = time.perf_counter()
        for text in texts:
            logger.warning(text, throttle_duration_sec=1.0)
        end = time.perf_counter()
        ratios.append((middle - start) / (end - middle))
    print(f'per line (last round): ThrottledLog {(middle - start) * 1e3:.1f} us, rclpy '
          f'{(end - middle) * 1e3:.1f} us; median ratio {statistics.median(ratios):.3f} '
          f'(min {min(ratios):.3f}, max {max(ratios):.3f}) over {rounds} rounds; load '
          f'{os.getloadavg()[0]:.1f}')


if __name__ == '__main__':
    main()
