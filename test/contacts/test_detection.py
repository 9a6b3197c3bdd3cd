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
"""Collision detection with the exact model.

60 s of fast motion without a false alarm, a step found at once, the streaming detector equal
to the batch one, the events.
"""

import numpy as np
import pytest

from robot_dynamics.contacts import (
    CollisionDetector, collision_thresholds, detect_collisions, observer_samples,
)
from robot_dynamics.io.recordings import Recording
import contact_runs

HOLD = 'previous'           # the simulated efforts: each held for its step


@pytest.fixture(scope='module')
def arm():
    """Give the simulated Panda (friction, rotors), known exactly, and thresholds from 20 s."""
    truth = contact_runs.truth_model()
    run = contact_runs.simulate(truth, contact_runs.Motion.random(truth, seed=11), 20.0,
                                warmup=0.0)
    learn = samples(run, truth)
    return truth, collision_thresholds(truth, learn.t, learn.q, learn.qd, learn.tau,
                                       hold=HOLD)


def samples(run, model):
    """Every simulation step, exact (the truth's own states and held torques)."""
    recording = Recording(model.joint_names, run.t, run.q, run.tau, run.qd)
    return observer_samples(recording, model)


def test_sixty_seconds_of_fast_motion_raise_no_alarm(arm):
    truth, thresholds = arm
    motion = contact_runs.Motion.random(truth, seed=12, speed=0.9)
    run = contact_runs.simulate(truth, motion, 60.0, warmup=0.0)
    assert np.all(np.abs(run.qd).max(axis=0) > 0.5 * truth.velocity_limit)   # fast
    s = samples(run, truth)
    detection = detect_collisions(truth, s.t, s.q, s.qd, s.tau, thresholds)
    assert not detection.events and not np.any(detection.contact)
    assert np.abs(detection.tau_ext).max() < 0.05                # the exact model: ~0


def test_a_small_step_is_found_at_once_on_the_right_joint(arm):
    truth, thresholds = arm
    motion = contact_runs.Motion.random(truth, seed=13)
    onset, joint, size = 1.3, 2, -2.0
    run = contact_runs.simulate(truth, motion, 2.0, contact=(onset, joint, size), warmup=0.0)
    s = samples(run, truth)
    detection = detect_collisions(truth, s.t, s.q, s.qd, s.tau, thresholds)
    assert len(detection.events) == 1
    event = detection.events[0]
    assert onset <= event.start < onset + 0.01
    assert event.peak_joint == 'panda_joint3' and event.joints[0] == 'panda_joint3'
    assert abs(event.peak_torque - size) < 0.02 * abs(size)
    assert event.end == s.t[-1] and detection.first_contact == event.start
    assert np.all(detection.contact == (detection.t >= event.start))


def test_the_streaming_detector_equals_the_batch_one(arm):
    truth, thresholds = arm
    motion = contact_runs.Motion.random(truth, seed=14)
    run = contact_runs.simulate(truth, motion, 1.0, contact=(0.6, 1, 3.0), warmup=0.0)
    s = samples(run, truth)
    batch = detect_collisions(truth, s.t, s.q, s.qd, s.tau, thresholds)
    detector = CollisionDetector(truth, thresholds)
    for k, row in enumerate(zip(s.t, s.q, s.qd, s.tau)):
        assert detector.update(*row) == batch.contact[k]
        assert np.array_equal(detector.tau_ext, batch.tau_ext[k])
        assert np.array_equal(detector.threshold, batch.threshold[k])
        assert np.array_equal(detector.joints, batch.joints[k])
    assert batch.contact[-1] and not batch.contact[0]
