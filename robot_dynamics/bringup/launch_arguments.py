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
"""The launch files' argument checks: each raises ValueError naming the argument and the fix.

A launch file calls these before it declares any node (in an ``OpaqueFunction``), so that a
bad argument ends ``ros2 launch`` with the message and a non-zero exit, and no node is left
running (a bad ``robot:=`` used to kill half of the nodes and leave the launch hanging).
"""

import os
import re

from robot_dynamics.errors import ModelError
from robot_dynamics.io.friction_yaml import read_friction
from robot_dynamics.model.bundled import BUNDLED_MODELS

_NAMESPACE = re.compile(r'[A-Za-z][A-Za-z0-9_]*(/[A-Za-z][A-Za-z0-9_]*)*')


def check_robot(robot, required=True):
    """Return the bundled model name ``robot`` (stripped); '' allowed unless ``required``."""
    robot = robot.strip()
    if robot in BUNDLED_MODELS or (not robot and not required):
        return robot
    raise ValueError(f"robot:={robot!r} is not a bundled model; use one of "
                     f"{', '.join(sorted(BUNDLED_MODELS))}, or robot_description:=\"$(cat "
                     'arm.urdf)" for your own robot')


def check_friction_file(value):
    """Return the friction file's absolute path ('' for none); refuse a file that is not one.

    Read once here (a missing file, YAML that is not a friction file), so that the launch
    ends before any node starts; the nodes match its joints against their model.
    """
    path = value.strip()
    if not path:
        return ''
    if not os.path.isfile(path):
        raise ValueError(f'friction_file:={value!r}: no such file; give the FILE.friction.yaml '
                         "that robot-dynamics identify wrote next to the URDF, or '' for none")
    try:
        read_friction(path)
    except ModelError as exc:
        raise ValueError(f'friction_file:={value!r}: {exc}') from None
    return os.path.abspath(path)


def check_bool(name, value, allow_empty=False):
    """Return ``value`` ('true'/'false', any case) as a bool; None for '' if ``allow_empty``."""
    text = value.strip().lower()
    if text in ('true', 'false'):
        return text == 'true'
    if allow_empty and not text:
        return None
    raise ValueError(f'{name}:={value!r}: use true or false')


def check_namespace(value):
    """Return the namespace as ``/a/b`` ('' for none); refuse what ROS would refuse later."""
    text = value.strip().strip('/')
    if text and not _NAMESPACE.fullmatch(text):
        raise ValueError(f'namespace:={value!r} is not a ROS namespace: use letters, digits and '
                         "'_' (not first), tokens separated by '/', e.g. namespace:=arm1")
    return f'/{text}' if text else ''


def clock_remapping(namespace, use_sim_time):
    """Return the remapping of ``/clock`` for the nodes of one namespaced simulated arm.

    A simulator publishes ``/clock`` (an absolute name: a namespace does not move it). Two
    namespaced simulations in one ROS domain would both publish it, so each namespaced launch
    moves its simulator's ``/clock`` and every node's subscription to ``<namespace>/clock``:
    each arm keeps its own simulated time. No namespace, or wall time: no remapping.
    """
    if not namespace or not use_sim_time:
        return []
    return [('/clock', f'{namespace}/clock')]
