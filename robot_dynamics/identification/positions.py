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
"""Recorded positions against the model's joints: whole turns unwrapped, limits checked.

A driver may report a joint that turns without limit (URDF ``continuous``, or a range over one
turn) modulo one turn, in [-pi, pi): turning through pi, the reading jumps by 2 pi in one
sample, and its derivative, a velocity of hundreds of rad/s, would go into the regressor.
:func:`unwrap_turns` adds the whole turns back (``numpy.unwrap``: a step of more than pi
between samples is a wrap; no joint turns half a turn in one sample). A joint whose range is
under one turn is never unwrapped: its readings cannot wrap, a step there is the data's.
:func:`check_limits` then refuses positions far outside a joint's limits, and
:func:`check_speeds` positions that change far faster than the joint moves (a joint without
limits, continuous, recorded in degrees).
"""

import numpy as np

from robot_dynamics.io.recordings import RecordingError


def unwrap_turns(q, model, report):
    """Return ``q`` (K, n) with the whole turns of joints that can turn one added back.

    ``q``: finite rows in time order. Counts the wraps per joint in ``report.unwrapped``.
    """
    span = model.upper_limit - model.lower_limit
    out = q
    for j, name in enumerate(model.joint_names):
        if model.joint_types[j] != 'revolute' or not span[j] > 2 * np.pi:
            continue
        wraps = np.count_nonzero(np.abs(np.diff(q[:, j])) > np.pi)
        if wraps:
            out = out.copy() if out is q else out
            out[:, j] = np.unwrap(q[:, j])
            report.unwrapped[name] = wraps
    return out


#: How far beyond a joint's limits a recorded position may read: encoders and soft limits
#: disagree by a little, not by this (a fraction of the joint's range, at least 0.05 rad or m).
LIMIT_SLACK = 0.05


def check_limits(source, q, model):
    """Refuse positions far outside a joint's limits: a unit or joint-order mistake.

    Trial 3: joint 7 recorded in degrees (up to 8.8 "rad" against limits of ±2.8) gave a URDF
    with link 7's inertia 3.5× too small and exit 0.
    """
    lower, upper = model.lower_limit, model.upper_limit
    for j, name in enumerate(model.joint_names):
        if not (np.isfinite(lower[j]) and np.isfinite(upper[j])):
            continue
        slack = max(LIMIT_SLACK, LIMIT_SLACK * (upper[j] - lower[j]))
        outside = (q[:, j] < lower[j] - slack) | (q[:, j] > upper[j] + slack)
        if not np.any(outside):
            continue
        far = q[outside, j][np.argmax(np.abs(q[outside, j]))]
        unit, other = (('m', 'mm: divide by 1000') if model.joint_types[j] == 'prismatic'
                       else ('rad', 'degrees: divide by 57.3'))
        raise RecordingError(
            f'{source}: position of joint {name!r} reaches {far:.6g} {unit}, outside its limits '
            f'[{lower[j]:.6g}, {upper[j]:.6g}] on {np.count_nonzero(outside)} of {len(q)} '
            f'samples: record positions in {unit} ({other}) with the model\'s zero and joint '
            'names, or correct the limits of the model')


#: A position changing faster than this many times the joint's velocity limit on a tenth of
#: the recording is a unit mistake (degrees read as rad are 57.3 times faster), not motion.
SPEED_FACTOR = 3.0
#: Without a velocity limit: faster than arm joints move (rad/s, and m/s for prismatic).
NO_LIMIT_SPEED = {'revolute': 20.0, 'prismatic': 5.0}
#: The speed is measured over this window (s): sensor noise differentiated sample by sample
#: at 1 kHz would read as speed.
SPEED_WINDOW = 0.1


def check_speeds(source, t, q, model, dt):
    """Refuse positions that change far faster than their joint can move: a unit mistake.

    ``t`` (K,) increasing, ``q`` (K, n) unwrapped, ``dt`` the median sample period (s). A
    continuous joint has no limits for :func:`check_limits` to meet: a driver that reports
    degrees (a Kinova Gen3's) reads as a joint turning 57.3 times too fast. The speed is the
    90th percentile of ``|Δq| / Δt`` over ``SPEED_WINDOW``; its bound ``SPEED_FACTOR`` times
    the velocity limit, or ``NO_LIMIT_SPEED`` where the model has none.
    """
    step = max(1, int(round(SPEED_WINDOW / dt)))
    if len(t) <= step:
        return
    span = t[step:] - t[:-step]
    moved = np.abs(q[step:] - q[:-step])[span > 0] / span[span > 0, None]
    if not len(moved):
        return
    typical = np.percentile(moved, 90, axis=0)
    limits = model.velocity_limit                # inf where unknown (model fields' default)
    for j, name in enumerate(model.joint_names):
        kind = model.joint_types[j]
        known = np.isfinite(limits[j]) and limits[j] > 0
        bound = SPEED_FACTOR * limits[j] if known else NO_LIMIT_SPEED[kind]
        if not typical[j] > bound:
            continue
        unit, other = (('m', 'mm: divide by 1000') if kind == 'prismatic'
                       else ('rad', 'degrees: divide by 57.3'))
        against = (f'{SPEED_FACTOR:g} times its velocity limit {limits[j]:.6g} {unit}/s' if known
                   else f'{bound:g} {unit}/s, faster than arm joints move')
        raise RecordingError(
            f'{source}: position of joint {name!r} changes at {typical[j]:.6g} {unit}/s on a '
            f'tenth of the recording, beyond {against}: record positions in {unit} ({other}), '
            'or correct the velocity limit of the model')
