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
"""A careless or hostile graph cannot crash or mislead the simulation node (issue 14).

Split from ``test_adversarial.py`` (the dynamics node's attacks); rows of docs/robustness.md.
"""

import math

import numpy as np
import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from diagnostic_msgs.msg import DiagnosticStatus
from rclpy.parameter import Parameter
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import Trigger

from robot_dynamics.nodes.simulation_node import SimulationNode
from ros_graph import arm3_model_fixture, arm3_urdf_fixture  # noqa: F401 (fixtures)
from ros_graph import LogLines, drop_effort_command, make_simulation


def test_simulation_initial_positions_validated_and_reset_survives(ros, arm3_urdf):
    sim = make_simulation(ros, arm3_urdf)
    for value, reason in (([math.nan, 0.0, 0.0], 'finite'), ([1e300, 0.0, 0.0], 'outside'),
                          ([0.0], '3 finite values')):
        result = sim.set_parameters([Parameter('initial_positions', value=value)])[0]
        assert not result.successful and reason in result.reason, result.reason
    probe = ros.node('resetter')
    reset = probe.create_client(Trigger, f'{ros.namespace}/simulation_node/reset')
    response = ros.call(reset, Trigger.Request())
    assert response.success, response.message
    assert ros.spin_until(lambda: sim.simulator.failed or sim.sim_time > 0)
    assert not sim.simulator.failed and sim.sim_time > 0 and np.all(np.isfinite(sim.simulator.q))


def test_simulation_reset_failure_is_a_reply_not_an_exit(ros, arm3_urdf, monkeypatch):
    sim = make_simulation(ros, arm3_urdf)

    def broken():
        raise RuntimeError('injected failure')
    monkeypatch.setattr(sim.simulator, 'reset', broken)
    probe = ros.node('resetter')
    reset = probe.create_client(Trigger, f'{ros.namespace}/simulation_node/reset')
    response = ros.call(reset, Trigger.Request())
    assert not response.success and 'injected failure' in response.message
    before = sim.sim_time
    assert ros.spin_until(lambda: sim.sim_time > before), 'the simulation stopped'


def test_simulation_bogus_integrator_refused_at_start_and_run_time(ros, arm3_urdf):
    with pytest.raises(ValueError, match="integrator: unknown 'bogus'"):
        make_simulation(ros, arm3_urdf, integrator='bogus')
    sim = make_simulation(ros, arm3_urdf)
    result = sim.set_parameters([Parameter('integrator', value='bogus')])[0]
    assert not result.successful and 'integrator: unknown' in result.reason
    assert ros.spin_until(lambda: sim.sim_time > 0)


def test_simulation_gravity_defaults_to_the_models(ros):
    sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='two_link_dh'), Parameter('real_time_factor', value=0.0)]))
    np.testing.assert_array_equal(sim.model.gravity, [0.0, -9.81, 0.0])


def test_repeated_name_in_joint_commands_dropped(ros, arm3_urdf, arm3_model):
    sim = make_simulation(ros, arm3_urdf, gravity=[0.0, 0.0, 0.0])
    node = ros.node('commander')
    publisher = node.create_publisher(JointState, f'{ros.namespace}/simulation_node/'
                                      'joint_commands', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() > 0)
    names = list(arm3_model.joint_names)
    publisher.publish(JointState(name=names + names[:1], effort=[1.0, 2.0, 3.0, 4.0]))
    assert ros.spin_until(lambda: sim.dropped == 1)
    assert sim.simulator.command_time is None


def test_simulation_diagnostics_error_while_running_silent(ros, arm3_urdf, monkeypatch):
    """A simulator that stops stepping (here: stepping patched out) is ERROR, not OK."""
    sim = make_simulation(ros, arm3_urdf)
    ros.spin_for(0.1)
    assert sim.health()[0] == DiagnosticStatus.OK
    monkeypatch.setattr(sim.simulator, 'advance', lambda steps: False)
    ros.spin_for(1.3)                        # the silence window is max(1 s, 3 periods)
    level, message = sim.health()
    assert level == DiagnosticStatus.ERROR and 'nothing published' in message, message
    monkeypatch.undo()
    ros.spin_for(0.2)
    assert sim.health()[0] == DiagnosticStatus.OK


def test_simulation_absurd_effort_command_dropped(ros, arm3_urdf):
    """1e300 N m on a joint without an effort limit used to blow the simulation up."""
    sim = drop_effort_command(ros, arm3_urdf, [1e300, 0.0, 0.0])
    assert 'beyond' in sim.last_dropped, sim.last_dropped
    ros.spin_for(0.1)
    assert not sim.simulator.failed and np.all(np.isfinite(sim.simulator.q))


def test_simulation_logs_each_reason_for_a_drop(ros, arm3_urdf):
    """Review: one call site throttled by rclpy hid a second reason behind the first."""
    sim = make_simulation(ros, arm3_urdf, gravity=[0.0, 0.0, 0.0])
    sim._log.logger = log = LogLines()
    lines = log.lines
    publisher = ros.node('commander').create_publisher(
        Float64MultiArray, f'{ros.namespace}/simulation_node/effort_commands', 10)
    assert ros.spin_until(lambda: publisher.get_subscription_count() > 0)
    for values in ([1e300, 0.0, 0.0], [1e300, 0.0, 0.0], [1.0, 2.0]):
        dropped = sim.dropped
        publisher.publish(Float64MultiArray(data=values))
        assert ros.spin_until(lambda: sim.dropped > dropped)
    assert len(lines) == 2, lines          # the repeat of the first reason within 1 s: not logged
    assert 'beyond the plausible' in lines[0] and lines[1] == sim.last_dropped \
        == 'effort_commands dropped: 2 values for 3 joints', lines
