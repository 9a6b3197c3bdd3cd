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
"""Helpers of the command-line tests: a URDF arm, runs in-process, tables, CSV and PNG files.

Import :func:`arm_fixture` into a test module to get the ``arm`` fixture.
"""

import csv

import numpy as np
import pytest
from robots import random_model

import robot_dynamics as rd
from robot_dynamics import cli

PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
Q = [0.3, -0.7, 0.25]          # the state of the dynamics commands' tests
QD = [0.5, -1.2, 0.4]
QDD = [1.5, 0.3, -2.0]


def run(capsys, *argv):
    """Run the command line in-process; return exit code, stdout, stderr."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def table_column(text, column):
    """Return the ``column`` (index) of every row of the first table in ``text``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if set(line.replace(' ', '')) == {'-'})
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(line.split()[column])
    return rows


def read_csv(path):
    """Return the header and the float rows of a CSV file."""
    with open(path) as stream:
        rows = list(csv.reader(stream))
    return rows[0], np.array(rows[1:], dtype=float)


def assert_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == PNG_MAGIC and len(data) > 10_000


@pytest.fixture(scope='module', name='arm')
def arm_fixture(tmp_path_factory):
    """Write a random 3-joint chain, the last joint prismatic, with friction, rotors, limits."""
    model = random_model(np.random.default_rng(7), 3, prismatic_fraction=0.0, friction=True,
                         rotor=True, name='arm3')
    model = model.replace(joint_types=('revolute', 'revolute', 'prismatic'),
                          lower_limit=[-3.0, -3.0, -0.5], upper_limit=[3.0, 3.0, 0.5],
                          velocity_limit=[4.0, 4.0, 1.0], effort_limit=[300.0, 300.0, 500.0])
    path = tmp_path_factory.mktemp('models') / 'arm3.urdf'
    path.write_text(model.to_urdf())
    return str(path), rd.load_model(str(path))
