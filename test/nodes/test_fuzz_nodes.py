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
"""Fuzz the running nodes over DDS: random and mutated messages and parameter changes.

For a fixed, seeded budget (``ROBOT_DYNAMICS_FUZZ_SECONDS``, default 20 s; seed
``ROBOT_DYNAMICS_FUZZ_SEED``) a fuzzer publishes random and mutated ``JointState``,
``JointTrajectory``, ``InertiaStamped`` messages, effort commands, service calls and parameter
changes (over the parameter services) at a dynamics node, a simulation node and a
computed-torque controller. It asserts: no callback exception escapes (the executor would
raise it here), no output is NaN/inf or beyond ``bounds.MAX_OUTPUT``, every OK on
/diagnostics follows a published output within the node's silence window, and afterwards,
with known parameters, a good joint state gets the library's values to 1e-12.
"""

import math
import os
import time
import warnings

import numpy as np
import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Duration, Time
from diagnostic_msgs.msg import DiagnosticStatus
from geometry_msgs.msg import InertiaStamped
from rcl_interfaces.srv import SetParameters
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

import robot_dynamics as rd
from robot_dynamics.model import bounds
from robot_dynamics.nodes.computed_torque_controller import ComputedTorqueController
from robot_dynamics.nodes.conversions import trajectory_message
from robot_dynamics.nodes.dynamics_node import DynamicsNode
from robot_dynamics.nodes.simulation_node import SimulationNode
from ros_graph import Probe, vector

FUZZ_SECONDS = float(os.environ.get('ROBOT_DYNAMICS_FUZZ_SECONDS', '20'))
SEED = int(os.environ.get('ROBOT_DYNAMICS_FUZZ_SEED', '14'))
TOL = 1e-12


def puma():
    """Return the bundled PUMA 560 (position limits), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model('puma560')


class Fuzzer:
    """Seeded generators of hostile values, messages and parameter changes."""

    SCALES = (1e-3, 1.0, 3.0, 1e3, 1e200, 1e308)
    SPECIAL = (math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324)

    def __init__(self, rng, names):
        self.rng = rng
        self.names = list(names)

    def number(self):
        """Return a float: usually moderate, sometimes absurd or not finite."""
        if self.rng.random() < 0.1:
            return float(self.rng.choice(self.SPECIAL))
        return float(self.rng.normal() * self.rng.choice(self.SCALES))

    def numbers(self, count):
        """Return ``count`` numbers as a list (sometimes of a wrong length)."""
        if self.rng.random() < 0.1:
            count = int(self.rng.integers(0, 2 * count + 2))
        return [self.number() for _ in range(count)]

    def joint_names(self):
        """Return the model's names, permuted, with parts missing, repeated or foreign."""
        names = list(self.rng.permutation(self.names))
        roll = self.rng.random()
        if roll < 0.1:
            names = names[:int(self.rng.integers(0, len(names)))]
        elif roll < 0.2:
            names.append(names[0])
        elif roll < 0.3:
            names.append('gripper_finger')
        return names

    def stamp(self, node):
        """Return a stamp: zero, now, a skew, or a negative time."""
        roll = self.rng.random()
        if roll < 0.2:
            return Time()
        if roll < 0.3:
            return Time(sec=int(self.rng.integers(-2 ** 31, 0)), nanosec=0)
        now = node.get_clock().now().nanoseconds
        now += int(self.rng.choice([0, 0, 0, 1e8, -1e9, 1e12]))
        now = max(now, 0)
        return Time(sec=now // 10 ** 9 % 2 ** 31, nanosec=now % 10 ** 9)

    def joint_state(self, node, good_q):
        """Return a random or mutated joint state."""
        names = self.joint_names()
        if self.rng.random() < 0.5:       # mutate a good state
            q = dict(zip(self.names, good_q))
            position = [q.get(name, 0.0) for name in names]
            k = int(self.rng.integers(0, max(len(position), 1)))
            if position:
                position[k] = self.number()
        else:
            position = self.numbers(len(names))
        msg = JointState(name=names, position=position)
        if self.rng.random() < 0.5:
            msg.velocity = self.numbers(len(names))
        if self.rng.random() < 0.2:
            msg.effort = self.numbers(len(names))
        msg.header.stamp = self.stamp(node)
        return msg

    def trajectory(self, node):
        """Return a random trajectory: sizes, times, values."""
        names = self.joint_names()
        msg = JointTrajectory(joint_names=names)
        count = int(self.rng.choice([0, 1, 2, 5, 30]))
        t = 0.0
        with_velocities = self.rng.random() < 0.5
        for _ in range(count):
            t += float(self.rng.choice([0.0, 1e-9, 0.01, 1.0, -0.5]))
            t = max(t, 0.0)
            point = JointTrajectoryPoint(positions=self.numbers(len(names)))
            if with_velocities:
                point.velocities = self.numbers(len(names))
            seconds = int(t)
            point.time_from_start = Duration(sec=seconds, nanosec=int((t - seconds) * 1e9))
            msg.points.append(point)
        msg.header.stamp = self.stamp(node)
        return msg

    def payload(self):
        """Return a random payload: any mass, offset and inertia."""
        msg = InertiaStamped()
        msg.inertia.m = abs(self.number()) if self.rng.random() < 0.7 else self.number()
        msg.inertia.com.x, msg.inertia.com.y, msg.inertia.com.z = (
            self.number() for _ in range(3))
        msg.inertia.ixx, msg.inertia.iyy, msg.inertia.izz = (
            abs(self.number()) for _ in range(3))
        msg.inertia.ixy, msg.inertia.iyz, msg.inertia.ixz = (
            1e-3 * self.number() for _ in range(3))
        return msg

    def parameter(self, choices):
        """Return a random (name, value) among ``choices`` {name: kind}: right or wrong type."""
        name = str(self.rng.choice(sorted(choices)))
        kind = choices[name]
        roll = self.rng.random()
        if roll < 0.1:
            return Parameter(name, value='garbage')
        if kind == 'array':
            return Parameter(name, value=self.numbers(int(self.rng.choice([1, 2, 3, 6]))))
        if kind == 'float':
            return Parameter(name, value=self.number())
        if kind == 'bool':
            return Parameter(name, value=bool(self.rng.random() < 0.5))
        if kind == 'names':
            return Parameter(name, value=self.joint_names())
        return Parameter(name, value=str(self.rng.choice(kind)))


DYNAMICS_PARAMETERS = {
    'gravity': 'array', 'viscous_friction': 'array', 'coulomb_friction': 'array',
    'rotor_inertia': 'array', 'stale_timeout': 'float', 'gravity_compensation': 'bool',
    'joints': 'names', 'fast_path': 'bool', 'solver': ('rnea', 'craig', 'magic', 'renaud'),
    'model': ('puma560', '/etc/passwd', 'two_link'), 'urdf_file': ('/etc/passwd',),
}
SIMULATION_PARAMETERS = {
    'integrator': ('rk4', 'euler', 'bogus', 'semi_implicit_euler', 'implicit'),
    'initial_positions': 'array', 'real_time_factor': 'float', 'command_timeout': 'float',
    'max_energy': 'float', 'lockstep': 'bool',
}
CONTROLLER_PARAMETERS = {'kp': 'array', 'kd': 'array', 'use_feedforward': 'bool'}


def record_health(dynamics):
    """Record, in the node, when it published a complete output set and what health said.

    Returns two lists it fills: monotonic times at which one computation had published every
    output (feed-forward, gravity, mass matrix), and ``(monotonic time, level)`` of each
    health evaluation (the time taken before the node reads its own clock).
    """
    complete_times, statuses, published = [], [], set()
    for name, (publisher, _) in dynamics.outputs.publishers.items():
        publisher.publish = (lambda msg, name=name, original=publisher.publish:
                             (published.add(name), original(msg))[-1])
    compute, health = dynamics._compute_and_publish, dynamics.diagnostics.status

    def computed(*args):
        published.clear()
        result = compute(*args)
        if len(published) == 3:
            complete_times.append(time.monotonic())
        return result

    def judged():
        when = time.monotonic()
        level, message = health()
        statuses.append((when, level))
        return level, message
    dynamics._compute_and_publish, dynamics.diagnostics.status = computed, judged
    return complete_times, statuses


@pytest.mark.timeout(FUZZ_SECONDS + 120)
def test_fuzzed_graph_keeps_nodes_alive_bounded_and_truthful(ros):
    rng = np.random.default_rng(SEED)
    oracle = puma()
    ns = ros.namespace
    dynamics = ros.add(DynamicsNode(namespace=ns, parameter_overrides=[
        Parameter('model', value='puma560'), Parameter('diagnostics_period', value=0.2)]))
    simulation = ros.add(SimulationNode(namespace=ns + '/sim', parameter_overrides=[
        Parameter('model', value='puma560'), Parameter('real_time_factor', value=4.0)]))
    controller = ros.add(ComputedTorqueController(namespace=ns, cli_args=[
        '--ros-args', '-r', 'feedforward_torques:=dynamics_node/feedforward_torques',
        '-r', 'feedforward_joint_states:=dynamics_node/feedforward_joint_states',
        '-r', 'mass_matrix:=dynamics_node/mass_matrix',
        '-r', 'desired_trajectory:=dynamics_node/accepted_trajectory']))
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    node = probe.node
    fuzz = Fuzzer(rng, oracle.joint_names)

    outputs, commands, sim_states = [], [], []
    complete_times, statuses = record_health(dynamics)
    for topic in ('feedforward_torques', 'gravity_torques', 'mass_matrix'):
        node.create_subscription(Float64MultiArray, f'{ns}/dynamics_node/{topic}',
                                 lambda msg: outputs.append(np.array(msg.data)), 100)
    node.create_subscription(Float64MultiArray, f'{ns}/effort_commands',
                             lambda msg: commands.append(np.array(msg.data)), 100)
    node.create_subscription(JointState, f'{ns}/sim/joint_states',
                             lambda msg: sim_states.append(np.array(msg.position)), 100)
    effort = node.create_publisher(Float64MultiArray, f'{ns}/sim/simulation_node/'
                                   'effort_commands', 10)
    clients = {name: node.create_client(SetParameters, f'{ns}/{path}/set_parameters')
               for name, path in (('dynamics', 'dynamics_node'), ('sim', 'sim/simulation_node'),
                                  ('controller', 'computed_torque_controller'))}
    reset = node.create_client(Trigger, f'{ns}/sim/simulation_node/reset')
    pause = node.create_client(SetBool, f'{ns}/sim/simulation_node/pause')
    for client in list(clients.values()) + [reset, pause, probe.reload]:
        assert client.wait_for_service(timeout_sec=10.0)
    choices = {'dynamics': DYNAMICS_PARAMETERS, 'sim': SIMULATION_PARAMETERS,
               'controller': CONTROLLER_PARAMETERS}

    good_q = np.zeros(oracle.dof)
    actions = 0
    end = time.monotonic() + FUZZ_SECONDS
    while time.monotonic() < end:
        roll = rng.random()
        if roll < 0.35:
            probe.joint_states.publish(fuzz.joint_state(node, good_q))
        elif roll < 0.45:
            probe.send_state(oracle.joint_names, good_q)         # good input in between
        elif roll < 0.6:
            probe.trajectory.publish(fuzz.trajectory(node))
        elif roll < 0.7:
            probe.payload.publish(fuzz.payload())
        elif roll < 0.8:
            effort.publish(Float64MultiArray(data=fuzz.numbers(oracle.dof)))
        elif roll < 0.95:
            target = str(rng.choice(sorted(clients)))
            request = SetParameters.Request(parameters=[
                fuzz.parameter(choices[target]).to_parameter_msg()])
            clients[target].call_async(request)
        elif roll < 0.97:
            reset.call_async(Trigger.Request())
        elif roll < 0.98:
            pause.call_async(SetBool.Request(data=bool(rng.random() < 0.3)))
        else:
            probe.reload.call_async(Trigger.Request())
        actions += 1
        ros.spin_for(0.002)
    ros.spin_for(0.5)
    assert actions > 100
    print(f'fuzzer: {actions} actions in {FUZZ_SECONDS} s (seed {SEED}); dynamics node '
          f'dropped {dynamics.dropped}, withheld {dynamics.suppressed} outputs; '
          f'{len(outputs)} outputs checked')

    # Nothing absurd went out.
    for values in outputs:
        assert np.all(np.isfinite(values)) and np.abs(values).max(initial=0) <= \
            bounds.MAX_OUTPUT
    for values in commands + sim_states:
        assert np.all(np.isfinite(values))

    # Diagnostics: every OK followed a complete output set within the silence window (both
    # times taken in the node: no allowance for delivery).
    window = dynamics.diagnostics.silence()
    assert statuses and complete_times, 'the node was not observed'
    for when, level in statuses:
        if level == DiagnosticStatus.OK:
            assert any(when - window <= t <= when for t in complete_times), \
                f'OK at {when} with no complete output set in the {window} s before'

    # With known parameters and inputs, the nodes are exact again.
    reference = {'gravity': list(oracle.gravity), 'joints': list(oracle.joint_names),
                 'viscous_friction': list(oracle.viscous_friction),
                 'coulomb_friction': list(oracle.coulomb_friction),
                 'rotor_inertia': list(oracle.rotor_inertia), 'solver': 'rnea',
                 'gravity_compensation': True, 'stale_timeout': 0.5, 'model': 'puma560'}
    for name, value in reference.items():
        result = dynamics.set_parameters([Parameter(name, value=value)])[0]
        assert result.successful, (name, result.reason)
    payload = InertiaStamped()
    payload.inertia.m, payload.inertia.ixx, payload.inertia.iyy, payload.inertia.izz = (
        1.0, 0.01, 0.01, 0.01)
    probe.payload.publish(payload)
    loaded = oracle.with_payload(1.0, [0, 0, 0], [0.01, 0.01, 0.01, 0, 0, 0])
    hold = np.array([0.1, 0.2, -0.3, 0.1, 0.2, 0.3])
    probe.trajectory.publish(trajectory_message(oracle.joint_names, [3.0], [hold]))  # reached
    # from the state the dynamics node has when it takes it: held once 3 s have passed
    zero = np.zeros(oracle.dof)
    expected_ff = rd.inverse_dynamics(loaded, hold, zero, zero)

    def exact():
        probe.clear()
        q = np.array([0.2, 0.1, -0.4, 0.3, -0.2, 0.1])
        probe.send_state(oracle.joint_names, q)
        if not probe.wait_outputs(timeout=1.0):
            return False
        return (np.allclose(vector(probe.received['gravity_torques'][-1]),
                            rd.gravity_torques(loaded, q), rtol=0, atol=TOL)
                and np.allclose(vector(probe.received['mass_matrix'][-1]),
                                rd.mass_matrix(loaded, q).reshape(-1), rtol=0, atol=TOL)
                and np.allclose(vector(probe.received['feedforward_torques'][-1]),
                                expected_ff, rtol=0, atol=TOL))
    assert ros.spin_until(exact, timeout=20.0), 'the dynamics node is not exact after fuzzing'

    # The simulator recovers with a reset and steps on.
    known = [Parameter('integrator', value='rk4'), Parameter('real_time_factor', value=0.0),
             Parameter('max_energy', value=1e6), Parameter('command_timeout', value=0.5),
             Parameter('lockstep', value=False), Parameter('initial_positions', value=[0.0] * 6)]
    assert all(result.successful for result in simulation.set_parameters(known))
    ros.call(pause, SetBool.Request(data=False))
    assert ros.call(reset, Trigger.Request()).success
    assert ros.spin_until(lambda: simulation.simulator.failed or simulation.sim_time > 0)
    assert not simulation.simulator.failed and simulation.sim_time > 0, simulation.simulator.error
    assert np.all(np.isfinite(simulation.simulator.q))

    # The controller is alive and exact again: with known gains its next command is
    # tau = tau_ff + M(q) (Kp (q_d - q) - Kd qd) on the dynamics node's outputs (Craig 10.41).
    kp, kd = np.full(oracle.dof, 30.0), np.full(oracle.dof, 4.0)
    gains = [Parameter('kp', value=list(kp)), Parameter('kd', value=list(kd)),
             Parameter('use_feedforward', value=True)]
    assert all(result.successful for result in controller.set_parameters(gains))
    q = np.array([0.2, 0.1, -0.4, 0.3, -0.2, 0.1])
    expected_command = expected_ff + rd.mass_matrix(loaded, q) @ (kp * (hold - q))

    def controller_exact():
        commands.clear()
        probe.send_state(oracle.joint_names, q)
        ros.spin_for(0.1)
        scale = np.abs(expected_command).max()
        return any(np.allclose(c, expected_command, rtol=0, atol=TOL * scale) for c in commands)
    assert ros.spin_until(controller_exact, timeout=10.0), \
        f'the controller is not exact after fuzzing (dropped {controller.dropped}: '\
        f'{controller.last_error})'
