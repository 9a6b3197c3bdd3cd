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

import csv
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from robots import pinocchio_configuration, random_model

import robot_dynamics as rd
from robot_dynamics import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'
Q = [0.3, -0.7, 0.25]
QD = [0.5, -1.2, 0.4]
QDD = [1.5, 0.3, -2.0]


@pytest.fixture(scope='module')
def arm(tmp_path_factory):
    """Write a random 3-joint chain, the last joint prismatic, with friction, rotors, limits."""
    model = random_model(np.random.default_rng(7), 3, prismatic_fraction=0.0, friction=True,
                         rotor=True, name='arm3')
    model = model.replace(joint_types=('revolute', 'revolute', 'prismatic'),
                          lower_limit=[-3.0, -3.0, -0.5], upper_limit=[3.0, 3.0, 0.5],
                          velocity_limit=[4.0, 4.0, 1.0], effort_limit=[300.0, 300.0, 500.0])
    path = tmp_path_factory.mktemp('models') / 'arm3.urdf'
    path.write_text(model.to_urdf())
    return str(path), rd.load_model(str(path))


def run(capsys, *argv):
    """Run the command line in-process; return exit code, stdout, stderr."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def table_column(text, column):
    """Return the ``column`` (index) of every row of the first table in ``text``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if set(line.replace(' ', '')) == {'-'})
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(line.split()[column])
    return rows


def read_csv(path):
    """Return the header and the float rows of a CSV file."""
    with open(path) as stream:
        rows = list(csv.reader(stream))
    return rows[0], np.array(rows[1:], dtype=float)


def assert_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == PNG_MAGIC and len(data) > 10_000


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
    code, out, err = run(capsys, 'info', massless_path)
    assert code == 0 and 'massless moving links: link2' in out
    code, out, err = run(capsys, 'gravity', massless_path, '--q', *Q)
    assert code == 0 and 'has 1 warning(s)' in err and 'info' in err
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


# ---------------------------------------------------------------------- files
def test_simulate_gravity_hold_bundled_puma(capsys, tmp_path):
    model = rd.load_model('puma560')
    q0_deg = [10, -40, 30, 5, 20, -15]
    prefix = tmp_path / 'puma_hold'
    code, out, _ = run(capsys, 'simulate', 'puma560', '--torque', 'gravity', '--deg', '--q0',
                       *q0_deg, '--duration', 0.1, '--dt', 0.002, '-o', prefix, '--no-plot',
                       '--no-progress')
    assert code == 0
    header, data = read_csv(f'{prefix}.csv')
    assert header[1:7] == [f'q_{name}' for name in model.joint_names]
    assert data.shape == (51, 1 + 4 * 6 + 1)
    assert np.abs(data[:, 1:7] - np.radians(q0_deg)).max() < 1e-6


def test_simulate_gravity_hold_keeps_still(arm, capsys, tmp_path):
    path, model = arm
    q0 = [0.4, -0.9, 0.2]
    prefix = tmp_path / 'out' / 'hold'
    code, out, _ = run(capsys, 'simulate', path, '--torque', 'gravity', '--duration', 0.2,
                       '--dt', 0.002, '--q0', *q0, '-o', prefix, '--no-progress')
    assert code == 0 and f'wrote {prefix}.csv' in out
    header, data = read_csv(f'{prefix}.csv')
    names = model.joint_names
    assert header == ['t'] + [f'{k}_{n}' for k in ('q', 'qd', 'qdd', 'tau') for n in names] \
        + ['energy']
    assert data.shape == (101, 1 + 4 * 3 + 1)
    np.testing.assert_allclose(data[:, 0], np.arange(101) * 0.002, atol=1e-12)
    assert np.abs(data[:, 1:4] - q0).max() < 1e-6
    np.testing.assert_allclose(data[:, 10:13], rd.gravity_torques(model, data[:, 1:4]),
                               atol=1e-9)
    assert_png(f'{prefix}.png')


def test_simulate_free_fall_matches_library_and_conserves_energy(arm, capsys, tmp_path):
    path, model = arm
    frictionless = tmp_path / 'frictionless.urdf'
    frictionless.write_text(model.without_joint_effects().to_urdf())
    prefix = tmp_path / 'fall'
    code, out, _ = run(capsys, 'simulate', frictionless, '--torque', 'zero', '--duration', 0.1,
                       '--dt', 0.001, '--integrator', 'rk4', '--q0', *Q, '-o', prefix,
                       '--no-plot')
    assert code == 0 and not os.path.exists(f'{prefix}.png')
    _, data = read_csv(f'{prefix}.csv')
    reference = rd.simulate(model.without_joint_effects(), Q, np.zeros(3), np.zeros(3), 0.1,
                            0.001, 'rk4')
    np.testing.assert_allclose(data[:, 1:4], reference.q, atol=1e-12)
    assert np.abs(data[-1, 1:4] - Q).max() > 1e-3                   # the arm does fall
    assert np.ptp(data[:, -1]) < 1e-6 * max(1.0, np.abs(data[:, -1]).max())


def test_trajectory_waypoints_torques_and_limit_report(arm, capsys, tmp_path):
    path, model = arm
    plan = tmp_path / 'move.yaml'
    plan.write_text('units: deg\n'
                    'joint_names: [joint3, joint1, joint2]\n'
                    'waypoints:\n'
                    '  times: [0.0, 0.4, 1.0]\n'
                    '  positions: [[0, 0, 0], [0.2, 30, -20], [0, 0, 0]]\n')
    prefix = tmp_path / 'move'
    code, out, _ = run(capsys, 'trajectory', path, plan, '--dt', 0.01, '-o', prefix)
    assert code == 0
    header, data = read_csv(f'{prefix}.csv')
    assert data.shape == (101, 13) and header[1:4] == [f'q_{n}' for n in model.joint_names]
    t, q, qd, qdd, tau = data[:, 0], data[:, 1:4], data[:, 4:7], data[:, 7:10], data[:, 10:13]
    np.testing.assert_allclose(q[40], [np.radians(30), np.radians(-20), 0.2], atol=1e-12)
    np.testing.assert_allclose(qd[[0, -1]], 0, atol=1e-12)          # starts and ends at rest
    np.testing.assert_allclose(qdd[[0, -1]], 0, atol=1e-9)          # quintic: zero accel too
    h = t[1] - t[0]                   # central difference = qd + h²/6 q''' + O(h⁴)
    np.testing.assert_allclose(np.gradient(q, t, axis=0)[1:-1],
                               (qd + h * h / 6 * np.gradient(qdd, t, axis=0))[1:-1], atol=1e-5)
    qdd_corrected = qdd[1:-1] + (qdd[2:] - 2 * qdd[1:-1] + qdd[:-2]) / 6   # + h²/6 q''''
    np.testing.assert_allclose(np.gradient(qd, t, axis=0)[1:-1], qdd_corrected, atol=1e-4)
    np.testing.assert_allclose(tau, rd.inverse_dynamics(model, q, qd, qdd), atol=1e-9)
    assert 'all samples within' in out
    assert_png(f'{prefix}.png')

    weak = tmp_path / 'weak.urdf'
    weak.write_text(model.replace(effort_limit=[1.0, 300.0, 500.0]).to_urdf())
    code, out, _ = run(capsys, 'trajectory', weak, plan, '--dt', 0.01, '-o', prefix,
                       '--no-plot', '--json', '--strict')
    assert code == 1
    report = json.loads(out)
    effort = [v for v in report['violations'] if v['quantity'] == 'effort']
    assert {v['joint'] for v in effort} == {'joint1'}
    over = np.abs(tau[:, 0]) > 1.0
    assert effort[0]['start'] == pytest.approx(t[over][0])
    assert max(abs(v['worst_value']) for v in effort) == pytest.approx(np.abs(tau[:, 0]).max())


def test_trajectory_too_long_to_record_is_refused_before_sampling(capsys, tmp_path):
    # 1e7 s at the default --dt 0.005 s: 373 GiB of samples (was: 15.7 GB, then MemoryError).
    plan = tmp_path / 'long.yaml'
    plan.write_text('waypoints: {times: [0, 1e7], positions: [[0,0,0,0,0,0],[1,0,0,0,0,0]]}\n')
    code, out, err = run(capsys, 'trajectory', 'puma560', plan, '-o', tmp_path / 'x')
    assert code == 2 and out == '' and len(err.strip().splitlines()) == 1
    assert re.search(r'long.yaml: duration: 1e\+07 s at dt = 0.005 s is 2e\+09 steps, 373 GiB '
                     r'.*at most 1 GiB are recorded per call \(26843.5 s here\): split the '
                     r'motion into shorter files or use a larger --dt', err), err
    assert not list(tmp_path.glob('x*'))


def test_trajectory_uses_the_simulation_recording_bound(capsys, tmp_path, monkeypatch):
    from robot_dynamics.simulation import integrators
    monkeypatch.setattr(integrators, 'MAX_RECORDED_BYTES', 1 << 20)   # 5041 rows of 26
    plan = tmp_path / 'move.yaml'
    plan.write_text('waypoints: {times: [0, 30], positions: [[0,0,0,0,0,0],[1,0,0,0,0,0]]}\n')
    code, _, err = run(capsys, 'trajectory', 'puma560', plan, '-o', tmp_path / 'x',
                       '--no-plot')
    assert code == 2 and 'duration: 30 s at dt = 0.005 s' in err and '(26.205 s here)' in err
    code, _, _ = run(capsys, 'trajectory', 'puma560', plan, '-o', tmp_path / 'x', '--no-plot',
                     '--dt', '0.01')
    assert code == 0


def test_trajectory_velocities_and_samples(arm, capsys, tmp_path):
    path, model = arm
    plan = tmp_path / 'hermite.yaml'
    plan.write_text('interpolation: cubic\nwaypoints:\n  times: [0, 0.5, 1]\n'
                    '  positions: [[0, 0, 0], [0.5, 0.2, 0.1], [1, 0, 0]]\n'
                    '  velocities: [[0, 0, 0], [1.5, 0, -0.1], [0, 0, 0]]\n')
    code, _, _ = run(capsys, 'trajectory', path, plan, '--dt', 0.05, '-o', tmp_path / 'h',
                     '--no-plot')
    assert code == 0
    _, data = read_csv(tmp_path / 'h.csv')
    np.testing.assert_allclose(data[10, 4:7], [1.5, 0, -0.1], atol=1e-12)

    times = np.linspace(0, 1, 21)
    samples = np.column_stack([np.sin(times), 0.5 * times ** 2, 0.1 * times])
    plan = tmp_path / 'samples.yaml'
    plan.write_text(json.dumps({'samples': {'dt': 0.05, 'positions': samples.tolist()}}))
    code, _, _ = run(capsys, 'trajectory', path, plan, '--dt', 0.05, '-o', tmp_path / 's',
                     '--no-plot')
    assert code == 0
    _, data = read_csv(tmp_path / 's.csv')
    np.testing.assert_allclose(data[:, 1:4], samples, atol=1e-12)
    np.testing.assert_allclose(data[:, 5], times, atol=1e-6)        # d/dt ½t² exactly = t
    np.testing.assert_allclose(data[:, 4], np.cos(times), atol=1e-4)


def test_benchmark_with_pinocchio_peer(arm, capsys):
    path, _ = arm
    code, out, _ = run(capsys, 'benchmark', path, '--min-time', 0.001, '--batch', 5, '--json')
    assert code == 0
    report = json.loads(out)
    operations = [r['operation'] for r in report['results']]
    for name in rd.solvers.available():
        assert f'inverse dynamics [{name}]' in operations
    assert report['pinocchio'] and report['batch'] == 5 and len(set(operations)) == \
        len(operations)
    assert all(r['pinocchio_us'] is not None for r in report['results'])
    assert all(np.isfinite(r['robot_dynamics_us']) and np.isfinite(r['pinocchio_us'])
               for r in report['results'])


def test_benchmark_peers_compute_what_is_timed(arm):
    """The ratio compares like with like: each Pinocchio peer returns our operation's value.

    Pinocchio has no joint friction, so the comparison is on the arm without it (the
    benchmark's friction terms are a handful of operations per joint).
    """
    from robot_dynamics.cli import benchmark
    _, loaded = arm
    model = loaded.replace(viscous_friction=np.zeros(3), coulomb_friction=np.zeros(3))
    (q, qd, qdd), (Q, QD, QDD) = benchmark.sample_states(3), benchmark.sample_states(3, 5)
    tau = rd.inverse_dynamics(model, q, qd, qdd)
    arguments = (model, q, qd, qdd, tau, Q, QD, QDD)
    pin = pytest.importorskip('pinocchio')
    table, rnea = benchmark._pinocchio_peers(*arguments)
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.gravity.linear, pm.armature = model.gravity, model.reflected_inertia
    pd = pm.createData()
    compared = 0
    for label, function, _ in benchmark._operations(*arguments):
        ours = np.asarray(function())
        peer = (rnea if label.startswith('inverse dynamics [') else table[label])[0]()
        if peer is None:                        # the batch loop returns nothing: its calls
            peer = np.array([pin.rnea(pm, pd, pinocchio_configuration(pm, c), v, a)
                             for c, v, a in zip(Q, QD, QDD)])
        peer = np.asarray(peer)
        if label == 'mass matrix':              # crba fills the upper triangle
            peer = np.triu(peer) + np.triu(peer, 1).T
        scale = max(1.0, np.abs(peer).max())
        np.testing.assert_allclose(ours, peer, rtol=0, atol=1e-12 * scale, err_msg=label)
        compared += 1
    assert compared == len(benchmark._operations(*arguments)) >= 6 + len(rd.solvers.available())


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
