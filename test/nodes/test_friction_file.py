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
"""The nodes' ``friction_file``: the friction law ``identify`` writes beside the URDF.

A URDF holds viscous and Coulomb friction only; the identified law (offset, smoothing,
Stribeck) is in the friction file, which the nodes could not load (issue 32: the nodes ran
a model worse than the arm's published one). Here the dynamics node publishes torques with
the file's law, the simulation node runs it, and a bad file is refused naming the file and
the field.
"""

import numpy as np
import pytest
from rclpy.parameter import Parameter

import robot_dynamics as rd
from robot_dynamics.io.friction_yaml import friction_yaml
from robot_dynamics.nodes.conversions import stamp_to_nanoseconds, trajectory_message
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.bringup.launch_arguments import check_friction_file
from robot_dynamics.nodes.simulation_node import SimulationNode
from robot_dynamics.simulation.trajectory import sample_waypoints
from ros_graph import Probe, vector

TOL = 1e-12


@pytest.fixture(scope='module')
def files(tmp_path_factory):
    """Write the bundled two-link arm as a URDF and a friction file with a Stribeck law."""
    folder = tmp_path_factory.mktemp('friction')
    plain = rd.load_model('two_link').replace(viscous_friction=[0.5, 0.3],
                                              coulomb_friction=[0.4, 0.2])
    rich = plain.replace(viscous_friction=[0.7, 0.2], coulomb_friction=[0.3, 0.25],
                         friction_offset=[0.05, -0.02], friction_smoothing=[0.01, 0.02],
                         stribeck_friction=[0.6, 0.3], stribeck_velocity=[0.2, 0.1])
    urdf, sidecar = folder / 'arm.urdf', folder / 'arm.friction.yaml'
    urdf.write_text(plain.to_urdf())
    sidecar.write_text(friction_yaml(rich, {'joint1': 'stribeck', 'joint2': 'stribeck'}))
    return str(urdf), str(sidecar), rd.RobotModel.from_urdf(str(urdf)).with_friction(
        str(sidecar))


def test_dynamics_node_publishes_torques_with_the_files_friction_law(ros, files):
    urdf, sidecar, expected_model = files
    node = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('urdf_file', value=urdf), Parameter('friction_file', value=sidecar)]))
    assert np.array_equal(node.model.stribeck_friction, [0.6, 0.3])
    probe = Probe(ros)
    probe.wait_connected(node)
    names = list(expected_model.joint_names)
    times = np.array([0.0, 40.0, 80.0])
    positions = np.array([[0.1, -0.2], [0.5, 0.3], [0.2, 0.1]])
    velocities = np.array([[0.15, -0.05], [0.1, 0.2], [0.0, 0.0]])     # slow: Stribeck range
    accelerations = np.zeros((3, 2))
    # The arm at the first point at the trajectory's stamp: the motion begun with the arm on
    # it is the plan itself (control.goals), however late the node reads it.
    start = probe.node.get_clock().now().to_msg()
    probe.send_state(names, positions[0], velocities[0], stamp=start)
    assert probe.wait_outputs()
    probe.clear()
    probe.trajectory.publish(trajectory_message(names, times, positions, velocities,
                                                accelerations, stamp=start))
    assert ros.spin_until(lambda: node._trajectory is not None)
    probe.send_state(names, positions[0] + 0.001, velocities[0])
    assert probe.wait_outputs()
    sent = probe.received['feedforward_joint_states'][0]
    elapsed = (stamp_to_nanoseconds(sent.header.stamp) - stamp_to_nanoseconds(start)) * 1e-9
    q_d, qd_d, qdd_d = sample_waypoints(times, positions, velocities, accelerations, elapsed)
    published = vector(probe.received['feedforward_torques'][0])
    with_law = rd.inverse_dynamics(expected_model, q_d, qd_d, qdd_d)
    urdf_alone = rd.inverse_dynamics(rd.RobotModel.from_urdf(urdf), q_d, qd_d, qdd_d)
    np.testing.assert_allclose(published, with_law, rtol=0, atol=TOL)
    assert np.abs(with_law - urdf_alone).min() > 0.1        # the law shows in every joint


def test_simulation_node_runs_the_files_friction_law(ros, files):
    urdf, sidecar, expected_model = files
    node = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('urdf_file', value=urdf), Parameter('friction_file', value=sidecar),
        Parameter('real_time_factor', value=0.0)]))
    for field in ('viscous_friction', 'coulomb_friction', 'friction_offset',
                  'friction_smoothing', 'stribeck_friction', 'stribeck_velocity'):
        assert np.array_equal(getattr(node.model, field), getattr(expected_model, field)), field
    assert node.get_parameter('friction_file').value == sidecar
    assert node.describe_parameter('friction_file').read_only


@pytest.mark.parametrize('text, field', [
    ('format: robot_dynamics/friction 1\njoints:\n  joint1: {viscous: 0.5, stickiness: 2}\n',
     "joint 'joint1': unknown key 'stickiness'"),
    ('format: robot_dynamics/friction 1\njoints:\n  elbow: {viscous: 0.5}\n',
     "joints ['elbow'] are not in the model"),
    ('format: robot_dynamics/friction 1\njoints:\n  joint1: {stribeck: -0.5}\n',
     "stribeck_friction of joint 'joint1' is -0.5"),
])
def test_a_bad_friction_file_is_refused_naming_the_file_and_the_field(ros, files, tmp_path,
                                                                      text, field):
    urdf = files[0]
    bad = tmp_path / 'bad.friction.yaml'
    bad.write_text(text)
    with pytest.raises(ValueError, match='friction_file') as refused:
        SimulationNode(namespace=ros.namespace, parameter_overrides=[
            Parameter('urdf_file', value=urdf), Parameter('friction_file', value=str(bad)),
            Parameter('real_time_factor', value=0.0)])
    assert str(bad) in str(refused.value) and field in str(refused.value)
    node = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('urdf_file', value=urdf), Parameter('friction_file', value=str(bad))]))
    assert node.model is None                         # the documented fallback: no outputs
    assert 'friction_file' in node.last_error and field in node.last_error


def test_launch_argument_friction_file_is_checked_before_any_node(files, tmp_path):
    urdf, sidecar, _ = files
    assert check_friction_file(f' {sidecar} ') == sidecar and check_friction_file('') == ''
    with pytest.raises(ValueError, match='friction_file:=.*no such file'):
        check_friction_file(str(tmp_path / 'missing.yaml'))
    with pytest.raises(ValueError, match='friction_file:=.*expected a mapping'):
        check_friction_file(urdf)
