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
"""The dynamics node's outputs without ROS (control.outputs) against Pinocchio.

Gravity, mass matrix and the feed-forward of a sampled desired motion on a random 6-joint arm
without friction (Pinocchio's RNEA knows none), gravity held when there is no motion, and
only the wanted outputs computed.
"""

import numpy as np
import pinocchio as pin
import pytest

from robot_dynamics.control import outputs as outputs_module
from robot_dynamics.control.outputs import (LISTENERS_AGE, Listened, OUTPUTS, dynamics_outputs,
                                            library_solver)
from robot_dynamics.control.trajectory import DesiredTrajectory
from robots import pinocchio_configuration, quiet_model_from_urdf, random_model

TOL = 1e-10


@pytest.fixture(scope='module')
def arm():
    """Return a random 6-joint model, revolute and prismatic joints, and Pinocchio's."""
    model = random_model(np.random.default_rng(35), 6, name='outputs')
    urdf = model.to_urdf()
    return quiet_model_from_urdf(urdf), pin.buildModelFromXML(urdf)


def pinocchio_id(pin_model, q, qd, qdd):
    """Return Pinocchio's RNEA torque (n,) for joint values in the model's order."""
    data = pin_model.createData()
    return pin.rnea(pin_model, data, pinocchio_configuration(pin_model, q), qd, qdd)


def test_outputs_agree_with_pinocchio(arm):
    model, pin_model = arm
    rng = np.random.default_rng(1)
    q0, q1 = rng.uniform(-0.5, 0.5, (2, model.dof))
    motion = DesiredTrajectory(10 ** 9, np.array([0.0, 2.0]), np.vstack([q0, q1]),
                               np.zeros((2, model.dof)), np.zeros((2, model.dof)))
    now_ns = 10 ** 9 + 700_000_000                  # 0.7 s into the motion
    q_d, qd_d, qdd_d = motion.sample(now_ns)
    assert np.abs(qdd_d).max() > 0.1               # mid-motion: inertia and Coriolis count
    q = rng.uniform(-0.5, 0.5, model.dof)
    outputs = dynamics_outputs(model, q, OUTPUTS, motion, now_ns)
    zero = np.zeros(model.dof)
    np.testing.assert_allclose(outputs['gravity_torques'], pinocchio_id(pin_model, q, zero, zero),
                               rtol=0, atol=TOL)
    data = pin_model.createData()
    mass = pin.crba(pin_model, data, pinocchio_configuration(pin_model, q))
    np.testing.assert_allclose(outputs['mass_matrix'], np.triu(mass) + np.triu(mass, 1).T,
                               rtol=0, atol=TOL)
    np.testing.assert_allclose(outputs['feedforward_torques'],
                               pinocchio_id(pin_model, q_d, qd_d, qdd_d), rtol=0, atol=TOL)


def test_without_a_motion_the_feedforward_holds_the_arm(arm):
    model, pin_model = arm
    q = np.linspace(-0.4, 0.4, model.dof)
    outputs = dynamics_outputs(model, q, ('feedforward_torques',))
    zero = np.zeros(model.dof)
    np.testing.assert_allclose(outputs['feedforward_torques'],
                               pinocchio_id(pin_model, q, zero, zero), rtol=0, atol=TOL)
    assert 'mass_matrix' not in outputs                  # only what is wanted is computed


def test_the_numpy_solver_is_named_and_the_engine_is_none():
    assert library_solver('rnea') is None and library_solver('generated') is None
    assert library_solver('rnea', fast_path=False) == 'rnea'
    assert library_solver('lagrange_euler') == 'lagrange_euler'


class CountedPublisher:
    """A publisher stand-in that counts how often its subscribers are counted."""

    def __init__(self, subscribers):
        self.subscribers, self.counted = subscribers, 0

    def get_subscription_count(self):
        self.counted += 1
        return self.subscribers


def test_a_yes_is_kept_for_its_age_and_a_no_counted_again(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(outputs_module.time, 'monotonic', lambda: clock[0])
    listened, publisher, other = Listened(), CountedPublisher(0), CountedPublisher(2)
    assert [listened(other) for _ in range(1000)] == [True] * 1000
    assert other.counted == 1
    assert [listened(publisher) for _ in range(3)] == [False] * 3
    assert publisher.counted == 3
    publisher.subscribers = 1                   # a new subscriber: seen at the next call
    assert listened(publisher) is True and publisher.counted == 4
    other.subscribers = 0                       # one that left: served until the yes expires
    clock[0] += LISTENERS_AGE * 0.9
    assert listened(other) is True and other.counted == 1
    clock[0] += LISTENERS_AGE * 0.2
    assert listened(other) is False and other.counted == 2


class WrappedPublisher:
    """rclpy's ``Publisher`` shape: a count behind a lock, the rmw's count on ``handle``."""

    def __init__(self, subscribers):
        self.handle = CountedPublisher(subscribers)

    def get_subscription_count(self):
        raise AssertionError("the wrapper's count was called, not its handle's")


def test_an_rclpy_publisher_is_counted_through_its_handle():
    listened, publisher, silent = Listened(), WrappedPublisher(1), WrappedPublisher(0)
    assert listened(publisher) is True and publisher.handle.counted == 1
    assert [listened(silent) for _ in range(2)] == [False, False]
    assert silent.handle.counted == 2
