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
"""Seeded random URDF trees with side branches, and their Pinocchio oracle with joints locked."""

import re
import warnings

import numpy as np
import pinocchio as pin

import robot_dynamics as rd
from robots import pinocchio_configuration, random_inertia


def tree_urdf(seed, joints, name='tree', massless=()):
    """URDF text of a tree with random inertias, placements and axes.

    ``joints``: tuples ``(name, type, parent, child)`` optionally followed by ``(lower,
    upper)`` limits and a mimic ``(master, multiplier, offset)``. Every link has a random
    inertial (rotated frame, off-centre) except those in ``massless``.
    """
    rng = np.random.default_rng(seed)
    links = []
    for spec in joints:
        for link in spec[2:4]:
            if link not in links:
                links.append(link)
    parts = [_link(rng, link, link in massless) for link in links]
    parts += [_joint(rng, *spec) for spec in joints]
    return f'<robot name="{name}">' + '\n'.join(parts) + '</robot>'


def _numbers(values):
    return ' '.join(repr(float(v)) for v in values)


def _link(rng, name, massless):
    if massless:
        return f'<link name="{name}"/>'
    mass = float(rng.uniform(0.2, 3.0))
    inertia = random_inertia(rng, mass)
    ixx, iyy, izz, ixy, iyz, ixz = (float(inertia[i, j]) for i, j in
                                    ((0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2)))
    return (f'<link name="{name}"><inertial><origin xyz="{_numbers(rng.uniform(-0.1, 0.1, 3))}" '
            f'rpy="{_numbers(rng.uniform(-np.pi, np.pi, 3))}"/><mass value="{mass!r}"/>'
            f'<inertia ixx="{ixx!r}" iyy="{iyy!r}" izz="{izz!r}" ixy="{ixy!r}" ixz="{ixz!r}" '
            f'iyz="{iyz!r}"/></inertial><visual><geometry><box size="0.1 0.1 0.1"/></geometry>'
            '</visual></link>')


def _joint(rng, name, kind, parent, child, limits=(-2.0, 2.0), mimic=None):
    axis = rng.normal(size=3)
    text = (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{_numbers(rng.uniform(-0.3, 0.3, 3))}" '
            f'rpy="{_numbers(rng.uniform(-np.pi, np.pi, 3))}"/>'
            f'<axis xyz="{_numbers(axis / np.linalg.norm(axis))}"/>')
    if kind in ('revolute', 'prismatic'):
        text += (f'<limit lower="{limits[0]!r}" upper="{limits[1]!r}" effort="100" '
                 'velocity="3"/>')
    if mimic is not None:
        text += f'<mimic joint="{mimic[0]}" multiplier="{mimic[1]!r}" offset="{mimic[2]!r}"/>'
    return text + '</joint>'


def arm(prefix, parent, n, kinds=None):
    """Joint specs of an ``n``-joint serial arm named ``{prefix}_j1 …`` below ``parent``."""
    kinds = kinds or ['revolute'] * n
    specs, link = [], parent
    for i, kind in enumerate(kinds, start=1):
        child = f'{prefix}_link{i}'
        specs.append((f'{prefix}_j{i}', kind, link, child)
                     + (((-0.2, 0.3),) if kind == 'prismatic' else ()))
        link = child
    return specs


def gripper(prefix, parent, mimic=True):
    """Build a hand fixed to ``parent``, two prismatic fingers (the second mimics the first)."""
    second = (f'{prefix}_finger_joint2', 'prismatic', f'{prefix}_hand', f'{prefix}_finger2',
              (0.0, 0.04)) + (((f'{prefix}_finger_joint1', 1.0, 0.0),) if mimic else ())
    return [(f'{prefix}_hand_joint', 'fixed', parent, f'{prefix}_hand'),
            (f'{prefix}_finger_joint1', 'prismatic', f'{prefix}_hand', f'{prefix}_finger1',
             (0.0, 0.04)), second]


def arm_with_gripper(seed=12):
    """Build a 6-joint arm (a continuous and a prismatic joint), gripper, pan camera, tool0."""
    joints = [('world_joint', 'fixed', 'world', 'base_link')]
    joints += arm('arm', 'base_link', 6, ['revolute', 'revolute', 'continuous', 'prismatic',
                                          'revolute', 'revolute'])
    joints += [('camera_mount', 'fixed', 'arm_link2', 'camera'),
               ('camera_pan', 'revolute', 'camera', 'camera_head', (0.2, 1.0)),
               ('camera_lens_joint', 'fixed', 'camera_head', 'camera_lens'),
               ('pedestal_fan', 'revolute', 'base_link', 'fan'),
               ('flange_joint', 'fixed', 'arm_link6', 'flange'),
               ('tool0_joint', 'fixed', 'flange', 'tool0')]
    joints += gripper('grip', 'flange')
    return tree_urdf(seed, joints, 'arm_with_gripper', massless=('world', 'tool0'))


def reduced_oracle(urdf, chain, locked, others=None):
    """Pinocchio's model of ``urdf`` with every joint but ``chain`` locked (``buildReducedModel``).

    ``locked`` (name → position) gives the locked joints' positions; joints missing from it
    (above the base, or beside the chain on the fixed base) take ``others`` (name → value) or
    0. Returns the reduced model, whose joints must be ``chain`` in order.
    """
    full = pin.buildModelFromXML(urdf)
    values = dict(others or {})
    values.update(locked)
    q_ref, lock = pin.neutral(full), []
    for index in range(1, full.njoints):
        name, joint = full.names[index], full.joints[index]
        if name in chain:
            continue
        lock.append(index)
        value = values.get(name, 0.0)
        if joint.nq == 2:
            q_ref[joint.idx_q:joint.idx_q + 2] = np.cos(value), np.sin(value)
        else:
            q_ref[joint.idx_q] = value
    reduced = pin.buildReducedModel(full, lock, q_ref)
    assert list(reduced.names)[1:] == list(chain), (list(reduced.names), chain)
    return reduced


def oracle_dynamics(reduced, q, qd, qdd, base_link):
    """``(tau, M, g, gravity in the base frame)`` of the reduced Pinocchio model."""
    data = reduced.createData()
    config = pinocchio_configuration(reduced, q)
    tau = pin.rnea(reduced, data, config, qd, qdd)
    M = pin.crba(reduced, data, config)
    M = np.triu(M) + np.triu(M, 1).T
    g = pin.computeGeneralizedGravity(reduced, data, config)
    pin.framesForwardKinematics(reduced, data, config)
    R_base = data.oMf[reduced.getFrameId(base_link, pin.BODY)].rotation
    return tau, M, g, R_base.T @ reduced.gravity.linear


def oracle_tip_pose(reduced, q, base_link, tip_link):
    """Pose (4, 4) of ``tip_link`` in ``base_link``'s frame in the reduced Pinocchio model.

    Links are looked up as body frames: a joint may share a link's name (SO-100's ``gripper``).
    """
    data = reduced.createData()
    pin.framesForwardKinematics(reduced, data, pinocchio_configuration(reduced, q))
    base = data.oMf[reduced.getFrameId(base_link, pin.BODY)]
    return (base.inverse() * data.oMf[reduced.getFrameId(tip_link, pin.BODY)]).homogeneous


def load_with_notes(text, **options):
    """Load a URDF; return the model and its ModelWarning lines."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = rd.RobotModel.from_urdf(text, **options)
    return model, [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]


def assert_chain_equals_pinocchio(model, text, tolerance=1e-13):
    """ID, M, G (relative to the largest entry), gravity and the tool pose = Pinocchio's.

    Pinocchio's model of the whole ``text`` with the other joints locked where ``model`` locks
    them. Its ``buildReducedModel`` cannot tell a joint from the link of the same name
    (Sawyer's fixed ``right_hand``, SO-100's moving ``gripper``): such links are renamed for it.
    """
    text, renamed = _rename_links_named_like_joints(text)
    reduced = reduced_oracle(text, list(model.joint_names), dict(model.locked_joints))
    base, tip = renamed.get(model.base_link, model.base_link), renamed.get(model.tip_link,
                                                                           model.tip_link)
    rng = np.random.default_rng(3)
    for _ in range(3):
        q, qd, qdd = rng.uniform(-1.5, 1.5, (3, model.dof))
        tau, M, g, gravity = oracle_dynamics(reduced, q, qd, qdd, base)
        np.testing.assert_allclose(model.gravity, gravity, rtol=0, atol=1e-14)
        for ours, theirs in ((rd.inverse_dynamics(model, q, qd, qdd), tau),
                             (rd.mass_matrix(model, q), M), (rd.gravity_torques(model, q), g)):
            assert np.abs(ours - theirs).max() <= tolerance * np.abs(theirs).max()
        np.testing.assert_allclose(rd.tip_pose(model, q), oracle_tip_pose(reduced, q, base, tip),
                                   rtol=0, atol=tolerance)


def _rename_links_named_like_joints(text):
    """Return the text with every link named like a joint renamed, and old name → new name."""
    joints = set(re.findall(r'<joint\b[^>]*?\bname="([^"]*)"', text))
    links = set(re.findall(r'<link\b[^>]*?\bname="([^"]*)"', text))
    renamed = {name: f'{name} (link)' for name in joints & links}
    for old, new in renamed.items():
        text = re.sub(r'(<link\b[^>]*?\bname=|\blink=)"' + re.escape(old) + '"',
                      lambda match: f'{match.group(1)}"{new}"', text)
    return text, renamed


# A torso lift and a shoulder whose <dynamics> carry Gazebo-style tuning values (issue 20.8).
TORSO_ARM_URDF = '''<?xml version="1.0"?>
<robot name="torso_arm">
  <link name="base"/>
  <link name="torso"><inertial><mass value="12.0"/><origin xyz="0 0 0.1"/>
    <inertia ixx="0.3" iyy="0.3" izz="0.2" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="3.0"/><origin xyz="0.2 0 0"/>
    <inertia ixx="0.02" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="torso_lift" type="prismatic"><parent link="base"/><child link="torso"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="0.35" effort="2000" velocity="0.07"/>
    <dynamics damping="1000" friction="0"/></joint>
  <joint name="shoulder" type="revolute"><parent link="torso"/><child link="arm"/>
    <origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="50" velocity="2"/>
    <dynamics damping="0.5" friction="1.5"/></joint>
</robot>
'''
