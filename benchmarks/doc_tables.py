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
"""The docs' timing tables, written by the benchmark scripts between markers, never by hand.

A script run with ``--write-docs`` replaces the block between ``<!-- benchmark NAME -->`` and
``<!-- /benchmark NAME -->`` in its document with what it measured, headed by the date, the
commit, the machine, the load average and the command (:func:`write_block`).
``test/test_benchmark_tables.py`` reads every block back (:func:`block_tables`) and checks
that its tables' rows name exactly what the script measures (each script's ``table_rows``);
no timing is asserted. This module imports neither the package nor Pinocchio.
"""

import datetime
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]


def markers(name):
    """Return the opening and closing comment of block ``name``."""
    return f'<!-- benchmark {name} -->', f'<!-- /benchmark {name} -->'


def commit():
    """Return the short hash of HEAD, with ``+changes`` if the package or benchmarks differ."""
    def git(*args):
        return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True).stdout
    try:
        head = git('rev-parse', '--short', 'HEAD').strip() or 'unknown'
        changed = git('status', '--porcelain', '--', 'robot_dynamics', 'benchmarks').strip()
    except OSError:
        return 'unknown'
    return head + ('+changes' if changed else '')


def provenance(command, machine):
    """Return one line: when, at which commit, on what machine and load, by which command."""
    load = ', '.join(f'{x:.1f}' for x in os.getloadavg())
    when = datetime.datetime.now(datetime.timezone.utc)
    return (f'*Generated {when:%Y-%m-%d %H:%M} UTC by `{command}` at commit {commit()}; '
            f'{machine}; load average {load} (1, 5, 15 min) when it ended.*')


def write_block(document, name, lines):
    """Replace block ``name`` of ``document`` (a path under the checkout) with ``lines``."""
    path = ROOT / document
    text = path.read_text(encoding='utf-8')
    begin, end = markers(name)
    if text.count(begin) != 1 or text.count(end) != 1:
        raise SystemExit(f'{document}: expected one {begin} ... {end} block')
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    path.write_text(head + begin + '\n' + '\n'.join(lines).strip('\n') + '\n' + end + tail,
                    encoding='utf-8')
    print(f'wrote block {name!r} of {document}')


def block_text(document, name):
    """Return the text between the markers of block ``name`` in ``document``."""
    text = (ROOT / document).read_text(encoding='utf-8')
    begin, end = markers(name)
    if text.count(begin) != 1 or text.count(end) != 1:
        raise ValueError(f'{document}: expected one {begin} ... {end} block')
    return text.split(begin)[1].split(end)[0].strip('\n')


def block_tables(document, name):
    """Return the tables in block ``name`` of ``document``: lists of row cells, one per table."""
    body = block_text(document, name)
    tables, rows = [], None
    for line in body.splitlines():
        if not line.startswith('|'):
            rows = None
            continue
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if rows is None:                                   # the header row opens a table
            rows = []
            tables.append(rows)
        elif not all(re.fullmatch(r':?-+:?', cell) for cell in cells):
            rows.append(cells)
    return tables
