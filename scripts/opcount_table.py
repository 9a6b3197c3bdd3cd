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
"""Print the measured operation counts of every registered solver as a markdown table.

Usage: ``python scripts/opcount_table.py [--n-max 12] [--solver NAME ...] [--raw]``. Each
solver runs on counting scalars for general n-link revolute arms, n = 1 … n-max; the exact
polynomial in n is printed beside the published one (see robot_dynamics/analysis/opcount/).
"""

import argparse
import sys

from robot_dynamics.analysis import opcount  # noqa: E402


def main(argv=None):
    """Parse arguments and print the table (and, with --raw, the counts per n)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--n-max', type=int, default=12, help='largest number of links')
    parser.add_argument('--solver', action='append', help='only this solver (repeatable)')
    parser.add_argument('--raw', action='store_true', help='also print the counts per n')
    args = parser.parse_args(argv)
    print(opcount.table_markdown(n_max=args.n_max, solvers=args.solver))
    print("\nRenaud's 6R example (seed 001, Fig. 6), one state:\n")
    print(opcount.example_table_markdown(solvers=args.solver))
    if args.raw:
        for name, counts in opcount.operation_counts(args.solver, args.n_max).items():
            print(f"\n{name}: n = {counts['n']}\n  mul = {counts['mul']}\n"
                  f"  add = {counts['add']}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
