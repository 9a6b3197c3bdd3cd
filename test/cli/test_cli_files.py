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
"""``robot-dynamics simulate``, ``trajectory`` and ``benchmark``: the files and figures they write.

Split from ``test_cli.py`` (the dynamics at a state, errors and processes).
"""

import json
import os
import re

import numpy as np
import pytest
from cli_helpers import arm_fixture, assert_png, Q, read_csv, run  # noqa: F401 (fixture)
from robots import pinocchio_configuration

import robot_dynamics as rd


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
