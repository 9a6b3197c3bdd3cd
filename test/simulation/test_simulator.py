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
"""The simulation node's stepping without ROS: commands, pacing, lockstep, failures, health.

The wall clock is a fake the tests set (a loaded machine's pauses would re-anchor the pacing).
"""


import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.simulation import simulator as simulator_module
from robot_dynamics.simulation.simulator import (check_integrator, initial_positions,
                                                 MIN_FACTOR, setting_error, Simulator)
from robots import limited_arm3

# The simulation node's parameter defaults, but as fast as possible.
DEFAULTS = {'integrator': 'implicit', 'real_time_factor': 0.0, 'lockstep': False,
            'lockstep_timeout': 0.1, 'initial_positions': [], 'velocity_limits': True,
            'command_timeout': 0.5, 'max_energy': 1e6, 'energy_tolerance': 10.0}


class Wall:
    """A wall clock the test sets, in seconds."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture(scope='module')
def model():
    """Return a 3-joint revolute arm with friction, rotors, position and effort limits."""
    return limited_arm3()


def simulator(model, dt=1e-3, publish_period=0.01, order=None, **settings):
    """Return a Simulator on ``model`` with the node's defaults changed by ``settings``.

    Its ``settings`` dict (changed at run time as a parameter would be) and its fake wall
    clock are its attributes ``values`` and ``clock``; its failures are listed in ``failures``.
    """
    values = dict(DEFAULTS, **settings)
    failures = []
    sim = Simulator(model, dt, publish_period, values.__getitem__, order,
                    on_failure=failures.append, clock=Wall())
    sim.values, sim.failures = values, failures
    return sim


def run_for(sim, seconds):
    """Tick as fast as possible until ``seconds`` of simulated time; return the publications."""
    published = 0
    while sim.sim_time < seconds - 1e-12 and not sim.failed:
        published += sim.tick()
    return published


def test_a_held_command_saturates_and_runs_as_the_engines_whole_run(model):
    """The per-step loop with its stops equals rd.simulate's run in the engine."""
    q0 = [1.9, 0.0, 0.0]
    sim = simulator(model, integrator='rk4', velocity_limits=False, initial_positions=q0)
    sim.set_command(np.array([100.0, -5.0, 1.0]))
    np.testing.assert_array_equal(sim.applied_torque(), [40.0, -5.0, 1.0])     # saturated
    assert run_for(sim, 0.3) == 30                  # one publication per 10 steps
    reference = rd.simulate(model, np.array(q0), np.zeros(3), np.array([40.0, -5.0, 1.0]), 0.3,
                            dt=1e-3, integrator='rk4', position_limits=True)
    np.testing.assert_allclose(sim.q, reference.q[300], rtol=0, atol=1e-12)
    np.testing.assert_allclose(sim.qd, reference.qd[300], rtol=0, atol=1e-12)
    assert sim.q[0] == pytest.approx(2.0, abs=1e-12)          # on its stop
    np.testing.assert_array_equal(sim.tau, [40.0, -5.0, 1.0])


def test_a_command_times_out_and_an_implausible_one_is_refused(model):
    sim = simulator(model, order=np.array([2, 0, 1]), command_timeout=0.05)
    sim.set_command(np.array([1.0, 2.0, 3.0]), joint_order=True)     # joints 2, 0, 1
    np.testing.assert_array_equal(sim.command, [2.0, 3.0, 1.0])
    with pytest.raises(PlausibilityError, match='not finite'):
        sim.set_command(np.array([np.nan, 0.0, 0.0]))
    np.testing.assert_array_equal(sim.command, [2.0, 3.0, 1.0])      # the last one held
    run_for(sim, 0.04)
    np.testing.assert_array_equal(sim.tau, [2.0, 3.0, 1.0])
    run_for(sim, 0.07)
    np.testing.assert_array_equal(sim.tau, np.zeros(3))             # older than 0.05 s


def test_paced_by_wall_time(model):
    """real_time_factor 0.05: 0.4 s of wall time give 0.02 s simulated; an overrun, no debt."""
    sim = simulator(model.replace(gravity=[0.0, 0.0, 0.0]), publish_period=1e-3,
                    real_time_factor=0.05)

    def tick_at(milliseconds, ticks=1):
        sim.clock.now = milliseconds * 1e-3
        for _ in range(ticks):
            sim.tick()
        return sim.sim_time
    for k in range(1, 401):                            # 0.4 s of wall time in 1 ms ticks
        simulated = tick_at(k)
    assert simulated == pytest.approx(0.02, abs=1e-12)
    assert tick_at(400, ticks=5) == pytest.approx(0.02, abs=1e-12)     # no time: no step
    # An overrun (1 s, 50 steps behind): one step, then paced from there, no debt.
    assert tick_at(1400, ticks=5) == pytest.approx(0.021, abs=1e-12)
    assert tick_at(1420, ticks=5) == pytest.approx(0.021, abs=1e-12)
    assert tick_at(1440, ticks=5) == pytest.approx(0.022, abs=1e-12)
    assert sim.measured_factor() == pytest.approx(0.05)    # 2 ms in 40 ms since the overrun


def test_lockstep_waits_for_a_command_and_repeats_the_state_meanwhile(model):
    sim = simulator(model, lockstep=True, lockstep_timeout=0.1)
    sim.clock.now = 0.05
    assert not sim.tick()                   # no command, not yet time to repeat the state
    sim.clock.now = 0.1
    assert sim.tick() and sim.sim_time == 0.0       # repeat the state; the arm holds still
    sim.published()
    sim.set_command(np.zeros(3))
    assert sim.tick() and sim.sim_time == pytest.approx(0.01)      # one publish period
    sim.published()
    sim.clock.now = 0.15
    assert not sim.tick()                   # waits for the answer to the state ...
    sim.clock.now = 0.2
    assert sim.tick() and sim.sim_time == pytest.approx(0.02)      # ... lockstep_timeout


def test_a_runaway_stops_once_with_the_fix_and_reset_restarts(model):
    # Explicit Euler with a coarse step adds energy to a swinging arm at every step.
    sim = simulator(model.without_joint_effects(), dt=0.02, publish_period=0.02,
                    integrator='euler', initial_positions=[1.0, 1.0, 1.0],
                    energy_tolerance=1.0)
    run_for(sim, 20.0)
    assert sim.failed and sim.failures == [sim.error]
    assert 'energy grew' in sim.error and 'use integrator rk4' in sim.error
    assert 'the euler integration at dt = 0.02 s is unstable' in sim.error
    stopped = sim.sim_time
    assert not sim.tick() and sim.sim_time == stopped
    assert sim.health() == (False, sim.error)
    sim.reset()
    assert not sim.failed and sim.sim_time == 0.0 and sim.error == ''
    np.testing.assert_array_equal(sim.q, [1.0, 1.0, 1.0])
    sim.trial_step()                                 # the first step can run


def test_a_trial_step_that_is_not_finite_raises(model, monkeypatch):
    sim = simulator(model)
    monkeypatch.setattr(simulator_module, 'step', lambda *args, **kwargs: (
        np.full(3, np.nan), np.zeros(3), None))
    with pytest.raises(rd.SimulationError, match='first step from the initial state'):
        sim.trial_step()


def test_health_reports_a_silence_longer_than_the_window(model):
    sim = simulator(model, real_time_factor=1.0)
    assert sim.health() == (True, 'running')
    sim.clock.now = 1.5                             # window: max(1 s, 3 publish periods)
    ok, message = sim.health()
    assert not ok and message == 'running but nothing published for 1.50 s: stepping stalled'
    sim.pause(True)
    assert sim.health() == (True, 'paused') and not sim.tick()
    sim.values['lockstep'], sim.values['lockstep_timeout'] = True, 1.0
    sim.pause(False)
    assert sim.health() == (True, 'running')        # lockstep: 3 x lockstep_timeout


def test_settings_are_refused_with_the_reason(model):
    order = np.arange(3)
    assert setting_error(model, order, 'integrator', 'rk4') is None
    assert 'unknown' in setting_error(model, order, 'integrator', 'verlet')
    with pytest.raises(ValueError, match="unknown 'verlet'"):
        check_integrator('verlet')
    assert 'would freeze' in setting_error(model, order, 'real_time_factor', MIN_FACTOR / 2)
    assert setting_error(model, order, 'real_time_factor', 0.0) is None     # fast as possible
    assert 'give 3 finite values' in setting_error(model, order, 'initial_positions', [0.0])
    assert 'initial_positions:' in setting_error(model, order, 'initial_positions',
                                                 [3.0, 0.0, 0.0])      # beyond the limit
    np.testing.assert_array_equal(initial_positions(model, np.array([2, 0, 1]), [0.1, 0.2, 0.3]),
                                  [0.2, 0.3, 0.1])
    np.testing.assert_array_equal(initial_positions(model, order, []), np.zeros(3))   # home
