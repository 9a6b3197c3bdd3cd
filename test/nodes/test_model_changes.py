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
"""Model changes at run time: the ``model`` parameter, the ``robot_description`` topic.

Issue 20.7: setting ``model`` was accepted and applied only after a reload. Issue 22.6: any
publisher on ``robot_description`` swapped the model with an INFO line, and 11 MB URDFs
alternating at 1 Hz held the executor (95 % of the joint states unanswered).
"""

import numpy as np
import pytest

import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from rclpy.parameter import Parameter  # noqa: E402
from std_msgs.msg import String  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.nodes.qos import LATCHED  # noqa: E402
from robot_dynamics.nodes.dynamics_node import DynamicsNode  # noqa: E402
from robots import quiet_bundled, quiet_model_from_urdf, random_arm_urdf  # noqa: E402
from ros_graph import Probe, make_dynamics, vector  # noqa: E402
from urdf_trees import TORSO_ARM_URDF  # noqa: E402

TOL = 1e-10


def gravity_answer(ros, probe, model, q, dynamics):
    """Send a state; return the next gravity torques."""
    probe.clear()
    probe.send_state(model.joint_names, q)
    assert probe.wait_outputs(), dynamics.last_error
    return vector(probe.received['gravity_torques'][-1])


def test_setting_model_applies_it_at_once(ros):
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='puma560')]))
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    result = dynamics.set_parameters([Parameter('model', value='stanford')])[0]
    assert result.successful, result.reason
    stanford = quiet_bundled('stanford')
    assert dynamics.model.name == stanford.name          # no ~/reload_model needed
    lower = np.where(np.isfinite(stanford.lower_limit), stanford.lower_limit, -1.0)
    upper = np.where(np.isfinite(stanford.upper_limit), stanford.upper_limit, 1.0)
    q = lower + (upper - lower) * np.linspace(0.3, 0.7, stanford.dof)
    np.testing.assert_allclose(gravity_answer(ros, probe, stanford, q, dynamics),
                               rd.gravity_torques(stanford, q), rtol=0, atol=TOL)


def test_a_model_that_does_not_load_is_refused_with_the_reason(ros):
    urdf = random_arm_urdf(45, 3, 'arm3')
    dynamics = make_dynamics(ros, urdf)
    result = dynamics.set_parameters([Parameter('robot_description',
                                                value='<robot name="x"><link/></robot>')])[0]
    assert not result.successful
    assert 'robot_description: the model does not load, nothing changed' in result.reason
    assert dynamics.get_parameter('robot_description').value == urdf
    assert dynamics.model.name == 'arm3'


def test_robot_description_changes_warn_and_are_rate_limited(ros):
    first, second = random_arm_urdf(47, 3, 'arm3'), random_arm_urdf(48, 3, 'arm3')
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace))
    dynamics._descriptions.interval = 1.0
    warnings = []
    original = dynamics.get_logger().warning

    def record(message, **kwargs):
        warnings.append(message)
        return original(message, **kwargs)
    dynamics.get_logger().warning = record
    publisher = ros.node('description').create_publisher(
        String, f'{ros.namespace}/robot_description', LATCHED)
    publisher.publish(String(data=first))
    assert ros.spin_until(lambda: dynamics.model is not None, 10.0)
    for k in range(7):                         # alternating at 20 Hz for 0.35 s
        publisher.publish(String(data=second if k % 2 == 0 else first))
        ros.spin_for(0.05)
    parsed_early = dynamics._descriptions.parsed
    assert ros.spin_until(lambda: not dynamics._descriptions.busy(), 10.0)
    assert parsed_early <= 2                   # the first, and at most one more so soon
    assert dynamics._descriptions.parsed <= 3  # the waiting ones collapse into the latest
    changes = [w for w in warnings if 'model changed by the robot_description topic' in w]
    assert changes and 'masses' in changes[0], warnings
    assert dynamics._urdf_from_topic == second  # the last one published wins
    assert dynamics.model.mass == pytest.approx(quiet_model_from_urdf(second).mass, abs=0)
    publisher.publish(String(data=second))     # a republished copy: not parsed again
    ros.spin_for(0.3)
    assert not dynamics._descriptions.busy() and dynamics._descriptions.parsed <= 3


def test_urdf_friction_parameter_leaves_the_tags_out_and_back_in(ros):
    """Issue 20.8: the node parameter urdf_friction (default true), applied at once."""
    dynamics = make_dynamics(ros, TORSO_ARM_URDF, urdf_friction=False)
    assert not dynamics.model.viscous_friction.any()
    assert dynamics.get_parameter('urdf_friction').value is False
    assert dynamics.set_parameters([Parameter('urdf_friction', value=True)])[0].successful
    np.testing.assert_array_equal(dynamics.model.viscous_friction, [1000.0, 0.5])
    default = make_dynamics(ros, TORSO_ARM_URDF)
    np.testing.assert_array_equal(default.model.coulomb_friction, [0.0, 1.5])


def test_chain_selection_applies_to_a_bundled_model(ros):
    """Trial 2: tip_link/base_link were dropped for ``model`` (set succeeded, full model kept)."""
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='ur5')]))
    assert dynamics.model.dof == 6
    result = dynamics.set_parameters([Parameter('tip_link', value='nonexistent')])[0]
    assert not result.successful
    assert "tip_link: unknown link 'nonexistent'" in result.reason, result.reason
    assert "'wrist_1_link'" in result.reason and "or '' for the default" in result.reason
    assert dynamics.get_parameter('tip_link').value == '' and dynamics.model.dof == 6
    result = dynamics.set_parameters([Parameter('base_link', value='wrist_3_link')])[0]
    assert not result.successful and 'has no moving joint' in result.reason, result.reason
    assert dynamics.get_parameter('base_link').value == ''
    result = dynamics.set_parameters([Parameter('tip_link', value='forearm_link')])[0]
    assert result.successful, result.reason
    oracle = quiet_bundled('ur5', tip_link='forearm_link')
    assert dynamics.model.joint_names == oracle.joint_names and oracle.dof == 3
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    q = np.array([0.3, -0.7, 1.1])
    np.testing.assert_allclose(gravity_answer(ros, probe, oracle, q, dynamics),
                               rd.gravity_torques(oracle, q), rtol=0, atol=TOL)


def test_chain_selection_on_a_dh_model_is_refused_with_the_fix(ros):
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='puma560_dh')]))
    result = dynamics.set_parameters([Parameter('tip_link', value='link3')])[0]
    assert not result.successful
    assert "tip_link: model 'puma560_dh' is a Denavit-Hartenberg table" in result.reason
    assert "set tip_link to ''" in result.reason and dynamics.model.dof == 6
