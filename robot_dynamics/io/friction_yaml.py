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
"""The friction sidecar: the joint friction law a URDF cannot hold, as YAML.

URDF's ``<dynamics damping friction>`` holds viscous and symmetric Coulomb friction only;
``robot-dynamics identify`` writes the whole law (:mod:`robot_dynamics.model.friction`) next to
the URDF as ``<name>.friction.yaml``, and :meth:`RobotModel.with_friction`,
``rd.load_model(..., friction=path)`` and every command's ``--friction FILE`` read it back::

    # robot_dynamics joint friction (docs/identification.md#friction-models)
    format: robot_dynamics/friction 1
    joints:
      joint1: {law: stribeck, viscous: 1.2, coulomb: 0.8, offset: 0.05, asymmetry: 0.0,
               smoothing: 0.01, stribeck: 0.3, stribeck_velocity: 0.05}
      joint2: {law: coulomb, viscous: 0.9, coulomb: 0.5}

Each joint's keys set the model fields of :data:`KEYS` (SI units; an omitted key is 0 and a
joint not listed keeps the model's friction); ``law`` names the law that was chosen (a label).
A joint the model does not have, an unknown key, a value that is not a finite number and
YAML anchors/aliases are refused with the file and the fix.
"""

import math
import numbers
import os

import yaml

from robot_dynamics.errors import ModelError
from robot_dynamics.io.yaml_loader import load_yaml

FORMAT = 'robot_dynamics/friction 1'
#: Sidecar key → model field.
KEYS = {'viscous': 'viscous_friction', 'coulomb': 'coulomb_friction',
        'offset': 'friction_offset', 'asymmetry': 'coulomb_asymmetry',
        'smoothing': 'friction_smoothing', 'stribeck': 'stribeck_friction',
        'stribeck_velocity': 'stribeck_velocity'}
MAX_BYTES = 1 << 20


def read_friction(source):
    """Return ``{joint: {field: value}}`` from a sidecar path, YAML text or dict."""
    where = 'friction'
    if not isinstance(source, dict):
        text = os.fspath(source) if isinstance(source, os.PathLike) else str(source)
        if '\n' not in text and os.path.exists(text) and not os.path.isdir(text):
            where = text
            if os.path.getsize(text) > MAX_BYTES:
                raise ModelError(f'{text}: larger than {MAX_BYTES >> 20} MiB; a friction file '
                                 'needs one line per joint')
            try:
                with open(text, encoding='utf-8-sig') as handle:
                    text = handle.read()
            except UnicodeDecodeError as exc:
                raise ModelError(f'{where}: not UTF-8 text (byte {exc.start}); save it as '
                                 'UTF-8') from None
        source = _parse(text, where)
    joints = source.get('joints') if isinstance(source, dict) else None
    if not isinstance(joints, dict):
        found = 'it is empty' if source is None or source == '' else (
            f'found {type(source).__name__}' if not isinstance(source, dict)
            else f'no "joints" mapping (keys {sorted(map(str, source))[:8]})')
        raise ModelError(f'{where}: expected a mapping with "joints: {{name: {{viscous: …, '
                         f'coulomb: …}}}}", {found} (see robot_dynamics.io.friction_yaml)')
    return {str(name): _joint(values, f'{where}: joint {str(name)[:80]!r}')
            for name, values in joints.items()}


def _parse(text, where):
    """Parse YAML without anchors or aliases (no expansion can blow up)."""
    return load_yaml(text, f'{where}: YAML', ModelError, MAX_BYTES, aliases=False)


def _joint(values, where):
    if not isinstance(values, dict):
        raise ModelError(f'{where}: expected a mapping of {sorted(KEYS)} to numbers')
    fields = {}
    for key, value in values.items():
        if key == 'law':
            continue
        if key not in KEYS:
            raise ModelError(f'{where}: unknown key {str(key)[:40]!r}; use {sorted(KEYS)} '
                             'and law')
        if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                or not math.isfinite(float(value)):
            raise ModelError(f'{where}: {key} must be a finite number, got {str(value)[:40]!r}')
        fields[KEYS[key]] = float(value)
    return fields


def apply_friction(joints, joint_names, current):
    """Return new friction arrays: ``current`` {field: (n,)} with the listed joints' set."""
    unknown = [name for name in joints if name not in joint_names]
    if unknown:
        raise ModelError(f'friction: joints {unknown[:5]} are not in the model (its joints: '
                         f'{list(joint_names)}); remove them or load the matching model')
    arrays = {field: list(current[field]) for field in KEYS.values()}
    for name, fields in joints.items():
        j = joint_names.index(name)
        for field in KEYS.values():
            arrays[field][j] = fields.get(field, 0.0)
    return arrays


def friction_yaml(model, laws=None, comment=''):
    """Return the sidecar text of ``model``'s friction; ``laws`` {joint: law} labels them."""
    lines = [f'# {line}' for line in comment.splitlines()]
    lines += ['# robot_dynamics joint friction (docs/identification.md#friction-models):',
              '# tau_f = viscous qd + offset + (coulomb + stribeck exp(-(qd/stribeck_velocity)^2))'
              ' s + asymmetry |s|,', '# s = tanh(qd/smoothing), sign(qd) if smoothing = 0',
              f'format: {FORMAT}', 'joints:']
    for j, name in enumerate(model.joint_names):
        entries = [f'law: {(laws or {}).get(name, "coulomb")}'] + [
            f'{key}: {float(getattr(model, field)[j])!r}' for key, field in KEYS.items()]
        lines.append(f'  {yaml.safe_dump(name, default_style=None).splitlines()[0]}: '
                     f'{{{", ".join(entries)}}}')
    return '\n'.join(lines) + '\n'
