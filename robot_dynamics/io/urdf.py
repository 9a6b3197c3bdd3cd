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

- Chain: ``base_link`` (default: the root, or below a floating or planar joint that alone
  leaves its body: a mobile base above the arm) to ``tip_link`` (default: chosen by the rules of
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
  ``mechanical_reduction`` (ros2_control joint form) → gear ratio (its magnitude: a negative
  reduction is a motor turned over, named in a ``ModelWarning``); an actuator's
  ``<rotorInertia>`` (kg m², a robot_dynamics extension) → rotor inertia.
- Tolerant where no dynamics are at stake: visuals, collisions, materials, textures, sensors,
  gazebo and ros2_control tags are not read (:mod:`robot_dynamics.io.urdf_elements`).
- Linear time and no recursion: a 5 MB URDF loads in well under a second; chains of any
  depth of fixed links load.
- Safety (:mod:`robot_dynamics.io.urdf_xml`): a document with a DOCTYPE or an entity
  declaration is refused where the XML parser meets it, before any entity is declared or
  expanded, so no URDF can make the parser read a file or expand entities. xacro sources are
  refused with the command that expands them; xacro's output (its namespace declared, macro
  calls in comments) loads. Both are decided from the parsed document, never from text in a
  comment; the XML is read as TinyXML reads it (no namespace processing).
"""

import numpy as np

from robot_dynamics.errors import URDFError, warn
from robot_dynamics.io.files import read_text_file
from robot_dynamics.io.urdf_bodies import (chain_bodies, hold_chain_joints, locked_note,
                                           locked_positions, merged_bodies)
from robot_dynamics.io.urdf_elements import parse
from robot_dynamics.io.urdf_transmissions import transmissions
from robot_dynamics.io.urdf_tree import Tree
from robot_dynamics.io.urdf_xml import decode

MAX_URDF_BYTES = 50 * 1024 * 1024
#: The fields of :meth:`~robot_dynamics.io.urdf_elements.Joint.chain_numbers`' values, in order.
NUMBER_FIELDS = ('lower_limit', 'upper_limit', 'velocity_limit', 'effort_limit',
                 'viscous_friction', 'coulomb_friction')


def read_urdf_text(urdf):
    """Return URDF XML text from a path, the text or bytes (size-bounded, no NUL characters).

    Bytes and files are UTF-8, or in the encoding their XML declaration names
    (:func:`~robot_dynamics.io.urdf_xml.decode`). A byte-order mark and blank lines before
    the XML declaration are dropped (TinyXML, which Pinocchio's and KDL's parsers use, skips
    them), and so are NUL characters after the document (pybullet's ``humanoid.urdf``: TinyXML
    reads a C string and stops at the first); NULs inside it are refused (UTF-16 or UTF-32).
    What the parser refuses (a DTD, xacro) is :mod:`robot_dynamics.io.urdf_xml`'s.
    """
    if isinstance(urdf, (bytes, bytearray)):
        urdf = decode(bytes(urdf), 'URDF bytes')
    text = str(urdf)
    if '<' not in text:
        text = read_text_file(text, 'URDF', MAX_URDF_BYTES, URDFError,
                              'strip meshes or comments', decode)
    if len(text) > MAX_URDF_BYTES:
        raise URDFError(f'URDF text is larger than {MAX_URDF_BYTES >> 20} MiB')
    text = text.rstrip('\x00 \t\r\n')       # an exporter's C-string terminator written out
    if '\x00' in text:
        raise URDFError('URDF text contains NUL characters (UTF-16 or UTF-32?); give UTF-8 '
                        'text')
    return text.lstrip('\ufeff \t\r\n')


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
    base, passed = (base_link, []) if base_link else tree.default_base()
    tree.check_link(base, 'base_link')
    if not tip_link:                             # None or the nodes' '': the default
        tip = tree.choose_tip(base if tree.rigid_body(base)[1] else _mount(tree, base, None))
    else:
        tree.check_link(tip_link, 'tip_link')
        tip = tip_link
    start = _mount(tree, base, tip)
    given = dict(locked_joints or {})
    held = hold_chain_joints(tree, start, tip, given)
    if held:                                     # the held joints are fixed now
        tree = Tree(document)
    moving, placements, fixed, locked, tip_pose = chain_bodies(tree, start, tip)
    if start != base:                            # the first placement from base's frame
        R_base, p_base = tree.rigid_body(start)[0][base]
        placements = (np.concatenate([[R_base.T @ placements[0][0]], placements[0][1:]]),
                      np.concatenate([[R_base.T @ (placements[1][0] - p_base)],
                                      placements[1][1:]]))
    names = [joint.name for joint in moving]
    given = {name: value for name, value in given.items() if name not in held}
    branches, positions, notes = locked_positions(tree, locked, set(names), given, held)
    fields = _joint_fields(moving, placements)
    mass, com, inertia = merged_bodies(fixed, branches, positions)
    gravity, turned = _base_gravity(tree, base) if base != tree.root else (None, [])
    fields.update(mass=mass, com=com, inertia=inertia, tip_rotation=tip_pose[0],
                  tip_translation=tip_pose[1], name=document.name, base_link=base, tip_link=tip,
                  source='urdf', locked_joints=positions, locked_branches=branches,
                  chain_choice=_mounted_choice(tree.choice, base, start))
    if gravity is not None:
        fields['gravity'] = gravity
    gear, rotor = transmissions(document)
    if gear or rotor:
        fields['gear_ratio'] = [abs(gear.get(n, 1.0)) for n in names]
        fields['rotor_inertia'] = [rotor.get(n, 0.0) for n in names]
    followers = {name for name, master, *_ in branches.mimics if master in given}
    defaulted = set(positions) - set(given) - followers          # locked without being asked
    messages = document.notes + _floating_note(passed, base) + turned
    messages += [locked_note(branches, positions, notes)] if defaulted else []
    messages += _limit_notes(moving, fields['lower_limit'])
    messages += _degree_note(fields) + _mimic_note(moving)
    messages += _friction_note(fields, urdf_friction)
    messages += _reversed_note([(n, gear[n]) for n in names if gear.get(n, 1.0) < 0])
    for message in messages:
        warn(message)
    return fields


def _mount(tree, base, tip):
    """Return the link the chain's path starts from: ``base``, or the link it is fixed below.

    A ``base_link`` fixed beside the chain (ROS-Industrial's ``base`` frame, fixed to
    ``base_link``; a mounting frame) is a frame of the fixed base as much as the links above
    it: the chain starts at the nearest of those (through fixed joints) that ``tip`` is below,
    if a moving joint is between (``tip`` None: that has a moving joint below it). Otherwise
    ``base`` (the usual errors).
    """
    if base == tree.root:                        # every link is below it
        return base
    link = base
    while tip is None or not _below(tree, tip, link):
        joint = tree.parent_joint.get(link)
        if joint is None or joint.moving:
            return base
        link = joint.parent
        if tip is None and tree.rigid_body(link)[1]:
            return link
    moves = link == base or any(joint.moving for joint in tree.path(link, tip))
    return link if moves else base


def _mounted_choice(choice, base, start):
    """Return the automatic choice's explanation, naming ``base`` if fixed beside ``start``."""
    if not choice or base == start:
        return choice
    return f'{choice}; base frame {base!r}, fixed to {start!r} (the chain starts there)'


def _below(tree, tip, link):
    """Tell whether ``tip`` is ``link`` or below it."""
    while tip != link:
        joint = tree.parent_joint.get(tip)
        if joint is None:
            return False
        tip = joint.parent
    return True


def _base_gravity(tree, base):
    """Gravity in ``base``'s frame, and a note if the joints above ``base`` turn it.

    The root of a URDF is upright (z up, REP 103): Pinocchio, KDL and Gazebo put gravity
    along its -z. A base below the root is turned by the joints above it (a ceiling or wall
    mount under ``world``, a tilted arm mount, a torso lift): the root's gravity is turned into
    its frame by their placements at 0, as in Pinocchio's model of the whole file with them
    locked at 0. Exact through fixed and prismatic joints; below a revolute (floating, planar)
    joint it holds with that joint at 0 (at its origin), and the note says so.
    """
    standard, R, turning = np.array([0.0, 0.0, -9.81]), np.eye(3), []
    above = tree.path(tree.root, base)[::-1]                 # from base up to the root
    for joint in above:
        if joint.type not in ('fixed', 'prismatic'):
            turning.append(joint.name)
        R = joint.origin[0] @ R                             # the placement at q = 0
    gravity = R.T @ standard
    if np.abs(gravity - standard).max() <= 1e-12 * 9.81:     # a turn about z (or none)
        return standard, []
    values = ', '.join(f'{g:.6g}' if abs(g) > 1e-12 else '0' for g in gravity)
    where = f'gravity [{values}] m/s^2 in the frame of base_link {base!r}'
    fix = 'pass gravity= (node parameter gravity) in the base frame'
    if turning:
        return gravity, [f"{where}: the moving joint(s) above it ({', '.join(reversed(turning))})"
                         f' turn it, here at 0, from the root {tree.root!r}, upright (z up) as '
                         f'Pinocchio and ROS read a URDF; {fix} for where they are']
    kinds = 'fixed and prismatic' if any(j.type == 'prismatic' for j in above) else 'fixed'
    names = ', '.join(joint.name for joint in reversed(above))
    return gravity, [f'{where}: the {kinds} joints above it ({names}) turn it from the root '
                     f'{tree.root!r}, upright (z up) as Pinocchio and ROS read a URDF; {fix} if '
                     'the root is not upright']


def _floating_note(passed, base):
    """Name the floating or planar joints above the default base (the chain starts below)."""
    if not passed:
        return []
    listed = ', '.join(f'{joint.name!r} ({joint.type})' for joint in passed)
    return [f'URDF joint(s) {listed} above the arm: a mobile or floating base; the fixed-base '
            f'chain starts below, at base_link {base!r}, as Pinocchio\'s model with them locked '
            'at their origin; pass base_link= (command line: --base-link) to choose another']


def _mimic_note(moving):
    """Name the chain's ``<mimic>`` joints: coordinates of their own (a finger as ``tip_link``).

    Pinocchio and KDL load a mimic joint as an independent joint; so does the chain, and the
    caller keeps ``q = multiplier q_master + offset`` (it used to be refused).
    """
    coupled = [(joint.name, *joint.mimic) for joint in moving if joint.mimic is not None]
    if not coupled:
        return []
    listed = ', '.join(f'{name} = {factor:g} {master} + {offset:g}'
                       for name, master, factor, offset in coupled)
    return [f'URDF <mimic> joint(s) on the chain, loaded as coordinates of their own, as '
            f'Pinocchio and KDL load them: keep {listed} in q, qd and qdd yourself, or choose '
            'a tip_link above them (command line: --tip-link) so that they are locked and '
            'follow']


def _reversed_note(reversed_joints):
    """Name the chain joints whose transmission's reduction is negative (a motor turned over).

    The sign says which way the motor turns; the dynamics see the reduction squared (the
    reflected rotor inertia), so its magnitude is the gear ratio. Kept negative, the ROS nodes'
    plausibility check refused the model (red team: ``-1`` on a reversed joint).
    """
    if not reversed_joints:
        return []
    listed = ', '.join(f'{name} ({value:g})' for name, value in reversed_joints)
    return [f'URDF <transmission> reduction negative on {listed}: the motor turns the other way, '
            'which no torque of the dynamics depends on; gear ratio = its magnitude']


def _friction_note(fields, included):
    """Name the joints whose ``<dynamics>`` carries friction; zero it if not ``included``."""
    units = {'revolute': ('N m s/rad', 'N m'), 'prismatic': ('N s/m', 'N')}
    given = [(f'{name} (damping {d:g} {units[kind][0]}, friction {f:g} {units[kind][1]})',
              min(d, f)) for name, kind, d, f in zip(
                 fields['joint_names'], fields['joint_types'], fields['viscous_friction'],
                 fields['coulomb_friction']) if d or f]
    if not given:
        return []
    terms = [term for term, _ in given]
    negative = [term for term, least in given if least < 0]
    if negative and included:
        raise URDFError(f"URDF <dynamics> friction negative on {', '.join(negative)}: friction "
                        'must be >= 0; fix the URDF, or leave its friction out with '
                        'urdf_friction=False (command line: --no-urdf-friction; node parameter '
                        'urdf_friction: false)')
    if not included:
        fields['viscous_friction'] = [0.0] * len(fields['joint_names'])
        fields['coulomb_friction'] = [0.0] * len(fields['joint_names'])
        return [f"URDF <dynamics> friction left out (urdf_friction off): {', '.join(terms)}"]
    return [f"URDF <dynamics> friction included in every torque: {', '.join(terms)}; "
            'Pinocchio and KDL ignore it (often Gazebo tuning): leave it out with '
            'urdf_friction=False, --no-urdf-friction or the node parameter urdf_friction: false']


def _degree_note(fields):
    """Name the revolute chain joints whose limits look like degrees (4 pi to 1000 rad).

    URDF limits are radians; an ABB- or Fanuc-style ``lower="-165" upper="165"`` is 26 turns,
    so no trajectory check would ever meet it. Loaded as written (1000 and more: "no limit").
    """
    wide = [(name, lower, upper) for name, kind, lower, upper in zip(
        fields['joint_names'], fields['joint_types'], fields['lower_limit'],
        fields['upper_limit']) if kind == 'revolute' and 12.566370615 < max(-lower, upper) < 1000]
    if not wide:
        return []
    listed = ', '.join(f'{name} ({lower:g} to {upper:g})' for name, lower, upper in wide)
    return [f'URDF <limit lower= upper=> beyond 2 turns on {listed}: degrees? URDF limits are '
            'radians (165 degrees = 2.88 rad); loaded as written']


def _limit_notes(moving, lower_limits):
    """Name the chain joints whose ``<limit>`` has no range (loaded moving, no position limit).

    ``lower_limits``: the loaded ones; only a joint loaded without one (-inf) can have no range.

    One line for the exporters' all-zero "not set" pattern (no position, effort or velocity
    limit: unknown), one for other equal ``lower``/``upper``, one for inverted ones
    (docs/models.md).
    """
    ranges = [(joint, joint.empty_range) for joint, lower in zip(moving, lower_limits)
              if lower == -np.inf]
    ranges = [(joint, bounds) for joint, bounds in ranges if bounds is not None]
    unset = [joint.name for joint, _ in ranges if joint.unset_limits]
    empty = [(joint.name, *bounds) for joint, bounds in ranges if joint.name not in unset]
    equal = [(name, lower) for name, lower, upper in empty if lower == upper]
    inverted = [(name, lower, upper) for name, lower, upper in empty if lower > upper]
    hint = ('as Pinocchio and KDL move them; to hold one fixed, lock it: locked_joints='
            "{{'{0}': {1:g}}} (command line: --lock {0}={1:g})")
    notes = []
    if unset:
        notes.append(f'URDF <limit lower="0" upper="0" effort="0" velocity="0"/> on '
                     f"{len(unset)} joint(s) ({', '.join(unset)}): an exporter's \"not set\" "
                     '(the SolidWorks exporter writes it on every joint), loaded moving with no '
                     'position, effort or velocity limit (unknown), ' + hint.format(unset[0], 0))
    if equal:
        listed = ', '.join(f'{name} at {value:g}' for name, value in equal)
        notes.append(f'URDF <limit lower= upper=> equal (zero width) on {listed}: loaded moving '
                     'with no position limit, ' + hint.format(*equal[0]))
    if inverted:
        listed = ', '.join(f'{name} (lower {lower:g}, upper {upper:g})'
                           for name, lower, upper in inverted)
        notes.append(f'URDF <limit lower= upper=> inverted (lower > upper) on {listed}: loaded '
                     'moving with no position limit, as Pinocchio and KDL move them; swap '
                     'lower and upper to limit it')
    return notes


def _joint_fields(moving, placements):
    """Per-joint arrays of the chain: type, axis, placement, limits, friction."""
    fields = dict(
        joint_types=['prismatic' if j.type == 'prismatic' else 'revolute' for j in moving],
        joint_names=[j.name for j in moving], link_names=[j.child for j in moving],
        axis=[j.unit_axis for j in moving],
        placement_rotation=placements[0], placement_translation=placements[1])
    numbers = [joint.chain_numbers() for joint in moving]          # the lines below, at once
    if None not in numbers:
        fields.update(zip(NUMBER_FIELDS, map(list, zip(*numbers))))
        return fields
    limits = [joint.limits() for joint in moving]
    fields.update(
        lower_limit=[lower for lower, _ in limits], upper_limit=[upper for _, upper in limits],
        velocity_limit=[j.rate_limit('velocity') for j in moving],
        effort_limit=[j.rate_limit('effort') for j in moving],
        viscous_friction=[j.attribute('dynamics', 'damping', 0.0) for j in moving],
        coulomb_friction=[j.attribute('dynamics', 'friction', 0.0) for j in moving])
    return fields
