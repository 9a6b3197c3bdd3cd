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
"""Helpers shared by the nodes: parameter descriptors, model loading, statistics, main()."""

import bisect
import collections
import re
import struct
import time
import warnings

import numpy as np
from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.clock import Clock, ClockType
from rclpy.event_handler import SubscriptionEventCallbacks
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSPolicyKind, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message

import robot_dynamics as rd
from robot_dynamics.errors import bounded
from robot_dynamics.model import bounds
from robot_dynamics.nodes.locked_joints import parse_locked_joints
# How a node process starts and spins lives in nodes/process.py; these names stay importable here.
from robot_dynamics.nodes.process import (CONFIGURATION_ERRORS, StartupError,  # noqa: F401
                                          check_startup, guarded_parameters, guarded_service,
                                          guarded_subscription, make_executor, run)

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
}


def descriptor(description, read_only=False, low=None, high=None, integer=False,
               additional=''):
    """Build a ``ParameterDescriptor`` with a description and an optional closed range."""
    desc = ParameterDescriptor(description=description, read_only=read_only,
                               additional_constraints=additional)
    if low is not None:
        if integer:
            desc.integer_range = [IntegerRange(from_value=int(low), to_value=int(high), step=1)]
        else:
            desc.floating_point_range = [FloatingPointRange(from_value=float(low),
                                                            to_value=float(high), step=0.0)]
    return desc


# File paths are fixed at start: changed at run time, ~/reload_model would read any file the
# node can read and report what its parser made of it (issue 14).
READ_ONLY_MODEL_PARAMETERS = ('urdf_file', 'dh_file')


# Wall time for timers that must run whatever the node's clock does: with use_sim_time a timer on
# the node's clock stops when /clock stops, and a diagnostics timer on it would fall silent just
# when the graph needs to hear that the inputs stopped.
STEADY = Clock(clock_type=ClockType.STEADY_TIME)


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


def declare_array(node, name, type_, description, read_only=False):
    """Declare an array parameter whose default is an empty array of its type.

    An empty array means "not given" (from the model, model order, ...). It is a value, not
    "unset": a statically typed parameter declared without a value makes rclpy answer nothing
    to a ``get_parameters`` request naming it, which empties ``ros2 param dump`` and every
    client that reads all parameters.
    """
    node.declare_parameter(name, type_, descriptor(description))
    if node.get_parameter_or(name).type_ == Parameter.Type.NOT_SET:
        result = node.set_parameters([Parameter(name, type_, [])])[0]
        assert result.successful, result.reason   # declared just now: nothing can object
    if read_only:
        node.set_descriptor(name, ParameterDescriptor(description=description, read_only=True,
                                                      type=type_.value))
    return node.get_parameter(name)


def declare_double_array(node, name, description, read_only=False):
    """Declare a double-array parameter; empty (the default) means "from the model"."""
    return declare_array(node, name, Parameter.Type.DOUBLE_ARRAY, description, read_only)


def parameter_value(node, name):
    """Return a parameter's value, or None while a statically typed parameter is unset."""
    from rclpy.exceptions import ParameterUninitializedException
    try:
        return node.get_parameter(name).value
    except ParameterUninitializedException:
        return None


def model_from_parameters(node, urdf_xml=None, pending=None):
    """Load the model named by the node's model parameters; None if the topic must provide it.

    Order: ``robot_description`` parameter, ``urdf_file``, ``dh_file``, ``model``, then
    ``urdf_xml`` (the last URDF received on the robot_description topic). ``pending``
    ({name: value}): values being set, in place of the node's (to load before accepting them).
    """
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
        return _from_file('dh_file', value['dh_file'], rd.RobotModel.from_dh)
    if value['model']:
        is_urdf = rd.BUNDLED_MODELS[value['model']].endswith('.urdf')
        options = {'urdf_friction': links['urdf_friction']} if is_urdf else {}
        return rd.load_model(value['model'], **options)
    if urdf_xml:
        return rd.RobotModel.from_urdf(urdf_xml, **links)
    return None


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
    chain joint locked at its default; URDF elements it tolerated).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        model = model_from_parameters(node, urdf_xml, pending)
    said = [str(w.message) for w in caught if issubclass(w.category, rd.ModelWarning)]
    for other in (w for w in caught if not issubclass(w.category, rd.ModelWarning)):
        warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    name = model.name if model is not None else ''
    for message in dict.fromkeys(said + list(model.warnings if model is not None else ())):
        if (name, message) not in _LOGGED_MODEL_NOTES:
            _LOGGED_MODEL_NOTES.add((name, message))
            node.get_logger().warning(bounded(f'model {name!r}: {message}'))
    return model


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


# robot_state_publisher publishes the URDF once, reliable and transient-local ("latched").
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
# A plain reliable subscription: matches volatile and transient-local publishers alike.
VOLATILE = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.VOLATILE)


class TrajectoryInput:
    """Subscribe to a trajectory topic from latched and from plain (volatile) publishers.

    A transient-local subscription gets the last message a latched publisher sent before this
    node started, but DDS does not match it with volatile publishers (``ros2 topic pub``, most
    planners); a volatile one matches both but misses what was sent earlier. Both are created.
    A latched publisher's sample arrives on both; the copies carry the same writer timestamp
    and sequence number (``MessageInfo``). The subscriptions take the serialized bytes, and
    only the first copy is turned into a message (a 10,000-point trajectory takes 0.3 s to
    deserialise in Python: the second copy costs nothing). A volatile publisher does not
    match the transient-local subscription; rclpy's warning for that ("offering incompatible
    QoS. No messages will be received from it") would be false, since the volatile one
    receives its messages, so it is logged at debug level. Any other incompatibility (a
    best-effort publisher: neither subscription matches) is still a warning.
    """

    def __init__(self, node, message_type, topic, callback, remembered=64, reject=None):
        self._message_type = message_type
        self._callback = callback
        self._reject = reject           # reject(reason): a trajectory too large to deserialise
        self._seen = collections.OrderedDict()      # (source stamp, sequence number) -> None
        self._remembered = remembered
        self._logger = node.get_logger()
        self._topic = topic
        latched_events = SubscriptionEventCallbacks(incompatible_qos=self._incompatible)
        self.subscriptions = [
            node.create_subscription(message_type, topic, self._receive, LATCHED, raw=True,
                                     event_callbacks=latched_events),
            node.create_subscription(message_type, topic, self._receive, VOLATILE, raw=True)]

    def _incompatible(self, event):
        """Log a publisher the transient-local subscription cannot match (see the class)."""
        if event.last_policy_kind == QoSPolicyKind.DURABILITY:
            self._logger.debug(f'a volatile publisher on {self._topic}: received by the '
                               'volatile subscription')
        else:
            self._logger.warning(f'a publisher on {self._topic} offers incompatible QoS '
                                 f'({event.last_policy_kind.name}): publish it reliable')

    def _receive(self, data, info):
        sample = (info.get('source_timestamp'), info.get('publication_sequence_number'))
        if sample[0]:                   # an RMW that does not stamp samples: pass every copy
            if sample in self._seen:
                return
            self._seen[sample] = None
            if len(self._seen) > self._remembered:
                self._seen.popitem(last=False)
        if self._reject is not None:
            too_large = oversized_trajectory(data)
            if too_large:
                return self._reject(f'{self._topic} rejected before deserialising: {too_large}')
        self._callback(deserialize_message(data, self._message_type))


MAX_JOINT_NAMES = 1000          # joint_names of one trajectory: far more than any robot has


def oversized_trajectory(data):
    """Return why a serialised JointTrajectory is too large to deserialise, or ''.

    Reads the counts from the CDR bytes (encapsulation, header.stamp, header.frame_id,
    joint_names, then the length of points) in microseconds, where deserialising a 300,000-point
    message would hold the executor for seconds before its size could be refused. Counts that
    the bytes cannot hold (each name takes at least 5 bytes, each point 24: four sequence
    lengths and time_from_start) mean the bytes were not read right: they are left to the
    deserialiser, never refused on a misreading.
    """
    try:
        order = '<' if data[1] & 1 else '>'           # little-endian encapsulations are odd

        def count(position):                          # a uint32 at 4-byte alignment
            position = 4 + ((position - 4 + 3) & ~3)  # alignment counts after the encapsulation
            return struct.unpack_from(order + 'I', data, position)[0], position + 4

        length, position = count(4 + 8)              # frame_id, after stamp sec and nanosec
        names, position = count(position + length)
        if 5 * names > len(data) - position:
            return ''
        if names > MAX_JOINT_NAMES:
            return f'{names} joint_names, more than {MAX_JOINT_NAMES}'
        for _ in range(names):
            length, position = count(position)
            position += length
        points, position = count(position)
    except (IndexError, struct.error):
        return ''
    if 24 * points > len(data) - position:
        return ''
    if points > bounds.MAX_TRAJECTORY_POINTS:
        return f'{points} points, more than {bounds.MAX_TRAJECTORY_POINTS}; send it in pieces'
    return ''


class Statistics:
    """Sliding-window rate and duration statistics for diagnostics."""

    def __init__(self, window=2000):
        self.durations = collections.deque(maxlen=window)
        self.arrivals = collections.deque(maxlen=window)

    def arrival(self):
        """Note the arrival of a message (monotonic wall time)."""
        self.arrivals.append(time.monotonic())

    def rate(self, span=2.0):
        """Messages per second over the last ``span`` seconds of arrivals (Hz), 0 if under two.

        A window of the last arrivals alone would count a pause inside it for as long as the
        window holds it (a restarted simulator read 53 Hz for 8 s while 200 Hz arrived).
        """
        if len(self.arrivals) < 2:
            return 0.0
        last = self.arrivals[-1]
        recent = len(self.arrivals) - bisect.bisect_left(self.arrivals, last - span)
        first = self.arrivals[-recent]
        return (recent - 1) / (last - first) if recent >= 2 and last > first else 0.0

    def summary(self):
        """Mean, p99 and max of the recorded durations in seconds (zeros when empty)."""
        if not self.durations:
            return 0.0, 0.0, 0.0
        values = np.array(self.durations)
        return float(values.mean()), float(np.percentile(values, 99)), float(values.max())


def parameter_overrides(parameters):
    """Convert a ``{name: value}`` dict (YAML ``ros__parameters``) to rclpy Parameters.

    Empty lists are skipped: an unset array parameter means "from the model".
    """
    return [Parameter(name, value=value) for name, value in parameters.items()
            if not (isinstance(value, list) and not value)]
