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
"""Fault recovery across processes: the dynamics node is killed and restarted mid-run.

Three separate processes, wired as in launch/simulation.launch.py: simulation_node (PUMA 560,
publishing /clock), dynamics_node and computed_torque_controller (both on simulated time).
This test process publishes a one-point desired trajectory (reach the initial posture in 3 s,
from wherever the arm is when the dynamics node takes it) and records the simulator's
joint_states. Sequence:

1. the loop holds the posture: tracking error below ``BOUND`` (0.05 rad, see below);
2. the dynamics node is killed (SIGKILL, a crash): the controller gets no mass matrix and
   stops commanding; once the last command is older than ``command_timeout`` (simulated
   seconds) every joint_states message the simulator publishes reports zero effort, and the
   arm sags under gravity;
3. a new dynamics node process is started with the same name and nothing else is touched:
   the latched trajectory reaches it and, from the sagged state (on joint 2's stop), is reached
   again in 3 s (a motion judged feasible, never a step back: issue 31); the controller
   receives mass matrices and that motion again (up to a second after it began on a loaded
   machine, the arm still on the stop: it starts it late, whole, control.goals) and the
   tracking error returns below ``BOUND``. Twice: ``prompt`` (the controller runs on), and
   ``read_late``: the controller descheduled (SIGSTOP) until the motion is 1 s old, as a loaded
   machine did in CI. A failure tells what happened after the restart.
"""

import os
import signal
import subprocess
import sys
import time
import uuid

import numpy as np
import pytest


from diagnostic_msgs.msg import DiagnosticArray  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import Float64MultiArray  # noqa: E402
from std_srvs.srv import SetBool  # noqa: E402
from trajectory_msgs.msg import JointTrajectory  # noqa: E402

from robot_dynamics.nodes.conversions import trajectory_message  # noqa: E402
from robot_dynamics.nodes.dynamics_node import LATCHED  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
Q_HOLD = [0.2, -0.6, 0.4, 0.1, -0.3, 0.2]
COMMAND_TIMEOUT = 0.2                    # simulated s
# rad, tracking error with the dynamics node up. Holding still, the bundled PUMA's Coulomb
# friction (10.6 N m on joint 2, not in the feed-forward at rest: sign(0) = 0) leaves a
# dead band of about c / (Kp M22) = 10.6 / (100 * 2.5) = 0.04 rad that the arm creeps through.
BOUND = 0.05
NAMES = ['joint1', 'joint2', 'joint3', 'joint4', 'joint5', 'joint6']
REMAPS = {
    'simulation_node': [],
    'dynamics_node': ['~/desired_trajectory:=desired_trajectory'],
    'computed_torque_controller': ['desired_trajectory:=dynamics_node/accepted_trajectory',
                                   'feedforward_torques:=dynamics_node/feedforward_torques',
                                   'feedforward_joint_states:='
                                   'dynamics_node/feedforward_joint_states',
                                   'mass_matrix:=dynamics_node/mass_matrix',
                                   'effort_commands:=simulation_node/effort_commands'],
}
PARAMETERS = {
    'simulation_node': ['model:=puma560', 'dt:=0.001', 'integrator:=semi_implicit_euler',
                        'publish_rate:=200.0', 'publish_clock:=true', 'real_time_factor:=1.0',
                        f'command_timeout:={COMMAND_TIMEOUT}', 'energy_tolerance:=1000.0',
                        'initial_positions:=[' + ', '.join(map(str, Q_HOLD)) + ']'],
    'dynamics_node': ['use_sim_time:=true', 'model:=puma560', 'stale_timeout:=0.5'],
    'computed_torque_controller': ['use_sim_time:=true', 'kp:=[100.0]', 'kd:=[20.0]'],
}


class Processes:
    """The three nodes as child processes in one namespace."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.running = {}
        self.outputs = []

    def start(self, name):
        """Start ``python -m robot_dynamics.nodes.<name>`` with its remaps and parameters."""
        command = [sys.executable, '-m', f'robot_dynamics.nodes.{name}', '--ros-args',
                   '-r', f'__ns:={self.namespace}']
        for remap in REMAPS[name]:
            command += ['-r', remap]
        for parameter in PARAMETERS[name]:
            command += ['-p', parameter]
        env = dict(os.environ, PYTHONWARNINGS='ignore')
        self.running[name] = subprocess.Popen(command, cwd=ROOT, env=env, text=True,
                                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def kill(self, name):
        """SIGKILL (a crash: no clean shutdown) and reap."""
        process = self.running.pop(name)
        process.send_signal(signal.SIGKILL)
        self.outputs.append((name + ' (killed)', process.communicate(timeout=10)[0]))

    def signal(self, name, number):
        """Send ``number`` to a running node (SIGSTOP, SIGCONT: a process descheduled)."""
        self.running[name].send_signal(number)

    def stop_all(self):
        """Terminate the remaining processes (a stopped one continued first); keep their output."""
        for name, process in self.running.items():
            process.send_signal(signal.SIGCONT)
            process.terminate()
            try:
                output = process.communicate(timeout=10)[0]
            except subprocess.TimeoutExpired:
                process.kill()
                output = process.communicate()[0]
            self.outputs.append((name, output))
        self.running.clear()


@pytest.fixture
def graph():
    """Run the simulator, dynamics node and controller in a fresh namespace."""
    processes = Processes('/r' + uuid.uuid4().hex[:10])
    for name in ('simulation_node', 'dynamics_node', 'computed_torque_controller'):
        processes.start(name)
    yield processes
    processes.stop_all()
    for name, output in processes.outputs:
        if 'killed' not in name:
            assert 'Traceback' not in output, f'{name}:\n{output}'


def quiet(ros, *lists, seconds=0.5, timeout=30.0):
    """Spin until no message arrived in ``lists`` for ``seconds``: all in flight is in.

    A fixed drain time is not enough on a loaded machine, where this process may lag the
    graph by many messages; a quiet interval after a pause proves the queue is empty.
    """
    end = time.monotonic() + timeout
    count, since = sum(map(len, lists)), time.monotonic()
    while time.monotonic() < end:
        ros.spin_for(0.05)
        if sum(map(len, lists)) != count:
            count, since = sum(map(len, lists)), time.monotonic()
        elif time.monotonic() - since > seconds:
            return True
    return False


def stamp(msg):
    """Header stamp in seconds."""
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


def heard(said, ns, msg):
    """Keep each node's last /diagnostics message and last_error (for a failure's message)."""
    for status in msg.status:
        if ns in status.name:
            values = {pair.key: pair.value for pair in status.values}
            said[status.name] = f'{status.message!r} (last_error {values.get("last_error")!r})'


def story(graph, states, accepted, restart_sim, said):
    """Tell what happened after the restart: the motions, the arm, the nodes' words and logs."""
    lines = [f'restart at t = {restart_sim:.3f} s (simulated); the last /diagnostics:']
    lines += [f'  {name}: {message}' for name, message in said.items()]
    for received, msg in accepted:
        first, last = msg.points[0], msg.points[-1].time_from_start
        lines.append(f'accepted_trajectory (received {received:.3f} s after the restart): stamp '
                     f'{stamp(msg):.3f} s, {len(msg.points)} points over '
                     f'{last.sec + last.nanosec * 1e-9:.3f} s, first q '
                     f'{np.round(first.positions, 3).tolist()} qd '
                     f'{np.round(first.velocities, 3).tolist()}')
    lines.append('arm after the restart (t, max |q - Q_HOLD|, max |qd|, max |effort|; every '
                 '0.1 s for 3 s, then every 2 s):')
    shown = -10.0
    for msg in states:
        step = 0.1 if stamp(msg) < restart_sim + 3.0 else 2.0
        if stamp(msg) >= restart_sim and stamp(msg) >= shown + step:
            shown = stamp(msg)
            lines.append(f'  {shown:.3f} {error(msg):.4f} '
                         f'{np.abs(np.asarray(msg.velocity)).max():.3f} '
                         f'{np.abs(np.asarray(msg.effort)).max():.1f}')
    graph.stop_all()
    for name, output in graph.outputs:
        lines.append(f'--- {name} output (last 25 lines):')
        lines += output.splitlines()[-25:]
    return '\n'.join(lines)


def error(msg):
    """Largest joint distance from Q_HOLD of a joint state."""
    return float(np.abs(np.asarray(msg.position) - Q_HOLD).max())


@pytest.mark.parametrize('late', [False, True], ids=['prompt', 'read_late'])
def test_dynamics_node_crash_and_restart_recovers_without_manual_steps(ros, graph, late):
    ns = graph.namespace
    probe = ros.node('recovery_probe', namespace=ns)
    states, commands, masses, accepted = [], [], [], []
    probe.create_subscription(JointState, 'joint_states', states.append, 1000)
    probe.create_subscription(Float64MultiArray, 'simulation_node/effort_commands',
                              lambda m: commands.append(time.monotonic()), 1000)
    probe.create_subscription(Float64MultiArray, 'dynamics_node/mass_matrix',
                              lambda m: masses.append(time.monotonic()), 1000)
    probe.create_subscription(JointTrajectory, 'dynamics_node/accepted_trajectory',
                              lambda m: accepted.append((time.monotonic(), m)), LATCHED)
    said = {}             # the nodes' last /diagnostics, for a failure's message
    probe.create_subscription(DiagnosticArray, '/diagnostics',
                              lambda m: heard(said, ns, m), 100)
    trajectory = probe.create_publisher(type(trajectory_message(NAMES, [1.0], [Q_HOLD])),
                                        'desired_trajectory', LATCHED)
    # The arm sags until the controller commands (seconds on a loaded machine). The motion is
    # sent once it commands and the arm is still: the controller reads the dynamics node's
    # accepted motion, which begins at that node's state; an arm that moved more than the hold
    # tolerance while it was in transit would make it a step, refused (control.goals).

    def still():
        return bool(commands) and len(states) > 10 and all(
            np.abs(np.asarray(m.velocity)).max() < 0.02 for m in states[-10:])
    assert ros.spin_until(still, timeout=60.0), 'the controller never held the arm still'
    trajectory.publish(trajectory_message(NAMES, [3.0], [Q_HOLD]))

    def holding(seconds):
        """Tell whether the last ``seconds`` simulated had commands applied, small errors."""
        if not states or stamp(states[-1]) < seconds:
            return False
        recent = [m for m in states if stamp(m) >= stamp(states[-1]) - seconds]
        return (len(recent) > 10 and all(np.any(np.asarray(m.effort) != 0) for m in recent)
                and max(error(m) for m in recent) < BOUND)

    # 1. the loop runs and holds the posture
    assert ros.spin_until(lambda: holding(0.5), timeout=60.0), \
        f'no hold before the crash: error {error(states[-1]) if states else None}; {said}'

    # 2. crash: the controller stops commanding; the simulator applies zero torque. The
    # simulator is paused around the kill so that the simulated time of the crash is known
    # exactly (this process may lag behind the graph by many messages on a loaded machine).
    pause = probe.create_client(SetBool, 'simulation_node/pause')
    assert ros.call(pause, SetBool.Request(data=True), timeout=10.0).success
    assert quiet(ros, states), 'the paused simulator kept publishing'
    crash_sim = stamp(states[-1])                    # the simulator's time at the pause
    graph.kill('dynamics_node')
    # Mass matrices and commands sent before the kill may still be on their way to this
    # process (and to the controller): count the commands once nothing has arrived for 0.5 s.
    assert quiet(ros, commands, masses), 'commands went on with the simulator paused'
    crash_commands = len(commands)
    assert ros.call(pause, SetBool.Request(data=False), timeout=10.0).success
    assert ros.spin_until(lambda: stamp(states[-1]) > crash_sim + COMMAND_TIMEOUT + 0.6,
                          timeout=60.0)
    assert ros.call(pause, SetBool.Request(data=True), timeout=10.0).success
    assert quiet(ros, states, commands), 'the paused simulator kept publishing'
    assert ros.call(pause, SetBool.Request(data=False), timeout=10.0).success
    assert len(commands) == crash_commands, 'commands went on without the dynamics node'
    outage = [m for m in states if stamp(m) > crash_sim + COMMAND_TIMEOUT + 0.006]
    assert len(outage) > 50
    for msg in outage:
        assert np.all(np.asarray(msg.effort) == 0.0), \
            f'effort {list(msg.effort)} at t = {stamp(msg):.3f} s during the outage'
    sagged = max(error(m) for m in outage)
    assert sagged > 2 * BOUND, f'the arm did not move during the outage ({sagged:.4f} rad)'

    # 3. restart; nothing else is touched. ``late``: the controller is descheduled (SIGSTOP)
    # until the restarted node's motion is 1 s old, as a loaded machine did in CI (it found
    # the node 0.97 s late, the arm still on the stop, refused the motion as a step and held).
    masses.clear()
    restart, restart_sim = time.monotonic(), stamp(states[-1])
    accepted.clear()
    if late:
        graph.signal('computed_torque_controller', signal.SIGSTOP)
    graph.start('dynamics_node')
    if late:
        assert ros.spin_until(lambda: accepted and masses, timeout=30.0), 'no accepted motion'
        began = stamp(accepted[-1][1])
        assert ros.spin_until(lambda: stamp(states[-1]) > began + 1.0, timeout=30.0)
        graph.signal('computed_torque_controller', signal.SIGCONT)
    assert ros.spin_until(lambda: masses, timeout=30.0), 'no mass matrix after the restart'
    if not ros.spin_until(lambda: holding(0.5), timeout=60.0):
        accepted = [(received - restart, msg) for received, msg in accepted]
        pytest.fail(f'tracking did not recover: error {error(states[-1]):.4f} rad\n'
                    + story(graph, states, accepted, restart_sim, said))
