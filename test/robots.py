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
"""Seeded random serial robots and states for the tests."""

import pathlib
import warnings

import numpy as np

from robot_dynamics import load_model, RobotModel
from robot_dynamics.model import ModelWarning


def random_rotation(rng):
    """Draw a uniformly random rotation matrix (QR of a Gaussian matrix, sign-fixed)."""
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q @ np.diag(np.sign(np.diag(R)))
    if np.linalg.det(Q) < 0:
        Q[:, 0] = -Q[:, 0]
    return Q


def random_inertia(rng, mass):
    """Draw a physical inertia about the centre of mass (obeying the triangle inequality)."""
    moments = rng.uniform(0.2, 1.0, size=3)
    moments = np.array([moments[0] + moments[1], moments[1] + moments[2],
                        moments[0] + moments[2]]) * mass * 0.05
    R = random_rotation(rng)
    return R @ np.diag(moments) @ R.T


def random_model(rng, n, prismatic_fraction=0.3, friction=False, rotor=False, name='random'):
    """Build a random serial chain of ``n`` joints: random placements, axes and inertias."""
    types = ['prismatic' if rng.random() < prismatic_fraction else 'revolute' for _ in range(n)]
    axes = rng.normal(size=(n, 3))
    masses = rng.uniform(0.5, 5.0, size=n)
    fields = dict(
        joint_types=types,
        axis=axes / np.linalg.norm(axes, axis=1)[:, None],
        placement_rotation=[random_rotation(rng) for _ in range(n)],
        placement_translation=rng.uniform(-0.4, 0.4, size=(n, 3)),
        mass=masses,
        com=rng.uniform(-0.2, 0.2, size=(n, 3)),
        inertia=[random_inertia(rng, m) for m in masses],
        tip_rotation=random_rotation(rng),
        tip_translation=rng.uniform(-0.2, 0.2, size=3),
        name=name,
    )
    if friction:
        fields.update(viscous_friction=rng.uniform(0, 2, n),
                      coulomb_friction=rng.uniform(0, 1, n))
    if rotor:
        fields.update(rotor_inertia=rng.uniform(0, 1e-4, n), gear_ratio=rng.uniform(10, 100, n))
    return RobotModel(**fields)


def random_state(rng, n, N=None):
    """Random ``q, qd, qdd`` of shape (n,) or (N, n)."""
    shape = (n,) if N is None else (N, n)
    return (rng.uniform(-np.pi, np.pi, shape), rng.uniform(-2, 2, shape),
            rng.uniform(-5, 5, shape))


def pinocchio_configuration(pin_model, q):
    """Map joint values (n,) to Pinocchio's configuration (continuous joints use cos, sin)."""
    config = np.zeros(pin_model.nq)
    for joint in list(pin_model.joints)[1:]:
        value = q[joint.idx_v]
        if joint.nq == 2:
            config[joint.idx_q:joint.idx_q + 2] = np.cos(value), np.sin(value)
        else:
            config[joint.idx_q] = value
    return config


def random_arm_urdf(seed, n, name, prismatic_fraction=0.3):
    """Return URDF text of a seeded random arm with friction and rotors."""
    model = random_model(np.random.default_rng(seed), n, prismatic_fraction=prismatic_fraction,
                         friction=True, rotor=True, name=name)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return model.to_urdf()


def quiet_model_from_urdf(urdf):
    """Load a URDF with model warnings silenced (the oracle side of the node tests)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return RobotModel.from_urdf(urdf)


# ---------------------------------------------------------------------- URDF snippets
STIFF_WRIST_URDF = pathlib.Path(__file__).resolve().parent / 'fixtures' / 'stiff_wrist_arm.urdf'
#: A TIAGo-class arm (issue 36): torso lift, locked head and fingers, stiff light wrist.
TIAGO_CLASS_URDF = pathlib.Path(__file__).resolve().parent / 'fixtures' / 'tiago_class_arm.urdf'


def stiff_wrist_arm():
    """Return the xArm7-like stiff arm of ``fixtures/stiff_wrist_arm.urdf`` (issue 23)."""
    return RobotModel.from_urdf(str(STIFF_WRIST_URDF))


INERTIAL = ('<inertial><origin xyz="{c}" rpy="{rpy}"/><mass value="{m}"/>'
            '<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{ixy}" ixz="0" iyz="0"/>'
            '</inertial>')


def link(name, m=1.0, c='0.1 0 0', rpy='0 0 0', ixx=0.02, iyy=0.03, izz=0.04, ixy=0.001):
    """Write a URDF link with an inertial block."""
    body = INERTIAL.format(m=m, c=c, rpy=rpy, ixx=ixx, iyy=iyy, izz=izz, ixy=ixy)
    return f'<link name="{name}">{body}</link>'


def joint(name, parent, child, kind='revolute', xyz='0 0 0.1', rpy='0 0 0', axis='0 0 1',
          extra='<limit lower="-2" upper="2" effort="50" velocity="3"/>'):
    """Write a URDF joint."""
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>'
            f'{extra}</joint>')


def robot(*parts):
    """Wrap links and joints in a <robot>."""
    return '<robot name="test">' + ''.join(parts) + '</robot>'


def billion_laughs(levels=10):
    """Return the classic entity-expansion bomb: 10**levels copies of "lol"."""
    lines = ['<!ENTITY lol0 "lol">']
    for k in range(1, levels):
        lines.append(f'<!ENTITY lol{k} "' + f'&lol{k - 1};' * 10 + '">')
    return ('<?xml version="1.0"?><!DOCTYPE robot [' + ''.join(lines) + ']>'
            f'<robot name="&lol{levels - 1};"><link name="b"/></robot>')


def quiet_bundled(name, **kwargs):
    """Return the library's bundled model, warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return load_model(name, **kwargs)


def limited_arm3():
    """Return a 3-joint revolute arm with friction, rotors, position and effort limits.

    Loaded back from its URDF (as a node loads it): the simulator's tests, with and without
    the node around it.
    """
    base = random_model(np.random.default_rng(11), 3, prismatic_fraction=0.0, friction=True,
                        rotor=True, name='arm3')
    limited = base.replace(lower_limit=[-2.0, -1.5, -2.5], upper_limit=[2.0, 1.5, 2.5],
                           effort_limit=[40.0, 30.0, 20.0], velocity_limit=[5.0, 5.0, 5.0])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return RobotModel.from_urdf(limited.to_urdf())
