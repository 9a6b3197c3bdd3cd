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
"""The package's layers: every import runs downward, none hides inside a function.

docs/architecture.md draws the layers; this test reads every module's imports (the syntax tree,
not a run) and fails on an import of a higher layer, or of the same layer's package from inside
a function (a lazy import that would hide a cycle).
"""

import ast
import pathlib

from project_files import project_files

ROOT = pathlib.Path(__file__).resolve().parents[1] / 'robot_dynamics'

#: Bottom to top; a module may import its own layer and the ones listed before it.
LAYERS = [
    ('errors',),
    ('spatial',),
    ('io',),
    ('model',),
    ('algorithms',),
    ('codegen',),
    ('engine',),
    ('solvers',),
    ('api',),
    ('cartesian', 'simulation'),
    ('fast',),
    ('analysis', 'identification', 'contacts'),
    ('control',),
    ('bringup',),
    ('cli', 'nodes', '__init__', '__main__'),
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def layer_of(module):
    """Return the top-level part of ``robot_dynamics.<part>...`` (the layer's name)."""
    parts = module.split('.')
    if len(parts) > 1 and (ROOT / parts[1]).with_suffix('.py').exists() or \
            len(parts) > 1 and (ROOT / parts[1]).is_dir():
        return parts[1]
    return '__init__'                                # the package itself (``__version__``)


def imports(path):
    """Yield ``(module imported, line, inside a function)`` for robot_dynamics imports."""
    tree = ast.parse(path.read_text(encoding='utf-8'))
    functions = [node for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    nested = {id(inner) for f in functions for inner in ast.walk(f) if inner is not f}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module != 'robot_dynamics' else \
                [f'robot_dynamics.{alias.name}' for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith('robot_dynamics.'):
                yield name, node.lineno, id(node) in nested


def module_name(path):
    """``robot_dynamics/model/frames.py`` → ``robot_dynamics.model.frames``."""
    relative = path.relative_to(ROOT.parent).with_suffix('')
    return '.'.join(relative.parts)


def test_every_module_belongs_to_a_layer():
    unknown = {layer_of(module_name(p)) for p in ROOT.rglob('*.py')} - set(RANK)
    assert not unknown, f'modules outside the documented layers: {sorted(unknown)}'


def test_imports_run_downward_and_never_lazily():
    upward, lazy = [], []
    for path in sorted(ROOT.rglob('*.py')):
        here = layer_of(module_name(path))
        for name, line, in_function in imports(path):
            there = layer_of(name)
            where = f'{path.relative_to(ROOT.parent)}:{line} imports {name}'
            if RANK.get(there, len(LAYERS)) > RANK[here]:
                upward.append(where)
            elif in_function and here not in ('cli', 'nodes'):
                lazy.append(where)
    assert not upward, 'imports of a higher layer:\n' + '\n'.join(upward)
    assert not lazy, 'imports inside functions (hidden cycles):\n' + '\n'.join(lazy)


#: Issue 35: the ROS layer is glue over the library, this size at most.
MAX_NODES_LINES = 3500


def ros_imports(path):
    """Return the ROS packages ``path`` imports: rclpy and interface packages (``*_msgs`` ...)."""
    tree = ast.parse(path.read_text(encoding='utf-8'))
    names = [alias.name for node in tree.body if isinstance(node, ast.Import)
             for alias in node.names]
    names += [node.module for node in tree.body
              if isinstance(node, ast.ImportFrom) and node.module and node.level == 0]
    tops = {name.split('.')[0] for name in names}
    return sorted(top for top in tops
                  if top == 'rclpy' or top.endswith(('_msgs', '_srvs', '_interfaces')))


def test_the_nodes_are_ros_glue():
    modules = sorted((ROOT / 'nodes').glob('*.py'))
    plain = [p.name for p in modules if p.name != '__init__.py' and not ros_imports(p)]
    assert not plain, f'nodes/ modules that import no ROS package (move them below): {plain}'
    lines = sum(len(p.read_text(encoding='utf-8').splitlines()) for p in modules)
    assert lines <= MAX_NODES_LINES, f'nodes/ has {lines} lines; move plain logic below'


MAX_LINES = 450     # issue 25: a file a maintainer can read through


def long_files(top):
    """{path: line count} of the project's files of ``top`` with MAX_LINES lines or more.

    Python, C, launch files, tests, benchmarks and docs (robot descriptions are data); the
    project's files only (:func:`project_files.project_files`): what a command of the README
    wrote into the git-ignored ``out/`` is no source (issue 36).
    """
    top = pathlib.Path(top).resolve()
    suffixes = ('.py', '.c', '.h', '.md', '.sh', '.yaml')
    long = {}
    for path in project_files(top):
        if path.name.endswith(suffixes):
            count = len(path.read_text(encoding='utf-8', errors='replace').splitlines())
            if count >= MAX_LINES:
                long[path.relative_to(top).as_posix()] = count
    return long


def test_every_source_and_document_is_under_450_lines():
    long = long_files(ROOT.parent)
    assert not long, f'split these files (>= {MAX_LINES} lines): {long}'
