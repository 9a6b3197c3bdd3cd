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
"""dynamics_node over real rclpy/DDS: outputs equal the library's, bad input is survived."""

import math
import time

import numpy as np
import pytest

import rclpy  # noqa: E402  (the test environment installs the ROS 2 wheels)

from geometry_msgs.msg import InertiaStamped  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from std_msgs.msg import Float64MultiArray, String  # noqa: E402
from std_srvs.srv import SetBool, Trigger  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.nodes.conversions import (  # noqa: E402
    stamp_to_nanoseconds, trajectory_message)
from robot_dynamics.nodes.dynamics_node import DynamicsNode, LATCHED  # noqa: E402
from robot_dynamics.simulation.trajectory import sample_waypoints  # noqa: E402
from robots import quiet_model_from_urdf, random_arm_urdf  # noqa: E402
from ros_graph import make_dynamics, Probe, vector  # noqa: E402

TOL = 1e-12


@pytest.fixture(scope='module')
def urdf():
    """Return a 4-joint random arm with friction and rotors as URDF XML."""
    return random_arm_urdf(7, 4, 'arm4')


@pytest.fixture(scope='module')
def model(urdf):
    """Return the library's model of the same URDF: the oracle."""
    return quiet_model_from_urdf(urdf)


def test_outputs_equal_library_values(ros, urdf, model):
    rng = np.random.default_rng(1)
    n = model.dof
    names = list(model.joint_names)
    output_order = names[::-1]                           # a non-model output order
    dynamics = make_dynamics(ros, urdf, joints=output_order)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    order = [names.index(name) for name in output_order]

    # A three-point quintic trajectory, started now from the state the arm will be in, with
    # long segments so that it is sampled in the middle of the first one.
    q, qd = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    times = np.array([0.0, 40.0, 80.0])
    positions, velocities, accelerations = (rng.uniform(-1, 1, (3, n)) for _ in range(3))
    positions[0], velocities[0], accelerations[0] = q, qd, 0.0
    velocities[-1] = accelerations[-1] = 0.0        # it ends at rest (upstream's rule)
    start = probe.node.get_clock().now().to_msg()
    traj = trajectory_message(names, times, positions, velocities, accelerations, stamp=start)
    perm = rng.permutation(n)                           # joint order of the message: shuffled
    traj.joint_names = [names[i] for i in perm]
    for point in traj.points:
        point.positions = [point.positions[i] for i in perm]
        point.velocities = [point.velocities[i] for i in perm]
        point.accelerations = [point.accelerations[i] for i in perm]
    probe.trajectory.publish(traj)                  # kept for the first state: it starts there
    assert ros.spin_until(lambda: dynamics._pending_trajectory is not None)

    extra = ['not_a_model_joint'] + [names[i] for i in perm]      # matched by name
    probe.send_state(extra, np.r_[9.0, q[perm]], np.r_[9.0, qd[perm]])
    assert probe.wait_outputs()
    commanded = dynamics._trajectory               # begun, the arm on it: the plan itself
    assert commanded is not None and commanded.start_ns == stamp_to_nanoseconds(start)
    probe.clear()
    ros.spin_for(0.05)
    probe.send_state(extra, np.r_[9.0, q[perm]], np.r_[9.0, qd[perm]])    # 50 ms later
    assert probe.wait_outputs()
    np.testing.assert_array_equal(commanded.positions, positions)
    np.testing.assert_array_equal(commanded.velocities, velocities)
    start_ns = stamp_to_nanoseconds(start)
    np.testing.assert_allclose(commanded.times + (commanded.start_ns - start_ns) * 1e-9,
                               [(commanded.start_ns - start_ns) * 1e-9, 40.0, 80.0], atol=1e-9)

    ff_js = probe.received['feedforward_joint_states'][0]
    assert list(ff_js.name) == output_order
    elapsed = (stamp_to_nanoseconds(ff_js.header.stamp) - commanded.start_ns) * 1e-9
    assert 0 < elapsed < 40
    q_d, qd_d, qdd_d = sample_waypoints(commanded.times, positions, velocities, accelerations,
                                        elapsed)
    assert np.linalg.norm(qd_d) > 0.1                    # moving: the velocity terms count
    expected_ff = rd.inverse_dynamics(model, q_d, qd_d, qdd_d)[order]
    expected_g = rd.gravity_torques(model, q)[order]
    expected_m = rd.mass_matrix(model, q)[np.ix_(order, order)]

    np.testing.assert_allclose(np.array(ff_js.effort), expected_ff, rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]), expected_ff,
                               rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]), expected_g,
                               rtol=0, atol=TOL)
    np.testing.assert_allclose(np.array(probe.received['gravity_joint_states'][0].effort),
                               expected_g, rtol=0, atol=TOL)
    mass = probe.received['mass_matrix'][0]
    rows, cols = mass.layout.dim
    assert (rows.label, rows.size, rows.stride) == ('rows', n, n * n)
    assert (cols.label, cols.size, cols.stride) == ('cols', n, n)
    np.testing.assert_allclose(vector(mass).reshape(n, n), expected_m, rtol=0, atol=TOL)
    assert np.abs(expected_g).max() > 1.0           # the check is not trivially on zeros


def test_without_trajectory_feedforward_holds_gravity_and_can_be_disabled(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.linspace(-0.5, 0.7, model.dof)
    probe.send_state(model.joint_names, q, np.ones(model.dof))
    assert probe.wait_outputs()
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]),
                               rd.gravity_torques(model, q), rtol=0, atol=TOL)

    response = ros.call(probe.enable_gravity, SetBool.Request(data=False))
    assert response.success
    probe.clear()
    probe.send_state(model.joint_names, q)
    assert probe.wait_outputs()
    assert not np.any(vector(probe.received['gravity_torques'][0]))
    assert not np.any(vector(probe.received['feedforward_torques'][0]))
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]).reshape(model.dof, -1),
                               rd.mass_matrix(model, q), rtol=0, atol=TOL)


def test_remapped_onto_controller_commands_topic(ros, urdf, model):
    node = ros.add(DynamicsNode(
        namespace=ros.namespace,
        parameter_overrides=[Parameter('robot_description', value=urdf)],
        cli_args=['--ros-args', '-r', '~/feedforward_torques:=/effort_controller/commands']))
    got = []
    probe = Probe(ros)
    probe.node.create_subscription(Float64MultiArray, '/effort_controller/commands',
                                   got.append, 10)
    probe.wait_connected(node)
    q = np.full(model.dof, 0.3)
    feedforward, _ = node.outputs.publishers['feedforward_torques']
    ros.spin_until(lambda: feedforward.get_subscription_count() > 0)
    probe.send_state(model.joint_names, q)
    assert ros.spin_until(lambda: got)
    np.testing.assert_allclose(vector(got[0]), rd.gravity_torques(model, q), rtol=0, atol=TOL)


def test_bad_joint_states_are_dropped_and_counted(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf, stale_timeout=0.2)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    names = list(model.joint_names)
    n = model.dof
    old = probe.node.get_clock().now() - rclpy.duration.Duration(seconds=5.0)
    bad = [
        (names[:-1], np.zeros(n - 1), None),                         # a joint missing
        (names, np.zeros(n - 1), None),                              # lengths differ
        (names, np.zeros(n), np.zeros(n + 1)),                       # velocity length
        (names, np.r_[np.nan, np.zeros(n - 1)], None),               # NaN position
        (names, np.zeros(n), np.r_[np.inf, np.zeros(n - 1)]),        # inf velocity
        (['unknown_a', 'unknown_b'], np.zeros(2), None),             # unknown-only names
    ]
    for joint_names, position, velocity in bad:
        probe.send_state(joint_names, position, velocity)
        ros.spin_for(0.02)                 # sensor-data QoS keeps only the last 5 messages
    probe.send_state(names, np.zeros(n), stamp=old.to_msg())         # stale stamp
    assert ros.spin_until(lambda: dynamics.dropped >= len(bad) + 1)
    ros.spin_for(0.2)
    assert dynamics.dropped == len(bad) + 1
    assert not any(probe.received.values()), 'bad input produced output'

    # The node is still alive: a good message is answered, finite.
    probe.send_state(names, np.full(n, 0.1))
    assert probe.wait_outputs()
    for messages in probe.received.values():
        values = messages[-1].data if hasattr(messages[-1], 'data') else messages[-1].effort
        assert np.all(np.isfinite(values))
    assert 'stale' in dynamics.last_error or 'old' in dynamics.last_error


def test_timer_mode_goes_silent_when_state_is_stale(ros, urdf, model, monkeypatch):
    dynamics = make_dynamics(ros, urdf, publish_mode='timer', publish_rate=200.0,
                             stale_timeout=0.15)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    published, ticks = [], []          # counted in the node: nothing in flight is mistaken
    original = dynamics.outputs.publishers['gravity_torques'][0].publish
    monkeypatch.setattr(dynamics.outputs.publishers['gravity_torques'][0], 'publish',
                        lambda msg: (published.append(1), original(msg))[-1])
    compute = dynamics._compute_and_publish
    monkeypatch.setattr(dynamics, '_compute_and_publish',
                        lambda *args: (ticks.append(1), compute(*args))[-1])
    # Fresh states (sent again until three output sets came: a pause must not age them).
    assert ros.spin_until(lambda: (probe.send_state(model.joint_names, np.zeros(model.dof)),
                                   ros.spin_for(0.01), probe.wait_outputs(count=3,
                                                                          timeout=0.0))[-1])
    ros.spin_for(0.2)                                # the state is now older than 0.15 s
    count, ticked = len(published), len(ticks)
    assert ros.spin_until(lambda: len(ticks) >= ticked + 20)     # 20 timer ticks on it
    assert len(published) == count, 'published outputs for a stale state'


def test_solver_switch_and_rejection(ros, urdf, model, monkeypatch):
    from robot_dynamics.algorithms.rnea import rnea
    from robot_dynamics.solvers import Solver
    calls = []

    def spy(model_, q, qd, qdd, gravity, f_tip=None):
        calls.append(q.shape)
        return rnea(model_, q, qd, qdd, gravity, f_tip)
    rd.solvers.available()                                   # load the registry first
    monkeypatch.setitem(rd.solvers.registry._registry, 'spy_rnea', Solver('spy_rnea', spy))

    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    others = [name for name in rd.solvers.available()
              if name not in ('rnea', 'spy_rnea') and not name.startswith('example')]
    q = np.linspace(0.2, -0.4, model.dof)
    for target in others[:2] + ['spy_rnea']:
        result = dynamics.set_parameters([Parameter('solver', value=target)])[0]
        assert result.successful, result.reason
        probe.clear()
        probe.send_state(model.joint_names, q)
        assert probe.wait_outputs()
        np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                                   rd.gravity_torques(model, q), rtol=0, atol=1e-9)
    assert calls, 'the node did not call the solver it was switched to'

    result = dynamics.set_parameters([Parameter('solver', value='no_such_solver')])[0]
    assert not result.successful
    for name in rd.solvers.available():
        assert name in result.reason
    assert dynamics.get_parameter('solver').value == 'spy_rnea'


def test_parameter_validation_and_overrides(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf)
    n = model.dof
    assert not dynamics.set_parameters([Parameter('gravity', value=[0.0, 1.0])])[0].successful
    assert not dynamics.set_parameters(
        [Parameter('viscous_friction', value=[1.0] * (n + 1))])[0].successful
    assert not dynamics.set_parameters(
        [Parameter('publish_mode', value='timer')])[0].successful          # read-only
    assert dynamics.set_parameters(
        [Parameter('gravity', value=[0.0, 0.0, -1.62])])[0].successful
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.full(n, -0.2)
    probe.send_state(model.joint_names, q)
    assert probe.wait_outputs()
    moon = model.with_gravity([0.0, 0.0, -1.62])
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(moon, q), rtol=0, atol=TOL)


def test_payload_applied_to_tip(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    msg = InertiaStamped()
    msg.inertia.m = 2.5
    msg.inertia.com.x, msg.inertia.com.y, msg.inertia.com.z = 0.05, -0.02, 0.1
    msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz = 0.02, 0.03, 0.04
    msg.inertia.ixy, msg.inertia.iyz, msg.inertia.ixz = 0.004, -0.003, 0.005   # off-axis
    probe.payload.publish(msg)
    assert ros.spin_until(lambda: dynamics._payload is not None)
    q = np.full(model.dof, 0.4)
    probe.send_state(model.joint_names, q)
    assert probe.wait_outputs()
    loaded = model.with_payload(2.5, [0.05, -0.02, 0.1], [0.02, 0.03, 0.04, 0.004, -0.003,
                                                          0.005])
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(loaded, q), rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]),
                               rd.mass_matrix(loaded, q).reshape(-1), rtol=0, atol=TOL)
    assert not np.allclose(rd.gravity_torques(loaded, q), rd.gravity_torques(model, q))
    principal = model.with_payload(2.5, [0.05, -0.02, 0.1], [0.02, 0.03, 0.04, 0, 0, 0])
    assert not np.allclose(rd.mass_matrix(loaded, q), rd.mass_matrix(principal, q), atol=1e-6)


def test_model_from_robot_description_topic_and_reload(ros, urdf, model):
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace))
    assert dynamics.model is None
    probe = Probe(ros)
    description = probe.node.create_publisher(String, 'robot_description', LATCHED)
    description.publish(String(data=urdf))
    assert ros.spin_until(lambda: dynamics.model is not None)
    assert dynamics.model.joint_names == model.joint_names
    response = ros.call(probe.reload, Trigger.Request())
    assert response.success, response.message
    assert str(model.dof) in response.message
    other_urdf = random_arm_urdf(8, 3, 'arm3')        # a new description, then a reload:
    description.publish(String(data=other_urdf))      # the outputs are the new robot's
    other = quiet_model_from_urdf(other_urdf)
    assert ros.spin_until(lambda: dynamics.model.name == 'arm3')
    time.sleep(1.0)                                   # one reload per second is served
    assert ros.call(probe.reload, Trigger.Request()).success
    probe.wait_connected(dynamics)
    q = np.array([0.3, -0.2, 0.5])
    probe.send_state(other.joint_names, q)
    assert probe.wait_outputs()
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(other, q), rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]),
                               rd.mass_matrix(other, q).reshape(-1), rtol=0, atol=TOL)


def test_diagnostics_report_rates_and_drops(ros, urdf, model):
    from diagnostic_msgs.msg import DiagnosticArray
    dynamics = make_dynamics(ros, urdf, diagnostics_period=0.1)
    probe = Probe(ros)
    diagnostics = []
    probe.node.create_subscription(DiagnosticArray, '/diagnostics', diagnostics.append, 10)
    probe.wait_connected(dynamics)
    for _ in range(5):
        probe.send_state(model.joint_names, np.zeros(model.dof))
        ros.spin_for(0.01)
    probe.send_state(model.joint_names[:1], [math.nan])
    mine = f'{dynamics.get_fully_qualified_name()}: dynamics'

    def values():
        for array in reversed(diagnostics):
            for status in array.status:
                if status.name == mine:
                    return {kv.key: kv.value for kv in status.values}
        return {}
    assert ros.spin_until(lambda: values().get('dropped_messages') == '1', timeout=3.0)
    report = values()
    assert float(report['compute_time_mean_ms']) > 0
    assert float(report['input_rate_hz']) > 0
    assert 'NaN' in report['last_error']      # partial: merged by name, NaN refused


def test_diagnostics_go_on_when_the_simulated_clock_stops(ros, model):
    """Kill the simulator that owns /clock: the node must say so, not fall silent on OK.

    Its diagnostics timer runs on wall time; the status names the node with its namespace.
    """
    from builtin_interfaces.msg import Time
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from rosgraph_msgs.msg import Clock
    clock_topic = f'{ros.namespace}/clock'
    dynamics = ros.add(DynamicsNode(
        namespace=ros.namespace, cli_args=['--ros-args', '-r', f'/clock:={clock_topic}'],
        parameter_overrides=[Parameter('model', value='two_link'),
                             Parameter('use_sim_time', value=True),
                             Parameter('diagnostics_period', value=0.2)]))
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    clock = probe.node.create_publisher(Clock, clock_topic, 10)
    statuses = []
    probe.node.create_subscription(
        DiagnosticArray, '/diagnostics',
        lambda array: statuses.extend(s for s in array.status
                                      if s.name == f'{ros.namespace}/dynamics_node: dynamics'),
        10)
    names = rd.load_model('two_link').joint_names
    assert ros.spin_until(lambda: clock.get_subscription_count() > 0)
    t = 100.0
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and not any(
            s.level == DiagnosticStatus.OK for s in statuses):     # the simulator is running
        t += 0.01
        stamp = Time(sec=int(t), nanosec=int(round((t % 1) * 1e9)))
        clock.publish(Clock(clock=stamp))
        probe.send_state(names, [0.1, 0.2], stamp=stamp)
        ros.spin_for(0.01)
    assert any(s.level == DiagnosticStatus.OK for s in statuses), statuses
    statuses.clear()                          # the simulator dies: /clock and states stop
    assert ros.spin_until(lambda: len(statuses) >= 3, timeout=5.0), 'diagnostics fell silent'
    assert statuses[-1].level == DiagnosticStatus.WARN
    assert statuses[-1].message.startswith('no recent joint_states: the last arrived ')
    assert 'is /clock running' in statuses[-1].message       # the input, its age and the fix
    rates = [float({v.key: v.value for v in s.values}['input_rate_hz']) for s in statuses]
    assert rates[-1] < rates[0] or rates[-1] == 0.0, rates    # not the last rate, kept (trial 2)


def test_trajectory_held_after_end_and_zero_stamp_starts_on_receipt(ros, urdf, model):
    dynamics = make_dynamics(ros, urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    n = model.dof
    names = list(model.joint_names)
    positions = np.array([np.zeros(n), np.full(n, 0.1)])
    probe.send_state(names, np.zeros(n))                          # the arm at the first point
    assert probe.wait_outputs()
    traj = trajectory_message(names, [0.0, 0.3], positions)        # header.stamp zero
    probe.trajectory.publish(traj)
    assert ros.spin_until(lambda: dynamics._trajectory is not None)
    receipt = dynamics._trajectory.start_ns
    assert abs(receipt - dynamics.get_clock().now().nanoseconds) < 2e9
    ros.spin_for(0.4)                                              # past the last point
    probe.received['feedforward_torques'].clear()
    q = np.full(n, -0.3)
    probe.send_state(names, q)
    assert probe.wait_outputs()
    held = rd.inverse_dynamics(model, positions[-1], np.zeros(n), np.zeros(n))
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]), held,
                               rtol=0, atol=TOL)

    bad = trajectory_message(names, [0.0, 0.0], positions)           # times do not increase
    probe.trajectory.publish(bad)
    dropped = dynamics.dropped
    assert ros.spin_until(lambda: dynamics.dropped == dropped + 1)
    assert dynamics._trajectory.start_ns == receipt                  # the old one is kept


def test_model_from_dh_file_and_bundled_name(ros):
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    dh_file = os.path.join(root, 'config', 'puma560_dh.yaml')     # bundled: must exist
    from_dh = ros.add(DynamicsNode(node_name='from_dh', namespace=ros.namespace,
                                   parameter_overrides=[Parameter('dh_file', value=dh_file)]))
    expected = rd.RobotModel.from_dh(dh_file)
    assert from_dh.model.dof == expected.dof
    q = np.linspace(-0.3, 0.3, expected.dof)
    np.testing.assert_allclose(from_dh.compute(q, np.zeros(expected.dof), 0)[1],
                               rd.gravity_torques(expected, q), rtol=0, atol=TOL)
    by_name = ros.add(DynamicsNode(node_name='by_name', namespace=ros.namespace,
                                   parameter_overrides=[Parameter('model', value='two_link')]))
    assert by_name.model.dof == rd.load_model('two_link').dof
