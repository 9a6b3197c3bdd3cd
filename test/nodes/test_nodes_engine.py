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
"""dynamics_node on the engine: model changes take effect at once, nothing is generated.

A parameter change (gravity, friction, rotor inertia, joint order) or a payload message runs
its callback without generating or compiling code or re-loading the model (counted, not
timed: the machine's load must not fail a test; benchmarks/node_compute_time.py has the
timings) and the outputs are checked against the library.
"""

import contextlib

import numpy as np
import pytest

import rclpy  # noqa: F401,E402  (the test environment installs the ROS 2 wheels)

from geometry_msgs.msg import InertiaStamped  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.codegen import compiled, generator  # noqa: E402
from robot_dynamics.solvers import generated  # noqa: E402
from robots import quiet_model_from_urdf, random_arm_urdf  # noqa: E402
from ros_graph import make_dynamics, Probe, vector  # noqa: E402


@pytest.fixture
def no_codegen(monkeypatch):
    """Fail any attempt to generate or compile per-model code."""
    def forbidden(*args, **kwargs):
        raise AssertionError('code generated or compiled inside a node callback')
    for module, name in ((generator, 'generate'), (generated, 'generate'),
                         (compiled, 'build_source')):
        monkeypatch.setattr(module, name, forbidden)


@contextlib.contextmanager
def counting_loads():
    """Record every model load (URDF, DH or bundled) made inside the block."""
    loads = []
    originals = {name: getattr(rd.RobotModel, name).__func__ for name in ('from_urdf', 'from_dh')}

    def recorder(name):
        def load(cls, *args, **kwargs):
            loads.append(name)
            return originals[name](cls, *args, **kwargs)
        return classmethod(load)
    for name in originals:
        setattr(rd.RobotModel, name, recorder(name))
    try:
        yield loads
    finally:
        for name, function in originals.items():
            setattr(rd.RobotModel, name, classmethod(function))


def test_model_changes_take_effect_without_codegen(ros, no_codegen):
    urdf = random_arm_urdf(11, 6, 'arm6')
    model = quiet_model_from_urdf(urdf)
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    n, names = model.dof, list(model.joint_names)
    changes = [Parameter('gravity', value=[0.0, 1.0, -3.0]),
               Parameter('viscous_friction', value=[0.5] * n),
               Parameter('rotor_inertia', value=[1e-3] * n),
               Parameter('joints', value=names[::-1])]
    # No long work in the callbacks: the changes rebuild the model from the loaded one,
    # never re-read the URDF (and generate no code: the no_codegen fixture).
    with counting_loads() as loads:
        for change in changes:
            assert dynamics.set_parameters([change])[0].successful
        payload = InertiaStamped()
        payload.inertia.m, payload.inertia.com.z = 1.5, 0.05      # a physical body (triangle
        payload.inertia.ixx = payload.inertia.iyy = payload.inertia.izz = 0.01   # inequality)
        dynamics._on_payload(payload)
        assert 'payload' not in dynamics.last_error, dynamics.last_error
    assert loads == [], f'the model was re-loaded by a parameter change: {loads}'

    expected = model.replace(viscous_friction=[0.5] * n, rotor_inertia=[1e-3] * n)
    expected = expected.with_payload(1.5, [0.0, 0.0, 0.05], [0.01, 0.01, 0.01, 0, 0, 0])
    expected = expected.with_gravity([0.0, 1.0, -3.0])
    q = np.linspace(-0.5, 0.7, n)
    feedforward, gravity, mass = dynamics.compute(q, np.zeros(n), 0)
    np.testing.assert_allclose(gravity, rd.gravity_torques(expected, q), rtol=0, atol=1e-12)
    np.testing.assert_allclose(mass, rd.mass_matrix(expected, q), rtol=0, atol=1e-12)
    probe.send_state(names, q)
    assert probe.wait_outputs()
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(expected, q)[::-1], rtol=0, atol=1e-12)


def test_generated_solver_runs_the_engine_in_the_node(ros, no_codegen):
    urdf = random_arm_urdf(12, 3, 'arm3')
    model = quiet_model_from_urdf(urdf)
    dynamics = make_dynamics(ros, urdf, solver='generated')
    q = np.array([0.3, -0.2, 0.1])
    _, gravity, _ = dynamics.compute(q, np.zeros(3), 0)
    np.testing.assert_allclose(gravity, rd.gravity_torques(model, q), rtol=0, atol=1e-12)
    assert dynamics.set_parameters([Parameter('fast_path', value=False)])[0].successful
    _, numpy_gravity, _ = dynamics.compute(q, np.zeros(3), 0)
    np.testing.assert_allclose(numpy_gravity, gravity, rtol=0, atol=1e-12)
