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
"""The package installs like an ament_python package and its library works without ROS."""

import ast
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PREFIX = pathlib.Path(sys.prefix)
SHARE = PREFIX / 'share' / 'robot_dynamics'


def setup_py_console_scripts():
    """Names of the node executables declared in setup.py (parsed, not imported)."""
    tree = ast.parse((ROOT / 'setup.py').read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', '') == \
                'NODE_EXECUTABLES':
            return [key.value for key in node.value.keys]
    raise AssertionError('NODE_EXECUTABLES not found in setup.py')


def run_python(code, env_changes, cwd):
    """Run ``code`` in a fresh interpreter of this venv; return stdout."""
    env = {k: v for k, v in os.environ.items() if k not in ('AMENT_PREFIX_PATH', 'PYTHONPATH')}
    env.update(env_changes)
    result = subprocess.run([sys.executable, '-c', code], env=env, cwd=cwd, text=True,
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_package_xml_declares_ros_dependencies():
    root = ET.parse(ROOT / 'package.xml').getroot()
    assert root.get('format') == '3'
    assert root.findtext('name') == 'robot_dynamics'
    assert root.find('export/build_type').text == 'ament_python'
    exec_deps = {e.text for e in root.findall('exec_depend')}
    assert {'rclpy', 'sensor_msgs', 'trajectory_msgs', 'std_msgs', 'std_srvs', 'geometry_msgs',
            'diagnostic_msgs', 'python3-numpy', 'python3-scipy', 'launch',
            'launch_ros'} <= exec_deps
    assert 'python3-pytest' in {e.text for e in root.findall('test_depend')}


def test_data_files_installed_in_share():
    assert (PREFIX / 'share/ament_index/resource_index/packages/robot_dynamics').is_file()
    assert (SHARE / 'package.xml').is_file()
    for folder, pattern in (('urdf', '*.urdf'), ('config', '*.yaml'), ('launch', '*.launch.py')):
        for source in (ROOT / folder).glob(pattern):
            assert (SHARE / folder / source.name).is_file(), f'{source.name} not installed'


def test_node_executables_where_ros2_run_looks():
    for name in setup_py_console_scripts():
        wrapper = PREFIX / 'lib' / 'robot_dynamics' / name
        assert wrapper.is_file() and os.access(wrapper, os.X_OK), wrapper
        assert (PREFIX / 'bin' / name).is_file()


def test_bundled_files_found_through_ament_index(tmp_path):
    out = run_python('import robot_dynamics.model.bundled as r; print(r.share_directory())',
                     {'AMENT_PREFIX_PATH': str(PREFIX)}, cwd=tmp_path)
    assert pathlib.Path(out) == SHARE


def test_bundled_files_found_without_ros_environment(tmp_path):
    code = ('import robot_dynamics as rd, robot_dynamics.model.bundled as r; '
            'print(r.share_directory()); print(rd.__file__)')
    share, module = run_python(code, {}, cwd=tmp_path).splitlines()
    assert pathlib.Path(share) == SHARE                      # the installed copy, not the source
    assert str(PREFIX) in module


def test_library_works_without_rclpy(tmp_path):
    code = '\n'.join([
        'import sys',
        "sys.modules['rclpy'] = None   # any import of rclpy now raises ImportError",
        'import numpy as np, importlib, pkgutil, robot_dynamics as rd',
        "for m in pkgutil.walk_packages(rd.__path__, 'robot_dynamics.'):",
        "    if '.nodes' not in m.name:",
        '        importlib.import_module(m.name)',
        "model = rd.RobotModel.from_dh({'convention': 'standard', 'links': [",
        "    {'a': 1.0, 'alpha': 0, 'd': 0, 'mass': 1.0, 'com': [-0.5, 0, 0]}]},",
        '    gravity=[0, -9.81, 0])',
        'print(rd.gravity_torques(model, np.zeros(1))[0])',
    ])
    assert float(run_python(code, {}, cwd=tmp_path)) == pytest.approx(0.5 * 9.81)
