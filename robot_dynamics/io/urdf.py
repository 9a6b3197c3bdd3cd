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
"""Read URDF with urdf_parser_py into the fields of a :class:`~.model.RobotModel`.

- Joints: ``revolute`` and ``continuous`` (one coordinate, no position limits), ``prismatic``,
  and ``fixed``: a link behind a fixed joint is merged into its moving parent (parallel-axis
  theorem); fixed joints before the first moving joint fold into its placement; fixed joints
  after the last one form the tool frame. ``floating`` and ``planar`` joints are rejected.
- ``<dynamics damping friction>`` → viscous and Coulomb friction; ``<limit>`` kept.
- ``<transmission>``: ``mechanicalReduction`` (ROS 1 actuator form) or ``mechanical_reduction``
  (ros2_control joint form) → gear ratio; an actuator's ``<rotorInertia>`` (kg m², a
  robot_dynamics extension) → rotor inertia.
- Safety: a document with a DOCTYPE or an entity declaration is refused before parsing, so no
  URDF can make the parser read a file or expand entities.
"""

import os
import warnings

import numpy as np

from robot_dynamics.errors import ModelWarning, URDFError
from robot_dynamics.spatial.inertia import combine_bodies, inertia_matrix
from robot_dynamics.spatial.vectors import rpy_matrix

MAX_URDF_BYTES = 50 * 1024 * 1024
# Read by this loader, unknown to urdf_parser_py: not worth a warning.
KNOWN_EXTENSION_TAGS = ('"rotorInertia"', '"mechanical_reduction"')


def read_urdf_text(urdf):
    """Return URDF XML text from a path, the text or UTF-8 bytes (refusing unsafe documents)."""
    if isinstance(urdf, (bytes, bytearray)):
        try:
            urdf = bytes(urdf).decode('utf-8')
        except UnicodeDecodeError as exc:
            raise URDFError(f'URDF bytes are not UTF-8 ({exc.reason} at byte {exc.start}); '
                            'give UTF-8 text') from None
    text = str(urdf)
    if '<' not in text:
        if not os.path.isfile(text):
            raise URDFError(f'URDF file {text!r} not found; give an existing path or the XML '
                            'text itself')
        if os.path.getsize(text) > MAX_URDF_BYTES:
            raise URDFError(f'URDF file {text!r} is larger than {MAX_URDF_BYTES >> 20} MiB; '
                            'strip meshes or comments')
        try:
            with open(text, encoding='utf-8') as handle:
                text = handle.read()
        except UnicodeDecodeError as exc:
            raise URDFError(f'URDF file {urdf!r} is not UTF-8 text ({exc.reason} at byte '
                            f'{exc.start}); save it as UTF-8') from None
    if len(text) > MAX_URDF_BYTES:
        raise URDFError(f'URDF text is larger than {MAX_URDF_BYTES >> 20} MiB')
    if '\x00' in text:
        raise URDFError('URDF text contains NUL characters (UTF-16 or UTF-32?); give UTF-8 '
                        'text')
    head = text.upper()
    if '<!DOCTYPE' in head or '<!ENTITY' in head:
        raise URDFError(DECLARATION_REFUSED)
    _refuse_declarations(text)
    return text


DECLARATION_REFUSED = ('URDF contains a DOCTYPE or ENTITY declaration, which is refused (entity '
                       'expansion and external entities are unsafe); expand xacro and remove '
                       'the DOCTYPE')


def _parser_input(text):
    """Return the XML for every parser: bytes with an XML declaration, else the text."""
    return text.encode('utf-8') if text.lstrip().startswith('<?xml') else text


def _refuse_declarations(text):
    """Scan with expat, exactly as the parsers will see the document; refuse any DTD.

    Defence in depth behind the textual check: a declared or detected encoding cannot smuggle
    a DOCTYPE past it, because expat reports the declaration after decoding.
    """
    from xml.parsers import expat

    def refuse(*_):
        raise URDFError(DECLARATION_REFUSED)

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    try:
        parser.Parse(_parser_input(text), True)
    except expat.ExpatError as exc:
        raise URDFError(f'malformed URDF: {exc}; check that the XML is well formed') from None


def _parse(text):
    import urdf_parser_py.xml_reflection.core as xml_core
    from urdf_parser_py.urdf import URDF
    messages = []
    saved = xml_core.on_error
    xml_core.on_error = messages.append
    try:
        robot = URDF.from_xml_string(_parser_input(text))
    except Exception as exc:
        raise URDFError(f'malformed URDF: {exc}; check that the XML is well formed and that '
                        'every <link> and <joint> has its required attributes') from None
    finally:
        xml_core.on_error = saved
    return robot, messages


def _pose(origin):
    if origin is None:
        return np.eye(3), np.zeros(3)
    xyz = np.zeros(3) if origin.xyz is None else np.array(origin.xyz, dtype=float)
    rpy = np.zeros(3) if origin.rpy is None else np.array(origin.rpy, dtype=float)
    return rpy_matrix(rpy), xyz


def _compose(a, b):
    """Pose ``a`` then ``b``: ``(R_a R_b, p_a + R_a p_b)``."""
    return a[0] @ b[0], a[1] + a[0] @ b[1]


def _link_body(link):
    """``(mass, com, inertia about com)`` in the link frame, or None without <inertial>."""
    inertial = link.inertial
    if inertial is None:
        return None
    R, p = _pose(inertial.origin)
    moments = inertial.inertia
    if moments is None:
        raise URDFError(f'link {link.name!r}: <inertial> has no <inertia>; add '
                        '<inertia ixx= iyy= izz= ixy= ixz= iyz=/>')
    values = [moments.ixx, moments.iyy, moments.izz, moments.ixy, moments.iyz, moments.ixz]
    mass = inertial.mass
    if mass is None or any(v is None for v in values):
        raise URDFError(f'link {link.name!r}: <inertial> needs <mass value=> and all six '
                        '<inertia> attributes')
    inertia = inertia_matrix(np.array(values, dtype=float), f'link {link.name!r} inertia')
    if not np.isfinite(mass):
        raise URDFError(f'link {link.name!r}: mass is not finite')
    if mass < 0:
        raise URDFError(f'link {link.name!r}: negative mass {mass}; a mass must be >= 0 kg')
    return float(mass), p, R @ inertia @ R.T


def _check_graph(robot):
    parents = {}
    for joint in robot.joints:
        if joint.child in parents:
            raise URDFError(f'link {joint.child!r} has two parent joints '
                            f'({parents[joint.child]!r} and {joint.name!r}): a kinematic loop; '
                            'only trees are supported')
        parents[joint.child] = joint.name
        for link in (joint.parent, joint.child):
            if link not in robot.link_map:
                raise URDFError(f'joint {joint.name!r} names unknown link {link!r}; declare '
                                f'<link name="{link}"/>')
    names = [j.name for j in robot.joints]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    links = [link.name for link in robot.links]
    duplicates += sorted({n for n in links if links.count(n) > 1})
    if duplicates:
        raise URDFError(f'duplicate link or joint names {duplicates}; names must be unique')
    roots = [link for link in robot.link_map if link not in robot.parent_map]
    if len(roots) != 1:
        raise URDFError(f'URDF must form one tree with one root link, found roots {roots}; '
                        'a cycle or a disconnected link?')
    return roots[0]


def _leaves(robot, start):
    """Leaves below ``start`` that end a chain of moving joints.

    A leaf hanging off by fixed joints only (a sensor or camera link) is dropped when another
    leaf's chain passes through the same moving joints and further.
    """
    found, stack = {}, [(start, ())]
    while stack:
        link, moving = stack.pop()
        children = robot.child_map.get(link, [])
        if not children:
            found[link] = moving
        for joint_name, child in children:
            kind = robot.joint_map[joint_name].type
            stack.append((child, moving if kind == 'fixed' else moving + (joint_name,)))
    return sorted(leaf for leaf, path in found.items()
                  if not any(len(other) > len(path) and other[:len(path)] == path
                             for other in found.values()))


def _chain(robot, base, tip):
    """Joint names from ``base`` to ``tip`` (moving and fixed)."""
    for name in (base, tip):
        if name not in robot.link_map:
            raise URDFError(f'unknown link {name!r}; links are {sorted(robot.link_map)}')
    joints, link = [], tip
    while link != base:
        if link not in robot.parent_map:
            raise URDFError(f'no path from base_link {base!r} to tip_link {tip!r}: '
                            f'{tip!r} is not below {base!r}; choose links of one branch')
        joint, link = robot.parent_map[link]
        joints.append(joint)
    return joints[::-1]


def _fixed_subtree_body(robot, link_name, on_chain):
    """Inertial data of ``link_name`` plus every link fixed to it off the chain, link frame."""
    bodies = []

    def visit(name, pose):
        body = _link_body(robot.link_map[name])
        if body is not None:
            m, c, inertia = body
            bodies.append((m, pose[0] @ c + pose[1], pose[0] @ inertia @ pose[0].T))
        for joint_name, child in robot.child_map.get(name, []):
            joint = robot.joint_map[joint_name]
            if joint.type == 'fixed' and child not in on_chain:
                visit(child, _compose(pose, _pose(joint.origin)))

    visit(link_name, (np.eye(3), np.zeros(3)))
    return combine_bodies(*bodies) if bodies else None


def urdf_fields(urdf, base_link=None, tip_link=None):
    """Return the model fields (a dict) of the chain ``base_link`` → ``tip_link`` of a URDF.

    See the module docstring. Raises :class:`URDFError`.
    """
    text = read_urdf_text(urdf)
    robot, parser_messages = _parse(text)
    root = _check_graph(robot)
    base = base_link or root
    if tip_link is None:
        leaves = _leaves(robot, base)
        if len(leaves) != 1:
            raise URDFError(f'the tree below {base!r} has several leaves {leaves}; pass '
                            'tip_link= to choose the chain')
        tip_link = leaves[0]
    chain = _chain(robot, base, tip_link)
    links_on_chain = {base} | {robot.joint_map[j].child for j in chain}

    fields = {key: [] for key in (
        'joint_types', 'joint_names', 'link_names', 'axis', 'placement_rotation',
        'placement_translation', 'lower_limit', 'upper_limit', 'velocity_limit', 'effort_limit',
        'viscous_friction', 'coulomb_friction', 'mass', 'com', 'inertia')}
    pending = (np.eye(3), np.zeros(3))   # fixed placement accumulated since the last body
    bodies = []                          # per moving body: list of (mass, com, inertia)
    for joint_name in chain:
        joint = robot.joint_map[joint_name]
        placement = _compose(pending, _pose(joint.origin))
        if joint.type == 'fixed':
            pending = placement
            if bodies:                   # a fixed link on the chain: merge into the body
                body = _fixed_subtree_body(robot, joint.child, links_on_chain)
                if body is not None:
                    m, c, inertia = body
                    R, p = placement
                    bodies[-1].append((m, R @ c + p, R @ inertia @ R.T))
            continue
        if joint.type not in ('revolute', 'continuous', 'prismatic'):
            raise URDFError(f'joint {joint.name!r} is {joint.type!r}; only revolute, continuous, '
                            'prismatic and fixed joints can form a serial chain')
        if joint.mimic is not None:
            raise URDFError(f'joint {joint.name!r} mimics another joint; mimic joints are not '
                            'supported: make it an independent joint or fixed')
        _append_joint(fields, joint, placement)
        pending = (np.eye(3), np.zeros(3))
        body = _fixed_subtree_body(robot, joint.child, links_on_chain)
        if body is None:
            raise URDFError(f'moving link {joint.child!r} (child of joint {joint.name!r}) has '
                            'no <inertial>; add <inertial> with <mass> and <inertia> (mass 0 '
                            'is allowed for a massless link)')
        bodies.append([body])
    if not bodies:
        raise URDFError(f'the chain from {base!r} to {tip_link!r} has no moving joint')
    for merged in bodies:
        m, c, inertia = combine_bodies(*merged) if len(merged) > 1 else merged[0]
        fields['mass'].append(m)
        fields['com'].append(c)
        fields['inertia'].append(inertia)
    _apply_transmissions(robot, text, fields)
    _refuse_locked_limits(text, fields['joint_names'])
    fields.update(tip_rotation=pending[0], tip_translation=pending[1], name=robot.name or 'robot',
                  base_link=base, tip_link=tip_link, source='urdf')
    notes = [f'URDF parser: {m}' for m in parser_messages
             if not any(tag in m for tag in KNOWN_EXTENSION_TAGS)]
    for note in notes:
        warnings.warn(note, ModelWarning, stacklevel=3)
    return fields


def _append_joint(fields, joint, placement):
    axis = np.array(joint.axis if joint.axis is not None else [1.0, 0.0, 0.0], dtype=float)
    if axis.shape != (3,) or not np.all(np.isfinite(axis)) or np.linalg.norm(axis) < 1e-9:
        raise URDFError(f'joint {joint.name!r}: <axis xyz> must be three finite numbers, not '
                        f'all zero; got {joint.axis}')
    for value, what in ((placement[1], 'origin xyz'), (placement[0], 'origin rpy')):
        if not np.all(np.isfinite(value)):
            raise URDFError(f'joint {joint.name!r}: {what} contains NaN or inf')
    fields['joint_types'].append('prismatic' if joint.type == 'prismatic' else 'revolute')
    fields['joint_names'].append(joint.name)
    fields['link_names'].append(joint.child)
    fields['axis'].append(axis)
    fields['placement_rotation'].append(placement[0])
    fields['placement_translation'].append(placement[1])
    limit = joint.limit
    lower = upper = None
    if limit is not None and joint.type != 'continuous':
        lower, upper = limit.lower, limit.upper
        if lower is not None and upper is not None and lower == upper:
            lower = upper = None     # lower/upper left out: urdf_parser_py's 0..0 default
    for what in ('effort', 'velocity'):
        value = getattr(limit, what, None) if limit is not None else None
        if value is not None and not value >= 0:
            raise URDFError(f'joint {joint.name!r}: <limit {what}="{value}"> must be >= 0 '
                            '(0: not given, as MoveIt and ros2_control read it)')
    fields['lower_limit'].append(-np.inf if lower is None else float(lower))
    fields['upper_limit'].append(np.inf if upper is None else float(upper))
    fields['velocity_limit'].append(_positive_or_inf(limit and limit.velocity))
    fields['effort_limit'].append(_positive_or_inf(limit and limit.effort))
    dynamics = joint.dynamics
    fields['viscous_friction'].append(float((dynamics and dynamics.damping) or 0.0))
    fields['coulomb_friction'].append(float((dynamics and dynamics.friction) or 0.0))


def _refuse_locked_limits(text, moving):
    """Refuse ``<limit lower="x" upper="x">`` written out on a moving joint: it cannot move.

    Left out, ``lower``/``upper`` default to 0 in the parser and mean "no position limit"
    here (a hand-written ``<limit effort= velocity=/>``); written equal, they are an error.
    """
    import xml.etree.ElementTree as ET
    root = ET.fromstring(_parser_input(text))
    for joint in root.iter('joint'):
        limit = joint.find('limit')
        if joint.get('name') not in moving or joint.get('type') == 'continuous' or \
                limit is None or limit.get('lower') is None or limit.get('upper') is None:
            continue
        if _float(limit.get('lower'), 'limit lower') == _float(limit.get('upper'),
                                                               'limit upper'):
            raise URDFError(f'joint {joint.get("name")!r}: <limit lower= upper=> are equal, '
                            'a joint that cannot move; make it fixed, give its range, or '
                            'leave both out for no position limit')


def _positive_or_inf(value):
    return np.inf if value is None or value <= 0 else float(value)


def _apply_transmissions(robot, text, fields):
    """Gear ratio and rotor inertia from ``<transmission>`` elements, by joint name."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(_parser_input(text))
    gear = {}
    rotor = {}
    for transmission in root.iter('transmission'):
        joints = [j.get('name') for j in transmission.findall('joint')]
        if len(joints) != 1:
            continue
        name = joints[0]
        for element in transmission.iter():
            if element.tag in ('mechanicalReduction', 'mechanical_reduction'):
                gear[name] = _float(element.text, f'transmission of {name!r} {element.tag}')
            elif element.tag == 'rotorInertia':
                rotor[name] = _float(element.text, f'transmission of {name!r} rotorInertia')
    if gear or rotor:
        names = fields['joint_names']
        fields['gear_ratio'] = [gear.get(n, 1.0) for n in names]
        fields['rotor_inertia'] = [rotor.get(n, 0.0) for n in names]


def _float(text, what):
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise URDFError(f'{what}: expected a number, got {text!r}') from None
    if not np.isfinite(value):
        raise URDFError(f'{what}: not finite')
    return value
