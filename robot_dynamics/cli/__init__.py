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
"""The ``robot-dynamics`` command line (also ``python -m robot_dynamics``).

One module per family of subcommands; each has ``add_parsers(subparsers, formatter)`` that
registers its subcommands with a ``handler(args) -> exit code``. User errors (a missing
file, a wrong number of joint values, an unknown solver, a malformed YAML field) print one
line naming the file or field and the fix, and exit with code 2.
"""

import argparse
import os
import re
import sys

import numpy as np
import yaml

from robot_dynamics import errors
from robot_dynamics.cli import (
    benchmark, codegen, contacts, dynamics, identification, inspection, simulation, trajectory,
)
from robot_dynamics.cli.common import CLIError, NOTES
from robot_dynamics.simulation.integrators import SimulationError

PROG = 'robot-dynamics'

EPILOG = """\
examples:
  robot-dynamics info puma560
  robot-dynamics check my_arm.urdf
  robot-dynamics torque puma560 --q 0,0.5,-0.3,0,0.2,0 --qd 0.1,0,0,0,0,0 --qdd 0,0,0,0,0,0
  robot-dynamics mass-matrix my_arm.urdf --q 0 0.5 1.0
  robot-dynamics gravity arm_dh.yaml --deg --q 0 30 -20 --json
  robot-dynamics verify puma560
  robot-dynamics opcount --n-max 12 puma560
  robot-dynamics simulate puma560 --torque zero --duration 2 -o out/fall
  robot-dynamics trajectory puma560 move.yaml -o out/move
  robot-dynamics codegen renaud_6r --symbolic -o renaud_6r.py
  robot-dynamics excite puma560 -o out/excitation
  robot-dynamics identify puma560 run_bag/ -o out/identified.urdf
  robot-dynamics contacts out/identified.urdf session_bag/ -o out/session
  robot-dynamics benchmark puma560

MODEL is a URDF file, a DH YAML file or a bundled model name. Run
`robot-dynamics SUBCOMMAND --help` for each subcommand's options and examples.
"""

USER_ERRORS = (errors.ModelError, errors.SolverError, errors.SingularityError, SimulationError,
               CLIError, ValueError, FileNotFoundError, OSError, np.linalg.LinAlgError,
               yaml.YAMLError)


def build_parser():
    """Build the argument parser with every subcommand."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=formatter, epilog=EPILOG,
        description='Dynamics of serial robot arms: inverse and forward dynamics, mass '
                    'matrix, gravity, simulation, trajectories, solver checks and timings.')
    parser.add_argument('--version', action='version',
                        version=f'%(prog)s {_version()}')
    subparsers = parser.add_subparsers(dest='command', metavar='SUBCOMMAND')
    subparsers.required = True
    for module in (inspection, dynamics, simulation, trajectory, codegen, identification,
                   contacts, benchmark):
        module.add_parsers(subparsers, formatter)
    return parser


def _version():
    from robot_dynamics import __version__
    return __version__


def one_line(exc):
    """Return the exception's message on one line, at most ``errors.MAX_MESSAGE`` characters.

    A message that quotes input (a CSV header of a million columns) is cut in its middle
    (:func:`robot_dynamics.errors.bounded`), never printed whole.
    """
    text = str(exc)
    if isinstance(exc, FileNotFoundError) and exc.filename and exc.strerror:
        text = f'{exc.filename}: {exc.strerror}; check the path'
    return errors.bounded(' '.join(text.split())) or type(exc).__name__


# A value such as '-0.5,1.2' or '-1e-3' starts with '-' but is no option: argparse only
# recognises plain negative numbers ('-0.5') by itself. A leading space keeps it a value.
_NEGATIVE_VALUE = re.compile(r'^-\.?[0-9]')


def main(argv=None):
    """Run the command line; returns the exit code (0 ok, 1 limits exceeded, 2 user error)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args([' ' + a if _NEGATIVE_VALUE.match(a) else a for a in argv])
    NOTES.clear()
    try:
        code = args.handler(args)
        for note in NOTES:
            print(f'{PROG}: note: {errors.bounded(note)}', file=sys.stderr)
        return code
    except BrokenPipeError:                       # output piped into `head` and cut short
        sys.stdout = open(os.devnull, 'w')
        return 0
    except USER_ERRORS as exc:
        print(f'{PROG} {args.command}: error: {one_line(exc)}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f'{PROG} {args.command}: interrupted', file=sys.stderr)
        return 130
