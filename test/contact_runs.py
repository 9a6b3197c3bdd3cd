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
"""Simulated recordings of a 7-joint arm for the contact tests (issue 33).

The stand-in for a real arm's recording (the real one is not in the repository):

- **the arm** (:func:`truth_model`): the bundled Panda with link masses ×0.96-1.04, centres of
  mass moved by up to 5 mm, rotors (reflected inertia 0.05-0.2 kg m²) and friction (viscous
  0.3-1 N m s/rad, Coulomb 0.3-1 N m, smooth over 20 mrad/s, a Stribeck bump on some joints):
  the bundled model (no friction, no rotors) is off by a few percent, what ``identify`` fixes;
  the friction is 10 % higher at the start and warms up (:func:`warm`), no model knows;
- **the motion** (:class:`Motion`): three incommensurate sines per joint (0.07-0.5 Hz), never
  periodic, to 70 % of the velocity limits, tracked by a PD law (updated at 200 Hz, held)
  around the arm's own feed-forward torque; the simulation (:func:`robot_dynamics.simulate`,
  RK4 at 0.25 ms) holds each step's torque;
- **contact**: an external torque step on one joint (the environment's torque on it);
- **sampling** (:func:`record`): irregular instants, 3 to 5 simulation steps apart (1 kHz
  ± 25 %); ``every`` keeps one sample in so many (about 100 Hz for 10);
- **measurement**: positions quantised to 2⁻¹⁸ rad, velocities to 12 bits over ± the limit
  (1.06 mrad/s on the Panda's big joints), efforts with white noise of ``noise`` times each
  joint's RMS and, for current-based efforts, a torque-constant error ``gain_error``.
"""

from dataclasses import dataclass

import numpy as np

import robot_dynamics as rd
from robot_dynamics.io.recordings import Recording

STEP = 2.5e-4               # simulation step, s
CONTROL = 20                # simulation steps per PD update (5 ms)
QUANTUM = 2.0 ** -18        # rad per encoder count
VELOCITY_BITS = 12


def nominal_model():
    """Return the bundled Panda: the model one starts from (no friction, no rotors)."""
    return rd.load_model('panda')


def truth_model(seed=33):
    """Return the simulated arm (module docstring)."""
    nominal = nominal_model()
    rng = np.random.default_rng(seed)
    n = nominal.dof
    return nominal.replace(
        mass=nominal.mass * rng.uniform(0.96, 1.04, n),
        com=nominal.com + rng.uniform(-0.005, 0.005, (n, 3)),
        rotor_inertia=rng.uniform(0.05, 0.2, n), gear_ratio=np.ones(n),
        viscous_friction=rng.uniform(0.3, 1.0, n), coulomb_friction=rng.uniform(0.3, 1.0, n),
        friction_smoothing=np.full(n, 0.02),
        stribeck_friction=np.where(np.arange(n) % 2 == 0, 0.2, 0.0),
        stribeck_velocity=np.full(n, 0.1))


@dataclass(frozen=True)
class Motion:
    """Desired joint motion: three sines per joint.

    ``centre`` (n,); ``amplitude``, ``frequency`` (Hz), ``phase`` (n, 3).
    """

    centre: np.ndarray
    amplitude: np.ndarray
    frequency: np.ndarray
    phase: np.ndarray

    @classmethod
    def random(cls, model, seed=0, speed=0.7):
        """Sines within the middle of the joint ranges, peak speed ``speed`` x the limits."""
        rng = np.random.default_rng(seed)
        n = model.dof
        frequency = rng.uniform(0.07, 0.5, (n, 3))
        phase = rng.uniform(0, 2 * np.pi, (n, 3))
        centre = 0.5 * (model.lower_limit + model.upper_limit)
        span = 0.3 * (model.upper_limit - model.lower_limit)
        weights = rng.uniform(0.5, 1.0, (n, 3))
        weights /= weights.sum(axis=1, keepdims=True)
        by_range = span[:, None] * weights
        by_speed = speed * model.velocity_limit[:, None] * weights / (2 * np.pi * frequency)
        return cls(centre, np.minimum(by_range, by_speed), frequency, phase)

    def evaluate(self, t):
        """Positions, velocities, accelerations (len(t), n) at times ``t``."""
        w = 2 * np.pi * self.frequency                                   # (n, 3)
        angle = np.multiply.outer(np.atleast_1d(t), w) + self.phase      # (T, n, 3)
        q = self.centre + np.sum(self.amplitude * np.sin(angle), axis=2)
        qd = np.sum(self.amplitude * w * np.cos(angle), axis=2)
        qdd = -np.sum(self.amplitude * w ** 2 * np.sin(angle), axis=2)
        return q, qd, qdd


@dataclass(frozen=True)
class Run:
    """A simulated run on the ``STEP`` grid.

    ``t`` (K,); ``q``, ``qd`` (K, n); the motor torque ``tau`` held over each step and the
    external torque ``ext`` (K, n).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray
    ext: np.ndarray


def warm(truth, t, warmup):
    """Return the arm at time ``t`` s: its friction ``1 + warmup e^{-t / 40 s}`` times.

    The grease warms up.
    """
    scale = 1.0 + warmup * np.exp(-t / 40.0)
    return truth.replace(viscous_friction=scale * truth.viscous_friction,
                         coulomb_friction=scale * truth.coulomb_friction,
                         stribeck_friction=scale * truth.stribeck_friction)


def simulate(truth, motion, seconds, contact=None, start=0.0, gains=(400.0, 40.0),
             warmup=0.1):
    """Simulate the arm tracking ``motion`` from ``start`` for ``seconds`` s.

    ``contact`` = (time, joint, torque): an external torque step from that time on (N m on
    that joint), the environment's on the arm. The PD law ``diag(M(q)) (kp e + kd ė)`` (a
    20 rad/s critically damped loop) is updated every ``CONTROL`` steps and held in between;
    the friction warms up (:func:`warm`, one model per second).
    """
    kp, kd = gains
    steps = int(round(seconds / STEP))
    t = start + np.arange(steps + 1) * STEP
    feedforward = rd.inverse_dynamics(truth, *motion.evaluate(t))
    arms = [warm(truth, second, warmup) for second in range(int(t[-1]) + 1)]
    ext = np.zeros_like(feedforward)
    if contact is not None:
        onset, joint, torque = contact
        ext[t >= onset, joint] = torque
    q = np.empty_like(feedforward)
    qd = np.empty_like(feedforward)
    tau = np.empty_like(feedforward)
    start_q, start_qd, _ = motion.evaluate(start)
    q[0], qd[0] = start_q[0], start_qd[0]
    for k in range(0, steps, CONTROL):
        end = min(k + CONTROL, steps)
        q_d, qd_d, _ = motion.evaluate(t[k])
        inertia = np.diag(rd.mass_matrix(truth, q[k]))
        feedback = inertia * (kp * (q_d[0] - q[k]) + kd * (qd_d[0] - qd[k]))
        tau[k:end + 1] = feedforward[k:end + 1] + feedback
        run = rd.simulate(arms[int(t[k])], q[k], qd[k], tau[k:end + 1] + ext[k:end + 1],
                          (end - k) * STEP, dt=STEP)
        q[k:end + 1], qd[k:end + 1] = run.q, run.qd
    return Run(t, q, qd, tau, ext)


def sample_indices(run, seed=0, every=1):
    """Return the irregular sample instants (3-5 steps apart), one in ``every`` kept."""
    rng = np.random.default_rng(seed)
    gaps = rng.integers(3, 6, size=len(run.t) // 3 + 2)
    index = np.cumsum(np.r_[1, gaps])
    index = index[index < len(run.t) - 1]
    return index[::every]


def record(run, model, seed=0, every=1, noise=0.01, gain_error=0.0, start=None, end=None):
    """Return the :class:`Recording` a driver would write of ``run`` (module docstring).

    Efforts are the motor torques (the external torque is not in them) times
    ``1 + gain_error``, plus white noise of ``noise`` times each joint's RMS torque.
    ``start``, ``end`` (s): keep that window only.
    """
    rng = np.random.default_rng(seed + 1000)
    index = sample_indices(run, seed, every)
    if start is not None:
        index = index[(run.t[index] >= start) & (run.t[index] <= end)]
    q = np.round(run.q[index] / QUANTUM) * QUANTUM
    lsb = 2 * model.velocity_limit / 2 ** VELOCITY_BITS
    qd = np.round(run.qd[index] / lsb) * lsb
    tau = run.tau[index] * (1 + gain_error)
    tau = tau + noise * np.sqrt(np.mean(run.tau ** 2, axis=0)) * rng.normal(size=tau.shape)
    return Recording(model.joint_names, run.t[index], q, tau, qd, 'simulated_panda.csv')
