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
"""Read Denavit-Hartenberg parameters into the fields of a :class:`~.model.RobotModel`.

Schema (YAML or dict)::

    name: puma560                  # optional
    convention: standard           # 'standard' (distal: Paul, Turney-Mudge-Lee, Milićević,
                                   # Corke) or 'modified' (proximal: Craig, Renaud)
    gravity: [0, 0, -9.81]         # optional, m/s², base frame
    base: {xyz: [0, 0, 0], rpy: [0, 0, 0]}   # optional pose of DH frame 0 in the base frame
    tool: {xyz: [0, 0, 0], rpy: [0, 0, 0]}   # optional tool frame in the last DH frame
    links:                         # one entry per moving joint, base to tip
      - name: link1                # optional link name
        joint: joint1              # optional joint name
        type: revolute             # or prismatic
        a: 0.0                     # link length, m
        alpha: 1.5707963           # link twist, rad
        d: 0.0                     # link offset, m (prismatic: its value at q = 0)
        theta: 0.0                 # joint angle, rad (constant; prismatic joints only)
        offset: 0.0                # revolute: θ = q + offset; prismatic: d = q + d + offset
        mass: 0.0                  # kg
        com: [0, 0, 0]             # centre of mass in the convention's link frame i, m
        inertia: [ixx, iyy, izz, ixy, iyz, ixz]   # about the com, link-frame axes, kg m²
        viscous_friction: 0.0      # N m s/rad (N s/m)
        coulomb_friction: 0.0      # N m (N)
        rotor_inertia: 0.0         # kg m², motor side
        gear_ratio: 1.0            # joint-to-motor reduction
        limits: {lower: -3.14, upper: 3.14, velocity: 2.0, effort: 100.0}

Conventions, with the joint variable ``θ_i`` (revolute) or ``d_i`` (prismatic):

- standard: ``ⁱ⁻¹T_i = Rz(θ_i) Tz(d_i) Tx(a_i) Rx(α_i)``; joint i moves about/along ``z_{i-1}``
  and link i's frame sits at its distal end;
- modified: ``ⁱ⁻¹T_i = Rx(α_{i-1}) Tx(a_{i-1}) Rz(θ_i) Tz(d_i)``; joint i moves about/along
  ``z_i``; each entry holds ``a`` and ``alpha`` of the *preceding* common normal
  (Craig's table row i: ``α_{i-1}, a_{i-1}, d_i, θ_i``).
"""

import math
import numbers
import os

import numpy as np

from robot_dynamics.errors import DHError
from robot_dynamics.io.files import read_text_file, strict_float
from robot_dynamics.io.yaml_loader import load_yaml
from robot_dynamics.spatial.inertia import inertia_matrix
from robot_dynamics.spatial.vectors import rpy_matrix

CONVENTIONS = ('standard', 'modified')
_TOP_KEYS = {'name', 'convention', 'gravity', 'base', 'tool', 'links', 'description', 'source'}
_LINK_KEYS = {'name', 'joint', 'type', 'a', 'alpha', 'd', 'theta', 'offset', 'mass', 'com',
              'inertia', 'viscous_friction', 'coulomb_friction', 'rotor_inertia', 'gear_ratio',
              'limits'}
_LIMIT_KEYS = {'lower', 'upper', 'velocity', 'effort'}
MAX_DH_BYTES = 1 << 20     # 1 MiB: a 1000-link document is ~200 kB


def read_dh_document(dh):
    """Return the DH document as a dict from a path, YAML text or a dict."""
    if isinstance(dh, dict):
        return dh
    text = str(dh)
    if '\n' not in text and (text.endswith(('.yaml', '.yml')) or os.path.isfile(text)):
        text = read_text_file(text, 'DH', MAX_DH_BYTES, DHError,
                              'a DH document needs a few lines per link')
    if len(text) > MAX_DH_BYTES:
        raise DHError(f'DH text is larger than {MAX_DH_BYTES >> 20} MiB')
    document = load_yaml(text, 'DH YAML', DHError, MAX_DH_BYTES)
    if not isinstance(document, dict):
        raise DHError('DH document must be a mapping with a "links" list; see '
                      'robot_dynamics.io.dh for the schema')
    return document


def _number(value, where):
    """Return a finite float from any int/float number (numpy's too) or an angle string."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, str):
            try:
                value = float(_eval_angle(value))
            except (ValueError, ZeroDivisionError, OverflowError):
                raise DHError(f'{where}: expected a number, got {value!r}') from None
        else:
            raise DHError(f'{where}: expected a number, got {_short(value)}')
    try:
        value = float(value)
    except OverflowError:
        raise DHError(f'{where}: {_short(value)} is too large for a float') from None
    if not math.isfinite(value):
        raise DHError(f'{where}: must be finite, got {value}')
    return value


def _short(value, limit=80):
    """``repr`` of a value cut to ``limit`` characters (YAML aliases can nest deeply)."""
    import reprlib
    short = reprlib.Repr()
    short.maxstring = short.maxother = limit
    return short.repr(value)[:limit]


def _name(value, where):
    """Return a name: a string (or a number, as YAML may read one); refuse anything else."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise DHError(f'{where}: expected a string, got {_short(value)}')
    return str(value)


def _eval_angle(text):
    """Accept ``pi``, ``-pi/2``, ``pi/4``-style strings for angles."""
    cleaned = text.replace(' ', '').lower()
    sign = -1.0 if cleaned.startswith('-') else 1.0
    cleaned = cleaned.lstrip('+-')
    if cleaned.startswith('pi'):
        rest = cleaned[2:]
        if rest == '':
            return sign * math.pi
        if rest.startswith('/'):
            return sign * math.pi / strict_float(rest[1:])
    return strict_float(text)


def _vector(value, where, length=3):
    if not isinstance(value, (list, tuple)) or len(value) != length:
        raise DHError(f'{where}: expected a list of {length} numbers, got {_short(value)}')
    return np.array([_number(v, f'{where}[{k}]') for k, v in enumerate(value)])


def _pose(value, where):
    if value is None:
        return np.eye(3), np.zeros(3)
    if not isinstance(value, dict) or set(value) - {'xyz', 'rpy'}:
        raise DHError(f'{where}: expected {{xyz: [x, y, z], rpy: [r, p, y]}}, got '
                      f'{_short(value)}')
    return (rpy_matrix(_vector(value.get('rpy', [0, 0, 0]), f'{where}.rpy')),
            _vector(value.get('xyz', [0, 0, 0]), f'{where}.xyz'))


def _rot_x(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _transform(R, p):
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, p
    return T


def _fixed_part(link, convention):
    """Constant transforms around the joint motion, as 4×4 matrices ``(before, after)``.

    ``ⁱ⁻¹T_i = before · Joint(q) · after`` where ``Joint`` is ``Rz(q)`` or ``Tz(q)``.
    """
    a, alpha, d, theta, offset = (link[k] for k in ('a', 'alpha', 'd', 'theta', 'offset'))
    revolute = link['type'] == 'revolute'
    if revolute:
        along_z = _transform(_rot_z(offset), [0, 0, d])       # Rz(offset) Tz(d) commutes with Rz
    else:
        along_z = _transform(_rot_z(theta), [0, 0, d + offset])  # commutes with Tz(q)
    if convention == 'standard':
        return np.eye(4), along_z @ _transform(_rot_x(alpha), [a, 0, 0])
    return _transform(_rot_x(alpha), [a, 0, 0]) @ along_z, np.eye(4)


def _link(entry, i):
    where = f'links[{i}]'
    if not isinstance(entry, dict):
        raise DHError(f'{where}: expected a mapping of DH parameters, got {_short(entry)}')
    unknown = set(entry) - _LINK_KEYS
    if unknown:
        raise DHError(f'{where}: unknown field(s) {sorted(map(str, unknown))}; allowed fields '
                      f'are {sorted(_LINK_KEYS)}')
    kind = entry.get('type', 'revolute')
    if kind not in ('revolute', 'prismatic'):
        raise DHError(f'{where}.type: must be "revolute" or "prismatic", got {_short(kind)}')
    for key in ('a', 'alpha', 'd') + (('theta',) if kind == 'prismatic' else ()):
        if key not in entry:
            raise DHError(f'{where}: missing field {key!r}; every link needs a, alpha, d'
                          + (' and theta (prismatic)' if kind == 'prismatic' else ''))
    link = {'type': kind}
    for key in ('a', 'alpha', 'd', 'theta', 'offset', 'mass', 'viscous_friction',
                'coulomb_friction', 'rotor_inertia', 'gear_ratio'):
        default = 1.0 if key == 'gear_ratio' else 0.0
        link[key] = _number(entry.get(key, default), f'{where}.{key}')
    if kind == 'revolute' and _number(entry.get('theta', 0.0), f'{where}.theta') != 0.0:
        raise DHError(f'{where}.theta: is the joint variable of a revolute joint; put a constant '
                      'angle in "offset" instead')
    link['com'] = _vector(entry.get('com', [0, 0, 0]), f'{where}.com')
    inertia = entry.get('inertia', [0, 0, 0, 0, 0, 0])
    if isinstance(inertia, (list, tuple)) and len(inertia) == 3 and \
            all(isinstance(row, (list, tuple)) for row in inertia):
        inertia = [_vector(row, f'{where}.inertia[{k}]') for k, row in enumerate(inertia)]
    elif isinstance(inertia, (list, tuple)) and len(inertia) == 6:
        inertia = _vector(inertia, f'{where}.inertia', length=6)
    else:
        raise DHError(f'{where}.inertia: expected 6 numbers [ixx, iyy, izz, ixy, iyz, ixz] or a '
                      f'3x3 list, got {_short(inertia)}')
    link['inertia'] = inertia_matrix(inertia, f'{where}.inertia')
    limits = entry.get('limits', {}) or {}
    if not isinstance(limits, dict) or set(limits) - _LIMIT_KEYS:
        raise DHError(f'{where}.limits: expected a mapping with keys {sorted(_LIMIT_KEYS)}, got '
                      f'{_short(limits)}')
    link['limits'] = {k: _number(v, f'{where}.limits.{k}') for k, v in limits.items()}
    link['name'] = _name(entry.get('name', f'link{i + 1}'), f'{where}.name')
    link['joint'] = _name(entry.get('joint', f'joint{i + 1}'), f'{where}.joint')
    return link


def dh_fields(dh, convention=None):
    """Return the model fields (a dict) of a DH document; see the module docstring.

    Raises :class:`DHError`.
    """
    document = read_dh_document(dh)
    unknown = set(document) - _TOP_KEYS
    if unknown:
        raise DHError(f'unknown top-level field(s) {sorted(map(str, unknown))}; allowed: '
                      f'{sorted(_TOP_KEYS)}')
    convention = convention or document.get('convention')
    if convention not in CONVENTIONS:
        raise DHError(f'convention: must be "standard" (distal) or "modified" (proximal), got '
                      f'{_short(convention)}')
    entries = document.get('links')
    if not isinstance(entries, list) or not entries:
        raise DHError('links: expected a non-empty list with one entry per moving joint')
    links = [_link(entry, i) for i, entry in enumerate(entries)]
    base_R, base_p = _pose(document.get('base'), 'base')
    tool_R, tool_p = _pose(document.get('tool'), 'tool')

    # Body frame {i} is the link frame right after joint i's motion; with the standard
    # convention it is frame i-1 turned by the joint, so the constant ``after`` part
    # (Tz(d) Tx(a) Rx(α)) moves into the next joint's placement and the inertial data are
    # carried back through it.
    fields = {key: [] for key in ('placement_rotation', 'placement_translation', 'com',
                                  'inertia')}
    carry = _transform(base_R, base_p)
    for link in links:
        before, after = _fixed_part(link, convention)
        placement = carry @ before
        fields['placement_rotation'].append(placement[:3, :3])
        fields['placement_translation'].append(placement[:3, 3])
        R, p = after[:3, :3], after[:3, 3]
        fields['com'].append(R @ link['com'] + p)
        fields['inertia'].append(R @ link['inertia'] @ R.T)
        carry = after
    tip = carry @ _transform(tool_R, tool_p)
    gravity = document.get('gravity', [0.0, 0.0, -9.81])
    limits = [link['limits'] for link in links]
    fields.update(
        joint_types=[link['type'] for link in links],
        joint_names=[link['joint'] for link in links],
        link_names=[link['name'] for link in links],
        axis=[[0.0, 0.0, 1.0]] * len(links),
        mass=[link['mass'] for link in links],
        viscous_friction=[link['viscous_friction'] for link in links],
        coulomb_friction=[link['coulomb_friction'] for link in links],
        rotor_inertia=[link['rotor_inertia'] for link in links],
        gear_ratio=[link['gear_ratio'] for link in links],
        lower_limit=[lim.get('lower', -np.inf) for lim in limits],
        upper_limit=[lim.get('upper', np.inf) for lim in limits],
        velocity_limit=[lim.get('velocity', np.inf) for lim in limits],
        effort_limit=[lim.get('effort', np.inf) for lim in limits],
        tip_rotation=tip[:3, :3], tip_translation=tip[:3, 3],
        gravity=_vector(gravity, 'gravity'),
        name=_name(document.get('name', 'robot'), 'name'),
        base_link='base_link', tip_link='tool0', source=f'dh:{convention}',
    )
    return fields
