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
"""Implausible position jumps between consecutive joint states: a second publisher, or a reset.

A joint cannot move faster than its plausible speed (``bounds.velocity_bounds``: 1.5 x the
URDF velocity limit), so between two states stamped ``dt`` apart its position changes by at
most ``JUMP_MARGIN`` x speed x (``dt`` + ``JUMP_TIME_SLACK``). A message that jumps further on
any joint is refused (trial 2: spoofed states of ``[0.3]*6`` at 6 kHz interleaved with a
simulator's drove the arm into its stops). Rules:

- the first value of a joint is taken as it is (nothing to compare with);
- a revolute joint without limits (``continuous``) is compared modulo 2 pi (wrap-around);
- a jump that persists is a reset (the simulator's ``~/reset``, a driver restarted): once
  messages consistent with the jumped-to positions have kept arriving for ``RESET_TIME`` s
  of the node's clock (at least ``RESET_MESSAGES`` of them) with no message consistent with
  the old positions in between, the new positions are taken. A spoofer interleaved with the
  real driver never persists that long: each real message clears its candidate.
"""

import numpy as np

JUMP_MARGIN = 2.0          # x the plausible speed x the stamp difference
JUMP_TIME_SLACK = 1e-3     # s added to the stamp difference (coarse or jittery stamps)
RESET_TIME = 0.2           # s a jump must persist, with no message of the old positions
RESET_MESSAGES = 3         # ... and at least this many messages of the new ones


class JumpFilter:
    """Refuse position jumps beyond the plausible speed; follow a jump that persists (reset).

    ``speed`` (n,): plausible speed of each joint, rad/s or m/s; ``wrap`` (n,) bool: compare
    modulo 2 pi (continuous joints).
    """

    def __init__(self, speed, wrap):
        self.speed = np.asarray(speed, dtype=float)
        self.wrap = np.asarray(wrap, dtype=bool)
        self._wraps = bool(self.wrap.any())
        self.resets = 0                  # persistent jumps taken
        self._candidate = None           # (target indices, positions, stamp, first seen, count)

    def check(self, joint_names, target, q, stamp, old_q, old_stamps, now):
        """Return '' to take the message, or why it is refused (names the joint and the fix).

        ``joint_names``: all the joints' names; ``target`` (k,): the indices of the message's
        joints in them, ``q`` (k,) their positions,
        ``stamp`` the message's time (s); ``old_q``, ``old_stamps`` (n,) the merged state
        (stamps -inf: never received); ``now``: the node's clock (s).
        """
        previous = old_stamps[target]
        bad = self._jumps(target, q, stamp, old_q[target], previous) & (previous > -np.inf)
        if not bad.any():
            self._candidate = None if self._follows_candidate(target) else self._candidate
            return ''
        if self._persisted(target, q, stamp, now):
            self.resets += 1
            self._candidate = None
            return ''
        j = int(np.argmax(bad))
        dt = abs(stamp - old_stamps[target[j]])
        step = self._distance(target[j:j + 1], q[j:j + 1], old_q[target[j]])[0]
        return (f'position[{joint_names[target[j]]}] jumps {step:.6g} in {dt:.3g} s since the '
                f'last accepted state, beyond {JUMP_MARGIN:g} x its plausible speed '
                f'{self.speed[target[j]]:.3g} (a second publisher on joint_states? publish '
                'each joint from one source; a reset is taken once the new positions persist '
                f'for {RESET_TIME:g} s)')

    def _distance(self, target, q, old):
        """Return |q - old| (k,), modulo 2 pi on wrapping joints."""
        step = np.abs(q - old)
        if not self._wraps:                 # no continuous joint: the common arm
            return step
        wrap = self.wrap[target]
        if wrap.any():
            step[wrap] = np.abs((step[wrap] + np.pi) % (2 * np.pi) - np.pi)
        return step

    def _jumps(self, target, q, stamp, old_q, old_stamps):
        """Return which joints (k,) moved further than plausible since ``old_stamps``.

        A joint never received (stamp -inf) is allowed any step (inf; masked by the caller).
        """
        allowed = JUMP_MARGIN * self.speed[target] * (np.abs(stamp - old_stamps)
                                                      + JUMP_TIME_SLACK)
        return ~(self._distance(target, q, old_q) <= allowed)

    def _follows_candidate(self, target):
        """Tell whether a taken message names a joint of the pending candidate (clears it)."""
        return self._candidate is not None and bool(set(target) & set(self._candidate[0]))

    def _persisted(self, target, q, stamp, now):
        """Track a refused jump as a reset candidate; tell whether it has persisted enough."""
        candidate = self._candidate
        if candidate is not None and set(target) == set(candidate[0]):
            order = [list(candidate[0]).index(i) for i in target]
            if not self._jumps(target, q, stamp, candidate[1][order],
                               np.full(len(target), candidate[2])).any():
                self._candidate = (target, q, stamp, candidate[3], candidate[4] + 1)
                return now - candidate[3] >= RESET_TIME and candidate[4] + 1 >= RESET_MESSAGES
        self._candidate = (target, q, stamp, now, 1)
        return False
