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
"""ament_python template check: pep257 docstrings with ament's configuration."""

import pathlib

import pytest
from ament_pep257.main import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ['robot_dynamics', 'test', 'launch', 'scripts', 'benchmarks', 'tools', 'setup.py']


@pytest.mark.linter
@pytest.mark.pep257
def test_pep257():
    # ament's convention, accepting the summary on the docstring's first line (PEP 257 allows
    # both placements; D212 is already ignored by ament, so neither is imposed).
    paths = [str(ROOT / p) for p in SOURCES if (ROOT / p).exists()]
    rc = main(argv=['--add-ignore', 'D213', '--'] + paths)
    assert rc == 0, 'Found code style errors / warnings'
