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
"""The identification demo's files, without ROS (identification/demo.py; the graph: nodes/)."""

import warnings

import numpy as np
import yaml

import robot_dynamics as rd
from robot_dynamics.identification.demo import (commands, demo_arguments, prepare,
                                                tracking_parameters)
from robot_dynamics.identification.physical import as_built
from robot_dynamics.io.trajectory_yaml import read_joint_trajectory_yaml


def test_prepare_writes_the_truth_the_nominal_model_the_excitation_and_the_parameters(tmp_path):
    nominal, files, parameters = prepare('two_link', str(tmp_path), excitation_time=2.0,
                                         periods=1, publish_rate=250.0)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        truth = rd.RobotModel.from_urdf(files['true'])
        written = rd.RobotModel.from_urdf(files['nominal'])
    expected = as_built(nominal)
    np.testing.assert_allclose(truth.mass, expected.mass, rtol=1e-12)
    np.testing.assert_allclose(written.mass, nominal.mass, rtol=1e-12)
    names, t, q = read_joint_trajectory_yaml(files['excitation'])[:3]
    assert names == list(nominal.joint_names) and t[0] == 0.0 and q.shape[1] == nominal.dof
    np.testing.assert_allclose(parameters['simulation_node']['initial_positions'], q[0])
    with open(files['params']) as handle:
        on_disk = yaml.safe_load(handle)
    assert on_disk['simulation_node']['ros__parameters']['publish_rate'] == 250.0
    assert on_disk['joint_state_recorder']['ros__parameters']['storage'] == 'mcap'
    assert f'--effort-delay {0.5 / 250.0:g}' in commands('two_link', files, 250.0)[1]


def test_the_tracking_runs_put_each_model_on_the_true_robot_and_the_defaults_are_the_docs():
    files = {'true': 't.urdf', 'nominal': 'n.urdf', 'identified': 'i.urdf'}
    extra = tracking_parameters(files, 'identified', 250.0)
    assert extra['simulation_node'] == {'urdf_file': 't.urdf', 'publish_rate': 250.0}
    assert extra['dynamics_node'] == extra['joint_trajectory_controller'] == \
        {'urdf_file': 'i.urdf'}
    args = demo_arguments('demo', [])
    assert (args.robot, args.periods, args.publish_rate, args.prepare_only) == \
        ('puma560', 6, 500.0, False)
    assert demo_arguments('demo', ['--periods', '2', '--prepare-only']).periods == 2
