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
"""One source of truth for the desired motion: the dynamics node's ``~/accepted_trajectory``.

The dynamics node republishes (latched) only the trajectories that pass its plausibility
checks, in model joint order, stamped with the absolute start it resolved; the controller of
the demo graph is wired to that topic, so a trajectory the dynamics node refuses (a 100 rad
waypoint) never reaches the controller's PD either (user trial: it drove joint1 into its stop).
Over real DDS.
"""

import warnings

import numpy as np
import rclpy  # noqa: F401  (the test environment installs the ROS 2 wheels)
from builtin_interfaces.msg import Time
from rclpy.parameter import Parameter
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory

import robot_dynamics as rd
from robot_dynamics.nodes import bringup
from robot_dynamics.simulation.tracking import report
from robot_dynamics.nodes.conversions import (stamp_to_nanoseconds, trajectory_message,
                                              trajectory_to_arrays)
from robot_dynamics.nodes.dynamics_node import DynamicsNode, LATCHED
from robot_dynamics.simulation.trajectory import sample_waypoints
from robots import quiet_bundled
from ros_graph import bundled, dropped_with, Probe, vector

SHORT = {'trajectory_publisher': {'moves': 2, 'move_time': 0.6, 'start_delay': 0.1},
         # the simulator waits for a controller delayed by load (test_nodes_closed_loop.py)
         'simulation_node': {'lockstep_timeout': 1.0}}
ABSURD = 100.0     # rad on joint1: far outside the PUMA 560's limits


def absurd_trajectory(names):
    """Return a one-point trajectory: joint1 at 100 rad, the others at 0 (start on receipt)."""
    q = np.zeros(len(names))
    q[0] = ABSURD
    return trajectory_message(names, [0.0], [q])


def test_accepted_trajectory_is_republished_resolved_and_rejected_ones_are_not(ros):
    """What goes out is the motion that will run: from the state, at the acceptance time."""
    dynamics, probe = bundled(ros, 'puma560')
    model = quiet_bundled('puma560')
    names = list(model.joint_names)
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    before = dynamics.get_clock().now().nanoseconds
    probe.send_state(names, np.zeros(6))                      # the arm at the first point
    assert probe.wait_outputs()
    # Good, stamp 0 ("on receipt"), joints in reverse order: republished in model order with
    # the receipt time the node resolved, the instant its own feed-forward counts from.
    reverse = names[::-1]
    times = [0.0, 0.5, 1.0]
    positions = np.array([[0.0] * 6, [0.1, -0.2, 0.3, 0.1, 0.2, -0.1], [0.2] * 6])
    probe.trajectory.publish(trajectory_message(reverse, times, positions[:, ::-1]))
    assert ros.spin_until(lambda: accepted)
    after = dynamics.get_clock().now().nanoseconds
    msg = accepted[-1]
    assert list(msg.joint_names) == names
    start = stamp_to_nanoseconds(msg.header.stamp)
    assert before <= start <= after               # the time of the state it starts from
    assert start == dynamics._trajectory.start_ns
    t, q, qd, qdd = trajectory_to_arrays(msg, names)
    assert t[-1] == 1.0 and qdd is None          # positions only: lines and blends, cubic
    np.testing.assert_array_equal(q[[0, -1]], positions[[0, -1]])
    v = np.diff(positions, axis=0) / 0.4375     # both end segments' speeds (0.5 - b / 2)
    cut = np.abs(v[1] - v[0]) * 0.125 / 8        # the blend's corner cut, Δv b / 8
    np.testing.assert_allclose(sample_waypoints(t, q, qd, qdd, 0.5)[0], positions[1] +
                               np.sign(v[1] - v[0]) * cut, rtol=0, atol=1e-12)

    # Good, absolute stamp 2 s ahead: reached from now, its end still at stamp + 1 s.
    stamp = Time(sec=before // 10 ** 9 + 2, nanosec=123456789)
    good = trajectory_message(names, times, positions, stamp=stamp)
    probe.trajectory.publish(good)
    assert ros.spin_until(lambda: len(accepted) == 2)
    end = stamp_to_nanoseconds(accepted[-1].header.stamp) + \
        stamp_to_nanoseconds(accepted[-1].points[-1].time_from_start)
    assert abs(end - (stamp_to_nanoseconds(stamp) + 10 ** 9)) <= 1000
    kept = dynamics._trajectory

    # Out of the limits: rejected, not republished, the previous one kept (and still latched).
    dropped_with(ros, dynamics, lambda: probe.trajectory.publish(absurd_trajectory(names)),
                 'joint1')
    ros.spin_for(0.3)
    assert len(accepted) == 2
    assert dynamics._trajectory is kept
    late = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', late.append, LATCHED)
    assert ros.spin_until(lambda: late)
    assert late[-1].header.stamp == accepted[-1].header.stamp
    np.testing.assert_array_equal(trajectory_to_arrays(late[-1], names)[1][-1], positions[-1])


def test_a_trajectory_sent_before_the_simulated_clock_starts_when_it_does(ros):
    """A zero stamp ("on receipt") while simulated time reads 0 starts at the first clock time.

    Not at 0, which a clock beginning at 1.7e9 s would have left long finished.
    """
    clock_topic = f'{ros.namespace}/clock'                  # this test's own /clock
    dynamics = ros.add(DynamicsNode(
        namespace=ros.namespace, cli_args=['--ros-args', '-r', f'/clock:={clock_topic}'],
        parameter_overrides=[Parameter('model', value='puma560'),
                             Parameter('use_sim_time', value=True)]))
    probe = Probe(ros)
    probe.wait_connected(dynamics)
    clock = probe.node.create_publisher(Clock, clock_topic, 10)
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    model = quiet_bundled('puma560')
    names = list(model.joint_names)
    positions = np.array([[0.0] * 6, [0.3, -0.2, 0.4, 0.1, 0.2, -0.1]])
    probe.trajectory.publish(trajectory_message(names, [0.0, 2.0], positions))
    assert ros.spin_until(lambda: dynamics._pending_trajectory is not None)   # needs a state
    ros.spin_for(0.3)
    assert not accepted, 'published before the clock had begun'

    start = Time(sec=1_700_000_000, nanosec=5)
    assert ros.spin_until(lambda: clock.get_subscription_count() > 0)
    clock.publish(Clock(clock=start))
    assert ros.spin_until(lambda: dynamics.get_clock().now().nanoseconds > 0)
    probe.send_state(names, positions[0], np.zeros(6), stamp=start)
    assert ros.spin_until(lambda: accepted and probe.received['feedforward_torques'])
    assert accepted[-1].header.stamp == start
    assert dynamics._trajectory.start_ns == stamp_to_nanoseconds(start)
    # at elapsed 0: the first waypoint, blending from rest (not the final hold)
    expected = rd.inverse_dynamics(model, *sample_waypoints(
        *trajectory_to_arrays(accepted[-1], names), 0.0))
    np.testing.assert_array_equal(sample_waypoints(*trajectory_to_arrays(accepted[-1], names),
                                                   0.0)[0], positions[0])
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][-1]), expected,
                               rtol=1e-10, atol=1e-10)


class Injector:
    """Observer node of the demo graph: once the good trajectory runs, send an absurd one."""

    def __init__(self, context, namespace, delay=0.4):
        self.node = rclpy.create_node('injector', context=context, namespace=namespace)
        self.delay = delay
        self.accepted = []
        self.sent_at = None
        self.matched = 0
        self.publisher = self.node.create_publisher(JointTrajectory, 'desired_trajectory', 10)
        self.node.create_subscription(JointTrajectory, 'dynamics_node/accepted_trajectory',
                                      self.accepted.append, LATCHED)
        self.node.create_subscription(JointState, 'joint_states', self._on_state, 10)

    def _on_state(self, msg):
        if self.sent_at is not None or not self.accepted:
            return
        now = stamp_to_nanoseconds(msg.header.stamp)
        start = stamp_to_nanoseconds(self.accepted[0].header.stamp)
        if now >= start + self.delay * 1e9:
            self.matched = self.publisher.get_subscription_count()
            self.publisher.publish(absurd_trajectory(self.accepted[0].joint_names))
            self.sent_at = now * 1e-9


def test_closed_loop_keeps_tracking_the_good_trajectory_after_an_absurd_one(ros):
    injectors = []

    def factory(context, namespace):
        injectors.append(Injector(context, namespace))
        return injectors[-1].node

    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        result = bringup.run_demo('puma560', None, True, extra=SHORT, wall_timeout=90.0,
                                  observers=[factory])
    injector, = injectors
    assert injector.sent_at is not None, 'the absurd trajectory was never sent'
    assert injector.matched >= 1, 'nobody subscribed to desired_trajectory'
    assert len(injector.accepted) == 1, 'the absurd trajectory was accepted'
    good = injector.accepted[0]
    names = list(good.joint_names)
    assert names == list(result.joint_names)
    times, positions, velocities, accelerations = trajectory_to_arrays(good, names)
    start = stamp_to_nanoseconds(good.header.stamp) * 1e-9
    after = result.t > injector.sent_at + 0.05
    assert after.sum() > 100, 'too little of the run after the injection'
    # The controller's q_d is the good trajectory throughout, the arm follows it.
    expected = np.array([sample_waypoints(times, positions, velocities, accelerations,
                                          t - start)[0] for t in result.t])
    np.testing.assert_allclose(result.q_desired, expected, rtol=0, atol=1e-9)
    assert result.max_error.max() < 0.05, report(result)
    upper = quiet_bundled('puma560').upper_limit[0]
    assert result.q[after, 0].max() < upper - 0.5, 'joint1 went to its stop'


def test_waypoints_implying_an_absurd_motion_are_rejected(ros):
    """0 and 2 rad alternating every 1 ms at rest: 3,750 rad/s and 634 kN m between them."""
    dynamics, probe = bundled(ros, 'ur5')
    names = list(quiet_bundled('ur5').joint_names)
    probe.send_state(names, np.zeros(6))
    assert probe.wait_outputs()
    accepted = []
    probe.node.create_subscription(JointTrajectory, f'{ros.namespace}/dynamics_node/'
                                   'accepted_trajectory', accepted.append, LATCHED)
    positions = np.zeros((2000, 6))
    positions[1::2, 1] = 2.0
    zeros = np.zeros_like(positions)
    absurd = trajectory_message(names, 0.001 * np.arange(2000), positions, zeros, zeros)
    # with a fresh state (an old one makes the node keep the trajectory for the next state)
    dropped_with(ros, dynamics, lambda: (probe.send_state(names, np.zeros(6)),
                                         probe.trajectory.publish(absurd)),
                 "trajectory velocity of 'shoulder_lift_joint' reaches 3.75e+03 between t = 0 s "
                 'and 0.001 s (interpolated between the waypoints), beyond the plausible 4.71')
    ros.spin_for(0.2)
    assert not accepted and dynamics._trajectory is None
    q = np.zeros(6)                       # the feed-forward stays G(q): no trajectory taken
    probe.clear()
    probe.send_state(names, q)
    assert probe.wait_outputs()
    np.testing.assert_allclose(vector(probe.received['feedforward_torques'][0]),
                               vector(probe.received['gravity_torques'][0]), rtol=0, atol=1e-9)
