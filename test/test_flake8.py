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
"""ament_python template check: flake8 with ament's configuration.

Run in a child interpreter: flake8 forks its workers, and a fork of this process (rclpy's
threads and contexts alive after the node tests) crashed in garbage collection now and then,
hanging the test until its timeout.
"""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ['robot_dynamics', 'test', 'launch', 'scripts', 'benchmarks', 'tools', 'setup.py']


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    paths = [str(ROOT / p) for p in SOURCES if (ROOT / p).exists()]
    code = ('import sys; from ament_flake8.main import main_with_errors; '
            'rc, errors = main_with_errors(argv=sys.argv[1:]); '
            "print('\\n'.join(errors)); sys.exit(rc)")
    child = subprocess.run([sys.executable, '-c', code, *paths], capture_output=True,
                           text=True, timeout=600)
    assert child.returncode == 0, 'Found code style errors / warnings:\n' + child.stdout[-20000:] \
        + child.stderr[-4000:]
