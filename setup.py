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
"""ament_python package setup: a library, ROS 2 nodes, launch files, configs and URDFs."""

from glob import glob
import os
import sys

from importlib.util import module_from_spec, spec_from_file_location

from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py

try:                                  # the engine's build needs numpy's C headers
    import numpy
except ImportError as exc:            # pragma: no cover - numpy is a build requirement
    raise SystemExit('robot_dynamics: building the engine needs numpy installed first '
                     '(pip install numpy)') from exc

package_name = 'robot_dynamics'

NODE_EXECUTABLES = {
    'dynamics_node': 'robot_dynamics.nodes.dynamics_node:main',
    'simulation_node': 'robot_dynamics.nodes.simulation_node:main',
    'computed_torque_controller': 'robot_dynamics.nodes.computed_torque_controller:main',
    'joint_trajectory_controller': 'robot_dynamics.nodes.joint_trajectory_controller:main',
    'trajectory_publisher': 'robot_dynamics.nodes.trajectory_publisher:main',
    'robot_dynamics_bringup': 'robot_dynamics.nodes.bringup:main',
    'robot_dynamics_arms': 'robot_dynamics.nodes.arms:main',
    'joint_state_recorder': 'robot_dynamics.nodes.joint_state_recorder:main',
    'robot_dynamics_identification_demo': 'robot_dynamics.nodes.identification_demo:main',
}

data_files = [
    ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
    ('share/' + package_name, ['package.xml']),
    ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
    ('share/' + package_name + '/config', glob('config/*.yaml')),
    ('share/' + package_name + '/urdf', glob('urdf/*.urdf')),
]

# A wheel (plain `pip install .`) puts console scripts in bin/ only; `ros2 run` and launch look
# in lib/<package>/. Ship small forwarding scripts there. colcon's setuptools install already
# honours setup.cfg's install_scripts, so only wheels need them.
if 'bdist_wheel' in sys.argv:
    data_files.append(('lib/' + package_name,
                       sorted(glob(os.path.join('resource', 'lib_wrappers', '*')))))

# The compiled engine (issue 11): real C sources, built with the package (pip and colcon alike).
ENGINE_SOURCES = sorted(glob(os.path.join('robot_dynamics', 'engine', 'src', '*.c')))
ENGINE = Extension(
    'robot_dynamics.engine._engine',
    sources=ENGINE_SOURCES,
    depends=sorted(glob(os.path.join('robot_dynamics', 'engine', 'src', '*.h'))
                   + glob(os.path.join('robot_dynamics', 'codegen', '*.h'))),
    # codegen/trig.h, trig_lanes.h: the joint-angle sines shared with generated C
    include_dirs=[numpy.get_include(), os.path.join('robot_dynamics', 'codegen')],
    # no fused multiply-add contraction: batch lanes and single calls give the same bits
    extra_compile_args=([] if sys.platform == 'win32'
                        else ['-O3', '-fno-math-errno', '-ffp-contract=off']),
)

# The URDF reader's filter (robot_dynamics/io/src/urdf_scan.c): Python's expat through
# pyexpat's C API, building only what carries dynamics, and the loader's plain-number readers
# (urdf_numbers.c) and origin rotations (urdf_rotations.c). Optional: without expat.h (or a
# compiler) the package installs and robot_dynamics/io/urdf_xml.py parses the text itself.
URDF_SCAN = Extension(
    'robot_dynamics.io._urdf_scan',
    sources=[os.path.join('robot_dynamics', 'io', 'src', name)
             for name in ('urdf_scan.c', 'urdf_numbers.c', 'urdf_rotations.c')],
    depends=[os.path.join('robot_dynamics', 'io', 'src', 'urdf_numbers.h')],
    # no fused multiply-add contraction: the rotation entries are Python's products
    extra_compile_args=[] if sys.platform == 'win32' else ['-O2', '-ffp-contract=off'],
    optional=True,
)

# The inertia screen (robot_dynamics/model/src/inertia_screen.c): Python's float operations in
# C, in the same order, no fused multiply-add. Optional: without it every link is checked.
INERTIA_SCREEN = Extension(
    'robot_dynamics.model._inertia_screen',
    sources=[os.path.join('robot_dynamics', 'model', 'src', 'inertia_screen.c')],
    extra_compile_args=[] if sys.platform == 'win32' else ['-O2', '-ffp-contract=off'],
    optional=True,
)


def _provenance():
    """Load robot_dynamics/engine/provenance.py by path (the package is not importable yet)."""
    spec = spec_from_file_location(
        'robot_dynamics_provenance', os.path.join('robot_dynamics', 'engine', 'provenance.py'))
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyRecordingEngineSources(build_py):
    """build_py that records the hash of the engine sources beside the built engine.

    A Python started in the checkout imports the source tree (no compiled engine there); the
    tree's robot_dynamics.engine borrows the installed engine only when this hash equals the
    tree's own (robot_dynamics/engine/provenance.py).
    """

    def run(self):
        """Build the pure-Python part, then write the hash file into the build."""
        super().run()
        provenance = _provenance()
        target = os.path.join(self.build_lib, 'robot_dynamics', 'engine', provenance.HASH_FILE)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'w', encoding='ascii') as stream:
            stream.write(provenance.source_hash('robot_dynamics') + '\n')


setup(
    name=package_name,
    cmdclass={'build_py': BuildPyRecordingEngineSources},
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*']),
    package_data={'robot_dynamics.codegen': ['*.h']},       # copied into generated C
    data_files=data_files,
    ext_modules=[ENGINE, URDF_SCAN, INERTIA_SCREEN],
    install_requires=['setuptools', 'numpy', 'scipy', 'pyyaml', 'matplotlib',
                      'tqdm'],
    zip_safe=False,
    maintainer='robot_dynamics maintainers',
    maintainer_email='maintainers@robot-dynamics.invalid',
    description='Real-time dynamics of serial robot arms for ROS 2 and Python.',
    license='Apache-2.0',
    python_requires='>=3.10',
    extras_require={
        'test': ['pytest', 'hypothesis', 'pin', 'flake8', 'pydocstyle'],
    },
    entry_points={
        'console_scripts': [f'{name} = {target}' for name, target in NODE_EXECUTABLES.items()]
        + ['robot-dynamics = robot_dynamics.cli:main'],
        'robot_dynamics.solvers': [
            'rnea = robot_dynamics.solvers.reference:SOLVER',
            'lagrange_euler = robot_dynamics.solvers.lagrange_euler:SOLVER',
            'generalized_dalembert = robot_dynamics.solvers.generalized_dalembert:SOLVER',
            'lwp_base = robot_dynamics.solvers.lwp_base:SOLVER',
            'lwp_link = robot_dynamics.solvers.lwp_link:SOLVER',
            'turney_mudge_lee = robot_dynamics.solvers.turney_mudge_lee:SOLVER',
            'renaud = robot_dynamics.solvers.renaud:SOLVER',
            'craig = robot_dynamics.solvers.craig:SOLVER',
            'generated = robot_dynamics.solvers.generated:SOLVER',
        ],
    },
)
