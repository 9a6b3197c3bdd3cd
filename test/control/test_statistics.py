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
"""The input rate the nodes report on /diagnostics."""


from robot_dynamics.control.statistics import Statistics


def test_the_rate_is_that_of_the_last_two_seconds_a_pause_forgotten():
    statistics = Statistics()
    statistics.arrivals.extend(0.005 * k for k in range(1000))           # 200 Hz for 5 s
    assert abs(statistics.rate(now=4.995) - 200.0) < 1e-6
    statistics.arrivals.extend(25.0 + 0.005 * k for k in range(401))     # 20 s pause, 2 s on
    assert abs(statistics.rate(now=27.0) - 200.0) < 1e-6                # not 53 Hz
    statistics.arrivals.append(40.0)                                     # alone after a pause
    assert statistics.rate(now=40.0) == 0.0
    assert Statistics().rate() == 0.0


def test_the_rate_decays_to_zero_while_nothing_arrives_and_the_age_says_since_when():
    """Trial 2: input_rate_hz stayed at 180.1 Hz while no joint state arrived.

    The window ended at the last arrival, not now.
    """
    statistics = Statistics()
    for k in range(1000):                                                # 200 Hz, 0 .. 4.995 s
        statistics.arrival(now=0.005 * k)
    last = 0.005 * 999
    assert abs(statistics.rate(now=last + 0.004) - 200.0) < 1e-9        # within one period
    assert statistics.age(now=last + 0.5) == 0.5
    rates = [statistics.rate(now=last + silence) for silence in (0.1, 0.5, 1.0, 1.9, 2.1)]
    # from the silence beyond one period on, the rate is (k - 1) / (now - T - first): falls
    assert all(later < earlier for earlier, later in zip(rates, rates[1:])), rates
    assert abs(rates[1] - 150.0) < 1.0         # 1.5 s of 200 Hz in the last 2 s: ~300 / 2
    assert rates[-1] == 0.0                                              # all older than 2 s
    assert Statistics().age() is None
