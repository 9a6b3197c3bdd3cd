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
"""What a CSV recording's column holds: a field (position, velocity, effort) of a joint.

The names loggers write (any case, a unit in brackets after any of them: ``q_j1 [deg]``):

- a prefix: ``q_<joint>``, ``position_<joint>``, ``pos_<joint>``; ``qd_``, ``dq_``,
  ``velocity_``, ``vel_``; ``tau_``, ``effort_``, ``torque_``, ``eff_``;
- a suffix: ``<joint>_pos``, ``<joint>_position``, ``<joint>_vel``, ``<joint>_velocity``,
  ``<joint>_eff``, ``<joint>_effort``, ``<joint>_torque``, ``<joint>_tau`` (also after ``.``
  or ``/``);
- a number alone: ``q1``, ``dq1``, ``tau1`` (joints ``1``…); ``rostopic echo -p``'s
  ``field.position0``…;
- PlotJuggler's ``<topic>/<joint>/position``;
- Franka's (libfranka ``RobotState``): ``tau_J_<k>`` the measured joint torque of joint ``k``,
  a number or a name, when ``k`` has a position column (a joint named ``J_<k>`` keeps its
  name). The desired and
  external quantities (``q_d``, ``dq_d``, ``tau_J_d``, ``dtau_J``, ``tau_ext…``) are no
  measured state: left out, never read as the joint's torque.
"""

import re

import numpy as np

from robot_dynamics.io.recording_base import RecordingError

FIELDS = ('position', 'velocity', 'effort')
_PREFIXES = {'position': ('q_', 'position_', 'pos_'),
             'velocity': ('qd_', 'dq_', 'velocity_', 'vel_'),
             'effort': ('tau_', 'effort_', 'torque_', 'eff_')}
_SUFFIXES = re.compile(r'(.+?)[_./](pos|position|vel|velocity|eff|effort|torque|tau)', re.I)
_SUFFIX_FIELD = {'pos': 'position', 'position': 'position', 'vel': 'velocity',
                 'velocity': 'velocity'}
_NUMBERED = re.compile(r'(?:field\.)?(q|qd|dq|tau|position|velocity|effort)(\d+)', re.I)
_NUMBER_FIELD = {'q': 'position', 'qd': 'velocity', 'dq': 'velocity', 'tau': 'effort',
                 'position': 'position', 'velocity': 'velocity', 'effort': 'effort'}
#: Franka's quantities that are no measured state: desired, derivative, external torques.
_NOT_STATE = re.compile(r'(q_d|dq_d|ddq_d|tau_j_d|dtau_j|tau_ext)(_|\d|$).*', re.I)
#: Franka's measured torque ``tau_J_<k>`` (read as tau_ of joint ``J_<k>`` first).
_FRANKA_TORQUE = re.compile(r'J_?(.+)')
#: PlotJuggler's columns of a ``sensor_msgs/JointState`` topic.
_PLOTJUGGLER = re.compile(r'(.*)/([^/]+)/(position|velocity|effort)')
#: Units a joint column's name may give in brackets (``q_j1 [deg]``), and their SI factor;
#: compared without spaces, dots, hyphens and case (``N.m``, ``Nm``, ``N m``, ``Newton-meter``).
_DEGREE = np.pi / 180
_UNITS = {'position': {'rad': 1.0, 'radian': 1.0, 'radians': 1.0, 'deg': _DEGREE,
                       'degree': _DEGREE, 'degrees': _DEGREE, '°': _DEGREE, 'm': 1.0,
                       'mm': 1e-3},
          'velocity': {'rad/s': 1.0, 'rad/sec': 1.0, 'radians/s': 1.0, 'deg/s': _DEGREE,
                       'deg/sec': _DEGREE, 'degrees/s': _DEGREE, '°/s': _DEGREE, 'm/s': 1.0,
                       'mm/s': 1e-3},
          'effort': {'nm': 1.0, 'n': 1.0, 'mnm': 1e-3, 'knm': 1e3, 'newtonmeter': 1.0,
                     'newtonmeters': 1.0, 'newton': 1.0}}
_SHOWN = {'position': 'rad, deg, m, mm', 'velocity': 'rad/s, deg/s, m/s, mm/s',
          'effort': 'N m, N, mN m, kN m'}
BRACKETS = re.compile(r'(.*?)\s*[\[(]\s*([^\])]*?)\s*[\])]')


#: A column of a ``JointState``'s joint names as text (bag-to-CSV tools: ``name_0``, ``name[0]``).
_NAME_COLUMN = re.compile(r'(?:.*[./])?(?:names?|joint_names?)\s*[_.\[]?\s*(\d+)\]?', re.I)


def named_by_text(header, texts, names, path):
    """Return ``names`` with each numbered joint renamed as its name column says (``name_0``).

    A bag-to-CSV tool flattens ``JointState`` into ``name_0``, ``position_0``…: the joint of
    ``position_0`` is the text in ``name_0``, in the message's order (often not the chain's).
    ``texts(column)``: the cells of a column as text. Refuse a name that changes between rows.
    """
    given = {found[1]: k for k, h in enumerate(header) for found in [_NAME_COLUMN.fullmatch(h)]
             if found}
    numbered = [name for name in names if name.isdigit()]
    if not numbered or not all(name in given for name in numbered):
        return names
    renamed = {}
    for name in numbered:
        cells = {cell.strip() for cell in texts(given[name])} - {''}
        if len(cells) != 1:
            raise RecordingError(
                f'{path}: column {header[given[name]][:60]!r} names {len(cells)} joints '
                f'({", ".join(sorted(cells)[:3])[:120]}): which joint its values belong to '
                'cannot be told; write one column per joint, named after it (q_<joint>)')
        renamed[name] = cells.pop()
    names = [renamed.get(name, name) for name in names]
    if len(set(names)) < len(names):
        raise RecordingError(f'{path}: the name columns name a joint twice (joints '
                             f'{names[:8]}); record each joint once')
    return names


def columns_of(header, path):
    """Return ``{field: {joint: (column, scale to SI)}}`` and PlotJuggler's joint topics.

    Refuse a quantity given in two columns (which one is meant cannot be told).
    """
    columns = {key: {} for key in FIELDS}
    sources = {}                                       # meaning → its columns
    topics = set()
    for k, h in enumerate(header):
        found = _PLOTJUGGLER.fullmatch(h)
        if found:
            topics.add(found[1])
            key, joint = found[3], found[2]
        else:
            key, joint = _field(h)
        if key:
            joint, scale = _unit(key, joint, h, path)
            columns[key].setdefault(joint, (k, scale))
            sources.setdefault((key, joint), []).append(h)
    _franka_torques(columns, sources)
    repeated = [(f'{key} of {joint!r}', given) for (key, joint), given in sources.items()
                if len(given) > 1]
    if repeated:
        shown = '; '.join(f'{what[:60]} in columns {", ".join(g[:60] for g in given[:4])}'
                          for what, given in repeated[:3])
        raise RecordingError(f'{path}: {len(repeated)} quantities given more than once '
                             f'({shown}); which one is meant cannot be told: keep one column '
                             'each')
    return columns, topics


def not_state(header):
    """Return whether a column holds Franka's desired, derivative or external values."""
    return bool(_NOT_STATE.fullmatch(header))


def _field(header):
    """Return ``(field, joint with its unit)`` of a column's name, or ``(None, None)``."""
    if _NOT_STATE.fullmatch(header):
        return None, None
    lower = header.lower()
    for key, prefixes in _PREFIXES.items():
        for prefix in prefixes:
            if lower.startswith(prefix) and len(header) > len(prefix):
                return key, header[len(prefix):]
    found = BRACKETS.fullmatch(header)
    name, unit = (found[1], header[len(found[1]):]) if found else (header, '')
    numbered = _NUMBERED.fullmatch(name)
    if numbered:
        return _NUMBER_FIELD[numbered[1].lower()], numbered[2] + unit
    suffixed = _SUFFIXES.fullmatch(name)
    if suffixed:
        return _SUFFIX_FIELD.get(suffixed[2].lower(), 'effort'), suffixed[1] + unit
    return None, None


def _franka_torques(columns, sources):
    """Read ``tau_J_<k>`` (``k``: a number or a name) as joint ``k``'s effort, as its position.

    Only when ``k`` has a position column and ``J_<k>`` none (a joint named ``J_1`` keeps it).
    """
    positions, efforts = columns['position'], columns['effort']
    for joint in list(efforts):
        found = _FRANKA_TORQUE.fullmatch(joint)
        if found and joint not in positions and found[1] in positions \
                and found[1] not in efforts:
            efforts[found[1]] = efforts.pop(joint)
            sources[('effort', found[1])] = sources.pop(('effort', joint))


def _unit(key, joint, header, path):
    """Return the joint's name without a unit in brackets, and the unit's SI factor.

    Refuse a unit that is none of a ``key``'s (an effort in A: a motor current, not a torque).
    """
    found = BRACKETS.fullmatch(joint)
    if not found:
        return joint, 1.0
    units = _UNITS[key]
    unit = re.sub(r'[\s.·*-]', '', found[2]).lower()
    if unit not in units:
        raise RecordingError(
            f'{path}: column {header[:60]!r}: the unit {found[2][:20]!r} is no unit of '
            f'{key} ({_SHOWN[key]}); record joint {key}s in SI units'
            + (' (the joint torques in N m, N for a prismatic joint; a motor current times the '
               'torque constant and the gear ratio)' if key == 'effort' else ''))
    return found[1], units[unit]
