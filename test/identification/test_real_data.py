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
"""Real-data handling (issue 24 item 3): irregular stamps, stale samples, recorded velocity."""

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import prepare
from robot_dynamics.io.recordings import Recording


def sine_run(seconds=6.0, rate=1000.0):
    """Two joints moving as sines: exact q, q̇, q̈ known."""
    t = np.arange(int(seconds * rate)) / rate
    q = 0.4 * np.sin(np.outer(t, [1.3, 2.1]))
    return t, q


def test_irregular_stamps_keep_the_whole_recording(tmp_path):
    # Was: IndexError when the mean interval was below the median one, and the last 0.456 s
    # trimmed on top of the filter transient (the grid's length was the stamps' count).
    model = rd.load_model('two_link')
    t, q = sine_run()
    extra = (t[::3] + 0.0004)[:-1]                           # a third more rows, mid-way
    stamps = np.sort(np.concatenate((t, extra)))
    q_all = 0.4 * np.sin(np.outer(stamps, [1.3, 2.1]))
    samples = prepare(Recording(model.joint_names, stamps, q_all, np.cos(q_all)), model,
                      cutoff=10.0)
    trim = 6.0 / 10.0
    assert samples.t[-1] == pytest.approx(t[-1] - trim, abs=2e-3)
    assert samples.t[0] == pytest.approx(trim, abs=2e-3)
    inner = slice(100, -100)
    expected = -0.4 * 1.3 ** 2 * np.sin(1.3 * samples.t[inner])
    assert np.allclose(samples.qdd[inner, 0], expected, atol=2e-3)


def test_stale_repeats_are_dropped_and_a_rest_is_kept():
    model = rd.load_model('two_link')
    t, q = sine_run()
    tau = np.cos(q)
    q, tau = q.copy(), tau.copy()
    stale = np.arange(500, 5000, 97)
    q[stale], tau[stale] = q[stale - 1], tau[stale - 1]
    rest = slice(5500, 5600)                                 # 100 ms at rest, exact repeats
    q[rest], tau[rest] = q[5500], tau[5500]
    samples = prepare(Recording(model.joint_names, t, q, tau), model, cutoff=10.0)
    assert samples.report.stale_rows == len(stale)
    assert 'stale samples (repeats of the previous values) dropped' in '\n'.join(
        samples.report.lines())


def test_jittered_stamps_are_dejittered_not_interpolated():
    model = rd.load_model('two_link')
    t, q = sine_run()
    stamps = t + np.random.default_rng(0).uniform(-2e-4, 2e-4, t.size)
    samples = prepare(Recording(model.joint_names, stamps, q, np.cos(q)), model, cutoff=10.0)
    report = samples.report
    assert report.dejittered_segments == 1 and report.resampled_segments == 0
    assert report.jitter_rms == pytest.approx(2e-4 / np.sqrt(3), rel=0.1)
    exact = -0.4 * 1.3 ** 2 * np.sin(1.3 * samples.t)
    assert np.abs(samples.qdd[:, 0] - exact).max() < 1e-3


@pytest.mark.parametrize('lag, used', [(0, True), (3, False)])
def test_recorded_velocity_is_used_when_it_agrees(lag, used):
    model = rd.load_model('two_link')
    t, q = sine_run()
    velocity = 0.4 * np.array([1.3, 2.1]) * np.cos(np.outer(t - lag * 1e-3, [1.3, 2.1]))
    samples = prepare(Recording(model.joint_names, t, q, np.cos(q), velocity), model,
                      cutoff=10.0)
    report = samples.report
    assert (report.velocity == 'recorded velocity') is used, report.velocity_note
    if not used:
        assert 'lags the positions\' derivative by 3 sample(s): not used' in report.velocity_note
