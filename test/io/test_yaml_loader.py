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
"""Issue 22.7: one YAML loader, alias bombs refused with bounded work and memory.

Work is measured by the nodes the size check visits and memory by tracemalloc's peak, never
by the clock. Before the fix, the 679-byte trajectory below ran past 120 s and 5.5 GB.
"""

import ast
import pathlib
import tracemalloc

import pytest

import robot_dynamics as rd
from robot_dynamics import cli
from robot_dynamics.io import yaml_loader
from robot_dynamics.io.trajectory_yaml import read_joint_trajectory_yaml, TrajectoryFileError
from robot_dynamics.io.yaml_loader import load_yaml, YAMLInputError
from robot_dynamics.bringup.demo_graph import load_parameters

ROOT = pathlib.Path(__file__).resolve().parents[2]


def alias_bomb(levels=9, width=9):
    """Return anchors ``l0..l<levels>``, each a list of ``width`` aliases of the previous."""
    lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]']
    for k in range(1, levels):
        lines.append(f'l{k}: &l{k} [' + ', '.join([f'*l{k - 1}'] * width) + ']')
    return '\n'.join(lines)


def trajectory_bomb():
    """Return the issue's trajectory: joint names that expand to 9^9 strings."""
    text = alias_bomb(levels=9).replace('\n', '\n  ')
    return ('bomb:\n  ' + text + '\njoint_names: *l8\npoints:\n- positions: [0]\n'
            '  time_from_start: {sec: 1, nanosec: 0}\n')


def bounded(function, *arguments):
    """Run ``function``, return (exception, nodes visited by the size check, peak bytes)."""
    visited = []
    children = yaml_loader._children

    def counting(node):
        visited.append(1)
        return children(node)
    yaml_loader._children = counting
    tracemalloc.start()
    try:
        function(*arguments)
    except ValueError as exc:
        error = exc
    else:
        error = None
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        yaml_loader._children = children
    return error, len(visited), peak


def test_the_issues_trajectory_bomb_is_refused_with_bounded_work(tmp_path):
    path = tmp_path / 'bomb.yaml'
    path.write_text(trajectory_bomb())
    assert len(path.read_bytes()) < 700                 # the issue's was 679 bytes
    error, visited, peak = bounded(read_joint_trajectory_yaml, str(path))
    assert isinstance(error, TrajectoryFileError)
    assert f'{path} expands to more than 1000000 nodes through its aliases' in str(error)
    assert visited < 200                              # distinct nodes, not 9^9 expansions
    assert peak < 20 * 2 ** 20


@pytest.mark.parametrize('text, message', [
    ('a: &a [*a]', 'refers to a node that contains it'),
    ('a: &a {b: *a}', 'refers to a node that contains it'),
    ('x: 1\nx: 2', "repeats the key 'x' at line 2, column 1"),
    ('[' * 5000 + ']' * 5000, 'nested too deeply'),
    ('x: ' + '9' * 5000, 'has a value that cannot be read'),
    ('x: !!python/object:os.system ls', 'does not parse'),
    ('--- 1\n--- 2', 'does not parse'),
])
def test_malformed_documents_are_one_line_errors(text, message):
    with pytest.raises(YAMLInputError, match=message) as info:
        load_yaml(text, 'doc')
    assert '\n' not in str(info.value) and str(info.value).startswith('doc')


def test_aliases_within_the_budget_are_read():
    assert load_yaml('a: &a [1, 2]\nb: *a') == {'a': [1, 2], 'b': [1, 2]}
    bomb = alias_bomb(levels=6)                      # 9^6 = 531441 expanded nodes
    assert len(load_yaml(bomb)['l5']) == 9
    with pytest.raises(YAMLInputError, match='expands to more than 100000 nodes'):
        load_yaml(bomb, max_nodes=100_000)


def test_size_limit_before_parsing():
    with pytest.raises(YAMLInputError, match='is larger than 10 bytes'):
        load_yaml('x: 12345678901', max_bytes=10)


def test_every_reader_of_yaml_uses_the_one_loader():
    """No module but io/yaml_loader.py calls a PyYAML loading function."""
    loading = {'load', 'safe_load', 'full_load', 'unsafe_load', 'load_all', 'safe_load_all',
               'compose', 'parse'}
    offenders = []
    for path in (ROOT / 'robot_dynamics').rglob('*.py'):
        if path.name == 'yaml_loader.py':
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in loading \
                    and isinstance(node.value, ast.Name) and node.value.id == 'yaml':
                offenders.append(f'{path.relative_to(ROOT)}:{node.lineno}')
    assert offenders == []


def test_each_reader_refuses_the_bomb(tmp_path):
    bomb = alias_bomb(levels=9)
    path = tmp_path / 'bomb.yaml'
    path.write_text(bomb)
    with pytest.raises(rd.DHError, match='DH YAML expands to more than'):
        rd.RobotModel.from_dh(bomb + '\nlinks: *l8\n')
    with pytest.raises(rd.ModelError, match='anchors and aliases are refused'):
        rd.load_model('two_link').with_friction(bomb + '\njoints: {}\n')
    with pytest.raises(YAMLInputError, match='expands to more than'):
        load_parameters(str(path))


def test_the_trajectory_command_refuses_the_bomb_in_one_line(tmp_path, capsys):
    path = tmp_path / 'move.yaml'
    path.write_text(alias_bomb(levels=9) + '\nwaypoints: {times: *l8, positions: *l8}\n')
    assert cli.main(['trajectory', 'two_link', str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert 'expands to more than 1000000 nodes' in err and len(err.splitlines()) == 1


@pytest.mark.parametrize('text, value', [
    ('1_5', '1_5'), ('1:30', '1:30'), ('no', 'no'), ('on', 'on'), ('yes', 'yes'),
    ('012', 12), ('0x1F', 31), ('0o17', 15), ('0b101', '0b101'), ('1e3', 1000.0),
    ('-3', -3), ('+.5', 0.5), ('3.', 3.0), ('true', True), ('False', False), ('~', None),
    ('', None), ('2026-01-01', '2026-01-01'),
])
def test_plain_scalars_follow_the_yaml_1_2_core_schema(text, value):
    """As yaml-cpp reads ROS 2 parameter files; PyYAML's 1.1 read 1_5 as 15, no as False."""
    assert load_yaml(f'x: {text}') == {'x': value}


def test_a_dh_mass_with_an_underscore_is_refused_not_read_as_15():
    document = ('convention: standard\nlinks:\n- {a: 0, alpha: 0, d: 0, mass: 1_5}\n'
                '- {a: 0, alpha: 0, d: 0, mass: 1, theta: pi/1_0, type: prismatic}\n')
    with pytest.raises(rd.DHError, match=r"links\[0\]\.mass: expected a number, got '1_5'"):
        rd.RobotModel.from_dh(document)


def test_joint_names_yaml_1_1_would_turn_into_booleans_stay_names(tmp_path):
    path = tmp_path / 'traj.yaml'
    path.write_text('joint_names: [no, on]\npoints:\n- positions: [0, 0]\n'
                    '  time_from_start: {sec: 1, nanosec: 0}\n')
    assert read_joint_trajectory_yaml(str(path))[0] == ['no', 'on']
