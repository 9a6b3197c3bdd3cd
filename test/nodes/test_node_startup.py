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
"""The node executables as a user starts them: bad startup configuration, introspection, logs.

Each node runs as a separate process (``python -m robot_dynamics.nodes.<node>``). A bad value
at startup must end the process at once with one FATAL log line naming the parameter and a
non-zero exit code; a good configuration must be readable in full from another process
through the parameter services; the library's model warnings must reach the ROS log.
"""

import os
import pathlib
import signal
import subprocess
import sys
import warnings

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
import pytest
from rclpy.parameter import parameter_value_to_python
from rclpy.parameter_client import AsyncParameterClient

import robot_dynamics as rd

ROOT = pathlib.Path(__file__).resolve().parents[2]
NODES = ('dynamics_node', 'simulation_node', 'computed_torque_controller',
         'trajectory_publisher', 'joint_trajectory_controller')


def node_command(node, *arguments, namespace=None):
    """Return the command line of a node executable with ``--ros-args`` ``arguments``."""
    ros_args = ['-r', f'__ns:={namespace}'] if namespace else []
    return [sys.executable, '-m', f'robot_dynamics.nodes.{node}', '--ros-args', *ros_args,
            *arguments]


def node_environment():
    """Return this environment: the node processes import the installed package."""
    return dict(os.environ)


BAD_STARTUP = [
    ('dynamics_node', ['model:=puma560', 'solver:=nonexistent'], 'solver'),
    ('dynamics_node', ['model:=puma560', 'publish_mode:=sometimes'], 'publish_mode'),
    ('dynamics_node', ['model:=puma560', 'joint_states_qos:=fast'], 'joint_states_qos'),
    ('dynamics_node', ['model:=puma560', 'stale_timeout:=0.0'], 'stale_timeout'),
    ('simulation_node', ['model:=puma560', 'integrator:=bogus'], 'integrator'),
    ('simulation_node', ['model:=puma560', 'gravity:=[0.0, 9.81]'], 'gravity'),
    ('simulation_node', ['model:=puma560', 'initial_positions:=[0.1]'], 'initial_positions'),
    ('simulation_node', [], 'model'),
    ('trajectory_publisher', ['model:=no_such_robot'], 'no_such_robot'),
]


@pytest.mark.parametrize('node, parameters, field', BAD_STARTUP,
                         ids=[f'{c[0]}-{c[2]}' for c in BAD_STARTUP])
def test_bad_startup_configuration_exits_with_one_fatal_line(node, parameters, field):
    arguments = [item for parameter in parameters for item in ('-p', parameter)]
    command = node_command(node, *arguments)
    process = subprocess.Popen([command[0], '-X', 'faulthandler', *command[1:]],
                               env=node_environment(), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:      # CI once: no exit in 120 s; say where it hangs
        process.send_signal(signal.SIGABRT)
        stdout, stderr = process.communicate()
        pytest.fail(f'{node} did not exit in 120 s; its threads (faulthandler):\n'
                    f'{stdout}{stderr}')
    output = stdout + stderr
    assert process.returncode == 1, f'{node} kept running or exited {process.returncode}:\n' \
        f'{output}'
    fatal = [line for line in output.splitlines() if '[FATAL]' in line]
    assert len(fatal) == 1 and field in fatal[0], output
    assert 'Traceback' not in output, output


# dynamics_node's documented fallback for a model that cannot be built: it stays up, publishes
# nothing, logs the reason and reports ERROR "no model: <reason>" on /diagnostics until a
# parameter change (or ~/reload_model) fixes it.
MODEL_FALLBACK = [
    (['model:=no_such_robot'], 'no_such_robot'),
    (['model:=puma560', 'gravity:=[0.0, 9.81]'], 'gravity'),
    (['model:=puma560', "joints:=['joint1']"], 'joints'),
    (['model:=puma560', 'viscous_friction:=[1.0]'], 'viscous_friction'),
]


@pytest.mark.parametrize('parameters, field', MODEL_FALLBACK, ids=[c[1] for c in MODEL_FALLBACK])
def test_dynamics_node_without_a_model_says_why_on_diagnostics(ros, node_process, parameters,
                                                               field):
    arguments = [item for parameter in parameters for item in ('-p', parameter)]
    process, log = node_process('dynamics_node', *arguments, namespace=ros.namespace)
    probe = ros.node('diagnostics_probe')
    statuses = []
    probe.create_subscription(DiagnosticArray, '/diagnostics',
                              lambda message: statuses.extend(message.status), 10)

    def reported():
        return [s for s in statuses if s.name == f'{ros.namespace}/dynamics_node: dynamics'
                and s.level == DiagnosticStatus.ERROR and field in s.message]
    assert ros.spin_until(reported, 60.0), (statuses, log.read_text())
    assert process.poll() is None, log.read_text()
    errors = [line for line in log.read_text().splitlines() if line.startswith('[ERROR]')]
    assert errors and field in errors[0], log.read_text()


@pytest.fixture
def node_process(tmp_path):
    """Start node executables; each is stopped (SIGTERM) at the end of the test."""
    started = []

    def start(node, *arguments, namespace=None):
        log = open(tmp_path / f'{node}.log', 'w')
        process = subprocess.Popen(node_command(node, *arguments, namespace=namespace),
                                   env=node_environment(), stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=subprocess.STDOUT)
        started.append((process, log))
        return process, tmp_path / f'{node}.log'
    yield start
    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def request(ros, send, timeout, attempts=4):
    """Send a service request and return its response, sending again if no answer comes.

    A request sent while the server's response writer is still being matched over DDS can be
    lost (the service is already discovered); the request is idempotent, so send it again.
    """
    for _ in range(attempts):
        future = send()
        if ros.spin_until(future.done, timeout / attempts):
            return future.result()
    raise AssertionError(f'no answer in {timeout} s ({attempts} requests)')


def read_all_parameters(ros, probe, full_name, timeout=60.0):
    """``ros2 param dump`` from this process: list every parameter, get all in one request."""
    client = AsyncParameterClient(probe, full_name)
    assert client.wait_for_services(timeout_sec=timeout), f'{full_name}: no parameter services'
    names = list(request(ros, client.list_parameters, timeout).result.names)
    values = request(ros, lambda: client.get_parameters(names), timeout).values
    assert len(values) == len(names), (
        f'{full_name}: {len(values)} values for {len(names)} parameters {names}')
    return {name: parameter_value_to_python(value) for name, value in zip(names, values)}


@pytest.mark.parametrize('node', NODES)
def test_every_parameter_listed_and_read_from_another_process(ros, node_process, node):
    arguments = [] if node == 'computed_torque_controller' else ['-p', 'model:=two_link']
    process, log = node_process(node, *arguments, namespace=ros.namespace)
    probe = ros.node('parameter_probe')
    parameters = read_all_parameters(ros, probe, f'{ros.namespace}/{node}')
    assert process.poll() is None, log.read_text()
    assert 'use_sim_time' in parameters and len(parameters) > 3
    if node != 'computed_torque_controller':
        assert parameters['model'] == 'two_link'
    # Arrays that mean "from the model" or "model order" while empty read as empty arrays.
    for name in ('joints', 'viscous_friction', 'coulomb_friction', 'rotor_inertia',
                 'initial_positions'):
        if name in parameters:
            assert list(parameters[name]) == [], name


def test_model_warnings_reach_the_ros_log_one_line_each(ros, node_process, tmp_path):
    # The user's own file (a copy of the PUMA's): each warning is a WARN line. The bundled
    # model's known notes are one INFO line instead (test_model_notes.py).
    path = tmp_path / 'my_puma.urdf'
    path.write_text(pathlib.Path(rd.data_path('urdf/puma560.urdf')).read_text())
    process, log = node_process('dynamics_node', '-p', f'urdf_file:={path}',
                                namespace=ros.namespace)
    probe = ros.node('log_probe')
    read_all_parameters(ros, probe, f'{ros.namespace}/dynamics_node')
    assert ros.spin_until(lambda: "model 'puma560'" in log.read_text(), 60.0), log.read_text()
    output = log.read_text()
    assert 'ModelWarning' not in output and 'warnings.warn' not in output, output
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        notes = rd.load_model('puma560').warnings
    assert len(notes) == 5      # the URDF friction; docs/models.md: link 1 twice, link 3, massless
    for note in notes:
        lines = [line for line in output.splitlines() if note in line]
        assert len(lines) == 1 and lines[0].startswith('[WARN]'), output


def test_reset_that_cannot_step_says_so(ros, monkeypatch):
    """``~/reset`` replies success only if the simulator can step from the reset state."""
    from rclpy.parameter import Parameter
    from std_srvs.srv import Trigger

    from robot_dynamics.nodes.simulation_node import SimulationNode
    from robot_dynamics.simulation import simulator
    sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('model', value='two_link'), Parameter('real_time_factor', value=0.0)]))

    def cannot_step(*args, **kwargs):
        raise rd.SimulationError('the state is not finite')
    monkeypatch.setattr(simulator, 'step', cannot_step)
    probe = ros.node('resetter')
    reset = probe.create_client(Trigger, f'{ros.namespace}/simulation_node/reset')
    response = ros.call(reset, Trigger.Request())
    assert not response.success and 'not finite' in response.message, response.message
    monkeypatch.undo()
    response = ros.call(reset, Trigger.Request())
    assert response.success, response.message
    assert ros.spin_until(lambda: sim.sim_time > 0.05, 10.0) and not sim.simulator.failed
