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
"""The whole-tree checks look at the project's files, not at what the README's commands write.

Issue 36.1: on a fresh clone, ``robot-dynamics excite puma560 -o out/excitation`` (a README
command) wrote an 812-line ``out/excitation.yaml`` and the line-count test, which walked every
folder, failed on it.
"""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from project_files import gitignore_patterns, ignored, project_files
from test_layers import long_files, MAX_LINES

ROOT = pathlib.Path(__file__).resolve().parents[1]


def cli_command():
    """Return the command of the installed ``robot-dynamics``, as a user runs it."""
    script = os.path.join(os.path.dirname(sys.executable), 'robot-dynamics')
    return [script] if os.path.exists(script) else [sys.executable, '-m', 'robot_dynamics']


@pytest.mark.skipif(shutil.which('git') is None or not (ROOT / '.git').exists(),
                    reason='needs git and a git checkout to clone (the colcon copy has none; '
                           'test_a_copy_without_git_honours_its_gitignore covers it)')
def test_a_readme_command_in_a_fresh_clone_leaves_the_line_count_check_green(tmp_path):
    clone = tmp_path / 'clone'
    subprocess.run(['git', 'clone', '--quiet', str(ROOT), str(clone)], check=True, timeout=120)
    # The README's command as a user runs it (a shorter search: the file's size is the same).
    done = subprocess.run(cli_command() + ['excite', 'puma560', '-o', 'out/excitation',
                                           '--time-limit', '1'],
                          cwd=clone, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    written = clone / 'out' / 'excitation.yaml'
    assert len(written.read_text().splitlines()) >= MAX_LINES      # long, as the issue saw
    assert written not in project_files(clone)
    assert 'out/excitation.yaml' not in long_files(clone)
    (clone / 'new_module.py').write_text('x = 1\n' * MAX_LINES)   # new, not yet added: checked
    assert long_files(clone).get('new_module.py') == MAX_LINES


def test_a_copy_without_git_honours_its_gitignore(tmp_path):
    (tmp_path / '.gitignore').write_text((ROOT / '.gitignore').read_text())
    for name in ('out/excitation.yaml', 'build/lib/x.py', 'pkg/__pycache__/m.pyc',
                 'pkg/module.py', 'docs/page.md'):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text('line\n' * MAX_LINES)
    assert [p.relative_to(tmp_path).as_posix() for p in project_files(tmp_path)] == [
        '.gitignore', 'docs/page.md', 'pkg/module.py']
    assert set(long_files(tmp_path)) == {'docs/page.md', 'pkg/module.py'}


def test_gitignore_names_match_folders_and_files():
    patterns = gitignore_patterns(ROOT)
    assert 'out/' in patterns
    assert ignored('out', patterns, is_folder=True) and not ignored('out', patterns)
    assert ignored('a/b/x.pyc', patterns) and not ignored('docs/x.md', patterns)
