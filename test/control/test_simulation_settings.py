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
"""The simulation node's settings, without rclpy: valid defaults, all the simulator reads."""

import robot_dynamics as rd
from robot_dynamics.control.simulation_settings import SAFETY, STEPPING
from robot_dynamics.simulation.simulator import setting_error, Simulator

SETTINGS = STEPPING + SAFETY


def test_every_default_is_in_its_range_and_accepted_at_run_time():
    model = rd.load_model('puma560')
    for setting in SETTINGS:
        if setting.low is not None:
            assert setting.low <= setting.default <= setting.high, setting.name
        assert setting_error(model, None, setting.name, setting.default) is None, setting.name
    assert len({setting.name for setting in SETTINGS}) == len(SETTINGS)


class Wall:
    """A wall clock that moves on a millisecond each time it is read."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 1e-3
        return self.now


def test_the_simulator_runs_on_the_declared_defaults_alone():
    """Every setting the simulator reads is declared here (or is the array initial_positions)."""
    values = {setting.name: setting.default for setting in SETTINGS}
    asked = set()

    def setting(name):
        asked.add(name)
        return [] if name == 'initial_positions' else values[name]

    model = rd.load_model('puma560')
    sim = Simulator(model, values['dt'], 1.0 / values['publish_rate'], setting, clock=Wall())
    published = sum(sim.tick() for _ in range(50))
    assert not sim.failed and sim.sim_time > 0 and published > 0
    assert {'integrator', 'real_time_factor', 'lockstep', 'velocity_limits', 'command_timeout',
            'max_energy', 'energy_tolerance'} <= asked
