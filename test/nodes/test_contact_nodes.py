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
"""Issue 33 in one process: the dynamics node's contact outputs, the simulator's push.

The oracle of the dynamics node is the library's :class:`ContactMonitor` on the same samples
(the node converts messages and calls it) and the closed form of an arm at rest: motors that
push with ``s`` more than gravity needs while nothing moves mean ``τ_ext = -s``.
"""

import numpy as np
import pytest
from diagnostic_msgs.msg import DiagnosticStatus
from rclpy.parameter import Parameter
from geometry_msgs.msg import WrenchStamped
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import Bool, Float64MultiArray

import robot_dynamics as rd
from robot_dynamics.contacts import ContactMonitor, fixed_thresholds
from robot_dynamics.nodes.qos import LATCHED
from robot_dynamics.nodes.simulation_node import SimulationNode
from nodes.test_controller_inputs import TrajectoryRig
from robot_dynamics.nodes.conversions import trajectory_message
from ros_graph import (ControllerRig, Diagnostics, arm3_model_fixture,  # noqa: F401
                       arm3_urdf_fixture, bundled)

PANDA = rd.load_model('panda')
Q0 = np.array([0.1, -0.5, 0.2, -2.0, 0.3, 1.5, 0.4])
STEP = 6.0                 # N m more than gravity needs on joint 2, from sample 40


def listen(ros, probe):
    """Record the node's ~/collision and ~/external_torques."""
    base = f'{ros.namespace}/dynamics_node'
    verdicts, torques = [], []
    probe.node.create_subscription(Bool, f'{base}/collision', verdicts.append, LATCHED)
    probe.node.create_subscription(JointState, f'{base}/external_torques', torques.append, 100)
    return verdicts, torques


#: The states are stamped 2 ms apart but sent one at a time, each once the node took the last:
#: on a loaded machine 80 of them take longer than the default stale_timeout (0.5 s).
PATIENT = {'stale_timeout': 30.0}


def send(ros, node, probe, k, t0, effort):
    """Send the k-th state (at rest at Q0, 2 ms apart) and wait until the node took it."""
    before = node.received
    stamp = Time(nanoseconds=t0 + k * 2_000_000).to_msg()
    probe.send_state(PANDA.joint_names, Q0, np.zeros(7), effort, stamp=stamp)
    assert ros.spin_until(lambda: node.received > before)
    return stamp.sec + 1e-9 * stamp.nanosec


def test_the_node_reports_what_the_monitor_says_and_flags_the_step(ros):
    """Estimates equal the library's to 1e-12; collision False, then True; WARN names it."""
    node, probe = bundled(ros, 'panda', contact_thresholds=[2.0], **PATIENT)
    verdicts, torques = listen(ros, probe)
    diagnostics = Diagnostics(probe, node, 'dynamics')
    monitor = ContactMonitor(node.model, fixed_thresholds(node.model, 2.0))
    gravity = rd.gravity_torques(node.model, Q0)
    t0 = node.get_clock().now().nanoseconds
    readings = []
    for k in range(80):
        effort = gravity + (np.eye(7)[1] * STEP if k >= 40 else 0.0)
        t = send(ros, node, probe, k, t0, effort)
        readings.append(monitor.update(t, Q0, np.zeros(7), effort))
    assert ros.spin_until(lambda: len(torques) >= 79 and len(verdicts) >= 2)
    estimates = np.array([m.effort for m in torques])
    expected = np.array([r.tau_ext for r in readings[1:]])
    np.testing.assert_allclose(estimates, expected, rtol=0, atol=1e-12)
    # at rest, the motors pushing s more than gravity: the estimate tends to -s
    assert abs(estimates[-1][1] + STEP * -np.expm1(-50.0 * 0.078)) < 0.05 * STEP
    assert [v.data for v in verdicts] == [False, True]
    first = next(k for k, r in enumerate(readings) if r.in_contact)
    # 2 N m of a 6 N m step is reached ln(1.5) / 50 = 8.1 ms after it; the step is ramped
    # over its interval (hold 'linear'), so it counts from 1 ms before sample 40
    delay = np.log(STEP / (STEP - 2.0)) / 50.0
    assert first == 40 + int(np.ceil((delay - 1e-3) / 2e-3)) == 44
    node.diagnostics.publish()
    assert ros.spin_until(lambda: diagnostics.last() is not None)
    status = diagnostics.last()
    assert status.level == DiagnosticStatus.WARN and 'panda_joint2' in status.message
    assert 'in contact' in status.message


def test_without_efforts_nothing_false_is_published_and_diagnostics_say_why(ros):
    """Thresholds set, no efforts: no verdict, no estimate, WARN naming the missing efforts."""
    node, probe = bundled(ros, 'panda', contact_thresholds=[2.0], **PATIENT)
    verdicts, torques = listen(ros, probe)
    diagnostics = Diagnostics(probe, node, 'dynamics')
    t0 = node.get_clock().now().nanoseconds
    for k in range(5):
        send(ros, node, probe, k, t0, None)
    ros.spin_for(0.2)
    assert not verdicts and not torques
    node.diagnostics.publish()
    assert ros.spin_until(lambda: diagnostics.last() is not None)
    status = diagnostics.last()
    assert status.level == DiagnosticStatus.WARN
    assert 'not judged' in status.message and 'missing' in status.message


def test_without_thresholds_the_estimate_goes_out_but_no_verdict(ros):
    """No thresholds: ~/external_torques is published, ~/collision never; diagnostics OK."""
    node, probe = bundled(ros, 'panda', **PATIENT)
    verdicts, torques = listen(ros, probe)
    gravity = rd.gravity_torques(node.model, Q0)
    t0 = node.get_clock().now().nanoseconds
    for k in range(5):
        send(ros, node, probe, k, t0, gravity + 1.0)
    assert ros.spin_until(lambda: len(torques) >= 4)
    assert not verdicts
    assert 'not judged' in node.contacts.values()['contact_thresholds']
    assert node.contacts.health() is None


def push_message(frame, force):
    """Return a WrenchStamped on ``frame`` (zero stamp: from receipt)."""
    msg = WrenchStamped()
    msg.header.frame_id = frame
    msg.wrench.force.x, msg.wrench.force.y, msg.wrench.force.z = force
    return msg


def test_the_simulator_is_pushed_and_its_efforts_stay_the_motor_torques(ros):
    """A push moves the weightless arm along M⁻¹ Jᵀ w; efforts stay zero; bad pushes dropped."""
    with open(rd.data_path('urdf/panda.urdf'), encoding='utf-8') as handle:
        urdf = handle.read()
    overrides = [Parameter('robot_description', value=urdf), Parameter('gravity', value=[
        0.0, 0.0, 0.0]), Parameter('initial_positions', value=Q0.tolist())]
    sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=overrides))
    node = ros.node('pusher')
    states = []
    node.create_subscription(JointState, f'{ros.namespace}/joint_states', states.append, 100)
    publisher = node.create_publisher(WrenchStamped,
                                      f'{ros.namespace}/simulation_node/external_wrench', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() > 0)
    for message, reason in ((push_message('nowhere', (0, 0, 20.0)), 'not a link'),
                            (push_message(sim.model.tip_link, (np.nan, 0, 0)), 'NaN')):
        before = sim.dropped
        publisher.publish(message)
        assert ros.spin_until(lambda: sim.dropped > before)
        assert reason in sim.last_dropped
    publisher.publish(push_message('panda_link4', (0.0, 0.0, 20.0)))
    assert ros.spin_until(lambda: sim.push.acting.wrench is not None)
    start, q_start = sim.push.acting.start, sim.simulator.q.copy()
    assert ros.spin_until(lambda: sim.sim_time > start + 0.05)
    moved = np.array(states[-1].position)[:7] - q_start
    assert all(np.all(np.array(m.effort) == 0.0) for m in states)
    tau = rd.link_wrench_torques(PANDA, q_start, 'panda_link4', [0, 0, 20.0, 0, 0, 0],
                                 frame='link')
    direction = np.linalg.solve(rd.mass_matrix(PANDA, q_start), tau)
    cosine = moved @ direction / np.linalg.norm(moved) / np.linalg.norm(direction)
    assert cosine > 0.99, cosine
    assert ros.spin_until(lambda: sim.sim_time > start + 0.25)
    assert sim.push.acting.wrench is None, 'the push ends 0.2 s after its stamp'


@pytest.mark.parametrize('policy', ['stop', 'comply'])
def test_computed_torque_controller_reactions_command_gravity(ros, policy):
    """Stop: hold where it is with G(q) (not the feed-forward); comply: G(q) wherever it is."""
    names = ['j1', 'j2']
    mass = np.array([[2.0, 0.1], [0.1, 1.0]])
    gravity, feedforward = np.array([3.0, -1.5]), np.array([8.0, 2.0])
    rig = ControllerRig(ros, joints=names, collision_reaction=policy, kp=[100.0],
                        kd=[20.0])
    node = ros.node('dynamics')
    verdict = node.create_publisher(Bool, 'dynamics_node/collision', LATCHED)
    weights = node.create_publisher(Float64MultiArray, 'dynamics_node/gravity_torques', 10)
    torques = node.create_publisher(JointState, 'dynamics_node/external_torques', 10)
    assert ros.spin_until(lambda: verdict.get_subscription_count() > 0
                          and weights.get_subscription_count() > 0)
    rig.feedforward.publish(Float64MultiArray(data=list(feedforward)))
    weights.publish(Float64MultiArray(data=list(gravity)))
    torques.publish(JointState(name=names, effort=[-0.5, 4.25]))
    rig.step(names, [0.1, 0.2], mass)
    np.testing.assert_allclose(rig.commands[-1], feedforward, rtol=0, atol=1e-12)
    verdict.publish(Bool(data=True))
    assert ros.spin_until(lambda: rig.controller.reaction.in_contact)
    rig.step(names, [0.1, 0.2], mass)
    np.testing.assert_allclose(rig.commands[-1], gravity, rtol=0, atol=1e-12)
    rig.step(names, [0.15, 0.1], mass)          # pushed away: stop pulls back, comply not
    pulled = mass @ (100.0 * np.array([-0.05, 0.1])) + gravity
    expected = pulled if policy == 'stop' else gravity
    np.testing.assert_allclose(rig.commands[-1], expected, rtol=1e-9, atol=1e-9)
    assert 'j2' in rig.controller.reaction.text and '+4.25 N m' in rig.controller.reaction.text


def test_a_bad_thresholds_file_turns_contacts_off_with_the_reason(ros, tmp_path):
    """A thresholds file that does not read: ERROR naming it, read once; gravity goes on."""
    path = tmp_path / 'arm.contacts.yaml'
    path.write_text('format: something else\n')
    node, probe = bundled(ros, 'panda', contact_thresholds_file=str(path), **PATIENT)
    verdicts, torques = listen(ros, probe)
    t0 = node.get_clock().now().nanoseconds
    gravity = rd.gravity_torques(node.model, Q0)
    send(ros, node, probe, 0, t0, gravity)
    path.unlink()                                 # not read again at the next state
    send(ros, node, probe, 1, t0, gravity)
    level, message = node.contacts.health()
    assert level == DiagnosticStatus.ERROR and 'contacts off' in message
    assert 'arm.contacts.yaml' in message, message
    assert probe.wait_outputs(2)
    assert not verdicts and not torques


def test_no_new_motion_starts_while_the_arm_is_in_contact(ros, arm3_urdf, arm3_model):
    """Under stop, a trajectory sent during a contact is refused; after the release it runs."""
    rig = TrajectoryRig(ros, arm3_urdf)
    verdict = ros.node('dynamics').create_publisher(Bool, 'dynamics_node/collision', LATCHED)
    motion = rig.node.create_publisher(type(trajectory_message(['a'], [1.0], [[0.0]])),
                                       'joint_trajectory_controller/joint_trajectory', 10)
    names, q = list(arm3_model.joint_names), np.array([0.3, -0.5, 0.2])
    assert ros.spin_until(lambda: verdict.get_subscription_count() > 0
                          and motion.get_subscription_count() > 0)
    rig.send(names, q, np.zeros(3))
    verdict.publish(Bool(data=True))
    assert ros.spin_until(lambda: rig.controller.reaction.in_contact)
    motion.publish(trajectory_message(names, [2.0], [q + 0.1]))
    assert ros.spin_until(lambda: 'in contact' in rig.controller.last_error)
    assert 'collision_reaction: stop' in rig.controller.last_error
    assert rig.controller.followed == 0
    verdict.publish(Bool(data=False))
    assert ros.spin_until(lambda: rig.controller.reaction.in_contact is False)
    motion.publish(trajectory_message(names, [2.0], [q + 0.1]))
    assert ros.spin_until(lambda: rig.controller.followed == 1)
