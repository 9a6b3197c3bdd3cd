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
"""The command lines of the one-process bringups, without ROS: arguments, checks, reports.

``robot_dynamics_bringup`` runs the simulation demo and prints the tracking error per joint
and the dynamics node's compute time, and can plot desired vs actual positions and torques::

    robot_dynamics_bringup --robot puma560 --plot out/demo.png [--no-feedforward]

``robot_dynamics_arms`` serves the arms of an arms file (:mod:`robot_dynamics.bringup.arms_file`)::

    robot_dynamics_arms --arms config/arms.yaml [--robot ur5]

The ROS graph itself is run by the caller (nodes/bringup.py, nodes/arms.py).
"""

import argparse
import os
import sys

import numpy as np

from robot_dynamics.bringup.arms_file import default_arms_file, read_arms
from robot_dynamics.errors import ModelError
from robot_dynamics.model.bundled import BUNDLED_MODELS
from robot_dynamics.simulation.integrators import SimulationError
from robot_dynamics.simulation.tracking import plot, report

BRINGUP = 'Start the simulation demo in one process: what launch/simulation.launch.py starts.'
ARMS = "Several arms in one process: each arm's nodes, all of them on one executor."


def check_robot(robot):
    """Return an error line for a ``--robot`` that is neither bundled nor a file, else None."""
    if robot in BUNDLED_MODELS or os.path.isfile(robot):
        return None
    return (f'robot_dynamics_bringup: error: --robot {robot!r} is neither a bundled model '
            f'({", ".join(sorted(BUNDLED_MODELS))}) nor a URDF/DH file')


def bringup_main(argv, run_demo):
    """Run ``robot_dynamics_bringup`` with ``argv``; return its exit code.

    ``run_demo(robot, duration, feedforward, config)`` runs the closed loop and returns its
    :class:`~robot_dynamics.simulation.tracking.TrackingRun` (nodes/bringup.py's). A robot
    that is neither bundled nor a file: code 2; a run that fails: one line, code 1.
    """
    parser = argparse.ArgumentParser(description=BRINGUP)
    parser.add_argument('--robot', default='puma560', help='bundled model name or file')
    parser.add_argument('--duration', type=float, default=None,
                        help='simulated seconds (default: the trajectory plus 0.3 s)')
    parser.add_argument('--plot', default=None, help='write a PNG plot here')
    parser.add_argument('--no-feedforward', action='store_true',
                        help='disable the feed-forward torques (PD on M only)')
    parser.add_argument('--compare', action='store_true',
                        help='also run without feed-forward, print the error ratio and plot both')
    parser.add_argument('--config', default=None, help='ros__parameters YAML '
                        '(default: the bundled config/simulation.yaml)')
    args, _ = parser.parse_known_args(argv)
    error = check_robot(args.robot)
    if error:
        print(error, file=sys.stderr)
        return 2
    try:
        return demo(args, run_demo)
    except (SimulationError, ModelError, TimeoutError, RuntimeError, OSError) as exc:
        print(f'robot_dynamics_bringup: error: {" ".join(str(exc).split())}', file=sys.stderr)
        return 1


def demo(args, run_demo):
    """Run the demo as ``args`` ask, print the reports, write the plot."""
    result = run_demo(args.robot, args.duration, not args.no_feedforward, args.config)
    mode = 'without' if args.no_feedforward else 'with'
    print(report(result, f'[{args.robot}, {mode} feed-forward] '))
    baseline = None
    if args.compare and not args.no_feedforward:
        baseline = run_demo(args.robot, args.duration, False, args.config)
        print(report(baseline, f'[{args.robot}, without feed-forward] '))
        ratio = np.sqrt(np.mean(baseline.rms_error ** 2)) / np.sqrt(np.mean(
            result.rms_error ** 2))
        print(f'feed-forward reduces the overall RMS tracking error {ratio:.1f}x')
    if args.plot:
        plot(result, args.plot, f'{args.robot}: computed-torque control', baseline)
        print(f'plot written to {args.plot}')
    return 0


def arms_arguments(argv):
    """Return ``(arms, nodes, parameters, ros_arguments)`` of ``robot_dynamics_arms argv``.

    The arms file read and checked (:func:`~robot_dynamics.bringup.arms_file.read_arms`),
    every arm's robot replaced by ``--robot`` if given; ``ros_arguments``: from
    ``--ros-args`` on. A bad file ends the process with the parser's usage error (code 2).
    """
    own = argv[:argv.index('--ros-args')] if '--ros-args' in argv else argv
    parser = argparse.ArgumentParser(description=ARMS)
    parser.add_argument('--arms', default=None,
                        help='arms file (default: the bundled config/arms.yaml)')
    parser.add_argument('--robot', default='',
                        help="every arm's robot (bundled name or file; default: the file's)")
    args = parser.parse_args(own)
    path = args.arms or default_arms_file()
    if not os.path.isfile(path):
        parser.error(f'--arms {path}: no such file')
    try:
        arms, nodes, parameters = read_arms(path)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    if args.robot.strip():
        arms = [(namespace, args.robot.strip()) for namespace, _ in arms]
    return arms, nodes, parameters, argv[len(own):]
