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
"""The loader's shortcuts for a chain joint's numbers give what the checked reads give.

:meth:`Joint.chain_numbers` against :meth:`Joint.limits`, :meth:`Joint.rate_limit` and
:meth:`Joint.attribute`, or None where they must decide; and an inertial whose moment needs
the checked read still names its mass's own text.
"""

import itertools

import pytest

from robot_dynamics import RobotModel
from robot_dynamics.errors import URDFError
from robot_dynamics.io.urdf_elements import Joint
from robot_dynamics.io.urdf_xml import parse_full
from test_urdf_plain_numbers import same


LIMITS = ['', '<limit lower="-1" upper="2" effort="3" velocity="4"/>', '<limit/>',
          '<limit lower="1" upper="-1"/>', '<limit lower="0" upper="0" effort="0" velocity="0"/>',
          '<limit upper="0.5"/>', '<limit lower="nan" upper="1"/>', '<limit lower="-inf"/>',
          '<limit effort="-1"/>', '<limit velocity="nan"/>', '<limit velocity="-0.0"/>',
          '<limit lower="${a}" upper="1"/>', '<limit lower=" 1" upper="2 "/>',
          '<limit effort="1,5"/>']
DYNAMICS = ['', '<dynamics damping="0.5" friction="1.5"/>', '<dynamics friction="-2"/>',
            '<dynamics damping="x"/>', '<dynamics/>']


def checked(joint):
    """Return the checked reads of ``joint`` in chain_numbers' order, or None if one raises."""
    try:
        return (*joint.limits(), joint.rate_limit('velocity'), joint.rate_limit('effort'),
                joint.attribute('dynamics', 'damping', 0.0),
                joint.attribute('dynamics', 'friction', 0.0))
    except URDFError:
        return None


@pytest.mark.parametrize('kind', ['revolute', 'continuous', 'prismatic'])
def test_chain_numbers_are_the_checked_reads_or_none(kind):
    found = 0
    for limit, dynamics in itertools.product(LIMITS, DYNAMICS):
        element = parse_full(f'<joint name="j" type="{kind}">{limit}{dynamics}</joint>')
        fast = Joint(element, 'j', kind, 'a', 'b').chain_numbers()
        slow = checked(Joint(element, 'j', kind, 'a', 'b'))
        if fast is not None:                       # None: the checked reads decide
            found += 1
            assert same(list(fast), list(slow)), (limit, dynamics)
            assert all(isinstance(value, float) for value in fast)
        elif '$' not in limit + dynamics and ',' not in limit and 'x' not in dynamics:
            assert slow is None, (limit, dynamics)  # only a refused or unplain number
    assert found > len(LIMITS) * len(DYNAMICS) // 2


def test_a_moment_read_on_the_checked_path_leaves_the_mass_text_to_the_spaced_note():
    """A tab (``&#9;``) after a moment takes the checked path; the mass's own space is named."""
    urdf = ('<robot name="r"><link name="a"/><link name="b"><inertial><mass value="2 "/>'
            '<inertia ixx="0.1" iyy="0.1" izz="0.1&#9;" ixy="0" ixz="0" iyz="0"/></inertial>'
            '</link><joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    model = RobotModel.from_urdf(urdf)
    spaced = [note for note in model.notes if 'a space after the number' in note]
    assert len(spaced) == 1 and '<mass value="2 ">' in spaced[0]
    assert model.mass.tolist() == [2.0]
