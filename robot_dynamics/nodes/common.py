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

import collections
import time

import numpy as np
from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor
from rclpy.parameter import Parameter

import robot_dynamics as rd

MODEL_PARAMETERS = {
    'robot_description': 'URDF XML of the robot; empty: use urdf_file, dh_file or model, or '
                         'else wait for the robot_description topic',
    'urdf_file': 'path of a URDF file (used when robot_description is empty)',
    'dh_file': 'path of a Denavit-Hartenberg YAML file (used when urdf_file is empty)',
    'model': f'bundled model name, one of {sorted(rd.BUNDLED_MODELS)} (used last)',
    'base_link': 'first link of the chain (URDF); empty: the root link',
    'tip_link': 'last link of the chain (URDF); empty: the single leaf link',
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


def declare_model_parameters(node):
    """Declare the model-source parameters (strings) on ``node``."""
    for name, text in MODEL_PARAMETERS.items():
        node.declare_parameter(name, '', descriptor(text))


def declare_double_array(node, name, description):
    """Declare a double-array parameter that may stay unset (meaning: from the model)."""
    value = node.declare_parameter(name, Parameter.Type.DOUBLE_ARRAY, descriptor(description))
    return value


def parameter_value(node, name):
    """Return a parameter's value, or None while a statically typed parameter is unset."""
    from rclpy.exceptions import ParameterUninitializedException
    try:
        return node.get_parameter(name).value
    except ParameterUninitializedException:
        return None


def model_from_parameters(node, urdf_xml=None):
    """Load the model named by the node's model parameters; None if the topic must provide it.

    Order: ``robot_description`` parameter, ``urdf_file``, ``dh_file``, ``model``, then
    ``urdf_xml`` (the last URDF received on the robot_description topic).
    """
    value = {name: node.get_parameter(name).value for name in MODEL_PARAMETERS}
    links = {'base_link': value['base_link'] or None, 'tip_link': value['tip_link'] or None}
    if value['robot_description']:
        return rd.RobotModel.from_urdf(value['robot_description'], **links)
    if value['urdf_file']:
        return rd.RobotModel.from_urdf(value['urdf_file'], **links)
    if value['dh_file']:
        return rd.RobotModel.from_dh(value['dh_file'])
    if value['model']:
        return rd.load_model(value['model'])
    if urdf_xml:
        return rd.RobotModel.from_urdf(urdf_xml, **links)
    return None


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


def model_with_overrides(model, node, pending=None):
    """Apply the friction/rotor-inertia double-array parameters that are set (n values).

    ``pending`` ({name: value}) takes precedence over the node's current parameter values
    (used to validate a parameter change before it is accepted).
    """
    changes = {}
    for name in ('viscous_friction', 'coulomb_friction', 'rotor_inertia'):
        value = (pending or {}).get(name, parameter_value(node, name))
        if value is not None and len(value):
            if len(value) != model.dof:
                raise ValueError(f'{name}: {len(value)} values for {model.dof} joints')
            changes[name] = np.asarray(value, dtype=float)
    return model.replace(**changes) if changes else model


class Statistics:
    """Sliding-window rate and duration statistics for diagnostics."""

    def __init__(self, window=2000):
        self.durations = collections.deque(maxlen=window)
        self.arrivals = collections.deque(maxlen=window)

    def arrival(self):
        """Note the arrival of a message (monotonic wall time)."""
        self.arrivals.append(time.monotonic())

    def rate(self):
        """Messages per second over the window (Hz), 0 if fewer than two."""
        if len(self.arrivals) < 2 or self.arrivals[-1] == self.arrivals[0]:
            return 0.0
        return (len(self.arrivals) - 1) / (self.arrivals[-1] - self.arrivals[0])

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


EXECUTOR_VARIABLE = 'ROBOT_DYNAMICS_EXECUTOR'


def make_executor():
    """Return the executor for one node process: rclpy's, or the cached one on request.

    ``ROBOT_DYNAMICS_EXECUTOR=cached`` selects
    :class:`~robot_dynamics.nodes.executors.CachedWaitSetExecutor` (at 1 kHz it halves the
    dynamics node's p99 latency and loses ~20× fewer messages, see docs/robustness.md);
    unset or ``default``: rclpy's ``SingleThreadedExecutor``.
    """
    import os
    from rclpy.executors import SingleThreadedExecutor

    from robot_dynamics.nodes.executors import CachedWaitSetExecutor
    choice = os.environ.get(EXECUTOR_VARIABLE, 'default')
    executors = {'default': SingleThreadedExecutor, 'cached': CachedWaitSetExecutor}
    if choice not in executors:
        raise ValueError(f'{EXECUTOR_VARIABLE}={choice!r}: use one of {sorted(executors)}')
    return executors[choice]()


def run(node_class, args=None):
    """Run one node: init, spin until Ctrl-C or shutdown, clean up (the nodes' ``main``)."""
    import rclpy
    from rclpy.executors import ExternalShutdownException
    rclpy.init(args=args)
    node = None
    try:
        executor = make_executor()
        node = node_class()
        rclpy.spin(node, executor=executor)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except Exception:  # noqa: BLE001
        if rclpy.ok():
            raise
        # SIGTERM shut the context down while a callback was publishing: a normal stop
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
