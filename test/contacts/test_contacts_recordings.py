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
"""The contacts path reads recordings as identification does (issue 32, third red team).

Was: a continuous joint reported modulo one turn was unwrapped for ``identify`` only; in
``contacts`` each jump of 2 pi was a step of the derived velocity, of hundreds of rad/s, and
of the momentum. And ``contacts`` passed no model joints to the reader: a bag with an arm's
and a gripper's JointState topics, or Franka's two complete ones, needed ``--topic``.
"""

import json

import numpy as np

from robot_dynamics.contacts.recording import observer_samples
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import Recording, write_csv
from bags import joint_state_bag
from cli_helpers import run
from turning_runs import turning_run, wrapped


def test_the_observer_samples_unwrap_whole_turns_and_count_them():
    model, t, q, tau = turning_run(rate=100.0)
    jumps = np.count_nonzero(np.abs(np.diff(wrapped(q)[:, 0])) > np.pi)
    assert jumps > 5
    straight = observer_samples(Recording(model.joint_names, t, q, tau), model)
    turned = observer_samples(Recording(model.joint_names, t, wrapped(q), tau), model)
    assert np.allclose(turned.q, straight.q, atol=1e-9)
    assert np.allclose(turned.qd, straight.qd, atol=1e-7)
    assert np.abs(turned.qd[:, 0]).max() < 1.1                  # was ~300 rad/s at each jump
    line = prepare(Recording(model.joint_names, t, wrapped(q), tau), model,
                   cutoff=8.0).report.unwrapped_line()
    assert f'joint1 {jumps}' in line and line in turned.notes   # identification's own words
    assert not any('one turn' in note for note in straight.notes)


def test_the_contacts_command_estimates_the_same_from_wrapped_positions(tmp_path, capsys):
    model, t, q, tau = turning_run(rate=100.0)
    estimates = {}
    for name, positions in (('straight', q), ('wrapped', wrapped(q))):
        path = write_csv(tmp_path / f'{name}.csv', Recording(model.joint_names, t, positions,
                                                             tau))
        code, out, err = run(capsys, 'contacts', 'two_link', path, '--learn', '0:20',
                             '--no-plot', '--json', '-o', tmp_path / f'{name}_contacts')
        assert code == 0, err
        estimates[name] = json.loads(out)
    assert np.allclose(estimates['wrapped']['max_abs_estimate'],
                       estimates['straight']['max_abs_estimate'], rtol=1e-5, atol=1e-9)
    assert estimates['wrapped']['events'] == []
    assert any('modulo one turn unwrapped' in note for note in estimates['wrapped']['notes'])


def test_the_contacts_command_reads_the_topic_with_the_joints_and_efforts(tmp_path, capsys):
    model, t, q, tau = turning_run(seconds=10.0, rate=100.0)
    names = model.joint_names
    driver = [(s, names, p, e, '/arm/joint_states') for s, p, e in zip(100 + t, q, tau)]
    broadcaster = [(s, names, p, [], '/joint_states') for s, p in zip(100 + t[::3], q[::3])]
    gripper = [(s, ['finger'], [0.01], [0.0], '/gripper/joint_states') for s in 100 + t[::10]]
    bag = joint_state_bag(tmp_path / 'bag', driver + broadcaster + gripper)
    code, out, err = run(capsys, 'contacts', 'two_link', bag, '--learn', '100:110', '--no-plot',
                         '-o', tmp_path / 'out')
    assert code == 0, err
    assert f'{len(t)} samples' in out
    assert ('WARNING: 2 JointState topics name every model joint; read /arm/joint_states: the '
            'only one with efforts of every joint; /joint_states: no efforts') in err
    code, chosen, err = run(capsys, 'contacts', 'two_link', bag, '--learn', '100:110',
                            '--no-plot', '-o', tmp_path / 'chosen', '--topic', '/arm/joint_states')
    assert code == 0 and 'JointState topics' not in err
    assert chosen.splitlines()[:3] == out.splitlines()[:3]
