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
"""A wrench at a named link.

Its Jacobian against Pinocchio's, its sign against the tool wrench's, and the estimate back
from joint torques with its observability.
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.contacts import external_wrench, link_jacobian, link_wrench_torques
from robots import pinocchio_configuration, random_model, random_state


def pinocchio_point_jacobian(model, q, link, point, local):
    """Pinocchio's frame Jacobian of ``point`` on ``link`` ([v; ω]; world or local axes)."""
    pin_model = pin.buildModelFromXML(model.to_urdf())
    parent = pin_model.frames[pin_model.getFrameId(link)]
    frame = pin.Frame('contact', parent.parentJoint, pin_model.getFrameId(link),
                      parent.placement * pin.SE3(np.eye(3), np.asarray(point, float)),
                      pin.FrameType.OP_FRAME)
    index = pin_model.addFrame(frame)
    data = pin_model.createData()
    pin.computeJointJacobians(pin_model, data, pinocchio_configuration(pin_model, q))
    pin.updateFramePlacements(pin_model, data)
    axes = pin.ReferenceFrame.LOCAL if local else pin.ReferenceFrame.LOCAL_WORLD_ALIGNED
    return pin.getFrameJacobian(pin_model, data, index, axes)


@pytest.mark.parametrize('n', [3, 7])
@pytest.mark.parametrize('frame', ['base', 'link'])
def test_link_jacobian_equals_pinocchio(n, frame):
    rng = np.random.default_rng(40 + n)
    model = rd.RobotModel.from_urdf(random_model(rng, n, prismatic_fraction=0.3).to_urdf())
    q, _, _ = random_state(rng, n)
    for body in range(n):
        point = rng.uniform(-0.2, 0.2, 3)
        ours = link_jacobian(model, q, model.link_names[body], point, frame)
        theirs = pinocchio_point_jacobian(model, q, model.link_names[body], point,
                                          frame == 'link')
        assert np.abs(ours - theirs).max() <= 1e-12 * max(1.0, np.abs(theirs).max())
        assert not np.any(ours[:, body + 1:])            # joints beyond the link feel nothing


def test_a_push_on_the_tool_is_the_opposite_of_the_tool_wrench():
    """Check a push w on the tool is the tool wrench f_tip = -w.

    The tool's on the environment: ``τ_ext = ᴺJᵀ w = -ᴺJᵀ f_tip``, and the arm accelerates as
    under ``τ + τ_ext``.
    """
    model = rd.load_model('panda')
    q = np.array([0.3, -0.4, 0.2, -2.1, 0.5, 1.7, -0.6])
    qd = np.linspace(-0.5, 0.5, 7)
    w = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.3])
    push = link_wrench_torques(model, q, model.tip_link, w, frame='link')
    assert np.allclose(push, -rd.static_torques(model, q, -w), rtol=0, atol=1e-12)
    tau = rd.gravity_torques(model, q)
    assert np.allclose(rd.forward_dynamics(model, q, qd, tau + push),
                       rd.forward_dynamics(model, q, qd, tau, f_tip=-w), rtol=0, atol=1e-10)
    base = link_wrench_torques(model, q, model.tip_link, w, frame='base')
    J = rd.jacobian(model, q)                             # the tool's, base axes
    assert np.allclose(base, J.T @ w, rtol=0, atol=1e-12)


def test_an_observable_wrench_is_recovered_exactly():
    model = rd.load_model('panda')
    rng = np.random.default_rng(5)
    q = rng.uniform(-1, 1, (4, 7))
    w = rng.normal(size=(4, 6))
    tau = link_wrench_torques(model, q, 'panda_link7', w, point=[0.01, 0.02, 0.1])
    estimate = external_wrench(model, q, tau, 'panda_link7', point=[0.01, 0.02, 0.1])
    assert np.all(estimate.observable) and np.all(estimate.rank == 6)
    assert np.abs(estimate.wrench - w).max() < 1e-9
    assert np.abs(estimate.residual).max() < 1e-12
    assert estimate.joints == model.joint_names
    one = external_wrench(model, q[0], tau[0], 'panda_link7', point=[0.01, 0.02, 0.1])
    assert one.observable is True and np.allclose(one.wrench, w[0], atol=1e-9)


def test_a_wrench_on_a_near_link_is_flagged_unobservable_and_least_norm():
    """Check joints 1-4 feel four components of a wrench on link 4.

    The estimate explains their torques, is zero along the two directions they cannot feel,
    and says so.
    """
    model = rd.load_model('panda')
    q = np.array([0.3, -0.4, 0.2, -2.1, 0.5, 1.7, -0.6])
    w = np.array([3.0, -2.0, 5.0, 0.4, -0.1, 0.3])
    tau = link_wrench_torques(model, q, 'panda_link4', w)
    assert not np.any(tau[4:])
    estimate = external_wrench(model, q, tau, 'panda_link4')
    assert estimate.rank == 4 and estimate.observable is False
    assert estimate.unobservable.shape == (2, 6)
    assert 'not observable' in estimate.message and 'panda_joint4' in estimate.message
    J = link_jacobian(model, q, 'panda_link4')
    assert np.abs(J.T @ estimate.wrench - tau).max() < 1e-12
    assert np.abs(estimate.unobservable @ estimate.wrench).max() < 1e-12
    assert np.abs(J.T @ estimate.unobservable.T).max() < 1e-12   # directions no joint feels
    # a torque on joint 6 is no wrench on link 4: it stays in the residual
    other = tau + np.r_[0, 0, 0, 0, 0, 1.5, 0]
    assert np.allclose(external_wrench(model, q, other, 'panda_link4').residual,
                       [0, 0, 0, 0, 0, 1.5, 0], atol=1e-12)


def test_a_point_force_on_a_near_link():
    model = rd.load_model('panda')
    q = np.array([0.3, -0.4, 0.2, -2.1, 0.5, 1.7, -0.6])
    point, force = [0.05, 0.08, -0.04], np.array([10.0, -4.0, 6.0])
    tau = link_wrench_torques(model, q, 'panda_link4', np.r_[force, 0, 0, 0], point=point)
    estimate = external_wrench(model, q, tau, 'panda_link4', point=point, force_only=True)
    assert estimate.observable and np.allclose(estimate.wrench, np.r_[force, 0, 0, 0],
                                               atol=1e-9)
    assert estimate.message.startswith("the force at 'panda_link4' is observable")


def test_bad_links_frames_and_points_are_named():
    model = rd.load_model('panda')
    q = np.zeros(7)
    with pytest.raises(ValueError, match=r"link: 'gripper' is not a link of model 'panda'; "
                                         r"use one of \['panda_link1'"):
        link_wrench_torques(model, q, 'gripper', np.zeros(6))
    with pytest.raises(ValueError, match="link: 'panda_link0'.*the base 'panda_link0' does "
                                         'not move'):
        link_jacobian(model, q, 'panda_link0')
    with pytest.raises(ValueError, match="frame: 'world'"):
        link_jacobian(model, q, 'panda_link3', frame='world')
    with pytest.raises(ValueError, match='point: expected 3 finite numbers'):
        link_jacobian(model, q, 'panda_link3', point=[0, 0])
    with pytest.raises(ValueError, match=r'wrench: expected shape \(6,\)'):
        link_wrench_torques(model, q, 'panda_link3', np.zeros(3))
