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
"""Side branches locked at joint positions, merged rigidly into the chain body they hang from.

A locked branch (a gripper's fingers, a head, the other arm) is kept as a small tree of rigid
*groups*, one per locked joint: the group's joint placement in its parent group's frame, the
joint's axis, and the group's rigid body (every link fixed to the joint's child). Merging at
positions ``q`` is one forward pass over the groups (Featherstone's forward kinematics with
the joint transforms of Table 4.1), summing the groups' inertias in the chain body's frame.

Inertias are carried in *origin form* ``(m, h, I_O)``: mass, first moment ``h = m c`` and the
rotational inertia about the frame origin. This form is linear (bodies add and subtract), so
re-merging at new positions is ``body + merged(q_new) - merged(q_old)``, which keeps a payload
or any other change made to the body since loading.
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from robot_dynamics.spatial.vectors import axis_rotation

_E = np.eye(3)
_E.setflags(write=False)


@dataclass(frozen=True)
class Group:
    """One locked joint and the rigid body behind it.

    ``parent`` indexes the parent group in the same :class:`LockedBody` (-1: the chain body);
    ``rotation``, ``translation``: the joint frame in the parent's frame at zero position;
    ``kind``: 'revolute', 'continuous', 'prismatic' (moves along ``axis``) or 'floating' /
    'planar' (kept at the origin); ``body``: origin-form inertia ``(m, h, I_O)`` in the joint
    frame; ``limits``: the joint's position limits ``(lower, upper)``, infinite when none.
    """

    joint: str
    parent: int
    rotation: np.ndarray
    translation: np.ndarray
    kind: str
    axis: np.ndarray
    body: tuple
    limits: tuple = (-np.inf, np.inf)


@dataclass(frozen=True)
class LockedBody:
    """The locked groups hanging from chain body ``index`` (parents before children)."""

    index: int
    groups: tuple

    @property
    def joints(self):
        """Names of the locked joints of this body."""
        return tuple(group.joint for group in self.groups)

    def merged(self, positions):
        """Origin-form inertia ``(m, h, I_O)`` of every group at ``positions`` (name → value).

        Expressed in the frame of chain body :attr:`index`.
        """
        poses, total = [], origin_form_zero()
        for group in self.groups:
            R, p = joint_motion(group.kind, group.axis, positions[group.joint])
            R = group.rotation @ R
            p = group.translation + group.rotation @ p
            if group.parent >= 0:
                R_parent, p_parent = poses[group.parent]
                R, p = R_parent @ R, p_parent + R_parent @ p
            poses.append((R, p))
            total = add(total, transform(group.body, R, p))
        return total


def joint_motion(kind, axis, value):
    """``(R, p)`` of a joint at position ``value`` (Featherstone 2008, Table 4.1)."""
    if kind in ('revolute', 'continuous'):
        return axis_rotation(axis, np.array([value]))[0], np.zeros(3)
    if kind == 'prismatic':
        return _E, axis * value
    return _E, np.zeros(3)          # floating / planar: locked at the origin


def origin_form_zero():
    """Return the empty body ``(0, 0, 0)`` in origin form."""
    return 0.0, np.zeros(3), np.zeros((3, 3))


def origin_form(mass, com, inertia):
    """``(m, h, I_O)`` from mass, centre of mass and inertia about it (parallel axis)."""
    com = np.asarray(com, float)
    return float(mass), mass * com, np.asarray(inertia, float) + mass * _point(com)


def centroidal_form(body):
    """``(mass, com, inertia about com)`` from origin form (inverse of :func:`origin_form`)."""
    m, h, inertia = body
    if m <= 0:
        return 0.0, np.zeros(3), inertia
    com = h / m
    return m, com, inertia - m * _point(com)


def origin_forms(bodies):
    """:func:`origin_form` of many ``(mass, com, inertia)`` at once: a list of ``(m, h, I_O)``.

    The same operations element by element (each ``com @ com`` by the same kernel), so every
    value is bit for bit that of one call per body.
    """
    mass = np.array([float(body[0]) for body in bodies])
    com = np.array([body[1] for body in bodies], dtype=float).reshape(-1, 3)
    inertia = np.array([body[2] for body in bodies], dtype=float).reshape(-1, 3, 3)
    point = (com[:, None, :] @ com[:, :, None]) * _E - com[:, :, None] * com[:, None, :]
    h, inertia = mass[:, None] * com, inertia + mass[:, None, None] * point
    return [(m, h[k], inertia[k]) for k, m in enumerate(mass.tolist())]


def centroidal_forms(bodies):
    """:func:`centroidal_form` of many bodies: masses (N,), coms (N, 3), inertias (N, 3, 3).

    The same operations element by element, and each ``com @ com`` by the same kernel (a
    stacked 1×3 by 3×1 product), so every value is bit for bit that of one call per body.
    """
    mass = np.array([body[0] for body in bodies], dtype=float)
    h = np.array([body[1] for body in bodies], dtype=float).reshape(-1, 3)
    inertia = np.array([body[2] for body in bodies], dtype=float).reshape(-1, 3, 3)
    positive = mass > 0
    com = h / np.where(positive, mass, 1.0)[:, None]
    point = (com[:, None, :] @ com[:, :, None]) * _E - com[:, :, None] * com[:, None, :]
    return (np.where(positive, mass, 0.0), np.where(positive[:, None], com, 0.0),
            np.where(positive[:, None, None], inertia - mass[:, None, None] * point, inertia))


def transform(body, R, p):
    """Origin-form body given in a frame at ``(R, p)``, expressed in the outer frame.

    ``I_O' = R I_O Rᵀ + m (|p|² E - p pᵀ) + 2 (p·h') E - h' pᵀ - p h'ᵀ`` with ``h' = R h``
    (the parallel-axis theorem for the shifted origin, linear in ``(m, h, I_O)``).
    """
    m, h, inertia = body
    h_rotated = R @ h
    p_column, h_column = p[:, None], h_rotated[:, None]
    cross = (m * (p @ p) + 2.0 * (p @ h_rotated)) * _E - m * p_column * p \
        - h_column * p - p_column * h_rotated
    return m, h_rotated + m * p, R @ inertia @ R.T + cross


def add(a, b, sign=1.0):
    """Sum (or, with ``sign=-1``, difference) of two origin-form bodies."""
    return a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2]


def _point(x):
    """Inertia of a unit point mass at ``x`` about the origin: ``|x|² E - x xᵀ``."""
    return (x @ x) * _E - x[:, None] * x


@dataclass(frozen=True)
class LockedBranches:
    """Every locked branch of a model: per chain body, and the mimic couplings among them.

    ``mimics`` maps a locked joint to ``(master, multiplier, offset)`` when its master is
    itself locked: it follows its master (``q = multiplier * q_master + offset``) unless its
    own position is given.
    """

    bodies: tuple = ()
    mimics: tuple = ()

    def groups(self):
        """``{joint name: Group}`` of every locked joint."""
        return {group.joint: group for body in self.bodies for group in body.groups}

    def resolve(self, current, given):
        """Positions of every locked joint: ``current`` updated by ``given``, mimics following."""
        positions = dict(current)
        positions.update(given)
        for _ in range(len(self.mimics)):         # mimics of mimics settle in as many passes
            for name, master, multiplier, offset in self.mimics:
                if name not in given and master in positions:
                    positions[name] = multiplier * positions[master] + offset
        return positions

    def change(self, old, new):
        """``{body index: origin-form change}`` when the positions go from ``old`` to ``new``."""
        changes = {}
        for locked in self.bodies:
            if any(old[name] != new[name] for name in locked.joints):
                changes[locked.index] = add(locked.merged(new), locked.merged(old), sign=-1.0)
        return changes


class LockedPositions(Mapping):
    """Read-only mapping locked joint name → position (rad or m); picklable, unlike a proxy."""

    def __init__(self, positions):
        self._positions = dict(positions)

    def __getitem__(self, name):
        return self._positions[name]

    def __iter__(self):
        return iter(self._positions)

    def __len__(self):
        return len(self._positions)

    def __repr__(self):
        return f'LockedPositions({self._positions!r})'
