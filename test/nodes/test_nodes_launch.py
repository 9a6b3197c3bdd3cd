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
"""Launch files name only executables, configs and models that the package installs."""

import ast
import glob
import os

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCH_FILES = sorted(glob.glob(os.path.join(ROOT, 'launch', '*.launch.py')))


def module_constants(path):
    """Top-level literal assignments of a Python file, without importing it."""
    values = {}
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return values


def setup_executables():
    """Console-script names declared in setup.py (NODE_EXECUTABLES)."""
    return module_constants(os.path.join(ROOT, 'setup.py'))['NODE_EXECUTABLES']


def test_both_launch_files_exist():
    names = {os.path.basename(p) for p in LAUNCH_FILES}
    assert {'dynamics.launch.py', 'simulation.launch.py'} <= names


@pytest.mark.parametrize('path', LAUNCH_FILES, ids=os.path.basename)
def test_executables_configs_and_models_exist(path):
    constants = module_constants(path)
    executables = setup_executables()
    for name in constants['EXECUTABLES']:
        assert name in executables, f'{name} is not a console script in setup.py'
        module = executables[name].split(':')[0]
        assert os.path.exists(os.path.join(ROOT, *module.split('.')) + '.py')
        assert os.path.exists(os.path.join(ROOT, 'resource', 'lib_wrappers', name)), \
            f'no lib/robot_dynamics wrapper for {name}'
    for config in constants['CONFIGS']:
        assert os.path.exists(os.path.join(ROOT, config))
        assert config.startswith('config/') and config.endswith('.yaml'), \
            'setup.py installs config/*.yaml only'
        document = yaml.safe_load(open(os.path.join(ROOT, config)))
        for key, body in document.items():
            assert key.startswith('/**/'), f'{config}: {key} would not apply in a namespace'
            node = key[len('/**/'):]
            assert node in constants['EXECUTABLES'], f'{config}: unknown node {node}'
            assert 'ros__parameters' in body
            model = body['ros__parameters'].get('model')
            if model:
                import robot_dynamics as rd
                assert os.path.exists(os.path.join(ROOT, rd.BUNDLED_MODELS[model])), \
                    f'{config}: bundled model {model} missing'
    assert "'robot'" in open(path).read(), 'no robot launch argument'


def test_simulation_launch_remappings_match_bringup():
    from robot_dynamics.bringup.demo_graph import REMAPPINGS
    constants = module_constants(os.path.join(ROOT, 'launch', 'simulation.launch.py'))
    assert constants['REMAPPINGS'] == REMAPPINGS


def test_every_launched_controller_tracks_the_accepted_trajectory():
    """The controller's desired_trajectory is the dynamics node's checked, latched copy."""
    from robot_dynamics.bringup.demo_graph import REMAPPINGS
    wiring = ('desired_trajectory', 'dynamics_node/accepted_trajectory')
    assert wiring in REMAPPINGS['joint_trajectory_controller']
    for path in LAUNCH_FILES:
        constants = module_constants(path)
        for controller in ('computed_torque_controller', 'joint_trajectory_controller'):
            if controller in constants.get('EXECUTABLES', ()):
                assert wiring in constants['REMAPPINGS'][controller], path


@pytest.mark.parametrize('path', LAUNCH_FILES, ids=os.path.basename)
def test_launch_files_import_and_describe(path):
    how = ('launch/launch_ros not installed: source a ROS 2 install, or pip install --no-deps '
           '../shared/wheels/*.whl (./scripts/setup_venv.sh does when that folder exists)')
    pytest.importorskip('launch', reason=how)
    pytest.importorskip('launch_ros', reason=how)
    import importlib.util
    spec = importlib.util.spec_from_file_location('launch_under_test', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    description = module.generate_launch_description()
    assert description.entities


def test_remappings_become_ros_arguments():
    from robot_dynamics.bringup.demo_graph import REMAPPINGS
    from robot_dynamics.nodes.parameters import remapping_arguments
    assert remapping_arguments([]) is None
    assert remapping_arguments(REMAPPINGS['joint_trajectory_controller']) == [
        '--ros-args', '-r', 'desired_trajectory:=dynamics_node/accepted_trajectory',
        '-r', 'effort_commands:=simulation_node/effort_commands']
