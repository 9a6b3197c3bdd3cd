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
"""How a node process treats failures: a failed callback named, the startup line, the exit.

Plain Python for :mod:`robot_dynamics.nodes.process` and :mod:`robot_dynamics.nodes.executors`
(docs/robustness.md: a callback's exception is logged and the node goes on; a configuration it
cannot run with ends it with one FATAL line and code 1; Ctrl-C and SIGTERM end it with 0).
"""

import os
import signal
import sys
import threading
import traceback

#: Files of the executor machinery, skipped when naming the callback an exception came from.
EXECUTOR_FILES = ('executors.py', 'task.py')


def origin(exc):
    """Name the callback an exception came from: its outermost frame below the executor."""
    for frame in traceback.extract_tb(exc.__traceback__):
        if not frame.filename.endswith(EXECUTOR_FILES):
            return f'callback {frame.name} ({os.path.basename(frame.filename)}:{frame.lineno})'
    return 'a callback'


def describe(kind, entity):
    """Name an entity for a log line: its kind, and its topic or service name or its class."""
    name = getattr(entity, 'topic_name', None) or getattr(entity, 'srv_name', None)
    if name:
        return f"{kind} '{name}'"
    return f"{kind.replace('_', ' ')} {type(entity).__name__}"


def failure_line(what, exc):
    """Return the log line of a callback failure the node survives."""
    return f'{what} failed: {type(exc).__name__}: {exc} (the node keeps running)'


def startup_failure_line(exc):
    """Return the FATAL line of a node that cannot start: the reason on one line."""
    return f"cannot start: {' '.join(str(exc).split()) or type(exc).__name__}"


def exit_at_startup():
    """End the process with code 1 now, without Python's finalisation.

    The node that failed is half-built (its constructor raised), so it cannot be destroyed;
    its DDS participant and the executor were left to the interpreter's teardown. One such
    process in a CI run (of many thousands started by the suite) did not end within 120 s;
    where it hung was not captured, and exiting at once takes that teardown out of the path.
    Nothing else runs yet: the FATAL line is written (flushed) and the exit code is 1.
    """
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(1)


def ignore_further_interrupts():
    """Let no later SIGINT interrupt the cleanup: the process is stopping already.

    A terminal's Ctrl-C reaches every node of a launch twice (the terminal's to the process
    group, then the one ``ros2 launch`` forwards); the second used to land in
    ``destroy_node`` as a ``KeyboardInterrupt`` traceback and end the node by the signal
    (launch: "process has died", exit code -2) instead of with code 0.
    """
    while threading.current_thread() is threading.main_thread():
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            return
        except KeyboardInterrupt:      # that second SIGINT was pending: signal.signal runs
            continue                   # the handlers of pending signals first (CPython)
