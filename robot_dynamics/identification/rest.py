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
"""The arm at rest: cut at the ends of a recording, left out of a joint's equations inside.

At rest Coulomb friction is set-valued: static friction takes whatever torque in
``[-Fc, Fc]`` holds the joint, while the regressor's column ``sign(q̇)`` is the sign of the
velocity's noise. Rows at rest say nothing about ``Fc`` and pull it towards zero; their
constant torques also sway the cross-validated choices of the filter cut-off and of the joint
compliance. Issue 32: in the identification demo, 0.3 s more of the PUMA at rest before the
motion put joint 1's Coulomb friction 10 % low (0.72 against 0.80 N m); on a second arm the
rest at the ends of a recording changed the cut-off (3 → 20 Hz) and which joint got a
compliance.

Rest is told from joint velocities smoothed over 0.25 s (``REST_WINDOW`` in
:mod:`robot_dynamics.identification.data`), the same for every candidate cut-off. A joint
*moves* when at least :data:`MOVING_ROWS` samples are faster than :data:`MOVING`; its
typical speed is the 95th percentile of its speed over those samples (so that adding rest to
a recording does not change it), and it is *at rest* where it is slower than
:data:`REST_FRACTION` of that (:func:`rest_speeds`). A joint that never moves has no
threshold: it is neither cut for nor left out (the excitation check names it). Then
:func:`robot_dynamics.identification.data.prepare`

- cuts the samples at the start and at the end of every gap-free segment where every moving
  joint is at rest (:func:`moving_span`), before the positions are filtered and anything is
  chosen, and reports how many: a recording with more rest at its ends gives the same samples;
- marks the samples where a moving joint is at rest (:func:`joint_rest`): at the ends of a
  segment (while another joint already moves: the identification demo's PUMA sags on joint 2
  at 0.015 rad/s for 0.3 s while joint 1 rests), or inside for at least
  :data:`REST_DURATION` (a pause, or a joint held while others move);
  :func:`robot_dynamics.identification.identify` leaves them out of that joint's equations
  (and of the compliance fit). A reversal crosses zero speed within milliseconds and stays.
"""

import numpy as np

#: A joint moves when at least MOVING_ROWS samples are faster than MOVING (rad/s or m/s).
MOVING = 0.05
MOVING_ROWS = 10
#: At rest: slower than this fraction of the joint's typical (95th-percentile) speed.
REST_FRACTION = 0.01
#: Inside a recording, rest shorter than this (s) is a reversal or a momentary stop, not a
#: pause: at an excitation's period boundary q̇ and q̈ vanish together, and a joint stays
#: below 1 % of its typical speed for up to 0.6 s (the Panda's wrist in test_mismatch.py).
REST_DURATION = 1.0


def rest_speeds(qd):
    """Speed below which each joint is at rest (n,); NaN for a joint that does not move.

    ``qd`` (K, n): the joint velocities of the whole recording (see the module docstring).
    """
    speeds = np.full(qd.shape[1], np.nan)
    for j, speed in enumerate(np.abs(qd).T):
        fast = speed[speed >= MOVING]
        if fast.size >= MOVING_ROWS:
            speeds[j] = REST_FRACTION * np.percentile(fast, 95)
    return speeds


def moving_span(qd, speeds):
    """Return ``(start, stop)``: the rows from the first to the last where the arm moves.

    ``qd`` (K, n); ``speeds`` (n,) from :func:`rest_speeds`. The arm moves in a row where
    any moving joint is at least as fast as its rest speed; ``(0, 0)`` when it never does,
    ``(0, K)`` when no joint moves in the recording at all (nothing to tell rest from).
    """
    moving = ~np.isnan(speeds)
    if not np.any(moving):
        return 0, len(qd)
    fast = np.flatnonzero(np.any(np.abs(qd[:, moving]) >= speeds[moving], axis=1))
    if fast.size == 0:
        return 0, 0
    return int(fast[0]), int(fast[-1]) + 1


def joint_rest(qd, speeds, step):
    """Mask (K, n): a moving joint at rest at either end, or for REST_DURATION or longer.

    ``qd`` (K, n): one segment's velocities; ``step``: its sample period, s. At the ends of
    a segment (the arm starting or stopping, one joint after the other) rest of any length
    is masked; inside, only a pause. Joints that do not move (NaN speed) are never masked.
    """
    K, n = qd.shape
    mask = np.zeros((K, n), dtype=bool)
    shortest = max(1, int(np.ceil(REST_DURATION / step)))
    for j in np.flatnonzero(~np.isnan(speeds)):
        slow = np.abs(qd[:, j]) < speeds[j]
        edges = np.diff(np.concatenate(([0], slow.astype(np.int8), [0])))
        for start, stop in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
            if stop - start >= shortest or start == 0 or stop == K:
                mask[start:stop, j] = True
    return mask
