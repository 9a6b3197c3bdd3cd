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
"""A simulated second real arm: 6 joints, torques from motor currents, about 94 Hz.

The stand-in for issue 32's second arm (its recording is held out of the repository). The
arm is a UR5-like 6R (the bundled ``ur5`` kinematics); what differs from a clean simulation:

- **truth**: masses ×0.9-1.15, centres of mass moved by up to 1 cm, inertias ×0.8-1.3 (real
  bodies), reflected rotor inertias 0.02-0.3 kg m² (:func:`true_arm`);
- **friction outside the model class** (:func:`true_friction`): viscous, an offset on some
  joints (a current sensor's bias), and a Coulomb level that *dips* at low speed,
  ``(Fc - Fd exp(-(q̇/v_d)²)) tanh(q̇/ε)``: the Stribeck term a fit wants negative, which a
  physical model (Stribeck amplitude ≥ 0) cannot hold;
- **the published model** (:func:`published_model`): the authors' identification of the same
  arm, a few per cent off the truth in every inertial parameter and rotor, with viscous and
  Coulomb friction; ``identify`` gets it as its nominal model;
- **efforts from motor currents**: the recorded effort is the current times the drive's
  nominal torque constant, which is 2-4 % off the real one per joint, plus current noise of
  1.5 % of the torque RMS;
- **sampling**: a 100 Hz driver whose cycle is late by up to 4 ms three times in ten (mean
  rate 94 Hz, median interval 10 ms) and once by 8 ms (a short gap), stamped when it
  sampled; positions quantised to 2⁻¹⁸ rad;
- **rest**: the arm holds still for ``rest`` seconds before and after the motion, held by
  static friction (the efforts are the gravity torques plus a part of Coulomb friction that
  no motion tells).

:func:`second_arm_recording` returns the recording and the true states at its stamps (the
independent check of held-out predictions).
"""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.identification import FourierTrajectory
from robot_dynamics.io.recordings import Recording
from mismatched_arm import scaled_inertias

RATE = 100.0
LATE_SHARE, LATE_MAX = 0.3, 0.004       # a cycle is late by up to 4 ms (30 %)
QUANTUM = 2.0 ** -18
GAIN_ERROR = np.array([0.03, -0.025, 0.04, -0.03, 0.02, -0.035])


def true_arm():
    """Return the truth's rigid bodies and rotors (friction: :func:`true_friction`)."""
    nominal = rd.load_model('ur5')
    rng = np.random.default_rng(32)
    n = nominal.dof
    inertias = scaled_inertias(nominal.inertia, rng, 0.8, 1.3)
    return nominal.replace(
        name='second_arm', mass=nominal.mass * rng.uniform(0.9, 1.15, n),
        com=nominal.com + rng.uniform(-0.01, 0.01, (n, 3)), inertia=inertias,
        rotor_inertia=np.array([0.3, 0.3, 0.15, 0.03, 0.03, 0.02]), gear_ratio=np.ones(n))


#: Per joint: viscous N m s/rad, Coulomb N m, its low-speed dip N m, dip velocity rad/s,
#: offset N m; the zero crossing is smoothed over EPSILON rad/s.
FRICTION = np.array([[1.2, 4.0, 2.0, 0.15, 0.0],
                     [1.5, 5.0, 2.5, 0.12, 0.8],
                     [1.0, 3.0, 1.5, 0.15, 0.0],
                     [0.3, 1.2, 0.5, 0.2, 0.15],
                     [0.3, 1.0, 0.4, 0.2, 0.0],
                     [0.25, 0.8, 0.35, 0.2, 0.0]])
EPSILON = 0.01


def true_friction(qd):
    """Joint friction (K, n) of the truth: viscous, offset, Coulomb with a low-speed dip."""
    fv, fc, fd, vd, f0 = FRICTION.T
    return fv * qd + f0 + (fc - fd * np.exp(-(qd / vd) ** 2)) * np.tanh(qd / EPSILON)


def published_model():
    """Return the authors' published model: the truth a few per cent off, their friction."""
    truth = true_arm()
    rng = np.random.default_rng(7)
    n = truth.dof
    inertia = np.array([body * rng.uniform(0.95, 1.05) for body in truth.inertia])
    fv, fc, fd, _, _ = FRICTION.T
    return truth.replace(
        name='second_arm_published', mass=truth.mass * rng.uniform(0.96, 1.04, n),
        com=truth.com + rng.uniform(-0.004, 0.004, (n, 3)), inertia=inertia,
        rotor_inertia=truth.rotor_inertia * rng.uniform(0.92, 1.08, n),
        viscous_friction=fv * rng.uniform(0.9, 1.1, n), coulomb_friction=fc - 0.5 * fd)


def excitation(periods=4, period=10.0, seed=3):
    """Return a Fourier motion that starts and ends at rest (q̇ = q̈ = 0 every period)."""
    names = true_arm().joint_names
    rng = np.random.default_rng(seed)
    harmonics = 5
    a = rng.normal(size=(6, harmonics)) * 0.3
    b = rng.normal(size=(6, harmonics)) * 0.3
    a[:, -1] = -a[:, :-1].sum(axis=1)                                     # q̇(0) = 0
    b[:, -1] = -(b[:, :-1] * np.arange(1, harmonics)).sum(axis=1) / harmonics  # q̈(0) = 0
    q0 = np.array([0.0, -1.2, 1.2, -1.5, -1.5, 0.0])
    return FourierTrajectory(names, period, q0, a, b), periods * period


def states(trajectory, duration, t, rest_before):
    """Return the true q, q̇, q̈ (K, n) at times ``t``: at rest outside the motion."""
    motion = np.clip(t - rest_before, 0.0, duration)
    q, qd, qdd = trajectory.evaluate(motion)
    still = (t < rest_before) | (t > rest_before + duration)
    qd[still], qdd[still] = 0.0, 0.0
    return q, qd, qdd


def sample_times(span, rng):
    """Irregular sample instants over ``span`` s: a 100 Hz cycle, often late, once 18 ms."""
    count = int(span * RATE / (1 + LATE_SHARE * LATE_MAX / 2 * RATE)) + 2
    late = np.where(rng.random(count) < LATE_SHARE, rng.uniform(0, LATE_MAX, count), 0.0)
    late[count // 3] = 0.008                                     # one short gap
    t = np.cumsum(1.0 / RATE + late)
    return t[t < span]


def second_arm_recording(rest=(1.0, 1.0), periods=4, seed=0):
    """Return the recording and the true states ``(t, q, qd, qdd)`` at its stamps.

    ``rest``: seconds at rest before and after the motion of ``periods`` periods of 10 s.
    """
    rng = np.random.default_rng(seed)
    trajectory, duration = excitation(periods)
    span = rest[0] + duration + rest[1]
    t = sample_times(span, rng)
    q, qd, qdd = states(trajectory, duration, t, rest[0])
    truth = true_arm()
    tau = rd.inverse_dynamics(truth, q, qd, qdd) + true_friction(qd)
    still = np.all(qd == 0, axis=1)
    held = FRICTION[:, 1] * rng.uniform(-0.3, 0.3, 6)          # static friction, unknown
    tau[still] = rd.inverse_dynamics(truth, q[still], qd[still], qdd[still]) + held
    current = tau / (1.0 + GAIN_ERROR)                          # read with the nominal gain
    scale = np.sqrt(np.mean(current ** 2, axis=0))
    effort = current + 0.015 * scale * rng.normal(size=current.shape)
    position = np.round((q + 1e-5 * rng.normal(size=q.shape)) / QUANTUM) * QUANTUM
    return (Recording(truth.joint_names, t, position, effort, None, 'second_arm.csv'),
            (t, q, qd, qdd))
