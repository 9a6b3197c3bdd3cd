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
"""Ctrl-C of the documented launch stops every node cleanly (trial F15).

A terminal's Ctrl-C sends SIGINT to the whole process group: every node gets it, and
``ros2 launch`` forwards one more to each. The second must not land as a ``KeyboardInterrupt``
traceback in the node's cleanup nor end it by the signal ("process has died"). The signal
is sent once every node has logged from its constructor: a Ctrl-C while a Python process is
still importing ends it with a ``KeyboardInterrupt`` traceback, as it does any rclpy node.
"""

import importlib.util
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

HOW_TO_GET = ('launch, launch_ros and ros2cli are not installed: ./scripts/setup_venv.sh '
              'installs them from ../shared/wheels, or source a ROS 2 Jazzy install')


def ros2_executable():
    """Return the ``ros2`` command of this Python environment (else PATH's), or None."""
    if any(importlib.util.find_spec(name) is None for name in ('launch', 'launch_ros',
                                                               'ros2launch')):
        return None
    beside = pathlib.Path(sys.executable).parent / 'ros2'
    return str(beside) if beside.exists() else shutil.which('ros2')


ROS2 = ros2_executable()
NODES = ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
         'trajectory_publisher')


@pytest.mark.skipif(ROS2 is None, reason=HOW_TO_GET)
def test_ctrl_c_of_the_simulation_launch_ends_every_node_cleanly(tmp_path):
    log_path = tmp_path / 'launch.log'
    with open(log_path, 'w') as log:
        process = subprocess.Popen(
            [ROS2, 'launch', 'robot_dynamics', 'simulation.launch.py', 'robot:=puma560'],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        try:
            deadline = time.monotonic() + 180
            started, spoke = [], set()
            while time.monotonic() < deadline and process.poll() is None:
                text = log_path.read_text()
                started = re.findall(r'\[INFO\] \[(\S+)\]: process started', text)
                spoke = set(re.findall(r'\] \[(\w+)\]: ', text)) & set(NODES)
                if len(started) >= 4 and spoke == set(NODES):
                    break                             # each node built (it logged its model)
                time.sleep(0.5)
            assert spoke == set(NODES), log_path.read_text()[-4000:]
            time.sleep(3.0)                           # the nodes past startup, spinning
            assert process.poll() is None, log_path.read_text()[-4000:]
            os.killpg(process.pid, signal.SIGINT)     # what a terminal's Ctrl-C does
            code = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    output = log_path.read_text(errors='replace')
    assert len(started) >= 4, output[-4000:]
    assert 'Traceback' not in output and 'KeyboardInterrupt' not in output, output[-4000:]
    assert 'process has died' not in output, output[-4000:]
    finished = re.findall(r'\[INFO\] \[(\S+)\]: process has finished cleanly', output)
    assert sorted(finished) == sorted(started), output[-4000:]
    assert code == 0, output[-4000:]
