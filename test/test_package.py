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
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def install_prefix():
    """Where the package is installed: the ament index's prefix (colcon, apt) or this venv's."""
    try:
        from ament_index_python.packages import get_package_prefix
        return pathlib.Path(get_package_prefix('robot_dynamics'))
    except Exception:  # noqa: BLE001 - no ament index or not in it: a plain pip install
        return pathlib.Path(sys.prefix)


PREFIX = install_prefix()
SHARE = PREFIX / 'share' / 'robot_dynamics'
PIP_INSTALL = PREFIX.resolve() == pathlib.Path(sys.prefix).resolve()


def setup_py_console_scripts():
    """Names of the node executables declared in setup.py (parsed, not imported)."""
    tree = ast.parse((ROOT / 'setup.py').read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', '') == \
                'NODE_EXECUTABLES':
            return [key.value for key in node.value.keys]
    raise AssertionError('NODE_EXECUTABLES not found in setup.py')


def run_python(code, env_changes, cwd, drop=()):
    """Run ``code`` in a fresh interpreter of this environment; return stdout.

    ``PYTHONPATH`` is kept: it is how colcon workspaces and apt installs are found.
    """
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_changes)
    result = subprocess.run([sys.executable, '-c', code], env=env, cwd=cwd, text=True,
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_package_xml_declares_ros_dependencies():
    root = ET.parse(ROOT / 'package.xml').getroot()
    assert root.get('format') == '3'
    assert root.findtext('name') == 'robot_dynamics'
    assert root.findtext('license') == 'Apache-2.0' and (ROOT / 'LICENSE').is_file()
    assert root.find('export/build_type').text == 'ament_python'
    exec_deps = {e.text for e in root.findall('exec_depend')}
    assert {'rclpy', 'rcl_interfaces', 'builtin_interfaces', 'sensor_msgs', 'trajectory_msgs',
            'std_msgs', 'std_srvs', 'geometry_msgs', 'diagnostic_msgs', 'rosgraph_msgs',
            'python3-numpy', 'python3-scipy', 'launch', 'launch_ros'} <= exec_deps
    test_deps = {e.text for e in root.findall('test_depend')}
    assert {'python3-pytest', 'python3-pytest-timeout', 'python3-hypothesis', 'pinocchio',
            'ament_copyright', 'ament_flake8', 'ament_pep257', 'ros2launch',
            'ros2param'} <= test_deps


def test_data_files_installed_in_share():
    assert (PREFIX / 'share/ament_index/resource_index/packages/robot_dynamics').is_file()
    assert (SHARE / 'package.xml').is_file()
    for folder, pattern in (('urdf', '*.urdf'), ('config', '*.yaml'), ('launch', '*.launch.py')):
        for source in (ROOT / folder).glob(pattern):
            assert (SHARE / folder / source.name).is_file(), f'{source.name} not installed'


def test_executables_where_ros2_run_looks():
    """lib/robot_dynamics holds every node and the CLI (``ros2 run robot_dynamics NAME``)."""
    for name in setup_py_console_scripts() + ['robot-dynamics']:
        executable = PREFIX / 'lib' / 'robot_dynamics' / name
        assert executable.is_file() and os.access(executable, os.X_OK), executable
        if PIP_INSTALL:      # a wheel's scripts are in bin/; lib/ holds forwarders
            assert (PREFIX / 'bin' / name).is_file()
    result = subprocess.run([str(PREFIX / 'lib' / 'robot_dynamics' / 'robot-dynamics'),
                             '--help'], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and 'usage' in result.stdout, result.stderr


def test_ros2_run_finds_the_cli(tmp_path):
    ros2 = shutil.which('ros2', path=os.path.dirname(sys.executable) + os.pathsep
                        + os.environ.get('PATH', ''))
    if ros2 is None or importlib.util.find_spec('ros2run') is None:
        pytest.skip('ros2cli is not installed: source a ROS 2 install or install the wheels '
                    'of ../shared/wheels (./scripts/setup_venv.sh does when it exists)')
    result = subprocess.run([ros2, 'run', 'robot_dynamics', 'robot-dynamics', '--help'],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0 and 'usage' in result.stdout, result.stderr


def same_file(found, relative):
    """Whether ``found/relative`` is the source tree's or the installed copy of that file."""
    return (found / relative).resolve() in {(ROOT / relative).resolve(),
                                            (SHARE / relative).resolve()}


def test_bundled_files_found_through_ament_index(tmp_path):
    code = ('import robot_dynamics.model.bundled as r; '
            'print(list(r._candidates())); print(r.share_directory())')
    candidates, share = run_python(code, {'AMENT_PREFIX_PATH': str(PREFIX)},
                                   cwd=tmp_path).splitlines()
    assert repr(str(SHARE)) in candidates
    assert same_file(pathlib.Path(share), 'urdf/puma560.urdf')


def test_bundled_files_found_without_ros_environment(tmp_path):
    code = ('import robot_dynamics as rd, robot_dynamics.model.bundled as r; '
            "print(r.data_path('urdf/puma560.urdf'))")
    found = pathlib.Path(run_python(code, {}, cwd=tmp_path, drop=('AMENT_PREFIX_PATH',)))
    assert same_file(found.parents[1], 'urdf/puma560.urdf')


def test_a_checkout_reads_its_own_files(tmp_path):
    """Imported from the source tree, the library reads the tree's files, not an install."""
    code = 'import robot_dynamics.model.bundled as r; print(r.share_directory())'
    found = run_python(code, {'PYTHONPATH': str(ROOT)}, cwd=tmp_path)
    assert pathlib.Path(found) == ROOT


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
    out = run_python(code, {}, cwd=tmp_path, drop=('AMENT_PREFIX_PATH',))
    assert float(out) == pytest.approx(0.5 * 9.81)


def test_nodes_start_without_importing_scipy_or_matplotlib(tmp_path):
    """A node's imports leave scipy and matplotlib out (start-up time, a wider Ctrl-C window)."""
    code = '\n'.join([
        'import sys',
        'import robot_dynamics.nodes.simulation_node, robot_dynamics.nodes.dynamics_node',
        'import robot_dynamics.nodes.joint_trajectory_controller',
        'import robot_dynamics.nodes.trajectory_publisher',
        "print(sorted(name for name in sys.modules",
        "             if name.split('.')[0] in ('scipy', 'matplotlib')))",
    ])
    assert run_python(code, {}, cwd=tmp_path) == '[]'
