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
"""The project's own files: what git tracks or would track, never what a run wrote.

The checks of the whole tree (file length, headers) look at these only: the README's commands
write into the git-ignored ``out/`` (``robot-dynamics excite puma560 -o out/excitation`` writes
an 812-line YAML), and a user who follows the README must not break the test suite (issue 36).
"""

import fnmatch
import importlib.util
import os
import pathlib
import subprocess


def project_files(top):
    """Return the files of the checkout ``top`` that git tracks or would add, sorted.

    In a git checkout whose top is ``top``: ``git ls-files --cached --others
    --exclude-standard`` (tracked, plus new files not ignored), those that exist. In a copy of
    the tracked files without ``.git`` (the colcon workspace of ``.ci/colcon_workspace.sh``):
    every file, minus what the copy's ``.gitignore`` ignores (:func:`ignored`). Paths are
    :class:`pathlib.Path` objects under ``top``.
    """
    top = pathlib.Path(top).resolve()
    listed = _git_files(top)
    if listed is None:
        patterns = gitignore_patterns(top)
        listed = []
        for folder, folders, files in os.walk(top):
            here = pathlib.Path(folder).relative_to(top)
            folders[:] = [name for name in folders
                          if name != '.git' and not ignored(here / name, patterns, True)]
            listed += [here / name for name in files if not ignored(here / name, patterns)]
    return sorted(top / path for path in listed if (top / path).is_file())


def _git_files(top):
    """Return the file list git gives for ``top``, or None when it is not a checkout's top."""
    def git(*args):
        return subprocess.run(['git', '-C', str(top), *args], capture_output=True, text=True,
                              timeout=60)
    try:
        root = git('rev-parse', '--show-toplevel')
    except (OSError, subprocess.SubprocessError):
        return None
    if root.returncode != 0 or pathlib.Path(root.stdout.strip()).resolve() != top:
        return None          # no git, or a copy inside some other repository
    listed = git('ls-files', '-z', '--cached', '--others', '--exclude-standard')
    if listed.returncode != 0:
        return None
    return [pathlib.Path(name) for name in listed.stdout.split('\0') if name]


def gitignore_patterns(top):
    """Return the patterns of ``top/.gitignore`` (comments and blank lines dropped)."""
    path = pathlib.Path(top, '.gitignore')
    if not path.is_file():
        return []
    lines = (line.strip() for line in path.read_text(encoding='utf-8').splitlines())
    return [line for line in lines if line and not line.startswith(('#', '!'))]


def ignored(relative, patterns, is_folder=False):
    """Tell whether ``relative`` (a path under the top) matches a ``.gitignore`` pattern.

    The patterns of this project's ``.gitignore`` are names (``out/``, ``*.pyc``): a pattern
    ending in ``/`` matches a folder's name, any other pattern a file's or folder's name.
    """
    name = pathlib.PurePath(relative).name
    for pattern in patterns:
        folder_only = pattern.endswith('/')
        pattern = pattern.rstrip('/').lstrip('/')
        if (is_folder or not folder_only) and fnmatch.fnmatch(name, pattern):
            return True
    return False


def tool_module(name, top=pathlib.Path(__file__).resolve().parents[1]):
    """Return ``tools/<name>.py`` of the checkout as a module (the tools are no package)."""
    spec = importlib.util.spec_from_file_location(name, pathlib.Path(top, 'tools', f'{name}.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
