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
"""ament_python template check: flake8 with ament's configuration."""

import pathlib

import pytest
from ament_flake8.main import main_with_errors

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ['robot_dynamics', 'test', 'launch', 'scripts', 'benchmarks', 'tools', 'setup.py']


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8():
    paths = [str(ROOT / p) for p in SOURCES if (ROOT / p).exists()]
    rc, errors = main_with_errors(argv=paths)
    assert rc == 0, \
        'Found %d code style errors / warnings:\n' % len(errors) + '\n'.join(errors)
