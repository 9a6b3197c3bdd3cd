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
"""Issue 22, LOW: a 20 MB name in a URDF gives bounded /diagnostics, not a 40 MB message."""

import pytest
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from diagnostic_msgs.msg import DiagnosticArray

from robot_dynamics.errors import MAX_MESSAGE
from robots import joint, link, robot
from ros_graph import make_dynamics

HUGE = 'x' * 20_000_000


def diagnostics_of(ros, node):
    """Spin until ``node`` published a /diagnostics status; return the first."""
    statuses = []
    probe = ros.node('diagnostics_probe')
    name = node.get_fully_qualified_name()
    probe.create_subscription(
        DiagnosticArray, '/diagnostics',
        lambda msg: statuses.extend(s for s in msg.status if s.name.startswith(name)), 10)
    assert ros.spin_until(lambda: bool(statuses), 10.0), 'no /diagnostics'
    return statuses[0]


@pytest.mark.parametrize('where', ['link', 'robot'])
def test_a_20_mb_name_gives_bounded_diagnostics(ros, where):
    if where == 'link':        # a negative mass: "no model: <why naming the link>"
        urdf = robot(link('base'), link(HUGE, m=-1.0), joint('j1', 'base', HUGE))
    else:                      # a good model whose robot name is 20 MB (hardware_id)
        urdf = robot(link('base'), link('l1'), joint('j1', 'base', 'l1')).replace(
            '<robot name="test">', f'<robot name="{HUGE}">')
    node = make_dynamics(ros, urdf, diagnostics_period=0.1)
    status = diagnostics_of(ros, node)
    assert len(status.message) <= MAX_MESSAGE + 60
    assert len(status.hardware_id) <= 260
    assert all(len(v.value) <= MAX_MESSAGE + 60 for v in status.values)
    assert len(node.last_error) <= MAX_MESSAGE + 60
    if where == 'link':
        assert status.message.startswith('no model: model not loaded:')
        assert 'characters cut' in status.message
    else:
        assert node.model is not None and node.model.name == HUGE
