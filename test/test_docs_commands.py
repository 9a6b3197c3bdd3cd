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
"""The documentation's commands, run, and their printed output compared with the page's.

Every ``$ robot-dynamics …`` line inside a fenced block of README.md or docs/*.md is a
command; the lines after it, up to the next ``$`` or the fence, are what the page says it
prints. Each command is either run here (in-process, in a scratch directory that sees the
repository's ``docs/`` and ``test/``) and its stdout and stderr compared with the page, or
listed in ``SKIPPED`` with the reason; a new command in the docs that is neither fails, so drift in
either direction is caught.

Comparison, line by line, spaces collapsed: ``…`` alone on a line stands for any number of
lines, ``…`` inside a line ends the part compared; a line about wall time (``wall``, ``real
time``) is compared with its numbers masked; round-off figures (``1.066e-14``: an exponent of
-12 or below) match any other round-off figure; JSON output is compared as data.

The bare ``robot-dynamics`` lines of bash fences must exit 0. The fenced Python examples that
start with an import run statement by statement; an expression followed by ``# <literal>``
(``code.multiplications, code.additions  # (149, 100)``) must give that value.

Not run here: the ROS commands of the pages (``ros2 launch``, ``ros2 run``, ``ros2 param``,
the bringup scripts), which start graphs for seconds to minutes; test/nodes runs the same
nodes and launch files.
"""

import ast
import json
import pathlib
import re
import shlex

import pytest

from robot_dynamics import cli

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / 'README.md'] + sorted((ROOT / 'docs').glob('*.md'))

#: Documented commands not run here, by their first words, and why.
SKIPPED = {
    'robot-dynamics gravity arm_with_gripper.urdf': 'the reader\'s own URDF (output elided)',
    'robot-dynamics gravity torso.urdf': 'the reader\'s own URDF',
    'robot-dynamics trajectory puma560 move.yaml': 'the reader\'s own (wrong) YAML file',
    'robot-dynamics benchmark puma560': 'timings (benchmarks/ has them); '
                                        'test_cli checks the peers compute the same values',
    'robot-dynamics excite puma560': 'designs for up to 30 s; test/cli and test/identification '
                                     'run excite with a short time limit',
    'robot-dynamics identify puma560 run_bag/': 'the reader\'s own recording',
    'robot-dynamics identify puma560 rosbag2_dir/': 'the reader\'s own recording',
    'robot-dynamics identify panda run.csv': 'the reader\'s own recording; '
                                             'test/cli/test_contacts_cli.py runs identify, then '
                                             'contacts on its thresholds',
    'robot-dynamics contacts': 'the reader\'s own recording; test/cli/test_contacts_cli.py runs '
                               'the command on simulated ones',
}


def documented_commands():
    """Yield (page, line number, command, documented output lines) for every ``$`` line."""
    for page in PAGES:
        lines = page.read_text().splitlines()
        fenced, current = False, None
        for number, line in enumerate(lines, 1):
            if line.startswith('```'):
                if current:
                    yield current
                fenced, current = not fenced, None
            elif fenced and line.startswith('$ '):
                if current:
                    yield current
                current = (page.relative_to(ROOT).as_posix(), number, line[2:], [])
            elif current:
                current[3].append(line)


def trimmed(command):
    """Return ``command`` without the blank lines that end its documented output."""
    page, number, text, output = command
    while output and not output[-1].strip():
        output = output[:-1]
    return page, number, text, output


def listed_commands():
    """Yield (page, line number, command) for the ``robot-dynamics`` lines of bash fences."""
    for page in PAGES:
        fence = None
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if line.startswith('```'):
                fence = line[3:].strip() if fence is None else None
            elif fence == 'bash' and line.startswith('robot-dynamics '):
                yield page.relative_to(ROOT).as_posix(), number, line.split('#')[0].strip()


LISTED = list(listed_commands())
COMMANDS = [trimmed(c) for c in documented_commands() if c[2].startswith('robot-dynamics ')]


def skipped(command):
    """Return the reason a documented command is not run, or None."""
    return next((why for start, why in SKIPPED.items() if command.startswith(start)), None)


ROUND_OFF = re.compile(r'\b\d\.\d+e-(1[2-9]|[2-9]\d)\b')
NUMBER = re.compile(r'-?\d+(\.\d+)?(e[-+]?\d+)?')


def normalised(line):
    """Collapse spaces, mark round-off figures, mask the numbers of wall-time lines."""
    line = ' '.join(ROUND_OFF.sub('ε', line).split())
    if 'wall' in line or 'real time' in line:
        line = NUMBER.sub('#', line)
    return line


def wildcard(line):
    """Return whether a documented line stands for any number of printed lines."""
    text = line.strip().strip('|').strip()
    return text.startswith('…') and text.endswith('…')


def matches(documented, printed):
    """Return the first documented line not found in order in ``printed`` (None: all match)."""
    printed = [normalised(p) for p in printed]
    position, anything = 0, False
    for line in documented:
        if wildcard(line):
            anything = True
            continue
        want = normalised(line.split('…')[0]) if '…' in line else normalised(line)
        last = len(printed) if anything else min(position + 1, len(printed))
        candidates = range(position, last)
        found = next((k for k in candidates if printed[k] == want
                      or ('…' in line and printed[k].startswith(want))), None)
        if found is None:
            return line
        position, anything = found + 1, False
    return None


def same_data(shown, printed):
    """Compare JSON values: numbers to 1e-12 relative, everything else exactly."""
    if isinstance(shown, dict):
        return isinstance(printed, dict) and shown.keys() == printed.keys() and all(
            same_data(shown[k], printed[k]) for k in shown)
    if isinstance(shown, list):
        return isinstance(printed, list) and len(shown) == len(printed) and all(
            same_data(a, b) for a, b in zip(shown, printed))
    if isinstance(shown, float) or isinstance(printed, float):
        return printed == pytest.approx(shown, rel=1e-12, abs=0)
    return shown == printed


def run(command, capsys):
    """Run a documented command line in-process; return its exit code and printed lines."""
    words = shlex.split(command.split(';')[0])
    code = cli.main(words[1:])
    out, err = capsys.readouterr()
    lines = out.splitlines() + err.splitlines()
    if command.endswith('echo $?'):
        lines.append(str(code))
    return code, lines


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """Run in an empty directory that sees docs/ and test/ (the examples' paths)."""
    for name in ('docs', 'test'):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('MPLBACKEND', 'Agg')
    return tmp_path


def test_every_documented_command_is_run_or_skipped_with_a_reason():
    assert len(COMMANDS) >= 15 and len(LISTED) >= 8
    everything = [c[2] for c in COMMANDS] + [c[2] for c in LISTED]
    unknown = [c for c in SKIPPED if not any(cmd.startswith(c) for cmd in everything)]
    assert not unknown, f'SKIPPED lists commands no page documents any more: {unknown}'


@pytest.mark.parametrize('page, line, command, documented',
                         [c for c in COMMANDS if not skipped(c[2])],
                         ids=[f'{c[0]}:{c[1]}' for c in COMMANDS if not skipped(c[2])])
def test_documented_command_prints_what_the_page_says(scratch, capsys, page, line, command,
                                                      documented):
    code, printed = run(command, capsys)
    where = f'{page}:{line}: `{command}`'
    if documented and documented[0].startswith('{'):
        end = len(printed) - printed[::-1].index('}')
        shown, output = json.loads('\n'.join(documented)), json.loads('\n'.join(printed[:end]))
        assert same_data(shown, output), (where, printed)
        return
    # A user error (exit 2) prints ': error: '; 1 is a finding (verify, limits, feasibility).
    expect_error = any(': error: ' in d for d in documented)
    assert code == 2 if expect_error else code in (0, 1), (where, code, printed)
    missing = matches(documented, printed)
    assert missing is None, f'{where} no longer prints\n  {missing}\nit prints:\n' + \
        '\n'.join(printed)


#: Options docs/cli.md describes once for every subcommand, outside the synopsis.
COMMON_OPTIONS = {'--help', '--friction', '--no-urdf-friction', '--base-link', '--tip-link',
                  '--lock'}


def test_cli_synopsis_names_every_subcommand_and_option():
    """docs/cli.md's synopsis block lists each subcommand with every option its parser has."""
    text = (ROOT / 'docs' / 'cli.md').read_text()
    synopsis = text.split('```\n', 2)[1]
    entries = re.split(r'\n(?=robot-dynamics )', synopsis.strip())
    documented = {entry.split()[1]: set(re.findall(r'(?<![\w-])(--?[a-zA-Z][\w-]*)', entry))
                  for entry in entries}
    subcommands = cli.build_parser()._subparsers._group_actions[0].choices
    assert set(documented) == set(subcommands), sorted(set(subcommands) ^ set(documented))
    missing = {}
    for name, parser in subcommands.items():
        absent = sorted(action.option_strings[-1] for action in parser._actions
                        if action.option_strings
                        and not set(action.option_strings) & (COMMON_OPTIONS | documented[name]))
        if absent:
            missing[name] = absent
    assert not missing, f'docs/cli.md synopsis lacks {missing}'


@pytest.mark.parametrize('page, line, command', [c for c in LISTED if not skipped(c[2])],
                         ids=[f'{c[0]}:{c[1]}' for c in LISTED if not skipped(c[2])])
def test_listed_command_runs(scratch, capsys, page, line, command):
    """A command a page lists without its output runs and exits 0."""
    code, printed = run(command, capsys)
    assert code == 0, f'{page}:{line}: `{command}` exited {code}:\n' + '\n'.join(printed)


# ---------------------------------------------------------------------- Python examples
#: Python examples not run here, by page and first line, and why.
PYTHON_SKIPPED = {
    ('docs/identification.md', 'import robot_dynamics as rd'):
        'needs the reader\'s recording (run.mcap) and a 30 s design',
}


def python_examples():
    """Yield (page, line number, source) of every fenced Python example that starts with import."""
    for page in PAGES:
        lines = page.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if line.strip() == '```python' and lines[number].startswith('import '):
                end = next(k for k in range(number, len(lines)) if lines[k].startswith('```'))
                yield page.relative_to(ROOT).as_posix(), number + 1, '\n'.join(lines[number:end])


EXAMPLES = [e for e in python_examples()
            if (e[0], e[2].splitlines()[0]) not in PYTHON_SKIPPED]


def shown_value(source, statement):
    """Return the literal a ``# comment`` shows for an expression statement, or None."""
    if not isinstance(statement, ast.Expr):
        return None
    comment = source.splitlines()[statement.end_lineno - 1].partition('#')[2].strip()
    try:
        return ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        return None


def agrees(shown, value):
    """Compare a shown literal with a value; a trailing ``...`` in a list shows a prefix."""
    if isinstance(shown, list) and shown and shown[-1] is Ellipsis:
        return list(value)[:len(shown) - 1] == shown[:-1]
    return shown == (tuple(value) if isinstance(shown, tuple) else value)


def test_python_examples_are_found():
    assert len(EXAMPLES) >= 3
    found = {(page, source.splitlines()[0]) for page, _, source in python_examples()}
    assert set(PYTHON_SKIPPED) <= found, 'PYTHON_SKIPPED names an example that is gone'


@pytest.mark.parametrize('page, line, source', EXAMPLES, ids=[f'{e[0]}:{e[1]}' for e in EXAMPLES])
def test_python_example_runs_and_shows_its_values(scratch, capsys, page, line, source):
    """Run the example statement by statement; a ``# literal`` after an expression is checked."""
    for name in ('urdf', 'config'):              # the examples run from a checkout
        (scratch / name).symlink_to(ROOT / name)
    namespace = {}
    for statement in ast.parse(source).body:
        code = compile(ast.Module([statement], []), f'{page}:{line}', 'exec')
        if isinstance(statement, ast.Expr):
            value = eval(compile(ast.Expression(statement.value), f'{page}:{line}', 'eval'),
                         namespace)
            shown = shown_value(source, statement)
            assert shown is None or agrees(shown, value), \
                f'{page}:{line + statement.lineno - 1}: shows {shown!r}, gives {value!r}'
        else:
            exec(code, namespace)
    capsys.readouterr()


def test_the_readme_says_how_to_count_the_tests_not_a_count_that_goes_stale():
    """Issue 36.4: the README's "1619 tests" was stale; it names the command that counts."""
    text = (ROOT / 'README.md').read_text()
    assert not re.search(r'\b\d[\d,]* tests\b', text), re.search(r'\b\d[\d,]* tests\b', text)
    assert '`./run_tests.sh --collect-only -q | tail -1` counts the\ntests' in text
