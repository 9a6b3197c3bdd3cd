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
"""Model changes parsed off the caller's thread, rate-limited, and said in one line (no ROS).

Issue 22.6: two 11 MB URDFs alternating at 1 Hz held the dynamics node's executor. The clock
here is a fake the test sets; the worker thread is real.
"""

import threading
import time

import pytest

from robot_dynamics.control.description_updates import (BUSY_FACTOR, model_change,
                                                        RateLimitedLoader)
from robots import quiet_bundled, quiet_model_from_urdf, random_arm_urdf


class Loads:
    """A loader's callables; ``load`` waits for ``release`` and takes ``seconds`` of the clock."""

    def __init__(self, seconds=0.0):
        self.now, self.seconds = 0.0, seconds
        self.loaded, self.applied, self.in_use = [], [], None
        self.release = threading.Event()
        self.release.set()

    def clock(self):
        return self.now

    def load(self, text):
        self.release.wait(10.0)
        self.loaded.append(text)
        self.now += self.seconds
        return text.upper()

    def apply(self, text, future):
        self.applied.append((text, future.result()))
        self.in_use = text


def loader(loads, interval=1.0):
    """Return a RateLimitedLoader over ``loads``, closed by the caller."""
    return RateLimitedLoader(loads.load, loads.apply, lambda: loads.in_use, interval,
                             clock=loads.clock)


def poll_until_idle(updates):
    """Poll as a timer would until nothing is parsed; fail after 10 s."""
    deadline = time.monotonic() + 10.0
    updates.poll()
    while updates.busy() and updates._future is not None:
        assert time.monotonic() < deadline, 'the parse did not end'
        time.sleep(0.001)
        updates.poll()


def test_the_latest_text_waits_for_the_interval_and_the_older_ones_are_skipped():
    loads = Loads()
    updates = loader(loads)
    try:
        assert updates.poll_period == pytest.approx(0.1)
        updates.offer('a')
        poll_until_idle(updates)
        assert loads.applied == [('a', 'A')] and not updates.busy()
        loads.now = 0.5                                   # within the 1 s interval
        for text in ('b', 'c', 'd'):
            updates.offer(text)
        poll_until_idle(updates)
        assert loads.loaded == ['a'] and updates.busy()   # 'd' waits
        loads.now = 1.0
        poll_until_idle(updates)
        assert loads.applied[-1] == ('d', 'D') and loads.loaded == ['a', 'd']
        assert updates.parsed == 2
    finally:
        updates.close()


def test_the_text_in_use_is_not_parsed_again():
    loads = Loads()
    updates = loader(loads)
    try:
        updates.offer('a')
        poll_until_idle(updates)
        loads.now = 5.0
        updates.offer('a')
        assert not updates.busy() and updates.parsed == 1
    finally:
        updates.close()


def test_a_slow_parse_pauses_nine_times_its_duration():
    loads = Loads(seconds=0.5)                       # each parse: 0.5 s of the clock
    updates = loader(loads)
    try:
        updates.offer('a')
        poll_until_idle(updates)
        loads.now = 0.5 + BUSY_FACTOR * 0.5 - 0.01      # the parse ended at 0.5 s
        updates.offer('b')
        poll_until_idle(updates)
        assert loads.loaded == ['a']
        loads.now = 0.5 + BUSY_FACTOR * 0.5
        poll_until_idle(updates)
        assert loads.loaded == ['a', 'b']
    finally:
        updates.close()


def test_the_parse_runs_off_the_polling_thread():
    loads = Loads()
    loads.release.clear()                            # the parse blocks until released
    updates = loader(loads)
    try:
        updates.offer('a')
        updates.poll()                               # returns at once: not parsed here
        assert updates.busy() and loads.applied == []
        loads.release.set()
        poll_until_idle(updates)
        assert loads.applied == [('a', 'A')]
    finally:
        updates.close()


def test_model_change_names_joints_and_masses():
    old = quiet_model_from_urdf(random_arm_urdf(46, 3, 'arm3'))
    heavier = old.replace(mass=old.mass * [1.0, 7.0, 1.0])
    said = model_change(old, heavier)
    assert f"{old.link_names[1]} {old.mass[1]:.6g} -> {7 * old.mass[1]:.6g} kg" in said
    assert old.link_names[0] not in said.split('masses')[1].split(';')[0]
    other = quiet_bundled('puma560')
    said = model_change(old, other)
    assert "robot 'arm3' -> " in said and 'joints removed' in said and 'total mass' in said
