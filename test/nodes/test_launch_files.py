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
"""The launch files under the real ``launch``/``launch_ros``: ``ros2 launch`` in a subprocess.

Each case starts an installed launch file with its documented arguments, as a user does, and
checks from this process over DDS: the nodes come up, every parameter of every node can be
listed and read through the parameter services (what ``ros2 param dump`` does), the topics
connect and the outputs are right (gravity torques against Pinocchio). Without ``launch`` and
``ros2cli`` (neither a ROS 2 install nor the wheels of ``../shared/wheels``) the cases skip and
say how to get them.
"""

import filecmp
import importlib.util
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pinocchio as pin
import pytest
from rclpy.parameter import parameter_value_to_python
from rclpy.parameter_client import AsyncParameterClient
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String
from trajectory_msgs.msg import JointTrajectory
import yaml

import robot_dynamics as rd
from robot_dynamics.simulation.trajectory import standard_waypoints
from robots import pinocchio_configuration, quiet_model_from_urdf

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOW_TO_GET = ('launch, launch_ros and ros2cli are not installed: source a ROS 2 Jazzy install '
              '(/opt/ros/jazzy/setup.bash), or pip install --no-deps ../shared/wheels/*.whl '
              '(./scripts/setup_venv.sh does it when that folder exists; see its README)')
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


def ros2_executable():
    """Return the ``ros2`` command of this Python environment (else PATH's), or None."""
    if any(importlib.util.find_spec(name) is None
           for name in ('launch', 'launch_ros', 'ros2launch', 'ros2param')):
        return None
    beside = pathlib.Path(sys.executable).parent / 'ros2'
    return str(beside) if beside.exists() else shutil.which('ros2')


ROS2 = ros2_executable()
pytestmark = pytest.mark.skipif(ROS2 is None, reason=HOW_TO_GET)


@pytest.fixture(scope='module', autouse=True)
def installed_files_are_current():
    """``ros2 launch`` runs the installed copies: they must be this tree's files."""
    from ament_index_python.packages import get_package_share_directory
    share = pathlib.Path(get_package_share_directory('robot_dynamics'))   # what ros2 launch uses
    for relative in ('launch/dynamics.launch.py', 'launch/simulation.launch.py',
                     'config/dynamics.yaml', 'config/simulation.yaml'):
        if not filecmp.cmp(ROOT / relative, share / relative, shallow=False):
            pytest.fail(f'{share / relative} differs from {relative}: reinstall the package '
                        '(./run_tests.sh does; or colcon build)')


class Launch:
    """``ros2 launch robot_dynamics FILE ARGS`` with its output in a file; stopped by SIGINT."""

    def __init__(self, log_path, launch_file, *arguments):
        self.log_path = log_path
        self.log = open(log_path, 'w')
        self.process = subprocess.Popen(
            [ROS2, 'launch', 'robot_dynamics', launch_file, *arguments], stdout=self.log,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)

    def output(self):
        """Return everything the launch and its nodes printed so far."""
        if not self.log.closed:
            self.log.flush()
        return pathlib.Path(self.log_path).read_text(errors='replace')

    def wait(self, timeout):
        """Wait for the launch to exit by itself; return its exit code (None: still running)."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        """SIGINT to ``ros2 launch`` (it stops its nodes), SIGKILL to the group if it hangs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            if self.wait(30) is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        return self.output()


@pytest.fixture
def launch(tmp_path):
    """Start launch files; every one started is stopped at the end of the test."""
    started = []

    def start(launch_file, *arguments):
        started.append(Launch(tmp_path / f'launch{len(started)}.log', launch_file, *arguments))
        return started[-1]
    yield start
    for item in started:
        output = item.stop()
        assert 'Traceback' not in output, output[-4000:]


def wait_for_node(ros, probe, full_name, launched, timeout=90.0):
    """Spin until the node ``/ns/name`` is in the graph; fail with the launch output if not."""
    namespace, name = full_name.rsplit('/', 1)
    found = ros.spin_until(
        lambda: (name, namespace or '/') in probe.get_node_names_and_namespaces()
        or launched.process.poll() is not None, timeout)
    assert found and launched.process.poll() is None, \
        f'{full_name} did not come up:\n{launched.output()[-4000:]}'


def answered(ros, call, timeout, attempt=5.0):
    """Send a service request, again every ``attempt`` s unanswered; the answer or None.

    A request sent just after the service was discovered can be lost in DDS while the reply
    path is still matching (seen once in a whole-suite run: a namespaced simulation_node's
    list_parameters never answered, the same request answered at once alone).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        future = call()
        if ros.spin_until(future.done, min(attempt, max(deadline - time.monotonic(), 0.1))):
            return future.result()
    return None


def param_dump(full_name, attempts=2, timeout=60.0):
    """Return the ``ros__parameters`` that ``ros2 param dump`` prints; run it again once.

    The tool waits for each reply without a deadline and prints nothing on stdout (exit 0) when
    its wait for the services times out, so a request lost as :func:`answered` says hangs it or
    leaves stdout empty. A failed last attempt fails the test with the tool's output.
    """
    for _ in range(attempts):
        try:
            dump = subprocess.run([ROS2, 'param', 'dump', full_name, '--no-daemon',
                                   '--spin-time', '10'], capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            failure = f'no answer in {timeout:g} s: {exc.stderr!r}'
            continue
        document = yaml.safe_load(dump.stdout) if dump.returncode == 0 else None
        if isinstance(document, dict) and document:
            return next(iter(document.values()))['ros__parameters']
        failure = f'exit code {dump.returncode}: {dump.stderr[-3000:]}{dump.stdout[-3000:]}'
    pytest.fail(f'ros2 param dump {full_name}: {failure}')


def all_parameters(ros, probe, full_name, timeout=30.0):
    """List every parameter of a node from this process and read all of them in one request."""
    client = AsyncParameterClient(probe, full_name)
    assert client.wait_for_services(timeout_sec=timeout), f'{full_name}: no parameter services'
    listed = answered(ros, client.list_parameters, timeout)
    assert listed is not None, f'{full_name}: list_parameters timed out'
    names = list(listed.result.names)
    got = answered(ros, lambda: client.get_parameters(names), timeout)
    assert got is not None, f'{full_name}: get_parameters timed out'
    values = got.values
    assert len(values) == len(names), (
        f'{full_name}: get_parameters answered {len(values)} values for {len(names)} '
        f'parameters {names} (an unset statically typed parameter empties the reply)')
    return {name: parameter_value_to_python(value) for name, value in zip(names, values)}


def pinocchio_gravity(urdf, q_by_name):
    """Return Pinocchio's gravity torques by joint name (the independent oracle)."""
    model = pin.buildModelFromXML(urdf)
    data = model.createData()
    names = list(model.names)[1:]
    q = np.array([q_by_name[name] for name in names])
    gravity = pin.computeGeneralizedGravity(model, data, pinocchio_configuration(model, q))
    return dict(zip(names, gravity))


def check_gravity_output(ros, probe, states_topic, gravity_topic, urdf):
    """Publish a joint state; the node's gravity torques must equal Pinocchio's to 1e-9."""
    model = quiet_model_from_urdf(urdf)
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit, -1.0)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit, 1.0)
    q = lower + (upper - lower) * np.linspace(0.3, 0.7, model.dof)
    received = []
    probe.create_subscription(Float64MultiArray, gravity_topic, received.append, 10)
    publisher = probe.create_publisher(JointState, states_topic, qos_profile_sensor_data)
    message = JointState(name=list(model.joint_names), position=list(q))

    def answered():
        message.header.stamp = probe.get_clock().now().to_msg()
        publisher.publish(message)
        ros.spin_for(0.05)
        return bool(received)
    assert ros.spin_until(answered, 60.0), f'no message on {gravity_topic}'
    expected = pinocchio_gravity(urdf, dict(zip(model.joint_names, q)))
    got = np.array(received[-1].data)
    want = np.array([expected[name] for name in model.joint_names])
    assert np.abs(got - want).max() <= 1e-9 * max(1.0, np.abs(want).max()), (got, want)


def bundled_urdf(name):
    """Return the text of a bundled URDF."""
    return pathlib.Path(rd.data_path(rd.BUNDLED_MODELS[name])).read_text()


def test_bundled_robot_with_a_namespace_keeps_the_config(ros, launch):
    probe = ros.node('launch_probe')
    launched = launch('dynamics.launch.py', 'robot:=stanford', f'namespace:={ros.namespace}')
    wait_for_node(ros, probe, f'{ros.namespace}/dynamics_node', launched)
    parameters = all_parameters(ros, probe, f'{ros.namespace}/dynamics_node')
    assert parameters['model'] == 'stanford'
    assert parameters['robot_description'] == '' and parameters['use_sim_time'] is False
    config = yaml.safe_load((ROOT / 'config' / 'dynamics.yaml').read_text())
    for name, value in next(iter(config.values()))['ros__parameters'].items():
        assert parameters[name] == value, f'{name}: config value not applied in a namespace'
    assert parameters['publish_rate'] != 100.0, 'the config must differ from the default here'
    # The command-line tool reads the same: every parameter, not `ros__parameters: {}`.
    dumped = param_dump(f'{ros.namespace}/dynamics_node')
    assert dumped['model'] == 'stanford' and dumped['joints'] == []
    assert {name.split('.')[0] for name in parameters} == set(dumped)
    check_gravity_output(ros, probe, 'joint_states', 'dynamics_node/gravity_torques',
                         bundled_urdf('stanford'))
    output = launched.output()
    assert 'ModelWarning' not in output, 'library warnings must go to the ROS log'


def test_use_sim_time_argument_reaches_the_node(ros, launch):
    probe = ros.node('launch_probe')
    launched = launch('dynamics.launch.py', 'robot:=puma560', 'use_sim_time:=true',
                      f'namespace:={ros.namespace}')
    wait_for_node(ros, probe, f'{ros.namespace}/dynamics_node', launched)
    parameters = all_parameters(ros, probe, f'{ros.namespace}/dynamics_node')
    assert parameters['use_sim_time'] is True and parameters['model'] == 'puma560'


def test_robot_description_argument_is_passed_as_a_string(ros, launch):
    urdf = bundled_urdf('puma560')
    assert ': ' in urdf, 'the case needs a URDF that reads as YAML'
    probe = ros.node('launch_probe')
    launched = launch('dynamics.launch.py', f'robot_description:={urdf}',
                      f'namespace:={ros.namespace}')
    wait_for_node(ros, probe, f'{ros.namespace}/dynamics_node', launched)
    parameters = all_parameters(ros, probe, f'{ros.namespace}/dynamics_node')
    assert parameters['robot_description'] == urdf
    check_gravity_output(ros, probe, 'joint_states', 'dynamics_node/gravity_torques', urdf)
    # The library's notes about the PUMA's inertias: one ROS log line each, no Python warning.
    output = launched.output()
    assert 'ModelWarning' not in output
    for note in quiet_model_from_urdf(urdf).warnings:
        lines = [line for line in output.splitlines() if note in line]
        assert len(lines) == 1 and '[WARN]' in lines[0], lines


def test_no_arguments_takes_the_robot_description_topic(ros, launch):
    """Beside a robot_state_publisher-style latched /robot_description, that robot is used."""
    urdf = bundled_urdf('ur5')
    probe = ros.node('description_publisher')
    probe.create_publisher(String, '/robot_description', LATCHED).publish(String(data=urdf))
    launched = launch('dynamics.launch.py')
    wait_for_node(ros, probe, '/dynamics_node', launched)
    parameters = all_parameters(ros, probe, '/dynamics_node')
    assert parameters['model'] == '' and parameters['robot_description'] == ''
    check_gravity_output(ros, probe, '/joint_states', '/dynamics_node/gravity_torques', urdf)
    assert "model 'ur5'" in launched.output()


def test_simulation_launch_tracks_the_trajectory(ros, launch):
    probe = ros.node('simulation_probe')
    states = []
    probe.create_subscription(JointState, '/joint_states', states.append, 100)
    feedforward = []
    probe.create_subscription(Float64MultiArray, '/dynamics_node/feedforward_torques',
                              feedforward.append, 10)
    motions = []
    probe.create_subscription(JointTrajectory, '/desired_trajectory', motions.append, LATCHED)
    launched = launch('simulation.launch.py', 'robot:=puma560')
    for name in ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
                 'trajectory_publisher'):
        wait_for_node(ros, probe, f'/{name}', launched)
        parameters = all_parameters(ros, probe, f'/{name}')
        assert parameters['model'] == 'puma560', name
    model = rd.load_model('puma560')
    times, positions, _, _ = standard_waypoints(model)

    def stamp(message):
        return message.header.stamp.sec + 1e-9 * message.header.stamp.nanosec
    # The publisher stamps the motion start_delay after its own first simulated instant, which
    # comes late when its process starts late: the end is read from the motion, not assumed.
    assert ros.spin_until(lambda: motions, 120.0), \
        f'no motion on /desired_trajectory:\n{launched.output()[-4000:]}'
    end = stamp(motions[0]) + times[-1] + 0.5      # trajectory + settling, simulated seconds
    assert ros.spin_until(lambda: states and stamp(states[-1]) >= end, 180.0), \
        f'simulation did not reach t = {end} s:\n{launched.output()[-4000:]}'
    assert feedforward, 'no feed-forward torques reached the controller topic'
    assert '[joint_trajectory_controller]: following a ' in launched.output(), \
        'the launch shows no sign that the motion started'
    final = dict(zip(states[-1].name, states[-1].position))
    error = np.array([final[name] for name in model.joint_names]) - positions[-1]
    assert np.abs(error).max() < 0.01, error


def test_simulation_launch_runs_your_own_urdf(ros, launch):
    """robot_description:= takes every node off the bundled robot (the config names puma560)."""
    urdf = bundled_urdf('ur5')
    probe = ros.node('simulation_probe')
    states = []
    probe.create_subscription(JointState, '/joint_states', states.append, 100)
    launched = launch('simulation.launch.py', f'robot_description:={urdf}')
    for name in ('simulation_node', 'dynamics_node', 'trajectory_publisher',
                 'joint_trajectory_controller'):
        wait_for_node(ros, probe, f'/{name}', launched)
        parameters = all_parameters(ros, probe, f'/{name}')
        assert parameters['robot_description'] == urdf and parameters['model'] == '', name
    assert ros.spin_until(lambda: states, 60.0), launched.output()[-4000:]
    assert list(states[-1].name) == list(quiet_model_from_urdf(urdf).joint_names)


def test_invalid_launch_argument_fails_before_any_node_starts(launch):
    launched = launch('simulation.launch.py', 'robot:=puma560', 'use_feedforward:=maybe')
    code = launched.wait(60)
    output = launched.stop()
    assert code not in (None, 0), output
    assert 'use_feedforward' in output
    assert 'process started' not in output, 'nodes were started before the check'


def test_unknown_robot_ends_the_launch_with_a_clear_message(launch, tmp_path):
    """Issue 20.5: a bad robot:= killed half of the nodes and the launch never exited."""
    params = tmp_path / 'params.yaml'
    params.write_text('{}\n')
    for launched in (launch('simulation.launch.py', 'robot:=no_such_arm'),
                     launch('identification.launch.py', 'robot:=no_such_arm',
                            f'params:={params}'),
                     launch('dynamics.launch.py', 'robot:=no_such_arm')):
        code = launched.wait(60)
        output = launched.stop()
        assert code not in (None, 0), output
        assert "robot:='no_such_arm' is not a bundled model; use one of" in output, output
        assert 'puma560' in output and 'process started' not in output, output


def sim_parameters(ros, probe, namespace, launched):
    """Every node of one simulation launch is up; return their parameters by node name."""
    found = {}
    for name in ('simulation_node', 'dynamics_node', 'joint_trajectory_controller',
                 'trajectory_publisher'):
        wait_for_node(ros, probe, f'{namespace}/{name}', launched)
        found[name] = all_parameters(ros, probe, f'{namespace}/{name}')
    return found


def test_two_namespaced_arms_from_the_launch_files_alone(ros, launch):
    """Two simulations in one domain, each on its own <namespace>/clock; none on /clock."""
    probe = ros.node('two_arms_probe')
    arms = {f'{ros.namespace}/arm1': 'puma560', f'{ros.namespace}/arm2': 'ur5'}
    states = {ns: [] for ns in arms}
    clocks = {ns: [] for ns in list(arms) + ['']}
    for ns in clocks:
        probe.create_subscription(Clock, f'{ns}/clock', clocks[ns].append, 10)
    for ns in arms:
        probe.create_subscription(JointState, f'{ns}/joint_states', states[ns].append, 10)
    launched = {ns: launch('simulation.launch.py', f'robot:={robot}', f'namespace:={ns}')
                for ns, robot in arms.items()}
    for ns, robot in arms.items():
        parameters = sim_parameters(ros, probe, ns, launched[ns])
        assert parameters['simulation_node']['publish_clock'] is True
        assert parameters['simulation_node']['model'] == robot
        for name in ('dynamics_node', 'joint_trajectory_controller', 'trajectory_publisher'):
            assert parameters[name]['use_sim_time'] is True, name
    assert ros.spin_until(lambda: all(len(states[ns]) > 20 and len(clocks[ns]) > 20
                                      for ns in arms), 120.0), \
        {ns: item.output()[-2000:] for ns, item in launched.items()}
    assert not clocks[''], 'a namespaced simulation published /clock'
    for ns, robot in arms.items():
        assert list(states[ns][-1].name) == list(rd.load_model(robot).joint_names)


def test_wall_time_simulation_is_stamped_and_answered_on_wall_time(ros, launch):
    """use_sim_time:=false: no /clock, joint_states on the wall clock, the node answers."""
    probe = ros.node('wall_probe')
    namespace = ros.namespace
    states, gravity, clocks = [], [], []
    probe.create_subscription(JointState, f'{namespace}/joint_states', states.append, 10)
    probe.create_subscription(Float64MultiArray, f'{namespace}/dynamics_node/gravity_torques',
                              gravity.append, 10)
    probe.create_subscription(Clock, '/clock', clocks.append, 10)
    launched = launch('simulation.launch.py', 'robot:=puma560', 'use_sim_time:=false',
                      f'namespace:={namespace}')
    parameters = sim_parameters(ros, probe, namespace, launched)
    assert parameters['simulation_node']['publish_clock'] is False
    assert all(p['use_sim_time'] is False for p in parameters.values())
    assert ros.spin_until(lambda: len(gravity) > 5 and states, 120.0), launched.output()[-4000:]
    now = probe.get_clock().now().nanoseconds * 1e-9
    last = states[-1].header.stamp.sec + 1e-9 * states[-1].header.stamp.nanosec
    assert abs(now - last) < 5.0 and not clocks
