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
"""Read URDF into the fields of a :class:`~.model.RobotModel`: the whole robot, no mass dropped.

- Chain: ``base_link`` (default: the root) to ``tip_link`` (default: chosen by the rules of
  :mod:`robot_dynamics.io.urdf_tree`: the longest moving path, a gripper's fingers locked, the
  tool frame on ``tool0``/``flange``/… or the last moving link). Chain joints are
  ``revolute``, ``continuous`` (one coordinate, no position limits) and ``prismatic``.
- Every link below the chain's links is in the model (:mod:`robot_dynamics.io.urdf_bodies`):
  links behind fixed joints are merged into their moving parent (parallel-axis theorem);
  branches behind other moving joints are *locked* — merged rigidly at the joints' positions
  (``locked_joints`` name → value; default 0 clipped into the limits; a ``<mimic>`` of a locked
  joint follows it) — and one ``ModelWarning`` line names them. Fixed joints before the first
  moving joint fold into its placement; fixed joints after the last one form the tool frame.
  The base is fixed: links above it, and branches hanging from it before the first moving
  joint, load no chain joint and are left out.
- ``<dynamics damping friction>`` → viscous and Coulomb friction, included by default and
  named in one ``ModelWarning`` line (joint, damping, friction): many URDFs carry Gazebo tuning
  values there and Pinocchio and KDL ignore the tags; ``urdf_friction=False`` leaves them out
  (docs/models.md). ``<limit>`` kept.
- ``<transmission>``: ``mechanicalReduction`` (ROS 1 actuator or transmission form) or
  ``mechanical_reduction`` (ros2_control joint form) → gear ratio; an actuator's
  ``<rotorInertia>`` (kg m², a robot_dynamics extension) → rotor inertia.
- Tolerant where no dynamics are at stake: visuals, collisions, materials, textures, sensors,
  gazebo and ros2_control tags are not read (:mod:`robot_dynamics.io.urdf_elements`).
- Linear time and no recursion: a 5 MB URDF loads in well under a second; chains of any
  depth of fixed links load.
- Safety: a document with a DOCTYPE or an entity declaration is refused before parsing, so no
  URDF can make the parser read a file or expand entities.
"""


from robot_dynamics.errors import URDFError, warn
from robot_dynamics.io.files import read_text_file
from robot_dynamics.io.urdf_bodies import (chain_bodies, locked_note, locked_positions,
                                           merged_bodies)
from robot_dynamics.io.urdf_elements import parse, transmissions
from robot_dynamics.io.urdf_tree import Tree

MAX_URDF_BYTES = 50 * 1024 * 1024


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
        text = read_text_file(text, 'URDF', MAX_URDF_BYTES, URDFError,
                              'strip meshes or comments')
    if len(text) > MAX_URDF_BYTES:
        raise URDFError(f'URDF text is larger than {MAX_URDF_BYTES >> 20} MiB')
    if '\x00' in text:
        raise URDFError('URDF text contains NUL characters (UTF-16 or UTF-32?); give UTF-8 '
                        'text')
    if '<xacro:' in text:
        raise URDFError('URDF contains xacro macros (<xacro:...>); expand it first: xacro '
                        'robot.urdf.xacro > robot.urdf (ROS 2: ros2 run xacro xacro ...)')
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


def urdf_fields(urdf, base_link=None, tip_link=None, locked_joints=None, urdf_friction=True):
    """Return the model fields (a dict) of the chain ``base_link`` → ``tip_link`` of a URDF.

    ``locked_joints`` (name → position, rad or m) sets side-branch joints' positions.
    ``urdf_friction``: read ``<dynamics damping friction>`` as joint friction (False: zero).
    Besides the model's arrays, the fields hold ``locked_joints`` (every locked joint's
    position) and ``locked_branches`` (:class:`~robot_dynamics.io.locked.LockedBranches`, to
    re-merge at new positions). See the module docstring. Raises :class:`URDFError`.
    """
    document = parse(read_urdf_text(urdf))
    tree = Tree(document)
    base = base_link or tree.root
    tree.check_link(base, 'base_link')
    if tip_link is None:
        tip = tree.choose_tip(base)
    else:
        tree.check_link(tip_link, 'tip_link')
        tip = tip_link
    moving, placements, fixed, locked, tip_pose = chain_bodies(tree, base, tip)
    names = [joint.name for joint in moving]
    branches, positions, notes = locked_positions(tree, locked, set(names),
                                                  dict(locked_joints or {}))
    fields = _joint_fields(moving, placements)
    bodies = merged_bodies(fixed, branches, positions)
    fields.update(mass=[b[0] for b in bodies], com=[b[1] for b in bodies],
                  inertia=[b[2] for b in bodies], tip_rotation=tip_pose[0],
                  tip_translation=tip_pose[1], name=document.name, base_link=base, tip_link=tip,
                  source='urdf', locked_joints=positions, locked_branches=branches,
                  chain_choice=tree.choice)
    gear, rotor = transmissions(document)
    if gear or rotor:
        fields['gear_ratio'] = [gear.get(n, 1.0) for n in names]
        fields['rotor_inertia'] = [rotor.get(n, 0.0) for n in names]
    given = set(locked_joints or {})
    followers = {name for name, master, *_ in branches.mimics if master in given}
    defaulted = set(positions) - given - followers               # locked without being asked
    messages = document.notes + ([locked_note(branches, positions, notes)] if defaulted else [])
    messages += _friction_note(fields, urdf_friction)
    for message in messages:
        warn(message)
    return fields


def _friction_note(fields, included):
    """Name the joints whose ``<dynamics>`` carries friction; zero it if not ``included``."""
    units = {'revolute': ('N m s/rad', 'N m'), 'prismatic': ('N s/m', 'N')}
    terms = [f'{name} (damping {d:g} {units[kind][0]}, friction {f:g} {units[kind][1]})'
             for name, kind, d, f in zip(fields['joint_names'], fields['joint_types'],
                                         fields['viscous_friction'],
                                         fields['coulomb_friction']) if d or f]
    if not terms:
        return []
    if not included:
        fields['viscous_friction'] = [0.0] * len(fields['joint_names'])
        fields['coulomb_friction'] = [0.0] * len(fields['joint_names'])
        return [f"URDF <dynamics> friction left out (urdf_friction off): {', '.join(terms)}"]
    return [f"URDF <dynamics> friction included in every torque: {', '.join(terms)}; "
            'Pinocchio and KDL ignore it (often Gazebo tuning): leave it out with '
            'urdf_friction=False, --no-urdf-friction or the node parameter urdf_friction: false']


def _joint_fields(moving, placements):
    """Per-joint arrays of the chain: type, axis, placement, limits, friction."""
    limits = [joint.limits(strict=True) for joint in moving]
    return dict(
        joint_types=['prismatic' if j.type == 'prismatic' else 'revolute' for j in moving],
        joint_names=[j.name for j in moving], link_names=[j.child for j in moving],
        axis=[j.axis for j in moving],
        placement_rotation=[R for R, _ in placements],
        placement_translation=[p for _, p in placements],
        lower_limit=[lower for lower, _ in limits], upper_limit=[upper for _, upper in limits],
        velocity_limit=[j.rate_limit('velocity') for j in moving],
        effort_limit=[j.rate_limit('effort') for j in moving],
        viscous_friction=[j.attribute('dynamics', 'damping', 0.0) for j in moving],
        coulomb_friction=[j.attribute('dynamics', 'friction', 0.0) for j in moving])
