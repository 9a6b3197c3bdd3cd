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
"""Collision thresholds as YAML: what ``robot-dynamics identify`` writes next to its model.

``robot_dynamics.contacts.collision_thresholds`` learns them; the ``contacts`` command and the
nodes read them back (``CollisionThresholds.read``)::

    # robot_dynamics collision thresholds (docs/contacts.md#collision-thresholds)
    format: robot_dynamics/contacts 1
    model: panda
    hold: linear
    safety: 2.0
    source: run.csv, 0 - 42 s, 42000 samples without contact
    joints:
      panda_joint1: {gain: 50.0, constant: 0.61, velocity: 0.32, momentum_rate: 0.04,
                     gravity: 0.0, peak: 0.52, fingerprint: -1.87}

Joint j is in contact when ``|τ̂_ext,j| > constant + velocity |q̇_j| + momentum_rate |ṗ_j| +
gravity |G_j(q)|`` with ``τ̂_ext`` from the momentum observer of gain ``gain`` (1/s; the
thresholds hold for that gain only) and ``hold`` (``linear`` or ``previous``); ``peak`` is the
largest ``|τ̂_ext,j|`` of the learning data (information); ``fingerprint`` the model's inverse
dynamics at ``q = 0.5, q̇ = q̈ = 1`` (every joint), to tell a model the thresholds were not
learnt for. Units: N m (N), N m s/rad, and two ratios. Every joint of the model must be
listed; a key that is not known, a value that is not a finite number ``>= 0`` (``gain >
0``), a repeated key and YAML aliases are refused with the file and the fix.
"""

import math
import numbers
import os

import yaml

from robot_dynamics.io.yaml_loader import load_yaml

FORMAT = 'robot_dynamics/contacts 1'
#: Per-joint keys: the observer's gain, the band's four coefficients (all required), the learnt
#: peak and the model's fingerprint (optional).
KEYS = ('gain', 'constant', 'velocity', 'momentum_rate', 'gravity', 'peak', 'fingerprint')
MAX_BYTES = 1 << 20


class ThresholdsError(ValueError):
    """A thresholds file cannot be used: the message names the file, the field and the fix."""


def read_thresholds(source):
    """Return ``{'joints': {name: {key: value}}, 'hold', 'safety', 'model', 'source'}``.

    ``source``: a path, YAML text or a dict.
    """
    where = 'thresholds'
    if not isinstance(source, dict):
        text = os.fspath(source) if isinstance(source, os.PathLike) else str(source)
        if '\n' not in text and os.path.isfile(text):
            where = text
            if os.path.getsize(text) > MAX_BYTES:
                raise ThresholdsError(f'{text}: larger than {MAX_BYTES >> 20} MiB; a thresholds '
                                      'file needs one line per joint')
            with open(text, encoding='utf-8-sig', errors='replace') as handle:
                text = handle.read()
        elif '\n' not in text and text.endswith(('.yaml', '.yml')):
            raise ThresholdsError(f'{text}: no such file; give the thresholds written by '
                                  'robot-dynamics identify or collision_thresholds')
        source = load_yaml(text, f'{where}: YAML', ThresholdsError, MAX_BYTES, aliases=False)
    if not isinstance(source, dict) or not isinstance(source.get('joints'), dict):
        raise ThresholdsError(f'{where}: expected a mapping with "format: {FORMAT}" and '
                              '"joints: {name: {gain: …, constant: …, velocity: …, '
                              'momentum_rate: …, gravity: …}}" (robot_dynamics.io.'
                              'thresholds_yaml)')
    if source.get('format', FORMAT) != FORMAT:
        raise ThresholdsError(f'{where}: format {str(source.get("format"))[:40]!r}; this '
                              f'version reads {FORMAT!r}')
    hold = source.get('hold', 'linear')
    if hold not in ('linear', 'previous'):
        raise ThresholdsError(f'{where}: hold {str(hold)[:40]!r}; use linear or previous')
    return {'joints': {str(name): _joint(values, f'{where}: joint {str(name)[:80]!r}')
                       for name, values in source['joints'].items()},
            'hold': hold, 'safety': _number(source.get('safety', 1.0), f'{where}: safety'),
            'model': str(source.get('model', '')), 'source': str(source.get('source', ''))}


def _joint(values, where):
    if not isinstance(values, dict):
        raise ThresholdsError(f'{where}: expected a mapping of {list(KEYS)} to numbers')
    unknown = [str(key)[:40] for key in values if key not in KEYS]
    if unknown:
        raise ThresholdsError(f'{where}: unknown key {unknown[0]!r}; use {list(KEYS)}')
    missing = [key for key in KEYS[:5] if key not in values]
    if missing:
        raise ThresholdsError(f'{where}: {missing} missing; give every one of {list(KEYS[:5])}')
    out = {key: _number(values[key], f'{where}: {key}', key == 'fingerprint')
           for key in KEYS if key in values}
    if out['gain'] <= 0:
        raise ThresholdsError(f'{where}: gain {out["gain"]}; the observer gain must be > 0 1/s')
    return out


def _number(value, where, signed=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(float(value)) or (float(value) < 0 and not signed):
        raise ThresholdsError(f'{where} must be a finite number{"" if signed else " >= 0"}, '
                              f'got {str(value)[:40]!r}')
    return float(value)


def thresholds_yaml(joints, hold, safety, model='', source='', comment=''):
    """Return the file's text; ``joints`` {name: {key: value}} in the model's order."""
    lines = [f'# {line}' for line in comment.splitlines()]
    lines += ['# robot_dynamics collision thresholds (docs/contacts.md#collision-thresholds):',
              '# joint j is in contact when |tau_ext_j| > constant + velocity |qd_j|',
              '#   + momentum_rate |d(M qd)/dt_j| + gravity |G_j(q)|, tau_ext from the momentum',
              '#   observer of this gain (1/s) and torque hold', f'format: {FORMAT}',
              f'model: {_scalar(model)}', f'hold: {hold}', f'safety: {float(safety)!r}',
              f'source: {_scalar(source)}', 'joints:']
    for name, values in joints.items():
        entries = ', '.join(f'{key}: {float(values[key])!r}' for key in KEYS if key in values)
        lines.append(f'  {_scalar(name)}: {{{entries}}}')
    return '\n'.join(lines) + '\n'


def _scalar(text):
    """Return a string as one YAML scalar (quoted where YAML would read it otherwise)."""
    return yaml.safe_dump(str(text), default_style=None, width=1 << 16).splitlines()[0]
