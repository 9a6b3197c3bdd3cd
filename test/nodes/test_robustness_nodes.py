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
"""Bad messages and parameters sent to the nodes: dropped with a reason, the node survives.

Every case checks three things: the bad input produces no output (nothing NaN out), the node
counts and names the reason, and afterwards the node still answers a good joint state with
the library's values (to 1e-12). Rows of the catalogue in docs/robustness.md.
"""

import math

import numpy as np
import pytest


from builtin_interfaces.msg import Duration, Time  # noqa: E402
from geometry_msgs.msg import InertiaStamped  # noqa: E402
from rclpy.exceptions import InvalidParameterValueException  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import String  # noqa: E402
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.nodes.conversions import trajectory_message  # noqa: E402
from robot_dynamics.nodes.dynamics_node import DynamicsNode, LATCHED  # noqa: E402
from robot_dynamics.nodes.simulation_node import SimulationNode  # noqa: E402
from robot_dynamics.nodes.trajectory_publisher import TrajectoryPublisher  # noqa: E402
from robots import quiet_model_from_urdf, random_arm_urdf  # noqa: E402
from robots import billion_laughs  # noqa: E402
from ros_graph import drop_effort_command, make_dynamics, Probe, vector  # noqa: E402

TOL = 1e-12


@pytest.fixture(scope='module')
def urdf():
    """Return a 3-joint arm (one prismatic joint) with friction and rotors, as URDF."""
    return random_arm_urdf(41, 3, 'arm3')


@pytest.fixture(scope='module')
def model(urdf):
    """Return the library's model of the URDF: the oracle."""
    return quiet_model_from_urdf(urdf)


def offset_stamp(node, seconds):
    """Return a header stamp ``seconds`` from the node's clock now (negative: past)."""
    now = node.get_clock().now().nanoseconds + int(seconds * 1e9)
    return Time(sec=now // 10 ** 9, nanosec=now % 10 ** 9)


def assert_answers_correctly(probe, model, dynamics, q=None, feedforward=None):
    """Check that a good joint state gets the library's gravity, mass matrix, feed-forward."""
    q = np.linspace(-0.4, 0.5, model.dof) if q is None else q
    probe.clear()
    probe.send_state(model.joint_names, q, np.full(model.dof, 0.2))
    assert probe.wait_outputs(), 'the node no longer answers'
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(model, q), rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]).reshape(model.dof, -1),
                               rd.mass_matrix(model, q), rtol=0, atol=TOL)
    expected = rd.gravity_torques(model, q) if feedforward is None else feedforward
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]), expected,
                               rtol=0, atol=TOL)


def send_and_expect_drop(ros, probe, dynamics, publish):
    """Publish one bad message; wait until it is counted as dropped; no output may appear."""
    probe.clear()
    before = dynamics.dropped
    publish()
    assert ros.spin_until(lambda: dynamics.dropped > before), 'the bad message was not dropped'
    ros.spin_for(0.05)
    assert dynamics.dropped == before + 1
    assert not any(probe.received.values()), 'bad input produced output'
    return dynamics.last_error


# ---------------------------------------------------------------------- joint_states
def joint_state_cases(names, n):
    """(id, message fields, stamp offset in s or None = now, expected reason excerpt)."""
    zeros = [0.0] * n
    return [
        ('duplicate-name', dict(name=names + names[:1], position=zeros + [0.0]), None,
         'repeated joint names'),
        ('empty-message', dict(), None, 'missing joints'),
        ('missing-joint', dict(name=names[1:], position=zeros[1:]), None,
         f"missing joints ['{names[0]}']"),
        ('unknown-names-only', dict(name=['x', 'y'], position=[0.0, 0.0]), None,
         'missing joints'),
        ('position-too-short', dict(name=names, position=zeros[1:]), None,
         f'position has {n - 1} entries for {n} names'),
        ('velocity-too-long', dict(name=names, position=zeros, velocity=zeros + [1.0]), None,
         f'velocity has {n + 1} entries for {n} names'),
        ('effort-wrong-length', dict(name=names, position=zeros, effort=[1.0]), None,
         f'effort has 1 entries for {n} names'),
        ('no-positions', dict(name=names, velocity=zeros), None, 'no positions'),
        ('nan-position', dict(name=names, position=[math.nan] + zeros[1:]), None,
         'position contains NaN or inf'),
        ('inf-velocity', dict(name=names, position=zeros, velocity=zeros[1:] + [math.inf]),
         None, 'velocity contains NaN or inf'),
        ('nan-effort', dict(name=names, position=zeros, effort=[math.nan] * n), None,
         'effort contains NaN or inf'),
        ('stamp-far-past', dict(name=names, position=zeros), -100.0, 's old (stale_timeout)'),
        ('stamp-just-stale', dict(name=names, position=zeros), -0.6, 's old (stale_timeout)'),
        ('stamp-future', dict(name=names, position=zeros), 10.0, 's in the future'),
        ('stamp-far-future', dict(name=names, position=zeros), 1e6, 's in the future'),
    ]


JOINT_STATE_IDS = [case[0] for case in joint_state_cases(['a', 'b', 'c'], 3)]


@pytest.mark.parametrize('case', JOINT_STATE_IDS)
def test_bad_joint_state_dropped_with_reason_node_keeps_answering(ros, urdf, model, case):
    dynamics = make_dynamics(ros, urdf, stale_timeout=0.5)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    names = list(model.joint_names)
    _, fields, offset, reason = {c[0]: c for c in joint_state_cases(names, model.dof)}[case]

    def publish():
        msg = JointState(**fields)
        msg.header.stamp = offset_stamp(probe.node, offset or 0.0)
        probe.joint_states.publish(msg)
    error = send_and_expect_drop(ros, probe, dynamics, publish)
    assert reason in error, error
    assert_answers_correctly(probe, model, dynamics)


@pytest.mark.parametrize('offset', [-1.0, 0.0, 1.0], ids=['recent-past', 'now', 'near-future'])
def test_stamps_within_the_tolerance_are_used(ros, urdf, model, offset):
    """Stamps 1 s off a 2 s stale_timeout: used (1 s of slack for a loaded machine)."""
    dynamics = make_dynamics(ros, urdf, stale_timeout=2.0)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.linspace(0.3, -0.2, model.dof)
    probe.send_state(model.joint_names, q, stamp=offset_stamp(probe.node, offset))
    assert probe.wait_outputs(), dynamics.last_error
    assert dynamics.dropped == 0, dynamics.last_error
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(model, q), rtol=0, atol=TOL)


def test_zero_stamp_means_now(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf, stale_timeout=0.5)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    probe.send_state(model.joint_names, np.zeros(model.dof), stamp=False)
    assert probe.wait_outputs()
    assert dynamics.dropped == 0


def test_a_burst_of_garbage_leaves_the_node_exact(ros, urdf, model):
    """Hundreds of bad messages of every kind, interleaved: no output, no crash, exact after."""
    dynamics = make_dynamics(ros, urdf, stale_timeout=0.5)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    names = list(model.joint_names)
    cases = joint_state_cases(names, model.dof)
    for k in range(300):
        _, fields, offset, _ = cases[k % len(cases)]
        msg = JointState(**fields)
        msg.header.stamp = offset_stamp(probe.node, offset or 0.0)
        probe.joint_states.publish(msg)
        if k % 5 == 4:
            ros.spin_for(0.002)
    ros.spin_for(0.2)
    assert dynamics.dropped > 0
    assert not any(probe.received.values())
    assert_answers_correctly(probe, model, dynamics)


# ---------------------------------------------------------------------- trajectories
def point(t, positions, velocities=(), accelerations=()):
    """Return a JointTrajectoryPoint at ``t`` seconds."""
    seconds = math.floor(t)
    return JointTrajectoryPoint(
        positions=[float(v) for v in positions], velocities=[float(v) for v in velocities],
        accelerations=[float(v) for v in accelerations],
        time_from_start=Duration(sec=int(seconds), nanosec=int(round((t - seconds) * 1e9))))


def trajectory_cases(names, n):
    """(id, JointTrajectory, expected reason excerpt)."""
    zeros, ones = [0.0] * n, [0.1] * n
    traj = lambda joints, *points: JointTrajectory(joint_names=joints,  # noqa: E731
                                                   points=list(points))
    return [
        ('time-decreasing', traj(names, point(0.0, zeros), point(1.0, ones), point(0.5, zeros)),
         'increase strictly'),
        ('time-repeated', traj(names, point(0.0, zeros), point(0.0, ones)),
         'increase strictly'),
        ('unknown-joint', traj(names[1:] + ['nope'], point(0.0, zeros)),
         "unknown joints ['nope']"),
        ('repeated-joint', traj(names + names[:1], point(0.0, zeros + [0.0])),
         'joint_names repeat'),
        ('no-points', traj(names), 'trajectory has no points'),
        ('nan-position', traj(names, point(0.0, [math.nan] + zeros[1:])),
         'positions of joint'),
        ('inf-acceleration', traj(names, point(0.0, zeros, zeros, [math.inf] + zeros[1:])),
         'accelerations of joint'),
        ('positions-too-short', traj(names, point(0.0, zeros[1:])),
         f'points[*].positions have sizes [{n - 1}]; give {n} per point'),
        ('velocities-on-some-points', traj(names, point(0.0, zeros, zeros), point(1.0, ones)),
         'points[*].velocities have sizes [0, 3]'),
        ('accelerations-wrong-length', traj(names, point(0.0, zeros, zeros, [0.0])),
         'points[*].accelerations have sizes [1]'),
    ]


TRAJECTORY_IDS = [case[0] for case in trajectory_cases(['a', 'b', 'c'], 3)]


@pytest.mark.parametrize('case', TRAJECTORY_IDS)
def test_bad_trajectory_rejected_previous_one_kept(ros, urdf, model, case):
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    names, n = list(model.joint_names), model.dof
    hold = np.linspace(0.2, -0.3, n)
    probe.send_state(names, hold)                                    # the arm is there
    assert probe.wait_outputs()
    good = trajectory_message(names, [0.0, 0.01], [hold, hold])      # ends at once: held
    probe.trajectory.publish(good)
    assert ros.spin_until(lambda: dynamics._trajectory is not None)
    kept = dynamics._trajectory
    _, bad, reason = {c[0]: c for c in trajectory_cases(names, n)}[case]
    error = send_and_expect_drop(ros, probe, dynamics, lambda: probe.trajectory.publish(bad))
    assert reason in error, error
    assert dynamics._trajectory is kept
    ros.spin_for(0.02)
    held = rd.inverse_dynamics(model, hold, np.zeros(n), np.zeros(n))
    assert_answers_correctly(probe, model, dynamics, feedforward=held)


# ---------------------------------------------------------------------- parameters
def test_unknown_solver_and_bad_gravity_rejected_at_run_time(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf)
    for parameter, reason in ((Parameter('solver', value='magic'), 'solver: unknown'),
                              (Parameter('gravity', value=[0.0, -9.81]), 'gravity: give 3'),
                              (Parameter('gravity', value=[0.0, 0.0, math.nan]),
                               'gravity: give 3 finite'),
                              (Parameter('stale_timeout', value=0.0), 'stale_timeout'),
                              (Parameter('stale_timeout', value=-1.0), 'stale_timeout'),
                              (Parameter('joints', value=['x', 'y', 'z']), 'joints:'),
                              (Parameter('viscous_friction', value=[1.0]), 'viscous_friction')):
        result = dynamics.set_parameters([parameter])[0]
        assert not result.successful, parameter.name
        assert reason in result.reason, result.reason
    assert dynamics.get_parameter('solver').value == 'rnea'
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    assert_answers_correctly(probe, model, dynamics)


def test_wrong_gravity_length_at_start_is_reported_and_fixable(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf, gravity=[0.0, -9.81])
    assert dynamics.model is None
    assert 'gravity: give 3 finite values' in dynamics.last_error
    result = dynamics.set_parameters([Parameter('gravity', value=[0.0, 0.0, -9.81])])[0]
    assert result.successful, result.reason
    assert dynamics.model is not None, 'a corrected parameter did not load the model'
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    assert_answers_correctly(probe, model, dynamics)


@pytest.mark.parametrize('name, value', [('publish_rate', 0.0), ('publish_rate', -5.0),
                                         ('diagnostics_period', 0.0)])
def test_dynamics_out_of_range_start_parameters_refused_by_name(ros, urdf, name, value):
    with pytest.raises(InvalidParameterValueException, match=name):
        make_dynamics(ros, urdf, **{name: value})


@pytest.mark.parametrize('name, value', [('dt', 0.0), ('dt', -1e-3), ('tick_period', 0.0),
                                         ('publish_rate', 0.0)])
def test_simulation_non_positive_steps_refused_by_name(ros, urdf, name, value):
    with pytest.raises(InvalidParameterValueException, match=name):
        SimulationNode(namespace=ros.namespace, parameter_overrides=[
            Parameter('robot_description', value=urdf), Parameter(name, value=value)])


def test_simulation_wrong_gravity_length_refused_at_start(ros, urdf):
    with pytest.raises(ValueError, match='gravity: give 3 finite values'):
        SimulationNode(namespace=ros.namespace, parameter_overrides=[
            Parameter('robot_description', value=urdf), Parameter('gravity', value=[0.0, 1.0])])


def test_simulation_run_time_parameters_rejected(ros, urdf, model):
    sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('robot_description', value=urdf), Parameter('real_time_factor', value=0.0)]))
    for parameter, reason in ((Parameter('integrator', value='leapfrog'), 'integrator: unknown'),
                              (Parameter('initial_positions', value=[0.0]), 'initial_positions'),
                              (Parameter('command_timeout', value=-1.0), 'command_timeout'),
                              (Parameter('real_time_factor', value=-1.0), 'real_time_factor')):
        result = sim.set_parameters([parameter])[0]
        assert not result.successful and reason in result.reason, result.reason
    assert ros.spin_until(lambda: sim.simulator.failed or sim.sim_time > 0)
    assert not sim.simulator.failed and sim.sim_time > 0


@pytest.mark.parametrize('node', ['simulation_node', 'trajectory_publisher'])
def test_parameters_read_only_at_start_refuse_run_time_changes(ros, urdf, node):
    """The model (and the simulator's gravity) are built once: a change would never be used."""
    kind = SimulationNode if node == 'simulation_node' else TrajectoryPublisher
    started = ros.add(kind(namespace=ros.namespace, parameter_overrides=[
        Parameter('robot_description', value=urdf), Parameter('gravity', value=[0.0, 0.0, -3.0])]
        if node == 'simulation_node' else [Parameter('robot_description', value=urdf)]))
    changes = [Parameter('model', value='ur5'), Parameter('robot_description', value=''),
               Parameter('base_link', value='link1'), Parameter('locked_joints', value=['a=0'])]
    if node == 'simulation_node':
        changes.append(Parameter('gravity', value=[0.0, 0.0, -9.81]))
    for parameter in changes:
        result = started.set_parameters([parameter])[0]
        assert not result.successful and 'read-only' in result.reason, parameter.name
        assert started.describe_parameter(parameter.name).read_only
    assert started.get_parameter('robot_description').value == urdf
    if node == 'simulation_node':
        assert list(started.get_parameter('gravity').value) == [0.0, 0.0, -3.0]
        assert list(started.model.gravity) == [0.0, 0.0, -3.0]


@pytest.mark.parametrize('values, reason', [([1.0], '1 values for 3 joints'),
                                            ([0.0, math.nan, 0.0], 'NaN or inf'),
                                            ([], '0 values for 3 joints')])
def test_simulation_bad_effort_commands_dropped(ros, urdf, values, reason):
    sim = drop_effort_command(ros, urdf, values)
    assert reason in sim.last_dropped, sim.last_dropped


# ---------------------------------------------------------------------- payload, description
@pytest.mark.parametrize('mass, inertia, reason', [
    (-1.0, (0.01, 0.01, 0.01), 'payload rejected'),
    (math.nan, (0.01, 0.01, 0.01), 'payload contains NaN or inf'),
    (1.0, (-0.5, 0.01, 0.01), 'payload rejected'),
])
def test_bad_payload_rejected_model_kept(ros, urdf, model, mass, inertia, reason):
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    msg = InertiaStamped()
    msg.inertia.m = mass
    msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz = inertia
    error = send_and_expect_drop(ros, probe, dynamics, lambda: probe.payload.publish(msg))
    assert reason in error, error
    assert_answers_correctly(probe, model, dynamics)


@pytest.mark.parametrize('document, reason', [
    (billion_laughs(), 'DOCTYPE or ENTITY'),
    ('<robot name="x"><link name="a"', 'malformed URDF'),
    ('<robot name="x"><link name="a"/></robot>', 'no moving joint'),
])
def test_bad_robot_description_on_the_topic_keeps_the_model(ros, urdf, model, document, reason):
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace))
    probe = Probe(ros)
    description = probe.node.create_publisher(String, 'robot_description', LATCHED)
    description.publish(String(data=urdf))
    assert ros.spin_until(lambda: dynamics.model is not None)
    probe.wait_connected(dynamics)
    description.publish(String(data=document))
    assert ros.spin_until(lambda: reason in dynamics.last_error), dynamics.last_error
    assert dynamics.model.joint_names == model.joint_names
    assert_answers_correctly(probe, model, dynamics)


def test_a_republished_bad_robot_description_is_parsed_and_logged_once(ros, urdf, model):
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace))
    parses = dynamics._descriptions    # parsed in a worker (issue 22.6); copies never again
    probe = Probe(ros)
    description = probe.node.create_publisher(String, 'robot_description', LATCHED)
    bad = '<robot name="x"><link name="a"/></robot>'
    description.publish(String(data=bad))
    assert ros.spin_until(lambda: 'no moving joint' in dynamics.last_error), dynamics.last_error
    for _ in range(3):                              # robot_state_publisher-style republishing
        description.publish(String(data=bad))
    ros.spin_until(lambda: False, timeout=0.5)
    assert parses.parsed == 1 and dynamics.model is None
    description.publish(String(data=urdf))          # a new document is loaded (within 1 s)
    assert ros.spin_until(lambda: dynamics.model is not None)
    assert parses.parsed == 2 and dynamics.model.joint_names == model.joint_names
