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
"""Test helpers for the node tests: a probe node around one dynamics node, shared fixtures.

A test module imports the fixtures it uses (``arm3_urdf_fixture`` gives it ``arm3_urdf``).
"""

import warnings

import numpy as np
import pytest
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import InertiaStamped
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory

import robot_dynamics as rd
from robot_dynamics.nodes import bringup
from robot_dynamics.nodes.computed_torque_controller import ComputedTorqueController
from robot_dynamics.nodes.dynamics_node import DynamicsNode, LATCHED
from robot_dynamics.nodes.simulation_node import SimulationNode
from robots import quiet_model_from_urdf, random_arm_urdf

TOL = 1e-12     # a node's outputs against the library's values (the same arithmetic)


@pytest.fixture(scope='module', name='arm3_urdf')
def arm3_urdf_fixture():
    """Return a 3-joint random arm (no limits) as URDF."""
    return random_arm_urdf(43, 3, 'arm3')


@pytest.fixture(scope='module', name='arm3_model')
def arm3_model_fixture(arm3_urdf):
    """Return the library's model of the URDF: the oracle."""
    return quiet_model_from_urdf(arm3_urdf)


class Probe:
    """A test node that publishes inputs to and records the outputs of one dynamics node."""

    def __init__(self, ros, target='dynamics_node'):
        self.ros = ros
        self.node = ros.node('probe')
        base = f'{ros.namespace}/{target}'
        self.joint_states = self.node.create_publisher(JointState, 'joint_states',
                                                       qos_profile_sensor_data)
        self.trajectory = self.node.create_publisher(JointTrajectory,
                                                     f'{base}/desired_trajectory', LATCHED)
        self.payload = self.node.create_publisher(InertiaStamped, f'{base}/payload', 10)
        self.received = {}
        for topic, kind in (('feedforward_torques', Float64MultiArray),
                            ('gravity_torques', Float64MultiArray),
                            ('mass_matrix', Float64MultiArray),
                            ('feedforward_joint_states', JointState),
                            ('gravity_joint_states', JointState)):
            self.received[topic] = []
            self.node.create_subscription(kind, f'{base}/{topic}',
                                          self.received[topic].append, 10)
        self.enable_gravity = self.node.create_client(SetBool,
                                                      f'{base}/enable_gravity_compensation')
        self.reload = self.node.create_client(Trigger, f'{base}/reload_model')

    def wait_connected(self, dynamics):
        """Spin until the dynamics node has discovered the probe's joint_states publisher."""
        gravity, _ = dynamics.outputs.publishers['gravity_torques']
        assert self.ros.spin_until(lambda: self.joint_states.get_subscription_count() > 0
                                   and gravity.get_subscription_count() > 0)

    def clear(self):
        """Forget everything received so far."""
        for values in self.received.values():
            values.clear()

    def send_state(self, names, position, velocity=None, effort=None, stamp=True):
        """Publish one JointState (stamped now unless ``stamp`` is False or a Time)."""
        msg = JointState(name=list(names), position=[float(v) for v in position])
        if velocity is not None:
            msg.velocity = [float(v) for v in velocity]
        if effort is not None:
            msg.effort = [float(v) for v in effort]
        if stamp is True:
            msg.header.stamp = self.node.get_clock().now().to_msg()
        elif stamp:
            msg.header.stamp = stamp
        self.joint_states.publish(msg)

    def wait_outputs(self, count=1, timeout=5.0):
        """Spin until ``count`` messages arrived on every output topic."""
        return self.ros.spin_until(
            lambda: all(len(v) >= count for v in self.received.values()), timeout)


def make_dynamics(ros, urdf, **parameters):
    """Create a DynamicsNode in the test namespace with ``robot_description`` = ``urdf``."""
    overrides = [Parameter('robot_description', value=urdf)]
    overrides += [Parameter(k, value=v) for k, v in parameters.items()]
    return ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=overrides))


def make_simulation(ros, urdf, **parameters):
    """Create a SimulationNode on ``urdf`` in the test namespace, running as fast as possible."""
    overrides = [Parameter('robot_description', value=urdf),
                 Parameter('real_time_factor', value=0.0)]
    overrides += [Parameter(k, value=v) for k, v in parameters.items()]
    return ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=overrides))


def drop_effort_command(ros, urdf, values):
    """Command a weightless 3-joint simulation 1, 2, 3 N m, then ``values``: return the node.

    The bad command must be dropped (counted), the good one kept, the state finite.
    """
    sim = make_simulation(ros, urdf, gravity=[0.0, 0.0, 0.0])
    publisher = ros.node('commander').create_publisher(
        Float64MultiArray, f'{ros.namespace}/simulation_node/effort_commands', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() > 0)
    publisher.publish(Float64MultiArray(data=[1.0, 2.0, 3.0]))
    assert ros.spin_until(lambda: sim.simulator.command_time is not None)
    publisher.publish(Float64MultiArray(data=values))
    assert ros.spin_until(lambda: sim.dropped == 1)
    np.testing.assert_array_equal(sim.simulator.command, [1.0, 2.0, 3.0])
    assert not sim.simulator.failed and np.all(np.isfinite(sim.simulator.q))
    return sim


def vector(msg):
    """Float64MultiArray data as an array."""
    return np.array(msg.data)


class LogLines:
    """A logger that records the lines it is asked to write, and in ``levels`` their levels."""

    def __init__(self):
        self.lines, self.levels = [], []

    def _write(self, level, text):
        self.lines.append(text)
        self.levels.append(level)

    def info(self, text):
        self._write('INFO', text)

    def warning(self, text):
        self._write('WARN', text)

    def error(self, text):
        self._write('ERROR', text)


def dropped_with(ros, node, publish, reason):
    """Publish one bad input; it must be counted as dropped with ``reason`` in last_error."""
    before = node.dropped
    publish()
    assert ros.spin_until(lambda: node.dropped > before), 'the bad input was not dropped'
    assert reason in node.last_error, node.last_error


def bundled(ros, name, **parameters):
    """Start a dynamics node on a bundled model; return it and a connected probe."""
    overrides = [Parameter('model', value=name)]
    overrides += [Parameter(k, value=v) for k, v in parameters.items()]
    node = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=overrides))
    probe = Probe(ros)
    probe.wait_connected(node)
    return node, probe


def answers_like(probe, model, q=None, feedforward=None):
    """Send a good state; check gravity, mass matrix and feed-forward against the library."""
    q = np.linspace(-0.4, 0.5, model.dof) if q is None else q
    probe.clear()
    probe.send_state(model.joint_names, q)
    assert probe.wait_outputs(), 'the node no longer answers'
    np.testing.assert_allclose(vector(probe.received['gravity_torques'][0]),
                               rd.gravity_torques(model, q), rtol=0, atol=TOL)
    np.testing.assert_allclose(vector(probe.received['mass_matrix'][0]),
                               rd.mass_matrix(model, q).reshape(-1), rtol=0, atol=TOL)
    expected = rd.gravity_torques(model, q) if feedforward is None else feedforward
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]), expected,
                               rtol=0, atol=TOL)


class Diagnostics:
    """Record the /diagnostics statuses of one node."""

    def __init__(self, probe, node, suffix):
        self.name = f'{node.get_fully_qualified_name()}: {suffix}'
        self.statuses = []
        probe.node.create_subscription(DiagnosticArray, '/diagnostics', self._on, 50)

    def _on(self, msg):
        self.statuses += [s for s in msg.status if s.name == self.name]

    def last(self):
        """Return the last status received, or None."""
        return self.statuses[-1] if self.statuses else None


class ControllerRig:
    """A computed-torque controller fed by hand: dynamics outputs and joint states."""

    def __init__(self, ros, **parameters):
        self.ros = ros
        overrides = [Parameter(k, value=v) for k, v in parameters.items()]
        self.controller = ros.add(ComputedTorqueController(namespace=ros.namespace,
                                                           parameter_overrides=overrides))
        node = ros.node('rig')
        self.joint_states = node.create_publisher(JointState, 'joint_states',
                                                  qos_profile_sensor_data)
        self.output_names = node.create_publisher(JointState, 'feedforward_joint_states', 10)
        self.feedforward = node.create_publisher(Float64MultiArray, 'feedforward_torques', 10)
        self.mass = node.create_publisher(Float64MultiArray, 'mass_matrix', 10)
        self.trajectory = node.create_publisher(JointTrajectory, 'desired_trajectory', LATCHED)
        self.commands = []
        node.create_subscription(Float64MultiArray, 'effort_commands',
                                 lambda msg: self.commands.append(np.array(msg.data)), 10)
        assert ros.spin_until(lambda: self.mass.get_subscription_count() > 0
                              and self.joint_states.get_subscription_count() > 0)

    def step(self, names, q, mass):
        """Send a joint state then the mass matrix (one control step).

        The mass matrix goes once the controller has taken the state, and the step returns
        once it has taken the mass matrix (delayed callbacks on a loaded machine made a mass
        matrix command the state before).
        """
        controller, arrived = self.controller, self.controller.inputs.last
        before = (arrived['joint_states'], controller.ignored)
        self.joint_states.publish(JointState(name=list(names), position=list(q),
                                             velocity=[0.0] * len(q)))
        if controller.joint_names:        # else it takes no state: nothing to wait for
            self.ros.spin_until(lambda: (arrived['joint_states'], controller.ignored) != before)
        before = arrived['mass_matrix']
        self.mass.publish(Float64MultiArray(data=list(np.asarray(mass).reshape(-1))))
        self.ros.spin_until(lambda: arrived['mass_matrix'] != before)
        self.ros.spin_for(0.05)


def demo_with(observer_class, robot='puma560', wall_timeout=90.0, until=None, simulation=None):
    """Run a short one-process demo of ``robot`` with an ``observer_class`` node beside it.

    ``observer_class(context, namespace)`` has a ``node``; returns the demo's result and the
    observer. ``until(observer)``: the demo goes on after its motion until it is true (within
    ``wall_timeout``, else ``TimeoutError``). ``simulation``: simulation_node parameters.
    """
    observers = []

    def factory(context, namespace):
        observers.append(observer_class(context, namespace))
        return observers[-1].node

    short = {'trajectory_publisher': {'moves': 2, 'move_time': 0.6, 'start_delay': 0.1},
             'simulation_node': dict(simulation or {})}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        result = bringup.run_demo(
            robot, None, True, extra=short, wall_timeout=wall_timeout, observers=[factory],
            until=None if until is None else lambda: bool(observers) and until(observers[0]))
    return result, observers[0]
