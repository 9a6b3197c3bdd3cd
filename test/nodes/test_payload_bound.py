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
"""A payload no arm carries is refused by the dynamics node, relative to the arm's own mass.

The trial: 1000 kg on a UR5 (17 kg of moving links, rated 5 kg) was applied with an INFO
line; only the generic 1e4 kg bound applied. Now ``MAX_PAYLOAD_RATIO`` (5x the moving
links) refuses it with the field and the fix, and the model stays as it was.
"""

import numpy as np
import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from geometry_msgs.msg import InertiaStamped

from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds
from robots import quiet_bundled
from ros_graph import (answers_like, arm3_model_fixture, arm3_urdf_fixture,  # noqa: F401
                       dropped_with, make_dynamics, Probe)


def test_payload_bound_is_relative_to_the_arm():
    ur5 = quiet_bundled('ur5')
    with pytest.raises(PlausibilityError) as caught:
        bounds.check_payload_on(ur5, 1000.0)
    assert str(caught.value) == (
        f'payload mass 1000 kg is {1000.0 / ur5.total_mass:.3g}x the mass of the arm\'s moving '
        f'links ({ur5.total_mass:.4g} kg), more than 5x: no arm carries that; check the mass '
        '(kg) and that the payload is sent to the right robot')
    bounds.check_payload_on(ur5, 5.0)                                # its rated payload
    bounds.check_payload_on(ur5, 5.0 * ur5.total_mass)               # the bound itself
    with pytest.raises(PlausibilityError):
        bounds.check_payload_on(ur5, 5.0 * ur5.total_mass * (1 + 1e-12))
    massless = ur5.replace(mass=np.zeros(ur5.dof), inertia=np.zeros((ur5.dof, 3, 3)))
    bounds.check_payload_on(massless, 1000.0)                        # no reference


def test_node_refuses_a_payload_five_times_the_arm(ros, arm3_urdf, arm3_model):
    dynamics = make_dynamics(ros, arm3_urdf)
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    msg = InertiaStamped()
    msg.inertia.m = 5.0 * arm3_model.total_mass * 1.01
    msg.inertia.ixx = msg.inertia.iyy = msg.inertia.izz = 0.01
    dropped_with(ros, dynamics, lambda: probe.payload.publish(msg),
                 'the mass of the arm\'s moving links')
    answers_like(probe, arm3_model)
