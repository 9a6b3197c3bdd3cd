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
"""The model a node runs on, from its parameter values: sources, precedence, overrides, notes.

``robot_description``, ``urdf_file``, ``dh_file``, ``model`` (first set wins), then the URDF of
the robot_description topic; the ``friction_file``'s friction laws; ``gravity``, friction and
rotor-inertia overrides; joint order. ``values`` is ``{parameter name: value}`` (a missing
name or None: not set); a node passes its parameters with the ones being set in their place
(``robot_dynamics.nodes.model_parameters``).
"""

import os
import re
import warnings

import numpy as np

from robot_dynamics.control.locked_joints import parse_locked_joints
from robot_dynamics.errors import ModelError, ModelWarning, bounded
from robot_dynamics.model import RobotModel, bounds
from robot_dynamics.model.bundled import BUNDLED_MODELS, bundled_notes, load_model

SOURCE_ORDER = ('robot_description', 'urdf_file', 'dh_file', 'model')   # first set is used
SOURCE_PARAMETERS = frozenset(SOURCE_ORDER + ('base_link', 'tip_link',    # change: another
                                              'urdf_friction'))               # model
# File paths are fixed at start: changed at run time, ~/reload_model would read any file the
# node can read and report what its parser made of it (issue 14).
READ_ONLY_MODEL_PARAMETERS = ('urdf_file', 'dh_file', 'friction_file')
OVERRIDE_BOUNDS = {'viscous_friction': bounds.MAX_VISCOUS_FRICTION,
                   'coulomb_friction': bounds.MAX_COULOMB_FRICTION,
                   'rotor_inertia': bounds.MAX_ROTOR_INERTIA}
#: Every parameter these functions read.
MODEL_VALUES = SOURCE_PARAMETERS | {'friction_file', 'locked_joints', 'gravity', 'joints'} | \
    set(OVERRIDE_BOUNDS)


def model_from_values(values, urdf_xml=None):
    """Load the model the source values name; None if the topic must provide it.

    Order: ``robot_description``, ``urdf_file``, ``dh_file``, ``model``, then ``urdf_xml``
    (the last URDF received on the robot_description topic); then the ``friction_file``'s
    joint friction, whatever the source.
    """
    model = _source_model(values, urdf_xml)
    path = values.get('friction_file')
    return model if model is None or not path else with_friction_file(model, path)


def with_friction_file(model, path):
    """``model`` with the friction law of the file at ``path``; ModelError naming it and why.

    The reader's message names the joint and the field at fault, and the fix.
    """
    if not os.path.isfile(path):
        raise ModelError(f'friction_file {path!r}: no such file; give the '
                         'FILE.friction.yaml that robot-dynamics identify wrote next to '
                         "the URDF, or '' for none")
    try:
        return model.with_friction(path)
    except (ModelError, ValueError) as exc:
        reason = str(exc).removeprefix(f'{path}: ')
        raise ModelError(f'friction_file {path!r}: {reason}') from None


def _source_model(values, urdf_xml):
    """Load the model of the source values (see :func:`model_from_values`), or None."""
    check_model_name(values.get('model'))
    links = {'base_link': values.get('base_link') or None,
             'tip_link': values.get('tip_link') or None,
             'locked_joints': parse_locked_joints(values.get('locked_joints')),
             'urdf_friction': values.get('urdf_friction') is not False}
    if values.get('robot_description'):
        return RobotModel.from_urdf(values['robot_description'], **links)
    if values.get('urdf_file'):
        return _from_file('urdf_file', values['urdf_file'], RobotModel.from_urdf, **links)
    if values.get('dh_file'):
        _check_no_chain_selection('dh_file', links)
        return _from_file('dh_file', values['dh_file'], RobotModel.from_dh)
    if values.get('model'):
        if not BUNDLED_MODELS[values['model']].endswith('.urdf'):
            _check_no_chain_selection(f"model {values['model']!r}", links)
            return load_model(values['model'])
        return load_model(values['model'], **links)      # a sub-chain of a bundled URDF
    if urdf_xml:
        return RobotModel.from_urdf(urdf_xml, **links)
    return None


def _check_no_chain_selection(source, links):
    """Refuse base_link, tip_link or locked_joints for a DH model (URDF-only options)."""
    for name in ('base_link', 'tip_link', 'locked_joints'):
        if links[name]:
            raise ValueError(f'{name}: {source} is a Denavit-Hartenberg table: it has no links '
                             f"or side branches to select; set {name} to '' (empty), or use a "
                             'URDF model')


def _from_file(parameter, path, load, **kwargs):
    """Load a model file; on failure name the file and the position, never its content.

    The loaders' messages quote values from the document; a node reports to the whole graph
    (service replies, /diagnostics, /rosout), so it says only which file failed, where (line
    and column when the parser knows them) and how to see the details locally.
    """
    try:
        return load(path, **kwargs)
    except Exception as exc:  # noqa: BLE001 - sanitised below, whatever the loader raised
        where = re.search(r'line \d+, column \d+', str(exc))
        raise ModelError(
            f'{parameter} {path!r} could not be loaded ({type(exc).__name__}'
            f'{" at " + where.group(0) if where else ""}); run `robot-dynamics info '
            f'{path}` where the file is to see why') from None


def check_model_name(name):
    """Refuse a ``model`` parameter that is not a bundled name (it must not name a file)."""
    if name and name not in BUNDLED_MODELS:
        raise ValueError(f'model: {name!r} is not a bundled model; use one of '
                         f'{sorted(BUNDLED_MODELS)}, or urdf_file/dh_file for a file')


def check_model_source(overrides, values):
    """Refuse setting a model source that a set one of higher precedence would override.

    ``overrides``: the parameters being set (name → value); ``values``: every value with them.
    """
    for rank, name in enumerate(SOURCE_ORDER):
        if not overrides.get(name):
            continue
        for higher in SOURCE_ORDER[:rank]:
            if values.get(higher):
                raise ValueError(
                    f'{name}: {higher} is set and takes precedence (order: '
                    f"{', '.join(SOURCE_ORDER)}; docs/ros.md), so this would never be used; "
                    f"set {higher} to '' in the same call to switch" + (
                        '' if higher not in READ_ONLY_MODEL_PARAMETERS else
                        f' ({higher} is read-only: restart the node without it)'))


def check_locked_joints(model, entries):
    """Refuse ``locked_joints`` entries that ``model`` would refuse: cheap, nothing rebuilt.

    Parse ``['NAME=VALUE', …]``, then check the names against the model's locked joints and
    the values against their limits (no margin, as the URDF loader); ValueError with the reason.
    """
    positions = parse_locked_joints(entries)
    if model is not None and positions:
        bounds.check_locked_positions(model, positions, margin=0.0)
    return positions


def model_with_notes(values, urdf_xml=None):
    """:func:`model_from_values` and the lines to log: ``(model, info lines, warning lines)``.

    The library reports a suspicious but usable model (massless link, inertia violating the
    triangle inequality, ...) with :class:`~robot_dynamics.ModelWarning`, which Python
    prints on stderr with a source line; a node logs them instead, each once per process (the
    one-process bringup runs several nodes on the same model): ``RobotModel.warnings`` and
    what the loader said while reading (locked side branches and why, such as a mimic of a
    chain joint locked at its default; URDF elements it tolerated). The known, documented notes
    of a bundled model (the ``model`` value: :func:`~robot_dynamics.model.bundled.
    bundled_notes`) are one INFO line instead; a user's model's stay WARN lines.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        model = model_from_values(values, urdf_xml)
    said = [str(w.message) for w in caught if issubclass(w.category, ModelWarning)]
    for other in (w for w in caught if not issubclass(w.category, ModelWarning)):
        warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    if model is None:
        return None, [], []
    messages = list(dict.fromkeys(said + list(model.warnings)))
    bundled = bundled_source(values)
    known = [m for m in messages if bundled and m in bundled_notes(bundled)]
    infos = []
    if known and _first_time((model.name, bundled)):
        infos.append(f'model {model.name!r}: {len(known)} known note(s) of the bundled model, '
                     f'documented in docs/models.md; `robot-dynamics check {bundled}` lists '
                     'them')
    return model, infos, [bounded(f'model {model.name!r}: {m}') for m in messages
                          if m not in known and _first_time((model.name, m))]


def bundled_source(values):
    """Return the bundled model name the values load (``model``, no source before it)."""
    sources = [values.get(name) for name in SOURCE_ORDER]
    return sources[-1] if sources[-1] and not any(sources[:-1]) else None


LOGGED_MODEL_NOTES = set()     # (model name, note): logged once per process


def _first_time(key):
    """Tell whether ``key`` is new to :data:`LOGGED_MODEL_NOTES` (and remember it)."""
    new = key not in LOGGED_MODEL_NOTES
    LOGGED_MODEL_NOTES.add(key)
    return new


def joint_order(model, requested):
    """Return names and model indices of the output order ``requested`` (default: model's)."""
    if not requested:
        return list(model.joint_names), np.arange(model.dof)
    unknown = [name for name in requested if name not in model.joint_names]
    if unknown or sorted(requested) != sorted(model.joint_names):
        raise ValueError(f'joints: {list(requested)} must list each model joint once; the '
                         f'model has {list(model.joint_names)} (unknown: {unknown})')
    return list(requested), np.array([model.joint_names.index(name) for name in requested])


def with_overrides(model, values):
    """Apply the set ``gravity``/friction/rotor-inertia values, then check plausibility.

    An unset or empty array keeps the model's own value (its gravity included: a DH model
    may have gravity along -Y). Raises ``ValueError``
    (:class:`~robot_dynamics.errors.PlausibilityError`) naming the field.
    """
    changes = {}
    for name, bound in OVERRIDE_BOUNDS.items():
        value = values.get(name)
        if value is not None and len(value):
            changes[name] = bounds.check_joint_values(name, value, model.dof, bound)
    gravity = values.get('gravity')
    if gravity is not None and len(gravity):
        changes['gravity'] = bounds.check_gravity(gravity)
    return bounds.check_model(model.replace(**changes) if changes else model)
