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
"""A node process's failure policy, without rclpy: names, log lines, exit and interrupts."""

import subprocess
import sys

from robot_dynamics.control.process_policy import (describe, failure_line, origin,
                                                   startup_failure_line)

_CATCHER = ('def call(f):\n    try:\n        f()\n'
            '    except Exception as exc:\n        return exc\n')


def _caught_in(filename, callback):
    """Return what ``callback`` raises, caught by a function compiled as ``filename``."""
    namespace = {}
    exec(compile(_CATCHER, filename, 'exec'), namespace)
    return namespace['call'](callback)


def _clock_callback():
    raise ValueError('negative time')


def test_origin_names_the_outermost_frame_below_the_executor():
    exc = _caught_in('/opt/rclpy/executors.py', _clock_callback)
    line = _clock_callback.__code__.co_firstlineno + 1
    assert origin(exc) == f'callback _clock_callback (test_process_policy.py:{line})'


def test_origin_without_a_frame_of_a_callback_says_a_callback():
    raising = {}
    exec(compile('def task():\n    raise KeyError(1)\n', '/opt/rclpy/task.py', 'exec'), raising)
    assert origin(_caught_in('/opt/rclpy/executors.py', raising['task'])) == 'a callback'


class _Subscription:
    topic_name = '/clock'


class _Service:
    topic_name, srv_name = None, '/n/set_parameters'


class GuardCondition:
    pass


def test_describe_names_the_topic_or_service_else_the_class():
    assert describe('subscription', _Subscription()) == "subscription '/clock'"
    assert describe('service', _Service()) == "service '/n/set_parameters'"
    assert describe('guard_condition', GuardCondition()) == 'guard condition GuardCondition'


def test_log_lines_name_the_failure_on_one_line():
    assert failure_line("subscription '/clock'", ValueError('negative')) == (
        "subscription '/clock' failed: ValueError: negative (the node keeps running)")
    assert startup_failure_line(ValueError("solver 'x'\n  unknown\tuse one of ['crba']")) == (
        "cannot start: solver 'x' unknown use one of ['crba']")
    assert startup_failure_line(LookupError()) == 'cannot start: LookupError'


def _python(code):
    return subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)


def test_exit_at_startup_flushes_and_ends_with_code_one_without_finalisation():
    done = _python('import atexit, sys\n'
                   'from robot_dynamics.control.process_policy import exit_at_startup\n'
                   'atexit.register(lambda: print("finalised"))\n'
                   'print("FATAL line", end="")\nprint("on stderr", end="", file=sys.stderr)\n'
                   'exit_at_startup()\nprint("after")\n')
    assert (done.returncode, done.stdout, done.stderr) == (1, 'FATAL line', 'on stderr')


def test_a_second_interrupt_is_ignored_from_the_main_thread_only():
    # From Python's own handler: a SIGINT ignored in this (pytest's) process would be inherited
    done = _python('import os, signal, threading\n'
                   'signal.signal(signal.SIGINT, signal.default_int_handler)\n'
                   'from robot_dynamics.control.process_policy import '
                   'ignore_further_interrupts as ignore\n'
                   'thread = threading.Thread(target=ignore); thread.start(); thread.join()\n'
                   'print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n'
                   'ignore(); os.kill(os.getpid(), signal.SIGINT)\n'
                   'print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n')
    assert (done.returncode, done.stdout.split()) == (0, ['False', 'True'])


def test_a_second_interrupt_pending_when_it_is_ignored_is_absorbed():
    # CI: "KeyboardInterrupt" from signal.signal itself, which runs pending signals' handlers
    # before it sets one; the second Ctrl-C had arrived just then. Simulated: the first call
    # raises as that check does.
    done = _python('import signal\n'
                   'signal.signal(signal.SIGINT, signal.default_int_handler)\n'
                   'real, calls = signal.signal, []\n'
                   'def checking(number, handler):\n'
                   '    calls.append(handler)\n'
                   '    if len(calls) == 1:\n'
                   '        raise KeyboardInterrupt\n'
                   '    return real(number, handler)\n'
                   'signal.signal = checking\n'
                   'from robot_dynamics.control.process_policy import '
                   'ignore_further_interrupts as ignore\n'
                   'ignore()\n'
                   'print(len(calls), signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n')
    assert (done.returncode, done.stdout.split(), done.stderr) == (0, ['2', 'True'], '')
