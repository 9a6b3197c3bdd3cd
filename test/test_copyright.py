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
"""ament_python template check: every source file carries a header ament_copyright accepts.

Runs ament_copyright where it is installed (a ROS workspace). Elsewhere it checks what
ament_copyright checks, with tools/license_header.py: a ``Copyright <year> <holder>`` line
followed by the Apache-2.0 notice in the first comment block of each Python, C/C++ and CMake
file, read as ament_copyright reads it, and the LICENSE and CONTRIBUTING.md files of the
repository root.
"""

import pathlib

import pytest

from project_files import project_files, tool_module

ROOT = pathlib.Path(__file__).resolve().parents[1]


def license_header_tool():
    """Return tools/license_header.py as a module (the same check, and the ``--fix`` for it)."""
    return tool_module('license_header')


def squashed(path):
    """Return a text file with its whitespace collapsed."""
    return ' '.join(path.read_text(encoding='utf-8').split())


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    try:
        from ament_copyright.main import main
    except ImportError:
        tool = license_header_tool()
        ours = set(project_files(ROOT))         # not what a command wrote into out/ (issue 36)
        missing = [str(path.relative_to(ROOT)) for path in tool.sources(ROOT)
                   if path.resolve() in ours
                   and not tool.has_apache_header(path.read_text(encoding='utf-8'))]
        assert not missing, ('files without the Apache-2.0 header ament_copyright accepts '
                             f'(python tools/license_header.py --fix writes it): {missing}')
    else:  # pragma: no cover - only in a ROS workspace
        assert main(argv=['.', 'test']) == 0, 'Found errors'


@pytest.mark.copyright
@pytest.mark.linter
def test_license_and_contributing_files():
    license_text = squashed(ROOT / 'LICENSE')
    assert license_text.startswith('Apache License Version 2.0, January 2004')
    assert 'END OF TERMS AND CONDITIONS' in license_text
    assert '5. Submission of Contributions.' in squashed(ROOT / 'CONTRIBUTING.md')


def test_license_header_tool_recognises_only_the_full_header():
    tool = license_header_tool()
    short = ('# Copyright 2026 robot_dynamics contributors\n'
             '# Licensed under the Apache License, Version 2.0\n"""Doc."""\n')
    assert not tool.has_apache_header(short)
    repaired = tool.fixed(short)
    assert tool.has_apache_header(repaired) and repaired.endswith('"""Doc."""\n')
    assert tool.has_apache_header('#!/usr/bin/env python3\n' + repaired)
    assert not tool.has_apache_header(repaired.replace('2026', 'many years'))


def test_license_header_tool_reads_c_headers_as_ament_copyright_does():
    tool = license_header_tool()
    notice = tool.APACHE_NOTICE.replace('\n', '\n * ').replace(' * \n', ' *\n')
    opened_on_first_line = (f'/* Copyright 2026 robot_dynamics contributors\n * {notice}\n *\n'
                            ' * What the file does.\n */\n#include <math.h>\n')
    assert not tool.has_apache_header(opened_on_first_line)   # ament drops the /* line
    repaired = tool.fixed(opened_on_first_line)
    assert tool.has_apache_header(repaired)
    assert repaired.startswith('// Copyright 2026') and '/*\n * What the file does.' in repaired
    assert tool.has_apache_header(f'/*\n * Copyright 2026 robot_dynamics contributors\n'
                                  f' * {notice}\n */\n#include <math.h>\n')
