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
"""How a node process runs: its executor, startup checks, and callbacks that cannot kill it.

:func:`run` is every node's ``main``: it makes the executor (:func:`make_executor`), builds the
node (a configuration it cannot run with ends the process with one FATAL line) and spins it
until Ctrl-C or shutdown, logging whatever a callback raises instead of ending there
(:func:`robot_dynamics.nodes.executors.spin_surviving`). The ``guarded_*`` wrappers turn an
exception in a node's own callback into a log line, a refused change or a failed reply.
"""

import functools
import inspect
import os

import rclpy
import rclpy.logging
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor

from robot_dynamics.control.process_policy import (exit_at_startup, ignore_further_interrupts,
                                                   startup_failure_line)
from robot_dynamics.nodes.executors import CachedWaitSetExecutor, spin_surviving

EXECUTOR_VARIABLE = 'ROBOT_DYNAMICS_EXECUTOR'


def make_executor(context=None):
    """Return the executor ``ROBOT_DYNAMICS_EXECUTOR`` names for a node process (docs/ros.md).

    ``cached`` (default, chosen by measurement: docs/latency.md, "Executors compared"):
    :class:`~robot_dynamics.nodes.executors.CachedWaitSetExecutor`; ``rclpy``, ``multi``,
    ``events``: rclpy's single-threaded, multi-threaded and experimental events executors (for
    measurement; the events one's ``spin_once()`` without a timeout did not return for a due
    timer in Jazzy, so :func:`spin` gives it one).
    """
    choice = os.environ.get(EXECUTOR_VARIABLE, 'cached')
    from rclpy.executors import MultiThreadedExecutor
    from rclpy.experimental import EventsExecutor
    executors = {'cached': CachedWaitSetExecutor, 'rclpy': SingleThreadedExecutor,
                 'events': EventsExecutor, 'multi': MultiThreadedExecutor}
    if choice not in executors:
        raise ValueError(f'{EXECUTOR_VARIABLE}={choice!r}: use one of {sorted(executors)}')
    return executors[choice](context=context)


def guarded_subscription(node, callback):
    """Wrap a subscription or timer callback: an exception is logged and counted, not fatal."""
    @functools.wraps(callback)
    def wrapper(*args):
        try:
            return callback(*args)
        except Exception as exc:  # noqa: BLE001 - no input may kill the node
            node.callback_failed(callback.__name__, exc)
    return wrapper


def guarded_service(node, callback):
    """Wrap a service callback: an exception becomes ``success=False`` with the reason."""
    @functools.wraps(callback)
    def wrapper(request, response):
        try:
            return callback(request, response)
        except Exception as exc:  # noqa: BLE001
            node.callback_failed(callback.__name__, exc)
            response.success, response.message = False, f'failed: {exc}'
            return response
    return wrapper


def guarded_parameters(node, callback):
    """Wrap a set-parameters validator: an exception refuses the change with the reason."""
    from rcl_interfaces.msg import SetParametersResult

    @functools.wraps(callback)
    def wrapper(parameters):
        try:
            return callback(parameters)
        except Exception as exc:  # noqa: BLE001
            node.callback_failed(callback.__name__, exc)
            return SetParametersResult(successful=False, reason=str(exc))
    return wrapper


class StartupError(ValueError):
    """A node's configuration at startup is invalid: the node stops with a FATAL log line."""


#: Exceptions that mean "this configuration cannot run" when a node is constructed.
CONFIGURATION_ERRORS = (ValueError, LookupError, OSError, ParameterException)


def check_startup(node, validate, skip=()):
    """Validate the declared parameters with the node's run-time validator, once at startup.

    rclpy applies initial values (``--ros-args -p``, YAML files, launch) without calling the
    set-parameters callbacks; ``validate`` is that callback. Parameters in ``skip`` are left
    to the node (a documented fallback). Raises :class:`StartupError`.
    """
    names = [name for name in node.list_parameters([], 0).names if name not in skip]
    result = validate([node.get_parameter(name) for name in names])
    if not result.successful:
        raise StartupError(result.reason)


def _fatal(node_class, exc):
    """Log the reason a node could not start as one FATAL line."""
    name = ('robot_dynamics' if node_class is None else
            inspect.signature(node_class.__init__).parameters['node_name'].default)
    rclpy.logging.get_logger(name).fatal(startup_failure_line(exc))


def run(node_class, args=None):
    """Run one node: init, spin until Ctrl-C or shutdown, clean up (the nodes' ``main``).

    A configuration it cannot run with (an unknown solver, a model that does not load, an
    invalid value) ends the process at once with one FATAL line naming the parameter and exit
    code 1; a callback's exception is logged and the node goes on (:func:`spin`); Ctrl-C (once
    or more) and SIGTERM end it with code 0 (:mod:`robot_dynamics.control.process_policy`).
    """
    run_nodes(lambda: [node_class()], args, node_class)


def run_nodes(build, args=None, node_class=None):
    """Run the nodes ``build()`` returns on one executor, as :func:`run` runs one node.

    ``build``: a callable returning a list of nodes, called after ``rclpy.init``; a
    configuration error it raises ends the process with one FATAL line (named after
    ``node_class``'s default node name, else ``robot_dynamics``). Several arms in one process
    (:mod:`robot_dynamics.nodes.arms`) are several nodes here.
    """
    rclpy.init(args=args)
    nodes, executor = [], None
    try:
        executor = make_executor()
        try:
            nodes = build()
        except CONFIGURATION_ERRORS as exc:
            _fatal(node_class, exc)
            exit_at_startup()
        spin(nodes, executor)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except Exception:  # noqa: BLE001
        if rclpy.ok():
            raise
        # SIGTERM shut the context down while a callback was publishing: a normal stop
    finally:
        ignore_further_interrupts()
        shut_down(executor)
        for node in nodes:
            node.destroy_node()
        rclpy.try_shutdown()


def shut_down(executor, timeout_sec=1.0):
    """Shut ``executor`` down before the interpreter's teardown would have to (None: nothing).

    rclpy's ``Executor.__del__`` destroys the executor's SIGINT guard condition unless
    ``shutdown`` did; at teardown the guard condition's own ``__del__`` may run first, and the
    second destruction prints ``InvalidHandle: ... destruction was requested`` after Ctrl-C
    (the order depends on what else the process allocated; docs/latency.md).
    """
    if executor is not None:
        executor.shutdown(timeout_sec=timeout_sec)


def spin(nodes, executor):
    """Spin a node (or a list of nodes) until the context shuts down, surviving callbacks.

    ``rclpy.spin`` ends at the first exception a callback raises, rclpy's own included; here
    it is logged through the node (:func:`~robot_dynamics.nodes.executors.spin_surviving`).
    """
    nodes = list(nodes) if isinstance(nodes, (list, tuple)) else [nodes]
    for node in nodes:
        executor.add_node(node)
    timeout = 0.1 if os.environ.get(EXECUTOR_VARIABLE) == 'events' else None
    try:
        while executor.context.ok():
            spin_surviving(executor, nodes[0] if len(nodes) == 1 else None, timeout)
    finally:
        for node in nodes:
            executor.remove_node(node)
