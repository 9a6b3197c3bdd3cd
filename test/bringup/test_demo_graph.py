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
"""The one-process demo's graph without ROS: parameters, remappings, messages, its record."""

import numpy as np
import pytest

from robot_dynamics.bringup.demo_graph import (config_path, demo_parameters, load_parameters,
                                               model_parameter, REMAPPINGS, tracking_run,
                                               unfinished)


def test_the_robot_is_given_as_the_parameter_its_kind_needs():
    assert model_parameter('puma560') == 'model'
    assert model_parameter('arm_dh.yaml') == 'dh_file' and model_parameter('a.yml') == 'dh_file'
    assert model_parameter('arm.urdf') == 'urdf_file'


def test_namespaced_keys_give_the_node_name(tmp_path):
    path = tmp_path / 'p.yaml'
    path.write_text('/**/dynamics_node:\n  ros__parameters: {solver: rnea}\n'
                    '/arm1/simulation_node/:\n  ros__parameters: {dt: 0.002}\n'
                    'trajectory_publisher:\n')
    assert load_parameters(path) == {'dynamics_node': {'solver': 'rnea'},
                                     'simulation_node': {'dt': 0.002},
                                     'trajectory_publisher': {}}


def test_the_demo_parameters_are_the_configs_with_the_robot_and_the_extras():
    config = load_parameters(config_path())
    parameters = demo_parameters('ur5', feedforward=False,
                                 extra={'simulation_node': {'dt': 0.002}})
    assert list(parameters) == list(REMAPPINGS) == [
        'simulation_node', 'dynamics_node', 'joint_trajectory_controller',
        'trajectory_publisher']
    assert parameters['dynamics_node'] == dict(config['dynamics_node'], model='ur5')
    assert parameters['simulation_node'] == dict(config['simulation_node'], model='ur5',
                                                 dt=0.002)
    controller = parameters['joint_trajectory_controller']
    assert controller['use_feedforward'] is False and controller['record'] is True


def test_an_unfinished_run_says_how_far_it_came():
    assert 'published no motion in 60 s (simulated time 0.50 s)' in unfinished(None, 0.5, 60)
    assert unfinished(3.0, 1.25, 60) == 'demo did not reach t = 3.00 s in 60 s (t = 1.25 s)'
    assert 'observers were not done after 60 s' in unfinished(3.0, 3.5, 60)


def test_the_record_starts_with_the_motion():
    log = [(t, np.full(2, t), np.zeros(2), np.ones(2)) for t in (0.5, 1.0, 1.5, 2.0)]
    run = tracking_run(log, 1.0, ['a', 'b'], [1e-5, 2e-5], 3.0, 2.3, True)
    np.testing.assert_array_equal(run.t, [1.0, 1.5, 2.0])
    np.testing.assert_array_equal(run.max_error, [2.0, 2.0])
    assert run.joint_names == ['a', 'b'] and run.compute_times.shape == (2,)
    with pytest.raises(RuntimeError, match='recorded nothing'):
        tracking_run(log, None, ['a', 'b'], [], 3.0, 2.3, True)      # no motion published
    with pytest.raises(RuntimeError, match='recorded nothing'):
        tracking_run(log, 2.5, ['a', 'b'], [], 3.0, 2.3, True)
