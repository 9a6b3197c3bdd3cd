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
"""The contact monitor: a stream of joint states to a verdict, or the reason there is none.

The truth is a closed-form motion (the Cartesian arm of test_observer.py under constant
forces): the estimate after a step of external force ``s`` at ``t_s`` is
``s (1 - e^{-K (t - t_s)})``, so the first sample in contact under a threshold ``T`` is the
first with ``t - t_s > ln(s / (s - T)) / K``.
"""

import numpy as np
import pytest

from robot_dynamics.contacts import ContactMonitor, fixed_thresholds
from test_observer import cartesian_arm, cartesian_motion

FORCE = np.array([80.0, 3.0])
EXTERNAL = np.array([-4.0, 0.0])          # on the vertical joint only
K = 50.0


@pytest.fixture(scope='module')
def stream():
    """Give the arm and 0.5 s of the exact motion at irregular times, a step at sample 200."""
    model = cartesian_arm()
    rng = np.random.default_rng(3)
    t = np.cumsum(np.r_[0.0, rng.uniform(5e-4, 1.5e-3, 500)])
    q, qd = cartesian_motion(model, t, FORCE, EXTERNAL, t[200])
    return model, t, q, qd, 200


def run(monitor, t, q, qd, tau=FORCE):
    """Return the monitor's readings over the stream."""
    return [monitor.update(t[k], q[k], qd[k], tau) for k in range(len(t))]


def test_first_contact_sample_is_the_closed_forms(stream):
    """Check the estimate and the onset against s (1 - e^{-K t}) and ln(s / (s - T)) / K."""
    model, t, q, qd, onset = stream
    T = 2.5
    readings = run(ContactMonitor(model, fixed_thresholds(model, T, gain=K)), t, q, qd)
    truth = EXTERNAL * -np.expm1(-K * np.maximum(t[:, None] - t[onset], 0))
    estimate = np.array([r.tau_ext for r in readings[1:]])
    assert readings[0].tau_ext is None
    assert np.abs(estimate - truth[1:]).max() <= 1e-11 * 4.0
    delay = np.log(4.0 / (4.0 - T)) / K                        # 19.6 ms
    expected = int(np.flatnonzero(t - t[onset] > delay)[0])
    contact = [r.in_contact for r in readings]
    assert contact[0] is None and readings[0].reason.startswith('the observer starts')
    assert not any(contact[1:expected]) and all(contact[expected:])
    first = readings[expected]
    assert first.joint == model.joint_names[0]
    assert first.torque == pytest.approx(truth[expected, 0], abs=1e-10)
    assert first.ratio == pytest.approx(abs(truth[expected, 0]) / T, rel=1e-12)
    assert first.over == (model.joint_names[0],)
    assert model.joint_names[0] in first.describe() and 'contact' in first.describe()


def test_thresholds_bring_their_gain_and_another_is_refused(stream, tmp_path):
    """Thresholds (here through their file) set the observer's gain; another gain is refused."""
    model, t, q, qd, onset = stream
    path = fixed_thresholds(model, 2.5, gain=80.0).write(tmp_path / 'arm.contacts.yaml')
    monitor = ContactMonitor(model, str(path))
    assert np.all(monitor.gain == 80.0)
    readings = run(monitor, t, q, qd)
    delay = np.log(4.0 / (4.0 - 2.5)) / 80.0
    expected = int(np.flatnonzero(t - t[onset] > delay)[0])
    assert [r.in_contact for r in readings[1:]] == [False] * (expected - 1) + [True] * (
        len(t) - expected)
    with pytest.raises(ValueError, match='learnt with'):
        ContactMonitor(model, str(path), gain=50.0)


def test_without_thresholds_nothing_is_judged_but_the_estimate_is_given(stream):
    """No thresholds: in_contact None with the reason, never False; the estimate is there."""
    model, t, q, qd, onset = stream
    readings = run(ContactMonitor(model, gain=K), t, q, qd)
    assert all(r.in_contact is None for r in readings)
    assert 'no collision thresholds' in readings[-1].reason
    truth = EXTERNAL[0] * -np.expm1(-K * (t[-1] - t[onset]))
    assert readings[-1].tau_ext[0] == pytest.approx(truth, abs=1e-10)
    assert readings[-1].joint == model.joint_names[0]


@pytest.mark.parametrize('tau, words', [
    (None, 'missing'), ([], 'missing'), ([np.nan, 3.0], 'NaN'), ([1.0], 'tau')])
def test_bad_efforts_are_not_judged_and_leave_the_observer(stream, tau, words):
    """A sample with missing or bad efforts says why; the next one integrates exactly over it."""
    model, t, q, qd, onset = stream
    monitor = ContactMonitor(model, fixed_thresholds(model, 2.5, gain=K))
    readings = run(monitor, t[:300], q[:300], qd[:300])
    bad = monitor.update(t[300], q[300], qd[300], tau)
    assert bad.in_contact is None and bad.tau_ext is None and words in bad.reason
    after = monitor.update(t[301], q[301], qd[301], FORCE)
    truth = EXTERNAL[0] * -np.expm1(-K * (t[301] - t[onset]))
    assert after.tau_ext[0] == pytest.approx(truth, abs=1e-10)
    assert after.in_contact is True and readings[-1].in_contact is True


def test_time_that_does_not_increase_is_not_judged(stream):
    """A repeated or earlier stamp: not judged, named; the stream goes on from the last good."""
    model, t, q, qd, _ = stream
    monitor = ContactMonitor(model, fixed_thresholds(model, 2.5, gain=K))
    run(monitor, t[:50], q[:50], qd[:50])
    for stamp in (t[49], t[20]):
        reading = monitor.update(stamp, q[49], qd[49], FORCE)
        assert reading.in_contact is None and 'strictly increasing' in reading.reason
    assert monitor.update(t[50], q[50], qd[50], FORCE).in_contact is False


def test_reset_starts_again_and_fixed_thresholds_refuse_nonsense(stream):
    """After reset the next sample starts the observer; thresholds must be finite and > 0."""
    model, t, q, qd, _ = stream
    monitor = ContactMonitor(model, fixed_thresholds(model, [2.5, 1.0], gain=K))
    run(monitor, t[:10], q[:10], qd[:10])
    monitor.reset()
    assert monitor.update(t[10], q[10], qd[10], FORCE).in_contact is None
    assert monitor.update(t[11], q[11], qd[11], FORCE).in_contact is False
    for values in (0.0, [1.0, -1.0], [np.nan, 1.0], [1.0, 2.0, 3.0], 'x'):
        with pytest.raises(ValueError, match='thresholds'):
            fixed_thresholds(model, values)
