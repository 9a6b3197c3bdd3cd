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
"""The model a node runs on, from its parameters: sources, precedence, overrides, warnings.

``robot_description``, ``urdf_file``, ``dh_file``, ``model`` (first set wins), then the
robot_description topic; the ``friction_file``'s friction laws; ``gravity``, friction and
rotor-inertia overrides; joint order.
"""

import os
import re
import warnings

import numpy as np
from rclpy.parameter import Parameter

import robot_dynamics as rd
from robot_dynamics.errors import bounded
from robot_dynamics.model import bounds
from robot_dynamics.control.locked_joints import parse_locked_joints
from robot_dynamics.model.bundled import bundled_notes
from robot_dynamics.nodes.parameters import declare_array, descriptor, parameter_value

MODEL_PARAMETERS = {
    'robot_description': 'URDF XML of the robot; empty: use urdf_file, dh_file or model, or '
                         'else wait for the robot_description topic',
    'urdf_file': 'path of a URDF file (used when robot_description is empty; read-only: set '
                 'at start so that the graph cannot make the node read other files)',
    'dh_file': 'path of a Denavit-Hartenberg YAML file (used when urdf_file is empty; '
               'read-only like urdf_file)',
    'model': f'bundled model name, one of {sorted(rd.BUNDLED_MODELS)} (used last)',
    'base_link': 'first link of the chain (URDF); empty: the root link',
    'tip_link': 'last link of the chain (URDF); empty: the end of the longest moving path '
                '(docs/models.md)',
    'friction_file': "path of a friction file (robot-dynamics identify's FILE.friction.yaml: "
                     "each listed joint's whole friction law, which a URDF cannot hold; "
                     'docs/identification.md) applied to the model from any source; empty: '
                     'none; read-only like urdf_file',
}


# File paths are fixed at start: changed at run time, ~/reload_model would read any file the
# node can read and report what its parser made of it (issue 14).
READ_ONLY_MODEL_PARAMETERS = ('urdf_file', 'dh_file', 'friction_file')


def declare_model_parameters(node, at_start_only=False):
    """Declare the model-source parameters (strings) on ``node``; file paths read-only.

    ``at_start_only``: all of them read-only, for a node that loads its model once (a run-time
    change would be accepted and never used).
    """
    for name, text in MODEL_PARAMETERS.items():
        node.declare_parameter(name, '', descriptor(
            text, read_only=at_start_only or name in READ_ONLY_MODEL_PARAMETERS))
    node.declare_parameter('urdf_friction', True, descriptor(
        "include the URDF's <dynamics damping friction> as joint friction (Pinocchio and KDL "
        'ignore it; docs/models.md)', read_only=at_start_only))
    declare_array(node, 'locked_joints', Parameter.Type.STRING_ARRAY,
                  "URDF side-branch joints' positions at load, ['NAME=VALUE', ...] in rad or m; "
                  'empty: 0 clipped into the limits (docs/models.md)', read_only=at_start_only)


def model_from_parameters(node, urdf_xml=None, pending=None):
    """Load the model named by the node's model parameters; None if the topic must provide it.

    Order: ``robot_description`` parameter, ``urdf_file``, ``dh_file``, ``model``, then
    ``urdf_xml`` (the last URDF received on the robot_description topic); then the
    ``friction_file``'s joint friction, whatever the source. ``pending`` ({name: value}):
    values being set, in place of the node's (to load before accepting them).
    """
    model = _source_model(node, urdf_xml, pending)
    path = _pending_or_current(node, 'friction_file', pending)
    return model if model is None or not path else with_friction_file(model, path)


def with_friction_file(model, path):
    """``model`` with the friction law of the file at ``path``; ModelError naming it and why.

    The reader's message names the joint and the field at fault, and the fix.
    """
    if not os.path.isfile(path):
        raise rd.ModelError(f'friction_file {path!r}: no such file; give the '
                            'FILE.friction.yaml that robot-dynamics identify wrote next to '
                            "the URDF, or '' for none")
    try:
        return model.with_friction(path)
    except (rd.ModelError, ValueError) as exc:
        reason = str(exc).removeprefix(f'{path}: ')
        raise rd.ModelError(f'friction_file {path!r}: {reason}') from None


def _source_model(node, urdf_xml, pending):
    """Load the model of the source parameters (see :func:`model_from_parameters`), or None."""
    value = {name: _pending_or_current(node, name, pending) for name in MODEL_PARAMETERS}
    check_model_name(value['model'])
    links = {'base_link': value['base_link'] or None, 'tip_link': value['tip_link'] or None,
             'locked_joints': parse_locked_joints(_pending_or_current(node, 'locked_joints',
                                                                      pending)),
             'urdf_friction': _pending_or_current(node, 'urdf_friction', pending) is not False}
    if value['robot_description']:
        return rd.RobotModel.from_urdf(value['robot_description'], **links)
    if value['urdf_file']:
        return _from_file('urdf_file', value['urdf_file'], rd.RobotModel.from_urdf, **links)
    if value['dh_file']:
        _check_no_chain_selection('dh_file', links)
        return _from_file('dh_file', value['dh_file'], rd.RobotModel.from_dh)
    if value['model']:
        if not rd.BUNDLED_MODELS[value['model']].endswith('.urdf'):
            _check_no_chain_selection(f"model {value['model']!r}", links)
            return rd.load_model(value['model'])
        return rd.load_model(value['model'], **links)      # a sub-chain of a bundled URDF
    if urdf_xml:
        return rd.RobotModel.from_urdf(urdf_xml, **links)
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
        raise rd.ModelError(
            f'{parameter} {path!r} could not be loaded ({type(exc).__name__}'
            f'{" at " + where.group(0) if where else ""}); run `robot-dynamics info '
            f'{path}` where the file is to see why') from None


def check_model_name(name):
    """Refuse a ``model`` parameter that is not a bundled name (it must not name a file)."""
    if name and name not in rd.BUNDLED_MODELS:
        raise ValueError(f'model: {name!r} is not a bundled model; use one of '
                         f'{sorted(rd.BUNDLED_MODELS)}, or urdf_file/dh_file for a file')


SOURCE_ORDER = ('robot_description', 'urdf_file', 'dh_file', 'model')   # first set is used
SOURCE_PARAMETERS = frozenset(SOURCE_ORDER + ('base_link', 'tip_link',    # change: another
                                              'urdf_friction'))               # model


def check_model_source(node, overrides):
    """Refuse setting a model source that a set one of higher precedence would override.

    ``overrides``: the parameters being set (name → value); the others keep their values.
    """
    for rank, name in enumerate(SOURCE_ORDER):
        if not overrides.get(name):
            continue
        for higher in SOURCE_ORDER[:rank]:
            if _pending_or_current(node, higher, overrides):
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


def model_with_logged_warnings(node, urdf_xml=None, pending=None):
    """:func:`model_from_parameters`, the model's warnings as one ROS log line each.

    The library reports a suspicious but usable model (massless link, inertia violating the
    triangle inequality, ...) with :class:`~robot_dynamics.ModelWarning`, which Python
    prints on stderr with a source line; a node logs them instead, each once per process (the
    one-process bringup runs several nodes on the same model): ``RobotModel.warnings`` and
    what the loader said while reading (locked side branches and why, such as a mimic of a
    chain joint locked at its default; URDF elements it tolerated). The known, documented notes
    of a bundled model (the ``model`` parameter: :func:`~robot_dynamics.model.bundled.
    bundled_notes`) are one INFO line instead; a user's model's stay WARN lines.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = model_from_parameters(node, urdf_xml, pending)
    said = [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]
    for other in (w for w in caught if not issubclass(w.category, rd.ModelWarning)):
        warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    name = model.name if model is not None else ''
    messages = list(dict.fromkeys(said + list(model.warnings if model is not None else ())))
    bundled = _bundled_source(node, pending) if model is not None else None
    known = [m for m in messages if bundled and m in bundled_notes(bundled)]
    if known and (name, bundled) not in _LOGGED_MODEL_NOTES:
        _LOGGED_MODEL_NOTES.add((name, bundled))
        node.get_logger().info(f'model {name!r}: {len(known)} known note(s) of the bundled '
                               f'model, documented in docs/models.md; `robot-dynamics check '
                               f'{bundled}` lists them')
    for message in (m for m in messages if m not in known):
        if (name, message) not in _LOGGED_MODEL_NOTES:
            _LOGGED_MODEL_NOTES.add((name, message))
            node.get_logger().warning(bounded(f'model {name!r}: {message}'))
    return model


def _bundled_source(node, pending):
    """Return the bundled model name the parameters load (``model``, no source before it)."""
    values = [_pending_or_current(node, name, pending) for name in SOURCE_ORDER]
    return values[-1] if values[-1] and not any(values[:-1]) else None


_LOGGED_MODEL_NOTES = set()


def model_parameters_set(node):
    """Tell whether a model parameter names the model (then the topic is not used)."""
    return any(node.get_parameter(name).value
               for name in ('robot_description', 'urdf_file', 'dh_file', 'model'))


def joint_order(model, requested):
    """Return names and model indices of the output order ``requested`` (default: model's)."""
    if not requested:
        return list(model.joint_names), np.arange(model.dof)
    unknown = [name for name in requested if name not in model.joint_names]
    if unknown or sorted(requested) != sorted(model.joint_names):
        raise ValueError(f'joints: {list(requested)} must list each model joint once; the '
                         f'model has {list(model.joint_names)} (unknown: {unknown})')
    return list(requested), np.array([model.joint_names.index(name) for name in requested])


OVERRIDE_BOUNDS = {'viscous_friction': bounds.MAX_VISCOUS_FRICTION,
                   'coulomb_friction': bounds.MAX_COULOMB_FRICTION,
                   'rotor_inertia': bounds.MAX_ROTOR_INERTIA}


def _pending_or_current(node, name, pending):
    """Return the value ``name`` would have: ``pending``'s, else the node's (None: undeclared)."""
    if pending and name in pending:
        return pending[name]
    return parameter_value(node, name) if node.has_parameter(name) else None


def model_with_overrides(model, node, pending=None):
    """Apply the set ``gravity``/friction/rotor-inertia parameters, then check plausibility.

    An unset or empty array keeps the model's own value (its gravity included: a DH model
    may have gravity along -Y). ``pending`` ({name: value}) takes precedence over the node's
    current values (to validate a parameter change before it is accepted). Raises
    ``ValueError`` (:class:`~robot_dynamics.errors.PlausibilityError`) naming the field.
    """
    changes = {}
    for name, bound in OVERRIDE_BOUNDS.items():
        value = _pending_or_current(node, name, pending)
        if value is not None and len(value):
            changes[name] = bounds.check_joint_values(name, value, model.dof, bound)
    gravity = _pending_or_current(node, 'gravity', pending)
    if gravity is not None and len(gravity):
        changes['gravity'] = bounds.check_gravity(gravity)
    return bounds.check_model(model.replace(**changes) if changes else model)
