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
"""A push on the simulated arm, without rclpy (contacts/push.py)."""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.contacts import link_wrench_torques
from robot_dynamics.contacts.push import WrenchPush

FORCE = [0.0, 0.0, 10.0, 0.0, 0.0, 0.0]


def test_a_push_acts_from_its_start_until_the_timeout_or_a_zero_wrench():
    model = rd.load_model('ur5')
    q = np.linspace(0.1, 0.6, model.dof)
    push = WrenchPush()
    assert push.take(model, model.tip_link, FORCE, start=1.0) == ''
    assert push.torques(model, q, 0.9, timeout=0.2) is None               # not yet
    np.testing.assert_array_equal(push.torques(model, q, 1.1, timeout=0.2),
                                  link_wrench_torques(model, q, model.tip_link, FORCE,
                                                      frame='link'))
    assert push.values()['external_wrench'].startswith(f'{model.tip_link}: 0, 0, 10')
    assert push.torques(model, q, 1.3, timeout=0.2) is None               # stale: ended
    assert push.values() == {'external_wrench': 'none', 'external_wrenches_received': '1'}
    push.take(model, model.tip_link, FORCE, start=2.0)
    push.take(model, model.tip_link, [0.0] * 6, start=2.01)               # a zero wrench
    assert push.torques(model, q, 2.05, timeout=0.2) is None


def test_a_wrench_on_no_link_or_not_finite_is_refused_and_not_counted():
    model = rd.load_model('ur5')
    push = WrenchPush()
    assert 'is not a link of' in push.take(model, 'nowhere', FORCE, 0.0)
    assert 'NaN or inf' in push.take(model, model.tip_link, [np.nan] + FORCE[1:], 0.0)
    assert push.received == 0 and push.wrench is None
