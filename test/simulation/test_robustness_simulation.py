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
"""Simulation stability: energy conservation, friction dissipation, blow-up detection.

The long runs (10 s at dt = 1 ms, 10,000 RK4 steps) use the library's RK4 stage function
(:data:`robot_dynamics.simulation.integrators.INTEGRATORS`) with the compiled forward dynamics of
:func:`robot_dynamics.fast.compile` as the acceleration, so that they take a fraction of a
second; the first steps are checked against the plain library :func:`robot_dynamics.step`
to 1e-12, so the speed-up does not change what is tested.
"""

import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.integrators import INTEGRATORS

DT = 1e-3
STEPS = 10_000                     # 10 s
Q0 = np.array([0.3, -0.8, 0.5, 0.2, -0.6, 0.4])
QD0 = np.array([0.5, -0.4, 0.8, 1.0, -0.7, 0.9])


@pytest.fixture(scope='module')
def puma():
    """Load the bundled PUMA 560 (with its friction and rotor inertia)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model('puma560')


def rk4_run(model, steps=STEPS, tau=None):
    """Run ``steps`` RK4 steps of DT from (Q0, QD0) under constant ``tau``; (steps+1, n)."""
    fast = rd.fast.compile(model)
    tau = np.zeros(model.dof) if tau is None else np.asarray(tau, float)

    def accel(q, qd):
        return fast.forward_dynamics(q, qd, tau)

    q, qd = Q0.copy(), QD0.copy()
    positions, velocities = [q], [qd]
    for _ in range(steps):
        q, qd, _ = INTEGRATORS['rk4'](accel, q, qd, DT)
        positions.append(q)
        velocities.append(qd)
    return np.array(positions), np.array(velocities)


def test_fast_rk4_steps_equal_the_library_steps(puma):
    for model in (puma, puma.without_joint_effects()):
        positions, velocities = rk4_run(model, steps=20)
        q, qd = Q0.copy(), QD0.copy()
        for k in range(1, 21):
            q, qd, _ = rd.step(model, q, qd, np.zeros(6), DT, 'rk4')
            np.testing.assert_allclose(positions[k], q, rtol=0, atol=1e-12)
            np.testing.assert_allclose(velocities[k], qd, rtol=0, atol=1e-12)


def test_passive_puma_conserves_energy_for_10_s(puma):
    model = puma.without_joint_effects()
    positions, velocities = rk4_run(model)
    energy = rd.total_energy(model, positions, velocities)
    kinetic = rd.kinetic_energy(model, positions, velocities)
    assert np.all(np.isfinite(energy))
    drift = np.abs(energy - energy[0]).max()
    # Relative to the initial total energy, and (stricter) to the largest kinetic energy: the
    # energy that actually changes form, independent of the potential's arbitrary zero.
    assert drift <= 1e-6 * abs(energy[0]), f'drift {drift:.3e} J of {energy[0]:.3f} J'
    assert drift <= 1e-6 * kinetic.max(), f'drift {drift:.3e} J, peak KE {kinetic.max():.3f} J'
    assert np.ptp(positions[:, 1]) > 1.0, 'the arm barely moved: the test would be trivial'


@pytest.mark.parametrize('friction', ['bundled', 'viscous'])
def test_friction_never_adds_energy(puma, friction):
    model = puma if friction == 'bundled' else puma.replace(coulomb_friction=np.zeros(6))
    positions, velocities = rk4_run(model)
    energy = rd.total_energy(model, positions, velocities)
    increase = np.diff(energy).max()
    assert increase <= 1e-9, f'energy rose by {increase:.3e} J in one step'
    assert energy[-1] < 0.9 * energy[0] or energy[-1] < energy[0] - 10.0


def test_coulomb_only_chatter_is_bounded(puma):
    """Check that Coulomb-only friction adds at most a few µJ in a step, never accumulating.

    Coulomb friction is discontinuous at qd = 0: RK4 stages that straddle the switch can add a
    little energy in one step (documented in docs/robustness.md).
    """
    model = puma.replace(viscous_friction=np.zeros(6))
    positions, velocities = rk4_run(model)
    energy = rd.total_energy(model, positions, velocities)
    assert np.diff(energy).max() <= 1e-5
    running_max = np.maximum.accumulate(energy)
    assert np.all(energy <= running_max[0] + 1e-5)
    assert energy[-1] < energy[0] - 10.0


def test_blow_up_raises_simulation_error(puma):
    model = puma.replace(effort_limit=np.full(6, np.inf))
    with pytest.raises(rd.SimulationError, match='NaN/inf'):
        rd.step(model, Q0, QD0, np.full(6, 1e300), DT, 'rk4')
    with pytest.raises(rd.SimulationError, match='NaN/inf'):
        rd.step(model, Q0, np.full(6, 1e200), np.zeros(6), DT, 'rk4')
    with pytest.raises(rd.SimulationError, match='total energy exceeded 1000'):
        rd.simulate(model, Q0, QD0, np.full(6, 500.0), 1.0, dt=1e-3, energy_limit=1000.0)


@pytest.mark.parametrize('bad, message', [
    (dict(dt=0.0), 'dt: must be a positive number'),
    (dict(dt=-1e-3), 'dt: must be a positive number'),
    (dict(dt=float('nan')), 'dt: must be a positive number'),
    (dict(dt='0.001'), "dt: expected a number of seconds, got '0.001'"),   # trial 3: numpy's
    (dict(dt=True), 'dt: expected a number of seconds, got True'),         # TypeError; a 1 s step
    (dict(dt=np.array([1e-3])), r'dt: expected a number of seconds, got array\(\[0.001\]\)'),
    (dict(integrator='leapfrog'), 'integrator: unknown'),
    (dict(tau=np.zeros(5)), 'tau'),
    (dict(q=np.full(6, np.nan)), 'q'),
])
def test_step_refuses_bad_arguments(puma, bad, message):
    arguments = dict(q=Q0, qd=QD0, tau=np.zeros(6), dt=DT, integrator='rk4')
    arguments.update(bad)
    with pytest.raises(ValueError, match=message):
        rd.step(puma, arguments['q'], QD0, arguments['tau'], arguments['dt'],
                arguments['integrator'])


# ---------------------------------------------------------------------- simulation_node
def test_simulation_node_blow_up_is_reported_not_published_and_reset_recovers(ros):
    """Check that a blow-up stops the node, is reported, never published; reset recovers.

    Every published state is finite and none is stamped after the failure; diagnostics say
    why; ~/reset starts afresh.
    """
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray
    from std_srvs.srv import Trigger
    from robot_dynamics.nodes.simulation_node import SimulationNode
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        sim = ros.add(SimulationNode(namespace=ros.namespace, parameter_overrides=[
            Parameter('model', value='two_link'), Parameter('real_time_factor', value=0.0),
            Parameter('publish_rate', value=1000.0),
            Parameter('publish_clock', value=True)]))      # states stamped in simulated time
    probe = ros.node('probe')
    base = f'{ros.namespace}/simulation_node'
    states, diagnostics = [], []
    probe.create_subscription(JointState, 'joint_states', states.append, 1000)
    probe.create_subscription(DiagnosticArray, '/diagnostics', diagnostics.append, 10)
    efforts = probe.create_publisher(Float64MultiArray, f'{base}/effort_commands', 10)
    reset = probe.create_client(Trigger, f'{base}/reset')
    assert ros.spin_until(lambda: efforts.get_subscription_count() > 0 and states)
    # the largest command the node accepts (bounds.MAX_OUTPUT; beyond, it drops the command)
    efforts.publish(Float64MultiArray(data=[1e6, -1e6]))
    assert ros.spin_until(lambda: sim.simulator.failed, timeout=10.0)
    failed_at = sim.sim_time
    error = sim.simulator.error
    assert any(word in error for word in ('integration failed', 'NaN/inf', 'energy', 'diverged'))
    ros.spin_for(0.3)                        # let everything in flight arrive
    assert sim.sim_time == failed_at, 'the node stepped on after the failure'
    for msg in states:
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        assert stamp <= failed_at + 1e-9
        for values in (msg.position, msg.velocity, msg.effort):
            assert np.all(np.isfinite(values)), 'a non-finite state was published'
    mine = [s for a in diagnostics for s in a.status if s.name.endswith('simulation')]
    assert any(s.level == DiagnosticStatus.ERROR and s.message == error for s in mine)

    states.clear()
    assert ros.call(reset, Trigger.Request()).success
    assert not sim.simulator.failed
    assert ros.spin_until(lambda: len(states) > 20, timeout=10.0)
    assert all(np.all(np.isfinite(m.position)) for m in states)
