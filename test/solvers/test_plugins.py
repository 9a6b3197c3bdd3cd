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
"""Solver plugins are found through real entry points, usable by name, and errors are clear.

The fixture package ``test/fixtures/example_solver_plugin`` (a separate distribution) registers
``example_scaled_rnea`` with one line in its ``pyproject.toml``. The tests install it with pip
into a temporary directory and put that on ``sys.path`` while they run: a test-only plugin is
never installed into the user's environment. Nothing here registers the solver by hand.
"""

from importlib.metadata import entry_points
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.solvers import ENTRY_POINT_GROUP, registry
from robots import random_model, random_state

PLUGIN = 'example_scaled_rnea'
PLUGIN_DISTRIBUTION = 'robot-dynamics-example-solver-plugin'
BUILT_IN = ['rnea', 'lwp_base', 'lwp_link', 'turney_mudge_lee', 'renaud', 'craig']
FIXTURE = pathlib.Path(__file__).resolve().parents[1] / 'fixtures' / 'example_solver_plugin'


@pytest.fixture(scope='module')
def plugin_site(tmp_path_factory):
    """Install the fixture package with pip into a temporary directory (not the environment)."""
    source = tmp_path_factory.mktemp('plugin_source') / FIXTURE.name
    shutil.copytree(FIXTURE, source)          # pip builds in the tree: keep the fixture clean
    target = tmp_path_factory.mktemp('plugin_site')
    result = subprocess.run(
        [sys.executable, '-m', 'pip', 'install', '--quiet', '--no-deps', '--no-index',
         '--no-build-isolation', '--target', str(target), str(source)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return target


@pytest.fixture
def plugin(plugin_site, monkeypatch):
    """Put the plugin on ``sys.path`` and make the registry rescan the entry points."""
    monkeypatch.syspath_prepend(str(plugin_site))
    monkeypatch.setattr(registry, '_registry', dict(registry._registry))
    monkeypatch.setattr(registry, '_loaded', False)
    yield plugin_site
    sys.modules.pop('example_solver_plugin', None)


def group():
    """Return the installed entry points of the solver group, by name."""
    return {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}


def test_plugin_is_not_installed_into_the_environment(tmp_path):
    code = 'import robot_dynamics as rd; print(rd.solvers.available())'
    result = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert 'rnea' in result.stdout and PLUGIN not in result.stdout


def test_plugin_is_an_installed_entry_point_of_another_distribution(plugin):
    entries = group()
    assert PLUGIN in entries
    entry = entries[PLUGIN]
    assert entry.value == 'example_solver_plugin:SOLVER'
    assert entry.dist.name == PLUGIN_DISTRIBUTION
    # The one line in the fixture's pyproject.toml is what declared it.
    assert f'{PLUGIN} = "example_solver_plugin:SOLVER"' in \
        (FIXTURE / 'pyproject.toml').read_text(encoding='utf-8')


def test_built_in_solvers_are_entry_points_of_robot_dynamics():
    entries = group()
    for name in BUILT_IN:
        assert name in entries, f'{name} missing from setup.py entry points (reinstall)'
        assert entries[name].dist.name.replace('_', '-') == 'robot-dynamics'
        assert entries[name].load() is rd.solvers.get(name)


def test_plugin_is_listed_and_loaded_from_its_package(plugin):
    assert PLUGIN in rd.solvers.available()
    solver = rd.solvers.get(PLUGIN)
    assert solver.name == PLUGIN
    assert solver.function.__module__ == 'example_solver_plugin'
    import example_solver_plugin
    assert solver is example_solver_plugin.SOLVER
    # Loaded from the installed copy, not from the fixture's source directory.
    assert pathlib.Path(example_solver_plugin.__file__).resolve().parents[1] == plugin.resolve()


@pytest.fixture
def arm():
    """Give a seeded random 6-joint arm with friction and rotors, and a batch of states."""
    rng = np.random.default_rng(42)
    model = random_model(rng, 6, prismatic_fraction=0.3, friction=True, rotor=True)
    return model, random_state(rng, 6, 4), rng.uniform(-5, 5, (4, 6))


def test_plugin_usable_by_name_in_the_public_api(plugin, arm):
    model, (q, qd, qdd), f_tip = arm
    tau = rd.inverse_dynamics(model, q, qd, qdd, f_tip, solver=PLUGIN)
    reference = rd.inverse_dynamics(model, q, qd, qdd, f_tip)
    assert np.abs(tau - reference).max() <= 1e-10 * max(1.0, np.abs(reference).max())
    M = rd.mass_matrix(model, q, solver=PLUGIN)
    assert np.abs(M - rd.mass_matrix(model, q)).max() <= 1e-10 * np.abs(M).max()
    back = rd.forward_dynamics(model, q, qd, tau, f_tip, solver=PLUGIN)
    assert np.abs(back - qdd).max() <= 1e-8 * max(1.0, np.abs(qdd).max())
    assert PLUGIN in {row['solver'] for row in rd.verify(model, samples=3)['results']}


def test_unknown_solver_name_lists_the_available_ones(plugin, arm):
    model, (q, qd, qdd), _ = arm
    for call in (lambda: rd.inverse_dynamics(model, q, qd, qdd, solver='example_scaled_rena'),
                 lambda: rd.mass_matrix(model, q, solver='no_such_solver'),
                 lambda: rd.forward_dynamics(model, q, qd, qdd, solver='no_such_solver'),
                 lambda: rd.solvers.get('no_such_solver')):
        with pytest.raises(rd.SolverError) as error:
            call()
        message = str(error.value)
        assert 'unknown solver' in message
        for name in BUILT_IN + [PLUGIN]:
            assert name in message


def test_verify_report_reads_as_markdown(arm):
    model = arm[0]
    report = rd.verify(model, samples=4, seed=3)
    text = str(report)
    assert report.ok and report['states'] == 4 and report.seed == 3
    assert text.count('| ok |') == len(rd.solvers.available())
    assert set(rd.solvers.available()) == {r.solver for r in report.results}
    assert all(r.torque_error <= 1e-12 and r.mass_matrix_error <= 1e-12
               for r in report.results)
    if 'lagrange_euler' in rd.solvers.available():
        assert len(report.lagrange_terms) == 3 and '| G (gravity) |' in text
        assert max(report.lagrange_terms.values()) <= 1e-12
