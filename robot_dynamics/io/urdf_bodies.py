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
"""The serial chain's joints and bodies from a URDF tree, side branches merged in.

Body ``i`` is the rigid body behind moving joint ``i``: its child link and every link fixed to
it. Moving joints leaving that body off the chain start *locked branches*: everything below
them is merged rigidly into body ``i`` at the locked joints' positions (default: 0 clipped
into the joint's limits; or given). The base is fixed, so whatever hangs from it before the
first moving joint, and everything above it, loads no chain joint and is left out.
"""

import numpy as np

from robot_dynamics.errors import URDFError, warn
from robot_dynamics.io.locked import (Group, LockedBody, LockedBranches, add,
                                      centroidal_forms, origin_form, origin_form_zero,
                                      transform)
from robot_dynamics.io.urdf_elements import IDENTITY, stacked_bodies, stacked_poses
from robot_dynamics.io.urdf_tree import compose, compose_all

SERIAL_TYPES = ('revolute', 'continuous', 'prismatic')


class Centroidal(tuple):
    """A lone link's unread inertial (:meth:`~.urdf_elements.Document.parts`), checked.

    The link is its body's origin; :func:`merged_bodies` builds them all at once
    (:func:`~.urdf_elements.stacked_bodies`).
    """


def rigid_inertia(tree, poses, pending=False):
    """Origin-form inertia of the links at ``poses`` (name → pose); None if none has one.

    One link: :func:`~robot_dynamics.io.locked.transform`; many: the same sum, vectorised.
    ``pending``: a link at the body's origin whose fixed links carry no inertial (a lone link)
    is returned unread (a :class:`Centroidal`).
    """
    names = list(poses)
    if pending and not any(map(tree.document.has_inertial, names[1:])):   # names[0]: identity
        parts = tree.document.parts(names[0])
        return None if parts is None else Centroidal(parts)
    bodies = [tree.document.body(names[0])] if len(names) == 1 else \
        tree.document.bodies(names)                  # many links: read together
    found = list(zip(bodies, poses.values()))
    found = [(body, pose) for body, pose in found if body is not None]
    if len(found) <= 1:
        if not found:
            return None
        body, (R, p) = found[0]
        return origin_form(*body) if R is IDENTITY[0] and not p.any() else \
            transform(origin_form(*body), R, p)
    count = len(found)
    mass, com, p = np.empty(count), np.empty((count, 3)), np.empty((count, 3))
    R, inertia = np.empty((count, 3, 3)), np.empty((count, 3, 3))
    for k, ((m, c, i), (R_k, p_k)) in enumerate(found):
        mass[k], com[k], inertia[k], R[k], p[k] = m, c, i, R_k, p_k
    com = np.einsum('kij,kj->ki', R, com) + p
    inertia = R @ inertia @ R.transpose(0, 2, 1)
    point = np.einsum('k,kj->k', mass, com * com)[:, None, None] * np.eye(3) \
        - mass[:, None, None] * np.einsum('ki,kj->kij', com, com)
    return float(mass.sum()), mass @ com, (inertia + point).sum(axis=0)


def chain_joints(tree, base, tip):
    """Return the moving joints of the path ``base`` → ``tip``, checked for a serial chain.

    A ``<mimic>`` joint on it (a finger named as ``tip_link``) is a coordinate of its own, as
    Pinocchio and KDL load it; :func:`~robot_dynamics.io.urdf.urdf_fields` says so.
    """
    moving = [joint for joint in tree.path(base, tip) if joint.moving]
    if not moving:
        document = tree.document
        if not any(joint.moving for joint in document.joints.values()):
            raise URDFError(f'the URDF has no moving joint ({len(document.links)} link(s), '
                            f'{len(document.joints)} fixed joint(s)): nothing moves, and a '
                            'model needs at least one revolute, continuous or prismatic joint')
        raise URDFError(f'the chain from {base!r} to {tip!r} has no moving joint')
    for joint in moving:
        if joint.type not in SERIAL_TYPES:
            hint = ''
            if joint is moving[0]:     # a mobile or floating base above the arm
                hint = (f'; start the chain below it with base_link={joint.child!r} (command '
                        f'line: --base-link {joint.child}; node parameter base_link)')
            raise URDFError(f'joint {joint.name!r} is {joint.type!r}; only revolute, continuous, '
                            'prismatic and fixed joints can form a serial chain' + hint)
    return moving


def chain_bodies(tree, base, tip):
    """Placements, fixed bodies, locked bodies and the tip pose of the chain ``base`` → ``tip``.

    Returns ``(moving, placements, fixed, locked, tip_pose)``: the moving joints, the joints'
    placements ``(R (n, 3, 3), p (n, 3))``, each in the previous body's frame, each body's own
    origin-form inertia (its fixed links; a lone link a :class:`Centroidal`, converted by
    :func:`merged_bodies`), one :class:`LockedBody` per body with locked branches, and the
    tool frame in the last body's frame.
    """
    moving = chain_joints(tree, base, tip)
    poses, _ = tree.rigid_body(base)
    fixed, locked, bare = [], [], []
    placements, origins = [poses[moving[0].parent]], [moving[0].origin_parts]
    for i, joint in enumerate(moving):
        poses, exits = tree.rigid_body(joint.child)
        body = rigid_inertia(tree, poses, pending=True)
        if body is None:       # massless, as the URDF specification reads a missing inertial
            bare.append(joint)
            body = origin_form_zero()
        fixed.append(body)
        following = moving[i + 1] if i + 1 < len(moving) else None
        if following is not None:
            placements.append(poses[following.parent])
            origins.append(following.origin_parts)
        groups = []
        for exit_joint in exits:
            if exit_joint is not following:
                _add_branch(tree, exit_joint, poses[exit_joint.parent], groups)
        if groups:
            locked.append(LockedBody(i, tuple(groups)))
    if bare:
        _warn_without_inertial(bare, len(moving))
    return moving, compose_all(placements, stacked_poses(origins)), fixed, locked, poses[tip]


def _warn_without_inertial(bare, n):
    """One line for the moving links without ``<inertial>`` (massless, as the spec reads it).

    A kinematics-only description (ROS-Industrial's support packages: no link has one) gets
    one line, not one a link.
    """
    links = ', '.join(f'{j.child!r} (child of joint {j.name!r})' for j in bare)
    if len(bare) == 1:
        warn(f'moving link {links} has no <inertial>: loaded massless (URDF specification); '
             'add <inertial> with <mass> and <inertia> if the link has mass')
    elif len(bare) < n:
        warn(f'moving links {links} have no <inertial>: loaded massless (URDF specification); '
             'add <inertial> with <mass> and <inertia> where a link has mass')
    else:
        names = ', '.join(joint.child for joint in bare)
        warn(f'no moving link has an <inertial> ({names}): a kinematics-only description, '
             'loaded massless (URDF specification), so only friction, rotor inertia and a '
             'payload make torques; add <inertial> with <mass> and <inertia> for the dynamics')


def _add_branch(tree, first, parent_pose, groups):
    """Append the groups of the branch starting at moving joint ``first`` (parents first)."""
    stack = [(first, -1, parent_pose)]
    while stack:
        joint, parent, pose = stack.pop()
        R, p = compose(pose, joint.origin)
        poses, exits = tree.rigid_body(joint.child)
        body = rigid_inertia(tree, poses) or origin_form_zero()
        axis = joint.axis if joint.type in SERIAL_TYPES else np.zeros(3)
        groups.append(Group(joint.name, parent, R, p, joint.type, axis, body,
                            tuple(float(x) for x in joint.limits())))
        index = len(groups) - 1
        stack.extend((x, index, poses[x.parent]) for x in reversed(exits))


def hold_chain_joints(tree, base, tip, given):
    """Make the chain joints named in ``given`` (name → rad or m) fixed there; return those.

    Explicit locking (``locked_joints=``) of a joint of the chain ``base`` → ``tip``: it is
    loaded as a fixed joint at the given position (finite, within its limits). Returns
    ``{name: value}`` of the held joints; rebuild the :class:`Tree` if any.
    """
    held = {}
    for joint in tree.path(base, tip) if given else ():     # (chain_bodies walks it too)
        if joint.moving and joint.name in given:
            value = _number(given[joint.name], joint.name)
            if joint.type not in SERIAL_TYPES:
                raise URDFError(f'locked_joints: {joint.name!r} is a {joint.type} joint; only '
                                'revolute, continuous and prismatic joints are held at a value')
            _check_value(joint, value)
            joint.hold(value)
            held[joint.name] = value
    return held


def locked_positions(tree, locked, chain_names, given, held=None):
    """Resolve the locked joints' positions; return ``(branches, positions, notes)``.

    Default: 0 clipped into the joint's limits. ``given`` (name → value) must name locked
    joints, finite values within the limits. A mimic of a locked joint follows it; a mimic of
    a ``held`` chain joint (name → value, :func:`hold_chain_joints`) is locked where it puts
    it; a mimic of a chain joint cannot follow and stays at its default (noted).
    """
    held = held or {}
    joints = tree.document.joints
    order = {name: i for i, name in enumerate(joints)} if locked else {}
    names = sorted((group.joint for body in locked for group in body.groups), key=order.get)
    given = {name: _number(value, name) for name, value in given.items()}
    _check_given(given, names, chain_names, joints)
    defaults, mimics, notes = {}, [], []
    for name in names:
        lower, upper = joints[name].limits()
        defaults[name] = float(min(max(0.0, lower), upper))
        mimic = joints[name].mimic
        if mimic is None:
            continue
        if mimic[0] in names:
            mimics.append((name,) + mimic)
        elif mimic[0] in held:
            defaults[name] = mimic[1] * held[mimic[0]] + mimic[2]
        elif mimic[0] in chain_names:
            notes.append(f'{name!r} mimics chain joint {mimic[0]!r} and is locked at its '
                         'default instead')
    branches = LockedBranches(tuple(locked), tuple(mimics))
    return branches, branches.resolve(defaults, given), notes


def _number(value, name):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise URDFError(f'locked_joints: {name!r} = {value!r} is not a number') from None


def _check_given(given, names, chain_names, joints):
    for name, value in given.items():
        if name not in names:
            raise URDFError(f'locked_joints: {name!r} is neither a joint of this chain nor a '
                            f'locked one; locked joints are {names}, chain joints '
                            f'{sorted(chain_names)} (joints above the base, or hanging from it '
                            'before the first moving joint, are not in the model)')
        joint = joints[name]
        if joint.type not in SERIAL_TYPES:
            raise URDFError(f'locked_joints: {name!r} is a {joint.type} joint, always locked '
                            'at its origin; give no position for it')
        _check_value(joint, value)


def _check_value(joint, value):
    """Refuse a locked position that is not finite or lies outside the joint's limits."""
    if not np.isfinite(value):
        raise URDFError(f'locked_joints: {joint.name!r} = {value} is not a finite number')
    lower, upper = joint.limits()
    if not lower <= value <= upper:
        raise URDFError(f'locked_joints: {joint.name!r} = {value} is outside its limits '
                        f'[{lower}, {upper}]')


def merged_bodies(fixed, branches, positions):
    """Masses (n,), coms (n, 3), inertias about the coms (n, 3, 3): fixed links plus branches.

    A lone link (:class:`Centroidal`) that carries no branch is its body as written, read
    with the others in one pass; the rest is summed in origin form.
    """
    bodies = list(fixed)
    lone = [i for i, body in enumerate(bodies) if isinstance(body, Centroidal)]
    if lone:
        mass, com, inertia = stacked_bodies([bodies[i] for i in lone])
        if np.count_nonzero(mass) < mass.size:
            com[mass == 0] = 0.0               # a massless link has no centre of mass
        if len(lone) == len(bodies) and not branches.bodies:           # every body as written
            return mass + 0.0, com, inertia
    out = np.empty(len(fixed)), np.empty((len(fixed), 3)), np.empty((len(fixed), 3, 3))
    if lone:
        for i in lone:
            bodies[i] = None                   # as written, unless it carries a branch
        for array, rows in zip(out, (mass + 0.0, com, inertia)):
            array[lone] = rows
    for locked in branches.bodies:
        i = locked.index
        body = bodies[i] or origin_form(out[0][i], out[1][i], out[2][i])
        bodies[i] = add(body, locked.merged(positions))
    summed = [i for i, body in enumerate(bodies) if body is not None]
    if summed:
        for array, rows in zip(out, centroidal_forms([bodies[i] for i in summed])):
            array[summed] = rows
    return out


def locked_note(branches, positions, notes):
    """Return the one-line ModelWarning naming each locked joint and its position."""
    mimicking = {name for name, *_ in branches.mimics}
    kinds = {g.joint: g.kind for body in branches.bodies for g in body.groups}
    parts = []
    for name, value in positions.items():
        unit = 'm' if kinds[name] == 'prismatic' else 'rad'
        if kinds[name] in ('floating', 'planar'):
            parts.append(f'{name} ({kinds[name]}) at its origin')
        else:
            parts.append(f'{name}={value:.6g} {unit}' + (' (mimic)' if name in mimicking else ''))
    text = (f'locked {len(parts)} side-branch joint(s), merged rigidly into the chain: '
            + ', '.join(parts) + '; change with locked_joints= (command line: --lock NAME=VALUE)')
    return text + ''.join(f'; {note}' for note in notes)
