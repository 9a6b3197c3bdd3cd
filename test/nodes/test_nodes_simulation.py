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
"""simulation_node over real rclpy/DDS: physics against the library, services, failures."""

import pathlib
import warnings

import numpy as np
import pytest


from diagnostic_msgs.msg import DiagnosticStatus  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import Float64MultiArray  # noqa: E402
from rosgraph_msgs.msg import Clock  # noqa: E402
from std_srvs.srv import SetBool, Trigger  # noqa: E402

import robot_dynamics as rd  # noqa: E402
from robot_dynamics.nodes.dynamics_node import DynamicsNode  # noqa: E402
from robot_dynamics.nodes.simulation_node import SimulationNode  # noqa: E402
from robots import limited_arm3  # noqa: E402


@pytest.fixture(scope='module')
def model():
    """Return a 3-joint revolute arm with friction, rotors, position and effort limits."""
    return limited_arm3()


class SimProbe:
    """Sends commands to and records joint_states from one simulation node."""

    def __init__(self, ros, model, **parameters):
        overrides = [Parameter('robot_description', value=model.to_urdf()),
                     Parameter('real_time_factor', value=0.0),
                     Parameter('publish_clock', value=True)]   # stamps in simulated time
        overrides += [Parameter(k, value=v) for k, v in parameters.items()]
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', rd.ModelWarning)
            self.sim = ros.add(SimulationNode(namespace=ros.namespace,
                                              parameter_overrides=overrides))
        self.simulator = self.sim.simulator        # the library's state: q, failed, error, ...
        self.commands_taken = 0
        take = self.simulator.set_command

        def counted(*args, **kwargs):
            take(*args, **kwargs)
            self.commands_taken += 1
        self.simulator.set_command = counted
        self.ros = ros
        self.node = ros.node('probe')
        base = f'{ros.namespace}/simulation_node'
        self.states = []
        self.node.create_subscription(JointState, 'joint_states', self.states.append, 100)
        self.efforts = self.node.create_publisher(Float64MultiArray, f'{base}/effort_commands',
                                                  10)
        self.reset = self.node.create_client(Trigger, f'{base}/reset')
        self.pause = self.node.create_client(SetBool, f'{base}/pause')
        assert ros.spin_until(lambda: self.sim.pub_joint_states.get_subscription_count() > 0
                              and self.efforts.get_subscription_count() > 0)

    def command(self, values):
        """Publish an effort command and spin until the simulator has taken it.

        Counted, not read from ``command_time``: two commands taken between two steps carry
        the same simulated time.
        """
        before = self.commands_taken
        self.efforts.publish(Float64MultiArray(data=[float(v) for v in values]))
        assert self.ros.spin_until(lambda: self.commands_taken > before)

    def wait_time(self, seconds, timeout=10.0):
        """Spin until a joint state at simulated time >= ``seconds`` arrived."""
        return self.ros.spin_until(lambda: self.states and stamp(self.states[-1]) >= seconds
                                   - 1e-9, timeout)


def stamp(msg):
    """Header stamp in seconds."""
    return seconds(msg.header.stamp)


def seconds(time):
    """``builtin_interfaces/Time`` in seconds."""
    return time.sec + time.nanosec * 1e-9


def test_without_clock_states_carry_the_node_clock_and_wall_time_nodes_take_them(ros, model):
    """Issue 20.3: simulated time from 0 on joint_states made every wall-time node drop them.

    The dynamics node's stale_timeout is 2 s: a loaded machine's delays are no drop reason.
    """
    started = ros.node('clock').get_clock().now().nanoseconds * 1e-9
    probe = SimProbe(ros, model, publish_clock=False, gravity=[0.0, 0.0, 9.81])
    dynamics = ros.add(DynamicsNode(namespace=ros.namespace, parameter_overrides=[
        Parameter('robot_description', value=model.to_urdf()),
        Parameter('stale_timeout', value=2.0)]))
    gravity = []
    probe.node.create_subscription(Float64MultiArray,
                                   f'{ros.namespace}/dynamics_node/gravity_torques',
                                   gravity.append, 10)
    assert ros.spin_until(lambda: len(gravity) >= 3, timeout=10.0), dynamics.last_error
    assert dynamics.dropped == 0, dynamics.last_error
    now = probe.node.get_clock().now().nanoseconds * 1e-9
    assert probe.sim.sim_time > 0.0
    assert all(started <= stamp(msg) <= now for msg in probe.states)   # the clock, not 0


def test_with_clock_states_are_stamped_with_the_published_clock(ros, model):
    probe = SimProbe(ros, model, gravity=[0.0, 0.0, 0.0])
    clocks = []
    probe.node.create_subscription(Clock, '/clock', clocks.append, 100)
    assert ros.spin_until(lambda: len(clocks) >= 5 and probe.states and stamp(
        probe.states[-1]) >= seconds(clocks[2].clock))
    published = {seconds(c.clock) for c in clocks}
    assert published and all(stamp(m) in published for m in probe.states
                             if stamp(m) >= seconds(clocks[0].clock))
    assert min(published) < 1.0         # simulated time, from 0


def test_locked_joints_are_published_at_their_positions(ros):
    """Issue 20.7: fingers left out of joint_states: no state publisher could place them."""
    from urdf_trees import arm_with_gripper
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        gripper = rd.RobotModel.from_urdf(arm_with_gripper(),
                                          locked_joints={'grip_finger_joint1': 0.03})
        ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
            Parameter('robot_description', value=arm_with_gripper()),
            Parameter('locked_joints', value=['grip_finger_joint1=0.03']),
            Parameter('publish_clock', value=True), Parameter('real_time_factor', value=0.0)]))
    states = []
    ros.node('probe').create_subscription(JointState, 'joint_states', states.append, 10)
    assert ros.spin_until(lambda: states)
    msg = states[-1]
    locked = dict(gripper.locked_joints)
    assert len(locked) == 3            # the finger, its mimic and the camera's pan joint
    assert list(msg.name) == list(gripper.joint_names) + list(locked)
    assert dict(zip(msg.name, msg.position))['grip_finger_joint1'] == 0.03
    assert {name: p for name, p in zip(msg.name, msg.position) if name in locked} == locked
    assert all(v == 0.0 for name, v, e in zip(msg.name, msg.velocity, msg.effort)
               if name in locked for v in (v, e))


def test_rest_without_gravity_stays_put(ros, model):
    q0 = [0.3, -0.4, 0.5]
    probe = SimProbe(ros, model, gravity=[0.0, 0.0, 0.0], initial_positions=q0)
    assert probe.wait_time(0.2)
    for msg in probe.states:
        np.testing.assert_array_equal(msg.position, q0)
        np.testing.assert_array_equal(msg.velocity, [0.0, 0.0, 0.0])


def test_falls_under_gravity_as_the_library_predicts(ros, model):
    q0 = np.array([0.3, -0.4, 0.5])
    model = model.replace(coulomb_friction=np.zeros(3))   # smooth, for the Taylor check
    probe = SimProbe(ros, model, initial_positions=q0.tolist(), dt=1e-3, publish_rate=100.0,
                     integrator='rk4')
    assert probe.wait_time(0.3)
    by_time = {round(stamp(m), 6): m for m in probe.states}
    first = by_time[0.01]
    # Short-time check against the forward dynamics: q(t) = q0 + ½ qdd0 t² + O(t³).
    qdd0 = rd.forward_dynamics(model, q0, np.zeros(3), np.zeros(3))
    assert np.linalg.norm(qdd0) > 1.0
    np.testing.assert_allclose(np.array(first.position) - q0, 0.5 * qdd0 * 0.01 ** 2,
                               rtol=0.05, atol=1e-7)
    # Whole run against the library's simulate() with the same integrator and step.
    reference = rd.simulate(model, q0, np.zeros(3), np.zeros(3), 0.3, dt=1e-3)
    final = by_time[0.3]
    np.testing.assert_allclose(final.position, reference.q[300], rtol=0, atol=1e-12)
    np.testing.assert_allclose(final.velocity, reference.qd[300], rtol=0, atol=1e-12)


def test_effort_saturation_timeout_and_stops(ros, model):
    probe = SimProbe(ros, model, gravity=[0.0, 0.0, 0.0], command_timeout=0.05,
                     initial_positions=[1.9, 0.0, 0.0])
    probe.simulator.paused = True
    probe.command([100.0, -5.0, 1.0])
    probe.simulator.paused = False
    assert probe.wait_time(0.04)
    np.testing.assert_array_equal(probe.states[-1].effort, [40.0, -5.0, 1.0])   # saturated
    assert probe.wait_time(0.1)
    np.testing.assert_array_equal(probe.states[-1].effort, [0.0, 0.0, 0.0])     # timed out
    # Position stop: a constant push drives joint 1 into its upper limit and holds it there.
    probe.sim.set_parameters([Parameter('command_timeout', value=100.0)])
    probe.command([40.0, 0.0, 0.0])
    assert probe.wait_time(0.6, timeout=20.0)
    assert probe.states[-1].position[0] == pytest.approx(2.0, abs=1e-12)
    assert all(m.position[0] <= 2.0 for m in probe.states)


def test_reset_and_pause_services(ros, model):
    q0 = [0.1, 0.2, 0.3]
    probe = SimProbe(ros, model, initial_positions=q0)
    assert probe.wait_time(0.1)
    response = ros.call(probe.pause, SetBool.Request(data=True))
    assert response.success and probe.simulator.paused
    frozen = probe.sim.sim_time
    ros.spin_for(0.2)
    assert probe.sim.sim_time == frozen
    ros.call(probe.pause, SetBool.Request(data=False))
    assert probe.wait_time(frozen + 0.05)
    assert not np.allclose(probe.states[-1].position, q0)
    probe.states.clear()
    response = ros.call(probe.reset, Trigger.Request())
    assert response.success
    assert ros.spin_until(lambda: any(stamp(m) == 0.0 for m in probe.states))
    restarted = [m for m in probe.states if stamp(m) == 0.0][0]
    np.testing.assert_array_equal(restarted.position, q0)


def test_blow_up_stops_without_publishing_garbage(ros, model):
    # no effort and no velocity limits: nothing bounds the command's effect (the drives'
    # speed loop, on by default, would hold 5 rad/s with unbounded effort)
    unlimited = model.replace(effort_limit=np.full(3, np.inf),
                              velocity_limit=np.full(3, np.inf))
    probe = SimProbe(ros, unlimited)
    diagnostics = []
    from diagnostic_msgs.msg import DiagnosticArray
    probe.node.create_subscription(DiagnosticArray, '/diagnostics', diagnostics.append, 10)
    assert probe.wait_time(0.02)
    probe.command([1e6, -1e6, 1e6])       # the largest accepted (bounds.MAX_OUTPUT)
    assert ros.spin_until(lambda: probe.simulator.failed)
    ros.spin_for(0.2)                       # states published before the failure arrive
    count = len(probe.states)
    ros.spin_for(0.3)
    assert len(probe.states) == count, 'published after the failure'
    for msg in probe.states:
        assert np.all(np.isfinite(msg.position)) and np.all(np.isfinite(msg.velocity))
    assert ros.spin_until(lambda: any(
        s.level == DiagnosticStatus.ERROR and s.name.endswith('simulation')
        for a in diagnostics for s in a.status), timeout=3.0)


def test_energy_runaway_is_detected(ros, model):
    # Explicit Euler with a coarse step adds energy to a swinging arm at every step.
    frictionless = model.without_joint_effects()
    probe = SimProbe(ros, frictionless, integrator='euler', dt=0.02, publish_rate=50.0,
                     initial_positions=[1.0, 1.0, 1.0], energy_tolerance=1.0)
    assert ros.spin_until(lambda: probe.simulator.failed, timeout=20.0)
    assert 'energy grew' in probe.simulator.error
    assert 'the euler integration at dt = 0.02 s is unstable' in probe.simulator.error
    assert 'use integrator rk4' in probe.simulator.error


@pytest.mark.parametrize('name', ['ur5', 'panda'])
def test_an_arm_resting_on_its_stops_runs_on(ros, name):
    # Unactuated from home, the UR5 and the Panda fall onto joint stops; stops that zeroed the
    # stopped joint's velocity alone added energy and tripped the runaway check within 2.2 s
    # (UR5) and 0.5 s (Panda). The stops' impacts and clamps are now counted as their work:
    # the integration's own energy error stays far below a 1 mJ tolerance.
    # The drives' speed loop (velocity_limits) off: it brakes the falling UR5 at 3.14 rad/s,
    # which then swings without reaching a stop within 5 s.
    model = rd.load_model(name)
    probe = SimProbe(ros, model, energy_tolerance=1e-3, publish_rate=50.0, integrator='rk4',
                     velocity_limits=False)
    assert probe.wait_time(5.0, timeout=60.0), probe.simulator.error
    assert not probe.simulator.failed, probe.simulator.error
    on_stop = [m for m in probe.states
               if np.any(np.isclose(m.position, model.lower_limit, rtol=0, atol=1e-12)
                         | np.isclose(m.position, model.upper_limit, rtol=0, atol=1e-12))]
    assert len(on_stop) > 10
    energy = rd.total_energy(model, probe.simulator.q, probe.simulator.qd)
    assert energy <= probe.simulator.energy_start + 1e-4   # the stops only remove energy


def test_saturated_commands_run_the_ur5_at_its_velocity_limits(ros):
    # Trial 2: 10 x [1e5]*6 (saturated at 150/28 N m) drove the wrist past 1000 rad/s in
    # 5 ms and the node stopped with "the state diverged; dt = 0.001 s is too large". The
    # drives' speed loop (velocity_limits, default on) holds the URDF's 3.14 rad/s.
    ur5 = rd.load_model('ur5')
    probe = SimProbe(ros, ur5, publish_rate=100.0, command_timeout=2.0)
    assert probe.sim.get_parameter('velocity_limits').value is True
    for _ in range(10):
        probe.command([1e5] * 6)
    assert probe.wait_time(1.0, timeout=60.0), probe.simulator.error
    assert not probe.simulator.failed, probe.simulator.error
    speeds = np.abs([m.velocity for m in probe.states])
    assert np.all(speeds <= ur5.velocity_limit * (1 + 1e-12))
    assert np.all(speeds.max(axis=0) >= 0.99 * ur5.velocity_limit)    # near the limits
    for m in probe.states:
        assert np.all(np.abs(m.effort) <= ur5.effort_limit)      # the drives' torque


def test_without_the_drive_model_the_failure_names_the_saturated_efforts(ros):
    ur5 = rd.load_model('ur5')
    probe = SimProbe(ros, ur5, velocity_limits=False)
    probe.command([1e5] * 6)
    assert ros.spin_until(lambda: probe.simulator.failed, timeout=20.0)
    error = probe.simulator.error
    assert "joint 'wrist_3_joint' reached" in error, error
    assert 'commanded efforts at their effort limits' in error
    assert 'velocity_limits parameter' in error and 'its velocity limit is 3.14' in error
    assert 'too large' not in error and 'diverged;' not in error
    ros.call(probe.reset, Trigger.Request())
    assert not probe.simulator.failed


def test_joint_commands_by_name(ros, model):
    probe = SimProbe(ros, model, gravity=[0.0, 0.0, 0.0])
    commands = probe.node.create_publisher(JointState,
                                           f'{ros.namespace}/simulation_node/joint_commands', 10)
    assert ros.spin_until(lambda: commands.get_subscription_count() > 0)
    names = list(model.joint_names)
    commands.publish(JointState(name=[names[2], 'other', names[0]], effort=[3.0, 99.0, -2.0]))
    assert ros.spin_until(lambda: probe.simulator.command_time is not None)
    np.testing.assert_array_equal(probe.simulator.applied_torque(), [-2.0, 0.0, 3.0])
    before = probe.sim.dropped
    commands.publish(JointState(name=[names[0]], effort=[float('nan')]))
    commands.publish(JointState(name=['other'], effort=[1.0]))
    assert ros.spin_until(lambda: probe.sim.dropped == before + 2)
    np.testing.assert_array_equal(probe.simulator.applied_torque(), [-2.0, 0.0, 3.0])


def test_default_node_runs_the_stiff_arm(ros):
    # Issue 23.3: the xArm7-like wrist (2 N m s/rad on 1.36e-4 kg m^2) diverges with rk4 at
    # 1 ms; the node's default integrator (implicit) runs it at its default dt.
    path = pathlib.Path(__file__).resolve().parents[1] / 'fixtures' / 'stiff_wrist_arm.urdf'
    arm = rd.RobotModel.from_urdf(str(path))
    probe = SimProbe(ros, arm, publish_rate=50.0)
    assert probe.sim.get_parameter('integrator').value == 'implicit'
    assert probe.wait_time(2.0, timeout=60.0), probe.simulator.error
    assert not probe.simulator.failed, probe.simulator.error
    for msg in probe.states:
        assert np.all(np.isfinite(msg.position)) and np.all(np.isfinite(msg.velocity))
        assert np.all(np.array(msg.position) <= arm.upper_limit + 1e-12)
        assert np.all(np.array(msg.position) >= arm.lower_limit - 1e-12)
    energy = rd.total_energy(arm, probe.simulator.q, probe.simulator.qd)
    assert energy < probe.simulator.energy_start - 10.0   # it fell and the damping dissipated


def test_rk4_node_on_the_stiff_arm_stops_and_names_the_fix(ros):
    path = pathlib.Path(__file__).resolve().parents[1] / 'fixtures' / 'stiff_wrist_arm.urdf'
    probe = SimProbe(ros, rd.RobotModel.from_urdf(str(path)), integrator='rk4')
    assert ros.spin_until(lambda: probe.simulator.failed, timeout=20.0)
    error = probe.simulator.error
    assert "joint 'joint7'" in error and "integrator='implicit'" in error
    for msg in probe.states:
        assert np.all(np.isfinite(msg.position)) and np.all(np.abs(msg.velocity) < 1e3)


def test_implicit_coriolis_node_runs_the_stiff_arm(ros):
    # Issue 23.3: the Coriolis-implicit option is a value of the node's integrator parameter.
    path = pathlib.Path(__file__).resolve().parents[1] / 'fixtures' / 'stiff_wrist_arm.urdf'
    arm = rd.RobotModel.from_urdf(str(path))
    probe = SimProbe(ros, arm, publish_rate=50.0, integrator='implicit_coriolis')
    assert probe.wait_time(1.0, timeout=60.0), probe.simulator.error
    assert not probe.simulator.failed, probe.simulator.error
    for msg in probe.states:
        assert np.all(np.isfinite(msg.position)) and np.all(np.isfinite(msg.velocity))
        assert np.all(np.array(msg.position) <= arm.upper_limit + 1e-12)
    energy = rd.total_energy(arm, probe.simulator.q, probe.simulator.qd)
    assert energy < probe.simulator.energy_start - 10.0


def test_the_dt_range_is_the_library_bound(ros, model):
    # F4: one bound on dt (a longer step is a unit mistake): the node's range was its own 0.1 s.
    from robot_dynamics.simulation.integrators import MAX_DT
    probe = SimProbe(ros, model)
    (bound,) = probe.sim.describe_parameter('dt').floating_point_range
    assert (bound.from_value, bound.to_value) == (1e-6, MAX_DT)
