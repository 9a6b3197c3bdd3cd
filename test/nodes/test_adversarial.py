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
"""A careless or hostile ROS graph cannot silence, crash or mislead the nodes (issue 14).

One test per attack, over real DDS: the node drops the input with a reason and counts it,
keeps the previous good state, publishes nothing absurd, tells the truth on /diagnostics and
afterwards answers a good input with the library's values. Rows of docs/robustness.md
("Plausibility", "Callbacks", "Model sources", "Bounded work").
"""

import gc
import math
import os
import time
import weakref

import numpy as np
import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticStatus
from geometry_msgs.msg import InertiaStamped
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import Trigger
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

import robot_dynamics as rd
from robot_dynamics.model import bounds
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robots import quiet_bundled, quiet_model_from_urdf, random_arm_urdf, random_model
from ros_graph import (answers_like, arm3_model_fixture, arm3_urdf_fixture,  # noqa: F401
                       bundled, Diagnostics, dropped_with, make_dynamics, Probe, vector)

TOL = 1e-12


# ---------------------------------------------------------------------- plausibility
def test_absurd_trajectory_is_rejected_and_cannot_silence_the_node(ros, arm3_urdf, arm3_model):
    """1e200 rad/s velocities: rejected and counted; the previous trajectory stays in use."""
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    n, names = arm3_model.dof, list(arm3_model.joint_names)
    hold = np.linspace(0.2, -0.3, n)
    probe.send_state(names, hold)                               # the arm where it will hold
    assert probe.wait_outputs()
    probe.trajectory.publish(trajectory_message(names, [0.0, 0.01], [hold, hold]))
    assert ros.spin_until(lambda: dynamics._trajectory is not None)
    kept = dynamics._trajectory
    absurd = trajectory_message(names, [0.0, 1.0], [np.zeros(n), np.full(n, 0.1)],
                                velocities=[np.full(n, 1e200)] * 2)
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(absurd),
                 'points[0].velocities of joint')
    assert dynamics._trajectory is kept
    ros.spin_for(0.05)
    answers_like(probe, arm3_model,
                 feedforward=rd.inverse_dynamics(arm3_model, hold, np.zeros(n), np.zeros(n)))


def test_output_beyond_the_bound_is_not_published_the_others_are(ros):
    """Plausible waypoints at 999 rad/s: the feed-forward exceeds MAX_OUTPUT.

    It is withheld and counted, /diagnostics says ERROR with the reason; gravity and mass
    matrix still go out.
    """
    dynamics, probe = bundled(ros, 'two_link_dh', diagnostics_period=0.1)
    diagnostics = Diagnostics(probe, dynamics, 'dynamics')
    library = quiet_bundled('two_link_dh')
    # Joint 1 turns at 999 rad/s (under MAX_VELOCITY), joint 2 stays at pi/2: Craig's
    # centrifugal term m2 l1 l2 sin(q2) qd1^2 = 1.2 * 999^2 > 1e6 N m at every instant.
    # The motion starts from the state: the arm there, at that speed (the commanded quintic
    # from (0, 999, 0) to (4995, 999, 0) in 5 s is a constant 999 rad/s).
    probe.send_state(library.joint_names, [0.0, math.pi / 2], [999.0, 0.0])
    assert ros.spin_until(lambda: dynamics.state is not None)
    fast = trajectory_message(library.joint_names, [0.0, 5.0, 6.0],     # ends at rest
                              [[0.0, math.pi / 2], [4995.0, math.pi / 2],
                               [5494.5, math.pi / 2]],
                              velocities=[[999.0, 0.0]] * 2 + [[0.0, 0.0]],
                              accelerations=[[0.0, 0.0]] * 3)
    probe.trajectory.publish(fast)
    assert ros.spin_until(lambda: dynamics._trajectory is not None)
    ros.spin_for(0.2)                                # outputs of the first state, in flight
    probe.clear()
    q = np.array([0.3, -0.4])
    assert ros.spin_until(lambda: (probe.send_state(library.joint_names, q), ros.spin_for(0.05),
                                   probe.received['gravity_torques'] and probe.received[
                                       'mass_matrix'] and dynamics.suppressed >= 5)[-1])
    assert not probe.received['feedforward_torques']
    assert 'feedforward_torques reaches' in dynamics.last_error
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][-1]),
                               rd.gravity_torques(library, q), rtol=0, atol=TOL)

    def error_reported():
        status = diagnostics.last()
        return status is not None and status.level == DiagnosticStatus.ERROR \
            and 'feedforward_torques' in status.message
    assert ros.spin_until(lambda: (probe.send_state(library.joint_names, q), ros.spin_for(0.02),
                                   error_reported())[-1], timeout=5.0)


@pytest.mark.parametrize('name, value, reason', [
    ('gravity', [1e308] * 3, 'exceeds 100.0 m/s^2'),
    ('gravity', [0.0, 0.0, -1e3], 'exceeds 100.0 m/s^2'),
    ('rotor_inertia', [1e308] * 3, 'rotor_inertia[0] = 1e+308 exceeds'),
    ('viscous_friction', [1e300] * 3, 'viscous_friction[0]'),
    ('coulomb_friction', [0.0, -1.0, 0.0], 'finite and >= 0'),
    ('model', '/etc/passwd', 'not a bundled model'),
])
def test_implausible_parameter_refused_at_run_time(ros, arm3_urdf, arm3_model, name, value,
                                                   reason):
    dynamics = make_dynamics(ros, arm3_urdf)
    result = dynamics.set_parameters([Parameter(name, value=value)])[0]
    assert not result.successful and reason in result.reason, result.reason
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    answers_like(probe, arm3_model)


def test_implausible_gravity_at_start_leaves_no_model_and_says_why(ros, arm3_urdf):
    dynamics = make_dynamics(ros, arm3_urdf, gravity=[1e308] * 3)
    assert dynamics.model is None
    level, message = dynamics.health()
    assert level == DiagnosticStatus.ERROR and 'exceeds 100.0' in message, message


def test_absurd_link_mass_in_the_description_refuses_the_model(ros, arm3_urdf, arm3_model):
    heavy = arm3_model.replace(mass=np.array([1.0, 1e308, 1.0]))
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('robot_description', value=heavy.to_urdf())]))
    assert dynamics.model is None and "mass of link" in dynamics.last_error


@pytest.mark.parametrize('mass, inertia, reason', [
    (1e300, (0.01, 0.01, 0.01, 0, 0, 0), 'payload mass 1e+300 kg'),
    (1.0, (0.001, 0.001, 1.0, 0, 0, 0), 'triangle inequality'),
    (1.0, (0.01, 0.01, 0.01, 0.02, 0, 0), 'not positive semi-definite'),
])
def test_implausible_payload_dropped(ros, arm3_urdf, arm3_model, mass, inertia, reason):
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    msg = InertiaStamped()
    msg.inertia.m = mass
    (msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz, msg.inertia.ixy, msg.inertia.iyz,
     msg.inertia.ixz) = inertia
    dropped_with(ros, dynamics, lambda: probe.payload.publish(msg), reason)
    answers_like(probe, arm3_model)


def test_payload_with_products_of_inertia_is_exact(ros, arm3_urdf, arm3_model):
    """A payload off its principal axes: every product of inertia reaches the dynamics."""
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    inertia = [0.03, 0.035, 0.04, 0.004, -0.003, 0.005]   # ixx iyy izz ixy iyz ixz, PD
    msg = InertiaStamped()
    msg.inertia.m = 2.5
    msg.inertia.com.x, msg.inertia.com.y, msg.inertia.com.z = 0.05, -0.02, 0.1
    (msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz, msg.inertia.ixy, msg.inertia.iyz,
     msg.inertia.ixz) = inertia
    probe.payload.publish(msg)
    assert ros.spin_until(lambda: dynamics._payload is not None)
    loaded = arm3_model.with_payload(2.5, [0.05, -0.02, 0.1], inertia)
    diagonal = arm3_model.with_payload(2.5, [0.05, -0.02, 0.1], inertia[:3] + [0, 0, 0])
    q = np.array([0.4, -0.7, 0.2])
    assert not np.allclose(rd.mass_matrix(loaded, q), rd.mass_matrix(diagonal, q), atol=1e-6)
    answers_like(probe, loaded, q=q)


def test_joint_state_beyond_the_limits_dropped(ros):
    dynamics, probe = bundled(ros, 'puma560')
    names = dynamics.model.joint_names
    dropped_with(ros, dynamics, lambda: probe.send_state(names, [0.0, 0.0, 3.5, 0.0, 0.0, 0.0]),
                 "'joint3' is 3.5, outside the joint limits")
    assert not any(probe.received.values())
    answers_like(probe, quiet_bundled('puma560'), q=np.zeros(6))


def test_a_velocity_beyond_its_bound_withholds_no_output(ros):
    """Issue 20.7: one joint's velocity out of bound suppressed gravity, which needs none."""
    dynamics, probe = bundled(ros, 'puma560')
    model, q = quiet_bundled('puma560'), np.linspace(-0.4, 0.5, 6)
    probe.send_state(model.joint_names, q, [0.0, 1e200, 0.0, 0.0, 0.0, 0.0])
    assert probe.wait_outputs(), 'the outputs were withheld'
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(model, q), rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]),
                               rd.mass_matrix(model, q).reshape(-1), rtol=0, atol=TOL)
    assert dynamics.dropped == 0 and dynamics.implausible_velocities == 1
    assert "velocity of 'joint2'" in dynamics.last_error


def test_negative_stamp_dropped(ros, arm3_urdf, arm3_model):
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    dropped_with(ros, dynamics, lambda: probe.send_state(
        arm3_model.joint_names, np.zeros(3), stamp=Time(sec=-5, nanosec=0)), 'negative stamp')
    assert not any(probe.received.values())
    answers_like(probe, arm3_model)


# ---------------------------------------------------------------------- diagnostics
def test_diagnostics_error_while_input_arrives_and_nothing_is_published(ros):
    """OK, ERROR with the reason while every state is refused, then OK again.

    States keep coming while the test waits (a pause without any looks like silence: WARN).
    """
    dynamics, probe = bundled(ros, 'puma560', diagnostics_period=0.1)
    diagnostics = Diagnostics(probe, dynamics, 'dynamics')
    names = dynamics.model.joint_names
    outside = np.array([0.0, 0.0, 3.5, 0.0, 0.0, 0.0])     # every state beyond the limits

    def reaches(q, wanted, since=None):
        since = len(diagnostics.statuses) if since is None else since
        return ros.spin_until(lambda: (probe.send_state(names, q), ros.spin_for(0.02),
                                       wanted(diagnostics.statuses[since:]))[-1], timeout=10.0)

    def ok(statuses):
        return any(s.level == DiagnosticStatus.OK for s in statuses)
    assert reaches(np.zeros(6), ok), diagnostics.last()
    assert reaches(outside, lambda statuses: any(
        s.level == DiagnosticStatus.ERROR and 'not publishing' in s.message
        and 'outside the joint limits' in s.message for s in statuses)), diagnostics.last()
    since = len(diagnostics.statuses)                     # never OK while nothing goes out
    assert reaches(outside, lambda statuses: len(statuses) >= 3, since)
    assert not ok(diagnostics.statuses[since:]), diagnostics.statuses[since:]
    assert reaches(np.zeros(6), ok), diagnostics.last()


# ---------------------------------------------------------------------- callbacks
def test_no_callback_exception_escapes_the_dynamics_node(ros, arm3_urdf, arm3_model, monkeypatch):
    """An unexpected error inside a callback is logged and survived, not fatal."""
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)

    def broken(*args):
        raise RuntimeError('injected failure')
    monkeypatch.setattr(bounds, 'check_payload', broken)
    msg = InertiaStamped()
    msg.inertia.m, msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz = 1.0, 0.01, 0.01, 0.01
    probe.payload.publish(msg)
    assert ros.spin_until(lambda: 'injected failure' in dynamics.last_error)
    monkeypatch.setattr(dynamics, '_load_model', broken)
    response = ros.call(probe.reload, Trigger.Request())
    assert not response.success and 'injected failure' in response.message
    monkeypatch.undo()
    answers_like(probe, arm3_model)


# ---------------------------------------------------------------------- model sources
def test_gravity_defaults_to_the_models_own(ros):
    """two_link has gravity along -Y; the node used to replace it with -Z (torques [0, 0])."""
    dynamics, probe = bundled(ros, 'two_link_dh')
    library = quiet_bundled('two_link_dh')
    q = np.array([0.3, -0.4])
    assert np.linalg.norm(rd.gravity_torques(library, q)) > 10
    answers_like(probe, library, q=q)


def test_file_parameters_are_read_only(ros, arm3_urdf, tmp_path):
    path = tmp_path / 'robot.urdf'
    path.write_text(arm3_urdf)
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('urdf_file', value=str(path))]))
    assert dynamics.model is not None
    for name in ('urdf_file', 'dh_file'):
        result = dynamics.set_parameters([Parameter(name, value='/etc/hostname')])[0]
        assert not result.successful, name


SECRET = 'hunter2-do-not-leak'


@pytest.mark.parametrize('text', [
    f'password: {SECRET}\n  links: [\n',                      # YAML syntax error
    f'links:\n  - {{name: {SECRET}, a: [}}\n',                  # YAML error mid-line
    f'{SECRET}\n',                                            # a scalar document
    f'links:\n  - name: x\n    joint: {SECRET}\n    type: {SECRET}\n    a: 0\n    alpha: 0\n'
    '    d: 0\n',                                             # schema error echoing a value
], ids=['syntax', 'flow', 'scalar', 'schema'])
def test_parse_errors_do_not_echo_file_content(ros, tmp_path, text):
    path = tmp_path / 'secrets.yaml'
    path.write_text(text)
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('dh_file', value=str(path))]))
    assert dynamics.model is None
    probe = Probe(ros)
    response = ros.call(probe.reload, Trigger.Request())
    assert not response.success
    for text_out in (dynamics.last_error, response.message, dynamics.health()[1]):
        assert SECRET not in text_out, text_out
        assert str(path) in text_out or 'secrets.yaml' in text_out, text_out


def test_reload_really_loads_the_new_model(ros, arm3_urdf, arm3_model):
    other_urdf = random_arm_urdf(44, 3, 'other3')
    other = quiet_model_from_urdf(other_urdf)
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    answers_like(probe, arm3_model)
    assert dynamics.set_parameters([Parameter('robot_description',
                                              value=other_urdf)])[0].successful
    response = ros.call(probe.reload, Trigger.Request())
    assert response.success, response.message
    assert dynamics.model.name == other.name
    answers_like(probe, other)


def test_reload_flood_is_rate_limited_and_joint_states_keep_flowing(ros, arm3_urdf, arm3_model):
    """100 reload requests, two at a time, and 50 states: paced by completion, not wall time."""
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    assert probe.reload.wait_for_service(timeout_sec=5.0)
    futures, start = [], time.monotonic()
    for k in range(50):
        round_ = [probe.reload.call_async(Trigger.Request()) for _ in range(2)]
        futures += round_
        q, sent = np.full(3, 0.01 * k), [0.0]
        expected = rd.gravity_torques(arm3_model, q)

        def served(round_=round_, q=q, expected=expected, sent=sent):
            if time.monotonic() - sent[0] > 0.5:      # (again if the best-effort state is lost)
                probe.send_state(arm3_model.joint_names, q)
                sent[0] = time.monotonic()
            return all(f.done() for f in round_) and any(
                np.allclose(vector(msg), expected, rtol=0, atol=TOL)
                for msg in probe.received['gravity_torques'])
        probe.clear()
        assert ros.spin_until(served, timeout=10.0), f'round {k}: a request or state not served'
    elapsed, replies = time.monotonic() - start, [f.result() for f in futures]
    reloads = sum(reply.success for reply in replies)
    assert 1 <= reloads <= 1 + elapsed / 1.0, (reloads, elapsed)   # RELOAD_INTERVAL = 1 s
    assert all('reload refused' in reply.message for reply in replies if not reply.success)
    answers_like(probe, arm3_model)


# ---------------------------------------------------------------------- bounded work
def test_overlong_trajectory_refused(ros, arm3_urdf, arm3_model):
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    count = bounds.MAX_TRAJECTORY_POINTS + 1
    msg = JointTrajectory(joint_names=list(arm3_model.joint_names))
    msg.points = [JointTrajectoryPoint(positions=[0.0] * 3) for _ in range(count)]
    for k, point in enumerate(msg.points):
        point.time_from_start.nanosec = k * 1000
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(msg),
                 f'{count} points, more than')
    assert dynamics._trajectory is None
    answers_like(probe, arm3_model)


def test_payload_models_are_not_retained(ros, arm3_urdf, arm3_model):
    """A new payload per message must not grow memory: the replaced models are released.

    (The engine caches its packed model on the model object itself, so nothing outlives the
    node's current model; before, the fast path kept one compiled model per payload.)
    """
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    masses = 0.1 + 0.01 * np.arange(60)
    first = None
    for k, mass in enumerate(masses):
        msg = InertiaStamped()
        msg.inertia.m = float(mass)
        msg.inertia.ixx = msg.inertia.iyy = msg.inertia.izz = 1e-3
        probe.payload.publish(msg)
        assert ros.spin_until(lambda: dynamics._payload is not None
                              and dynamics._payload[0] == mass)
        if first is None:
            answers_like(probe, arm3_model.with_payload(mass, [0, 0, 0], [1e-3] * 3 + [0] * 3))
            first = weakref.ref(dynamics.model)
    gc.collect()
    assert first() is None, 'a replaced payload arm3_model is still referenced'
    answers_like(probe, arm3_model.with_payload(masses[-1], [0, 0, 0], [1e-3] * 3 + [0] * 3))


def test_fast_path_cache_is_bounded():
    """rd.fast (library users' compiled models) keeps at most MAX_CACHED_MODELS in memory."""
    base = random_model(np.random.default_rng(5), 2)
    for k in range(rd.fast.MAX_CACHED_MODELS + 5):
        rd.fast.compile(base.with_payload(0.1 * (k + 1)), method='reference')
    assert len(rd.fast._models) <= rd.fast.MAX_CACHED_MODELS


def test_model_parameter_naming_a_file_is_refused_at_start(ros):
    """``model`` naming a path is refused at start too (it used to load any file)."""
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value=os.path.abspath(__file__))]))
    assert dynamics.model is None and 'not a bundled model' in dynamics.last_error


@pytest.mark.parametrize('publish_all', [False, True])
def test_outputs_nobody_subscribes_to_are_published_only_when_asked(
        ros, arm3_urdf, arm3_model, publish_all):
    dynamics = make_dynamics(ros, arm3_urdf, publish_unsubscribed=publish_all)
    listener = ros.node('gravity_only')
    received = []
    listener.create_subscription(Float64MultiArray,
                                 f'{ros.namespace}/dynamics_node/gravity_torques',
                                 received.append, 10)
    sender = ros.node('sender')
    states = sender.create_publisher(JointState, 'joint_states',
                                     rclpy.qos.qos_profile_sensor_data)
    publishers = {name: pair[0] for name, pair in dynamics.outputs.publishers.items()}
    assert ros.spin_until(lambda: states.get_subscription_count() > 0
                          and publishers['gravity_torques'].get_subscription_count() > 0)
    published = {'mass_matrix': 0, 'feedforward_torques': 0}
    for name in published:
        publisher = publishers[name]
        original = publisher.publish
        publisher.publish = lambda msg, name=name, original=original: (
            published.__setitem__(name, published[name] + 1), original(msg))
    q = np.array([0.1, -0.2, 0.3])
    for _ in range(5):
        states.publish(JointState(name=list(arm3_model.joint_names), position=list(q)))
        ros.spin_for(0.02)
    assert ros.spin_until(lambda: len(received) >= 5)
    np.testing.assert_allclose(vector(received[-1]), rd.gravity_torques(arm3_model, q), atol=TOL)
    expected = len(received) if publish_all else 0
    assert published == {'mass_matrix': expected, 'feedforward_torques': expected}
    assert dynamics.health()[0] == DiagnosticStatus.OK


def test_unknown_solver_at_start_refuses_to_start(ros, arm3_urdf):
    """It used to start, publish nothing and report OK (every call failed)."""
    with pytest.raises(ValueError, match="solver: unknown 'nonexistent'; valid solvers"):
        make_dynamics(ros, arm3_urdf, solver='nonexistent')
