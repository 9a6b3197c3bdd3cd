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
"""A thin link's inertia written to a few digits: Pinocchio loads it, so must the package.

Red-team finding: a rod (one principal moment zero) whose six entries an exporter wrote to 4
significant digits has a smallest principal moment of -4.3e-7 kg m² (2e-5 of the largest)
from rounding alone. ``RobotModel`` refused it as "not positive semi-definite"; Pinocchio
loads the file and computes with it. Now a moment that far below zero (up to
``ROUNDING_INDEFINITE`` of the largest) is one warning and the model is as written; a sign or
unit error, far beyond it, is still refused.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robots import pinocchio_configuration

LINK = ('<link name="{name}"><inertial><origin xyz="0.05 0 0.1" rpy="0 0 0"/>'
        '<mass value="{mass}"/><inertia ixx="{0}" iyy="{1}" izz="{2}" ixy="{3}" iyz="{4}" '
        'ixz="{5}"/></inertial></link>')
JOINT = ('<joint name="j{k}" type="revolute"><parent link="{parent}"/><child link="l{k}"/>'
         '<origin xyz="0 0.1 0.3" rpy="0.3 0 0"/><axis xyz="{axis}"/>'
         '<limit lower="-3" upper="3" effort="50" velocity="2"/></joint>')


def rounded_rod(digits, mass=1.0, length=0.5):
    """Return ixx iyy izz ixy iyz ixz of a rod along (1, 2, 3) as text, ``digits`` kept."""
    u = np.array([1.0, 2.0, 3.0]) / np.sqrt(14.0)
    inertia = mass * length ** 2 / 12 * (np.eye(3) - np.outer(u, u))
    entries = [inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[0, 1], inertia[1, 2],
               inertia[0, 2]]
    return [f'{value:.{digits}g}' for value in entries]


def arm_with_rod(digits):
    """Return a three-joint arm whose middle link is the rod."""
    parts = [LINK.format(0.01, 0.01, 0.01, 0, 0, 0, name='base', mass=2.0)]
    for k, axis in enumerate(['0 0 1', '0 1 0', '1 0 0'], 1):
        entries = rounded_rod(digits) if k == 2 else (0.01, 0.012, 0.008, 0, 0, 0)
        parts.append(LINK.format(*entries, name=f'l{k}', mass=1.0))
        parts.append(JOINT.format(k=k, parent='base' if k == 1 else f'l{k - 1}', axis=axis))
    return '<robot name="rod_arm">' + ''.join(parts) + '</robot>'


def test_the_rounding_makes_a_negative_moment():
    entries = [float(x) for x in rounded_rod(4)]
    matrix = np.array([[entries[0], entries[3], entries[5]], [entries[3], entries[1], entries[4]],
                       [entries[5], entries[4], entries[2]]])
    smallest, largest = np.linalg.eigvalsh(matrix)[[0, -1]]
    assert -1e-4 * largest < smallest < -1e-12 * max(1.0, largest)


@pytest.mark.parametrize('digits', [4, 5])
def test_a_rounded_rod_loads_and_agrees_with_pinocchio(digits):
    urdf = arm_with_rod(digits)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(urdf)
    about_l2 = [str(w.message) for w in said if "link 'l2'" in str(w.message)]
    assert any('slightly indefinite' in text for text in about_l2), about_l2
    assert not any('triangle' in text for text in about_l2), about_l2     # one reason, once
    oracle = pin.buildModelFromXML(urdf)
    data = oracle.createData()
    q = np.array([0.3, -0.7, 1.1])
    config = pinocchio_configuration(oracle, q)
    M = pin.crba(oracle, data, config)
    M = np.triu(M) + np.triu(M, 1).T
    assert np.allclose(rd.mass_matrix(model, q), M, rtol=0, atol=1e-9 * np.abs(M).max())
    g = pin.computeGeneralizedGravity(oracle, data, config)
    assert np.allclose(rd.gravity_torques(model, q), g, rtol=0, atol=1e-9 * np.abs(g).max())


def test_an_inertia_indefinite_beyond_rounding_is_refused():
    """A sign error (ixx written negative on the rod) is far beyond any rounding."""
    entries = rounded_rod(6)
    entries[3] = str(-10 * float(entries[0]))                 # ixy: ten times ixx, a typo
    urdf = arm_with_rod(6).replace(f'ixy="{rounded_rod(6)[3]}"', f'ixy="{entries[3]}"')
    assert urdf != arm_with_rod(6)
    with pytest.raises(rd.ModelError, match="link 'l2' is not positive semi-definite"):
        rd.RobotModel.from_urdf(urdf)
