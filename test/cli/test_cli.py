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
"""The ``robot-dynamics`` command line: the numbers it prints and the files it writes."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from cli_helpers import arm_fixture, Q, QD, QDD, run, table_column  # noqa: F401 (fixture)
from robots import pinocchio_configuration

import robot_dynamics as rd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------- dynamics at a state
def test_torque_table_matches_inverse_dynamics(arm, capsys):
    path, model = arm
    code, out, _ = run(capsys, 'torque', path, '--q', ','.join(map(str, Q)),
                       '--qd', *QD, '--qdd', ', '.join(map(str, QDD)), '--precision', 9)
    assert code == 0
    printed = np.array(table_column(out, 2), dtype=float)
    expected = rd.inverse_dynamics(model, Q, QD, QDD)
    np.testing.assert_allclose(printed, expected, rtol=0, atol=0.6e-9)
    rows = {line.split()[0]: line for line in out.splitlines()}
    assert rows['joint1'].endswith(' N m') and rows['joint3'].endswith(' N')   # prismatic


@pytest.mark.parametrize('name', ['two_link', 'puma560', 'puma560_dh', 'stanford'])
def test_torque_on_bundled_models(capsys, name):
    model = rd.load_model(name)
    rng = np.random.default_rng(3)
    q, qd, qdd = rng.uniform(-1, 1, (3, model.dof)).tolist()
    code, out, _ = run(capsys, 'torque', name, '--q', ','.join(map(repr, q)), '--qd',
                       *map(repr, qd), '--qdd', ' '.join(map(repr, qdd)), '--precision', 8)
    assert code == 0 and f'model {model.name}' in out
    printed = np.array(table_column(out, 2), dtype=float)
    np.testing.assert_allclose(printed, rd.inverse_dynamics(model, q, qd, qdd), rtol=0,
                               atol=0.6e-8)
    code, out, _ = run(capsys, 'gravity', name, '--q', *map(repr, q), '--json')
    np.testing.assert_allclose(json.loads(out)['gravity_torques'], rd.gravity_torques(model, q),
                               rtol=0, atol=1e-12)


def test_torque_json_degrees_tip_wrench_and_solvers(arm, capsys):
    path, model = arm
    f_tip = [1.0, -2.0, 3.0, 0.1, 0.2, -0.3]
    q_deg = np.degrees(Q[:2]).tolist() + [Q[2]]                    # prismatic stays in m
    for solver in rd.solvers.available():
        code, out, _ = run(capsys, 'torque', path, '--deg', '--q', *q_deg,
                           '--qd', *np.degrees(QD[:2]), QD[2], '--qdd', *np.degrees(QDD[:2]),
                           QDD[2], '--f-tip', *f_tip, '--solver', solver, '--json')
        assert code == 0
        result = json.loads(out)
        assert result['solver'] == solver and result['joint_names'] == list(model.joint_names)
        expected = rd.inverse_dynamics(model, Q, QD, QDD, f_tip=f_tip)
        np.testing.assert_allclose(result['tau'], expected, rtol=0, atol=1e-9)


def test_gravity_and_mass_matrix_against_pinocchio(arm, capsys):
    import pinocchio as pin
    path, model = arm
    pm = pin.buildModelFromXML(model.to_urdf())
    pd = pm.createData()
    config = pinocchio_configuration(pm, np.array(Q))

    code, out, _ = run(capsys, 'gravity', path, '--q', *Q, '--json')
    assert code == 0
    np.testing.assert_allclose(json.loads(out)['gravity_torques'],
                               pin.computeGeneralizedGravity(pm, pd, config), atol=1e-10)

    code, out, _ = run(capsys, 'mass-matrix', path, '--q', *Q, '--json')
    assert code == 0
    M_pin = pin.crba(pm, pd, config)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T + np.diag(model.reflected_inertia)
    np.testing.assert_allclose(json.loads(out)['mass_matrix'], M_pin, atol=1e-10)

    code, out, _ = run(capsys, 'mass-matrix', path, '--q', *Q, '--precision', 8)
    printed = np.array([table_column(out, c) for c in (1, 2, 3)], dtype=float).T
    np.testing.assert_allclose(printed, rd.mass_matrix(model, Q), rtol=0, atol=0.6e-8)


def test_info_lists_joints_masses_and_warnings(arm, capsys, tmp_path):
    path, model = arm
    code, out, _ = run(capsys, 'info', path, '--json')
    assert code == 0
    info = json.loads(out)
    assert [j['name'] for j in info['joints']] == list(model.joint_names)
    assert [j['type'] for j in info['joints']] == list(model.joint_types)
    np.testing.assert_allclose([j['viscous_friction'] for j in info['joints']],
                               model.viscous_friction, atol=1e-12)
    np.testing.assert_allclose([j['reflected_inertia'] for j in info['joints']],
                               model.reflected_inertia, atol=1e-12)
    assert info['total_mass'] == pytest.approx(model.mass.sum(), abs=1e-12)
    assert info['joints'][0]['effort_limit'] == pytest.approx(300.0)

    code, out, _ = run(capsys, 'info', path, '--deg')
    assert code == 0
    assert table_column(out, 5)[0] == f'{np.degrees(-3.0):.4f}'     # after 3 axis numbers

    massless = model.replace(mass=[model.mass[0], 0.0, model.mass[2]],
                             inertia=[model.inertia[0], np.zeros((3, 3)), model.inertia[2]])
    massless_path = tmp_path / 'massless.urdf'
    massless_path.write_text(massless.to_urdf())
    code, out, err = run(capsys, 'info', massless_path, '--json')
    listed = json.loads(out)['warnings']                 # the URDF friction note, the link
    assert code == 0 and len(listed) == 2 and 'massless moving links: link2' in listed
    code, out, err = run(capsys, 'gravity', massless_path, '--q', *Q)
    assert code == 0 and 'has 2 warning(s); see `robot-dynamics check' in err  # the same count
    code, out, err = run(capsys, 'info', 'ur5')
    assert code == 0 and 'warnings: none' in out and err == ''


def test_verify_reports_every_solver_and_fails_a_wrong_one(arm, capsys, monkeypatch):
    path, model = arm
    code, out, _ = run(capsys, 'verify', path, '--json', '--samples', 5)
    assert code == 0
    report = json.loads(out)
    expected = rd.verify(model, samples=5)
    assert [r['solver'] for r in report['results']] == rd.solvers.available()
    for printed, result in zip(report['results'], expected.results):
        assert printed['max_abs_error'] == result.max_abs_error < 1e-9
    assert report['ok'] and set(report['lagrange_terms']) == set(expected.lagrange_terms)

    def off_by_gravity(model, q, qd, qdd, gravity, f_tip=None):
        return rd.solvers.get('rnea')(model, q, qd, qdd, 1.001 * gravity, f_tip)
    rd.solvers.available()
    monkeypatch.setitem(rd.solvers.registry._registry, 'off_by_gravity',
                        rd.solvers.Solver('off_by_gravity', off_by_gravity))
    code, out, _ = run(capsys, 'verify', path, '--samples', 5)
    assert code == 1 and 'DISAGREEMENT' in out
    assert [line.split()[-1] for line in out.splitlines()
            if line.startswith('off_by_gravity')] == ['FAIL']


def test_opcount_table_and_model_counts(capsys):
    from robot_dynamics.analysis import opcount
    code, out, _ = run(capsys, 'opcount', '--n-max', 6, 'two_link')
    assert code == 0
    assert opcount.table_markdown(6) in out
    model = rd.load_model('two_link')
    rows = {line.split('|')[1].strip(' `'): line.split('|')[2:4]
            for line in out.split('Counts for two_link')[1].splitlines() if line.startswith('| `')}
    assert set(rows) == set(rd.solvers.available())
    for name, (mul, add) in rows.items():
        tally = opcount.count_operations(name, model)
        assert (int(mul), int(add)) == (tally.mul, tally.add)


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize('argv, words', [
    (['torque', 'no_such_arm.urdf', '--q', '0'], ['no_such_arm.urdf', 'bundled models']),
    (['torque', '{model}', '--q', '1,2'], ['--q', 'expected 3 values', 'joint1']),
    (['gravity', '{model}', '--q', '1', '2', 'x'], ['--q', "'x' is not a number"]),
    (['torque', '{model}', '--q', '1,2,3', '--solver', 'nope'], ['nope', 'available solvers']),
    (['simulate', '{model}', '--dt', '-1'], ['--dt', 'positive']),
    (['trajectory', '{model}', '{bad_plan}'], ['bad.yaml', 'waypoints.positions', 'one column']),
    (['trajectory', '{model}', 'missing_plan.yaml'], ['missing_plan.yaml', 'check the path']),
])
def test_errors_are_one_line_with_exit_code_2(arm, capsys, tmp_path, argv, words):
    path, _ = arm
    bad_plan = tmp_path / 'bad.yaml'
    bad_plan.write_text('waypoints:\n  times: [0, 1]\n  positions: [[0, 0], [1, 1]]\n')
    argv = [a.format(model=path, bad_plan=bad_plan) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ''
    assert len(err.strip().splitlines()) == 1 and err.startswith('robot-dynamics ')
    for word in words:
        assert word in err


# ---------------------------------------------------------------------- real processes
def test_console_script_and_module_run_as_processes(arm):
    path, model = arm
    env = dict(os.environ)          # the installed package (not the source tree)
    script = os.path.join(os.path.dirname(sys.executable), 'robot-dynamics')
    command = [script] if os.path.exists(script) else [sys.executable, '-m', 'robot_dynamics']
    done = subprocess.run(command + ['--help'], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0 and 'examples:' in done.stdout and 'simulate' in done.stdout
    done = subprocess.run([sys.executable, '-m', 'robot_dynamics', 'gravity', path, '--q', *map(
        str, Q), '--json'], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    np.testing.assert_allclose(json.loads(done.stdout)['gravity_torques'],
                               rd.gravity_torques(model, Q), atol=1e-12)
    done = subprocess.run([sys.executable, '-m', 'robot_dynamics', 'torque', path, '--q', '1'],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_codegen_writes_the_customised_model(capsys, arm, tmp_path):
    path, model = arm
    target = tmp_path / 'arm3_dynamics.py'
    code, out, _ = run(capsys, 'codegen', path, '-o', target, '--functions',
                       'inverse_dynamics,gravity')
    assert code == 0 and target.is_file()
    generated = rd.generate(model, functions=['inverse_dynamics', 'gravity'])
    assert f'{generated.multiplications} multiplications' in out
    header = target.read_text().splitlines()[:8]
    assert any(f'inverse_dynamics: {generated.multiplications} multiplications, '
               f'{generated.additions} additions' in line for line in header)
    namespace = {}
    exec(compile(target.read_text(), str(target), 'exec'), namespace)   # noqa: S102
    q, qd, qdd = np.array(Q), np.array(QD), np.array(QDD)
    tau = np.array(namespace['inverse_dynamics'](q, qd, qdd), dtype=float)
    assert np.allclose(tau, rd.inverse_dynamics(model, q, qd, qdd), rtol=0, atol=1e-10)
    code, out, _ = run(capsys, 'codegen', 'renaud_6r', '--symbolic', '--regroup', 'augmented',
                       '--json', '-o', tmp_path / 'r6.py')
    counts = json.loads(out)
    assert counts['multiplications'] <= 181 and counts['additions'] <= 127    # seed 001
    code, out, _ = run(capsys, 'codegen', 'renaud_6r', '-o', tmp_path / 'r6.c')
    assert code == 0 and 'void rd_inverse_dynamics' in (tmp_path / 'r6.c').read_text()
    code, _, err = run(capsys, 'codegen', 'renaud_6r', '--symbolic', '-o', tmp_path / 'r6s.c')
    assert code == 2 and 'C code needs numeric inertial parameters' in err
    code, _, err = run(capsys, 'codegen', path, '-o', tmp_path / 'x.py', '--functions', 'nope')
    assert code == 2 and "--functions: unknown ['nope']" in err


def test_real_time_factor_keeps_two_digits_below_ten(arm, capsys, tmp_path):
    # Was: 'simulate --solver craig' printed '0x real time' for a 0.25x run.
    from robot_dynamics.cli.simulation import real_time_factor
    assert [real_time_factor(1.0, s) for s in (4.0, 0.8, 0.0115, 1.0 / 1234.4)] == \
        ['0.25x', '1.2x', '87x', '1234x']
    path, _ = arm
    code, out, _ = run(capsys, 'simulate', path, '--solver', 'craig', '--duration', 0.02,
                       '--no-plot', '--no-progress', '-o', tmp_path / 'sim')
    assert code == 0
    factor = re.search(r'wall, (\S+)x real time', out).group(1)
    assert float(factor) > 0, out
