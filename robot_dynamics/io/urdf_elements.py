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
"""Read what carries dynamics from a URDF document: links' inertials, joints.

One pass over an ElementTree, linear in the document's size. Everything else (visuals,
collisions, materials, textures, sensors, gazebo and ros2_control tags, ROS 1 transmission
details) is skipped unread, so a part that carries no dynamics never makes a load fail.
Inertials and joint details are parsed when the loader asks for them, so a malformed inertial
on a link the model does not use (above the base, beside the chain on the fixed base) is not
an error either. Errors name the element as ``link[@name='a']/inertial/mass``. Transmissions
are collected here and read by :mod:`robot_dynamics.io.urdf_transmissions`.
"""

import math

import numpy as np

from robot_dynamics.errors import URDFError, warn
from robot_dynamics.io.urdf_numbers import (number, numbers, plain_floats, plain_pose,
                                            rpy_entries, spaced_inertial_note)
from robot_dynamics.io.urdf_xml import parse_xml
from robot_dynamics.spatial.inertia import inertia_matrix
from robot_dynamics.spatial.vectors import axis_rotation

JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')
# <robot> children with no dynamics this loader reads (silently skipped).
IGNORED_TAGS = {'material', 'gazebo', 'sensor', 'ros2_control', 'plugin', 'group', 'mujoco',
                'disable_collisions', 'virtual_joint', 'end_effector', 'passive_joint'}
IDENTITY = (np.eye(3), np.zeros(3))
_UNTURNED = IDENTITY[0].ravel().tolist()                   # its entries, row by row
MOMENTS = ('ixx', 'iyy', 'izz', 'ixy', 'iyz', 'ixz')      # <inertia>'s, read in this order
#: Where an origin is, for messages: ``.format(name)`` (made only for one).
JOINT, INERTIAL = "joint[@name='{}']", "link[@name='{}']/inertial"
#: The 3×3 matrix's entries, row by row, as indices into :data:`MOMENTS`' values.
_SYMMETRIC = np.array([0, 3, 5, 3, 1, 4, 5, 4, 2])


class Joint:
    """One ``<joint>``: structure read at once, details (origin, axis, limits) on demand."""

    def __init__(self, element, name, kind, parent, child):
        self.element, self.name, self.type = element, name, kind
        self.parent, self.child = parent, child
        self.moving = kind != 'fixed'     # has a coordinate (every type but fixed)
        self._origin = self._axis = None
        self._values = {}           # (tag, attribute) → number or None: each read once
        self.locked_at = None       # held fixed at this position (locked_joints=): rad or m

    def hold(self, value):
        """Make this revolute, continuous or prismatic joint fixed at ``value`` (rad or m)."""
        self._motion, self.type, self.locked_at, self._origin = self.type, 'fixed', value, None
        self.moving = False

    @property
    def origin(self):
        """``(R, p)``: the child frame in the parent link frame at zero joint position."""
        if self._origin is None:
            self._origin = _pose(self.origin_parts)
            if self.locked_at:     # its motion at the held position (none at 0: identity)
                R, p = self._origin
                if self._motion == 'prismatic':
                    self._origin = R, p + R @ (self.axis * self.locked_at)
                else:
                    self._origin = R @ axis_rotation(self.axis, np.array([self.locked_at]))[0], p
        return self._origin

    @property
    def origin_parts(self):
        """``(xyz, rpy)`` lists of a moving joint's ``<origin>``, checked; None when absent.

        :func:`stacked_poses` builds many at once (the values of :attr:`origin`).
        """
        return _pose_parts(self.element.find('origin'), JOINT, self.name)

    @property
    def mimic(self):
        """``(joint, multiplier, offset)`` of ``<mimic>``, or None."""
        element = self.element.find('mimic')
        if element is None:
            return None
        where = f"joint[@name='{self.name}']/mimic"
        master = element.get('joint')
        if master is None:                  # joint="": a master the URDF lacks, as urdfdom
            raise URDFError(f'{where}: attribute joint is required; name the mimicked joint')
        return (master, number(element.get('multiplier', '1'), f'{where} multiplier'),
                number(element.get('offset', '0'), f'{where} offset'))

    @property
    def axis(self):
        """Return the unit axis vector (3,) in the child frame (URDF default ``1 0 0``)."""
        return np.array(self.unit_axis)

    @property
    def unit_axis(self):
        """Return the unit axis in the child frame, ``(x, y, z)`` floats (read once)."""
        if self._axis is None:
            self._axis = self._read_axis()
        return self._axis

    def _read_axis(self):
        element = self.element.find('axis')
        text = '1 0 0' if element is None else element.get('xyz', '1 0 0')
        if element is not None and element.get('xyz') is None:
            warn(f'joint {self.name!r}: <axis> without xyz read as 1 0 0, the URDF default; '
                 'urdfdom (Pinocchio, KDL, robot_state_publisher) reads 0 0 0 there, a joint '
                 'that does not move: write <axis xyz="1 0 0"/> (or the real axis)')
        x, y, z = numbers(text, 3, JOINT + '/axis xyz', self.name)
        norm = math.sqrt(x * x + y * y + z * z)
        if not math.isfinite(norm) or norm < 1e-9:
            raise URDFError(f'joint {self.name!r}: <axis xyz> must be three finite numbers, not '
                            f'all zero; got {text!r}')
        return x / norm, y / norm, z / norm

    def attribute(self, tag, name, default=None):
        """Return the number ``<tag name=…>``, or ``default`` when it is absent."""
        value = self._values.get((tag, name), self)          # self: not read yet
        if value is self:
            element = self.element.find(tag)
            text = None if element is None else element.get(name)
            value = None if text is None else number(text, JOINT + '/{} {}', self.name, tag,
                                                     name)
            self._values[tag, name] = value
        return default if value is None else value

    def limits(self):
        """``(lower, upper)`` position limits, ``(-inf, inf)`` when there are none.

        None for continuous joints, without ``<limit>``, with ``lower``/``upper`` left out (a
        hand-written ``<limit effort= velocity=/>``; one left out reads 0), or with no range
        between them (:attr:`empty_range`: the joint moves, as in Pinocchio and KDL).
        """
        element = self.element.find('limit')
        if self.type == 'continuous' or element is None:
            return -np.inf, np.inf
        return _position_range(self.attribute('limit', 'lower', 0.0),
                               self.attribute('limit', 'upper', 0.0))

    @property
    def empty_range(self):
        """Return ``(lower, upper)`` if written with ``lower >= upper`` (0 if one is left out).

        On a revolute or prismatic joint, else None. Equal: an exporter's "not set" (SolidWorks
        writes ``lower="0" upper="0" effort="0" velocity="0"`` on every joint) or a joint meant
        to be held there; inverted: a slip. Read as no position limit, named in a warning
        (docs/models.md).
        """
        element = self.element.find('limit')
        if self.type not in ('revolute', 'prismatic') or element is None or \
                element.get('lower') is None and element.get('upper') is None:
            return None
        lower, upper = self.attribute('limit', 'lower', 0.0), self.attribute('limit', 'upper', 0.0)
        return (lower, upper) if lower >= upper else None

    @property
    def unset_limits(self):
        """Tell whether ``<limit>`` is the exporters' all-zero "not set" (every value 0)."""
        return self.empty_range == (0.0, 0.0) and all(
            self.attribute('limit', name, 0.0) == 0 for name in ('effort', 'velocity'))

    def chain_numbers(self):
        """``(lower, upper, velocity, effort, damping, friction)`` of a chain joint, or None.

        What :meth:`limits`, :meth:`rate_limit` and :meth:`attribute` (``<dynamics>``, 0 when
        absent) return, read at once when every number is plain (:func:`plain_floats`) and
        the rate limits are >= 0; None otherwise: then those methods decide, and word errors.
        """
        limit, dynamics = self.element.find('limit'), self.element.find('dynamics')
        texts = ['0'] * 4 if limit is None else [          # an absent number reads 0
            limit.get('lower', '0'), limit.get('upper', '0'), limit.get('velocity', '0'),
            limit.get('effort', '0')]
        texts += ['0', '0'] if dynamics is None else [
            dynamics.get('damping', '0'), dynamics.get('friction', '0')]
        values = plain_floats(texts)
        if values is None:
            return None                                     # a number to check and word
        lower, upper, velocity, effort, damping, friction = values
        if not (velocity >= 0 and effort >= 0):
            return None                                     # rate_limit's error
        bounds = (-np.inf, np.inf) if self.type == 'continuous' or limit is None else \
            _position_range(lower, upper)
        return (*bounds, _given_rate(velocity), _given_rate(effort), damping, friction)

    def rate_limit(self, name):
        """``<limit effort|velocity>``: inf when absent or 0 (not given, as ROS reads it)."""
        value = self.attribute('limit', name)
        if value is not None and not value >= 0:
            raise URDFError(f'joint {self.name!r}: <limit {name}="{value}"> must be >= 0 (0: '
                            'not given, as MoveIt and ros2_control read it)')
        return _given_rate(value)


def _position_range(lower, upper):
    """``(lower, upper)``, or ``(-inf, inf)`` when written with no range: the joint moves."""
    return (-np.inf, np.inf) if lower >= upper else (lower, upper)


def _given_rate(value):
    """Return a ``<limit effort|velocity>`` value, inf when absent or 0 (not given)."""
    return np.inf if value is None or value == 0 else float(value)


class Document:
    """The dynamics-bearing content of a URDF: links, joints, transmissions, notes."""

    def __init__(self, root):
        if root.tag != 'robot':
            raise URDFError(f'the document element is <{root.tag}>, not <robot>; give a URDF')
        self.name = root.get('name') or 'robot'
        self.links, self.joints, self.notes = {}, {}, []
        self._inertials, self._bodies = {}, {}
        self.transmissions = []
        unknown = set()
        for element in root:
            tag = element.tag
            if tag == 'link':
                self._add_link(element)
            elif tag == 'joint':
                self._add_joint(element)
            elif tag == 'transmission':
                self.transmissions.append(element)
            elif isinstance(tag, str) and tag not in IGNORED_TAGS:
                unknown.add(tag)
        if unknown:
            self.notes.append(f'URDF: ignored unknown tag(s) {sorted(unknown)} under <robot> '
                              '(no dynamics read from them)')

    def _add_link(self, element):
        name = element.get('name')
        if not name:
            raise URDFError('a <link> has no name attribute; give every link a unique name')
        if name in self.links:
            raise URDFError(f'duplicate link or joint names [{name!r}]; names must be unique')
        self.links[name] = element
        self._inertials[name] = element.find('inertial')

    def _add_joint(self, element):
        name = element.get('name')
        if not name:
            raise URDFError('a <joint> has no name attribute; give every joint a unique name')
        if name in self.joints:
            raise URDFError(f'duplicate link or joint names [{name!r}]; names must be unique')
        kind = element.get('type')
        if kind is None:
            raise URDFError(f"joint[@name='{name}']: attribute type is required; one of "
                            f'{JOINT_TYPES}')
        if kind not in JOINT_TYPES:
            raise URDFError(f"joint[@name='{name}']: invalid joint type {kind!r}; one of "
                            f'{JOINT_TYPES}')
        parent, child = element.find('parent'), element.find('child')
        parent = None if parent is None else parent.get('link')
        child = None if child is None or not parent else child.get('link')
        if not parent or not child:
            tag = 'child' if parent else 'parent'
            raise URDFError(f"joint[@name='{name}']: <{tag} link=\"\"/> is required")
        self.joints[name] = Joint(element, name, kind, parent, child)

    def body(self, link):
        """``(mass, com (3,), inertia about com (3, 3))`` in the link frame, or None."""
        if link not in self._bodies:
            self._bodies[link] = _inertial_body(self._inertials[link], link)
        return self._bodies[link]

    def has_inertial(self, link):
        """Tell whether ``link`` has an ``<inertial>`` (unread)."""
        return self._inertials[link] is not None

    def parts(self, link):
        """Return the checked :func:`_inertial_parts` of ``link`` (None: no inertial), unbuilt.

        :func:`stacked_bodies` builds the bodies of many at once (one numpy pass).
        """
        return _inertial_parts(self._inertials[link], link)

    def bodies(self, links):
        """Return :meth:`body` of each of ``links``, the unread ones read together.

        They are read in order (the same first error); their rotations and inertias are
        computed stacked, the same values as one by one, bit for bit.
        """
        parts = [(link, _inertial_parts(self._inertials[link], link)) for link in links
                 if link not in self._bodies]
        read = [(link, part) for link, part in parts if part is not None]
        self._bodies.update((link, None) for link, part in parts if part is None)
        if read:
            com, inertia = _stacked([part for _, part in read])
            self._bodies.update((link, (part[0], com[k], inertia[k]))
                                for k, (link, part) in enumerate(read))
        return [self._bodies[link] for link in links]


def parse(text):
    """Return the :class:`Document` of URDF text (parsed by :mod:`.urdf_xml`, checked safe)."""
    return Document(parse_xml(text))


def _inertial_body(inertial, link):
    parts = _inertial_parts(inertial, link)
    if parts is None:
        return None
    mass, origin, (ixx, iyy, izz, ixy, iyz, ixz) = parts
    R, p = _pose(origin)
    inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return mass, p, (inertia if R is IDENTITY[0] else R @ inertia @ R.T)


def stacked_bodies(parts):
    """Masses (N,), coms (N, 3) and inertias about the coms (N, 3, 3) of :meth:`Document.parts`.

    The values of :meth:`Document.body`, bit for bit (:func:`_stacked`).
    """
    com, inertia = _stacked(parts)
    return np.array([mass for mass, _, _ in parts]), com, inertia


def _stacked(parts):
    """Coms (N, 3) and inertias (N, 3, 3) of :func:`_inertial_parts` results, link frame."""
    com = np.array([[0.0, 0.0, 0.0] if origin is None else origin[0] for _, origin, _ in parts])
    inertia = np.array([values for _, _, values in parts])[:, _SYMMETRIC]
    inertia = inertia.reshape(-1, 3, 3)
    turned = [k for k, (_, origin, _) in enumerate(parts)
              if origin is not None and origin[1] != [0.0, 0.0, 0.0]]
    if turned:
        R = _rotations([rpy_entries(parts[k][1][1]) for k in turned])
        inertia[turned] = R @ inertia[turned] @ R.transpose(0, 2, 1)
    return com, inertia


def _inertial_parts(inertial, link):
    """``(mass, origin parts or None, six moments)`` of ``<inertial>``, checked; None if absent.

    Every check of the inertial, in order; no array is built (:func:`_inertial_body`,
    :meth:`Document.bodies` build them).
    """
    if inertial is None:
        return None
    origin = _pose_parts(inertial.find('origin'), INERTIAL, link)
    mass_element, moments = inertial.find('mass'), inertial.find('inertia')
    mass_text = None if mass_element is None else mass_element.get('value')
    if mass_text is None:
        raise URDFError(f'{INERTIAL.format(link)}/mass: <mass value=""/> is required (kg)')
    mass = number(mass_text, INERTIAL + '/mass value', link)
    if moments is None:                           # a point mass, as urdfdom reads it
        warn(f'link {link!r}: <inertial> has no <inertia>: loaded as a point mass of '
             f'{mass:g} kg at its origin, as urdfdom (Pinocchio, KDL) reads it; add <inertia '
             'ixx= iyy= izz= ixy= ixz= iyz=/> if the link has rotational inertia')
        texts = ['0'] * 6
    else:
        texts = list(map(moments.get, MOMENTS))
    values = plain_floats(texts)                               # the loop below, at once
    if values is None:
        values, where = [], INERTIAL.format(link)
        for key, text in zip(MOMENTS, texts):
            if text is None:
                raise URDFError(f'{where}/inertia: attribute {key} is required (kg m^2; all '
                                'six of ixx iyy izz ixy ixz iyz)')
            values.append(number(text, f'{where}/inertia {key}'))
    if not math.isfinite(sum(values)) and not all(map(math.isfinite, values)):
        inertia_matrix(values, f'link {link!r} inertia')          # raises, naming the link
    if not math.isfinite(mass):
        raise URDFError(f'link {link!r}: mass is not finite')
    if mass < 0:
        raise URDFError(f'link {link!r}: negative mass {mass}; a mass must be >= 0 kg')
    note = ' ' in mass_text + ''.join(texts) and spaced_inertial_note(
        link, mass_text, dict(zip(MOMENTS, texts)))           # urdfdom reads otherwise
    if note:
        warn(note)
    return mass, origin, values


def stacked_poses(parts):
    """Rotations (N, 3, 3) and translations (N, 3) of :func:`_pose_parts` results at once.

    The values of :func:`_pose` of each part, bit for bit (the same entries).
    """
    return (_rotations([_UNTURNED if part is None else _entries(part[1]) for part in parts]),
            np.array([[0.0, 0.0, 0.0] if part is None else part[0] for part in parts]))


def _pose(parts):
    """``(R, p)`` of :func:`_pose_parts`' result (identity when the origin is absent)."""
    if parts is None:
        return IDENTITY
    xyz, rpy = parts
    return (IDENTITY[0] if rpy == [0.0, 0.0, 0.0] else
            np.array(rpy_entries(rpy)).reshape(3, 3)), np.array(xyz)


def _entries(rpy):
    """Return the rotation's nine entries (:func:`~.urdf_numbers.rpy_entries`; 1s, 0s if 0)."""
    return _UNTURNED if rpy == [0.0, 0.0, 0.0] else rpy_entries(rpy)


def _rotations(entries):
    """Rotations (N, 3, 3) of :func:`_entries` lists: one array, row by row.

    :func:`~robot_dynamics.spatial.vectors.rpy_matrix`'s values, bit for bit.
    """
    return np.array(entries).reshape(-1, 3, 3)


def _pose_parts(origin, template, name):
    """``(xyz, rpy)`` lists of an ``<origin>`` element, checked finite; None when absent.

    ``template.format(name)`` (:data:`JOINT`, :data:`INERTIAL`): where it is, for messages.
    """
    if origin is None:
        return None
    xyz, rpy = origin.get('xyz', '0 0 0'), origin.get('rpy', '0 0 0')
    values = plain_pose(xyz, rpy)
    if values is not None:                                         # the lines below, at once
        return values
    where = template.format(name)
    xyz = numbers(xyz, 3, f'{where}/origin xyz')
    rpy = numbers(rpy, 3, f'{where}/origin rpy')
    for value, what in ((xyz, 'xyz'), (rpy, 'rpy')):
        if not all(map(math.isfinite, value)):
            name = where.split("'")[1] if "'" in where else where
            raise URDFError(f'joint {name!r}: origin {what} contains NaN or inf'
                            if where.startswith('joint') else
                            f'{where}/origin {what} contains NaN or inf')
    return xyz, rpy
