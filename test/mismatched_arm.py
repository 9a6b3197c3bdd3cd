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
"""A simulated 7-joint arm whose truth lies outside the estimator's model class.

The stand-in for a real robot's recording (issue 24: the real one is not in the repository).
The nominal model is the bundled Panda (the "CAD"); the truth differs from it and from what
``identify`` can represent:

- **links**: masses ×0.85-1.2, centres of mass moved by up to 2 cm, inertias ×0.8-1.5 (every
  link a real body), a 1 kg payload 8 cm beyond the flange;
- **rotors**: reflected inertias 0.1-0.3 kg m² (the nominal model has none);
- **friction**: Stribeck on every joint (smooth: tanh over 2 mrad/s), an offset on some;
- **flexible joints** (Spong's model, stiffness 8 000-15 000 N m/rad): the encoder sits on
  the motor, so the recorded position is the link's plus the spring's deflection τ_L / k,
  and the rotor inertia and the friction act on the motor's motion;
- **motor dynamics**: the recorded effort is the motor torque through a first-order current
  loop (0.4 ms);
- **payload shift**: at 85 % of the recording (inside the validation window) the payload's
  centre of mass moves 5 cm sideways; neither the truth model nor the identified one knows;
- **time stamps**: uniform 1 kHz samples stamped with 0.1 ms RMS receive jitter; 1 % stale
  samples (the previous values repeated with a new stamp) and 0.2 % duplicated stamps;
- **measurement**: positions quantised to 2⁻¹⁸ rad plus 2e-5 rad of white noise (the
  twice-differentiated acceleration is as noisy as a real arm's: about 3 % of its RMS at the
  default 20 Hz cut-off), efforts with AR(1) noise of 1.5 % of their RMS and 20 ms
  correlation time, a recorded velocity from the motor encoder with 2e-3 rad/s of noise.

:func:`truth_model` is the rigid model of the truth before the payload shift (what an ideal
identification would find, flexibility aside); :func:`mismatched_recording` the recording.
"""

import numpy as np

import robot_dynamics as rd
from robot_dynamics.io.recordings import Recording

RATE = 1000.0
QUANTUM = 2.0 ** -18
STIFFNESS = np.array([15000, 15000, 12000, 12000, 8000, 8000, 8000])


def nominal_model():
    """Return the bundled Panda: the prior ("CAD") model."""
    return rd.load_model('panda')


def scaled_inertias(inertias, rng, low, high):
    """Return ``inertias`` (n, 3, 3), principal moments ×U(low, high), made real bodies.

    Each moment is lifted to at least 0.6 of the sum minus itself, + 1e-4 kg m² (the
    triangle inequality with margin).
    """
    out = []
    for inertia in inertias:
        moments, axes = np.linalg.eigh(inertia)
        moments = moments * rng.uniform(low, high, 3)
        moments = np.maximum(moments, 0.6 * moments.sum() - moments) + 1e-4
        out.append(axes @ np.diag(moments) @ axes.T)
    return np.array(out)


def truth_model(nominal, shifted=False):
    """Return the truth's rigid model, rotors and friction (payload shifted if ``shifted``)."""
    rng = np.random.default_rng(24)
    n = nominal.dof
    inertias = scaled_inertias(nominal.inertia, rng, 0.8, 1.5)
    arm = nominal.replace(
        mass=nominal.mass * rng.uniform(0.85, 1.2, n),
        com=nominal.com + rng.uniform(-0.02, 0.02, (n, 3)),
        inertia=inertias,
        rotor_inertia=rng.uniform(0.1, 0.3, n), gear_ratio=np.ones(n),
        viscous_friction=rng.uniform(0.3, 1.0, n), coulomb_friction=rng.uniform(0.4, 1.2, n),
        friction_smoothing=np.full(n, 0.002), stribeck_friction=rng.uniform(0.2, 0.6, n),
        stribeck_velocity=rng.uniform(0.03, 0.08, n),
        friction_offset=np.where(np.arange(n) % 3 == 0, 0.3, 0.0))
    payload = [0.05, 0.0, 0.08] if shifted else [0.0, 0.0, 0.08]
    return arm.with_payload(1.0, com=payload)


def _lag(x, tau, dt):
    """First-order low-pass ``ẏ = (x - y) / tau`` by its exact discretisation, along axis 0."""
    a = np.exp(-dt / tau)
    y = np.empty_like(x)
    y[0] = x[0]
    for k in range(1, len(x)):
        y[k] = a * y[k - 1] + (1 - a) * x[k]
    return y


def motor_side(truth, trajectory, t):
    """Motor positions, velocities, accelerations and torques of the flexible truth (K, n)."""
    h = 1.0 / RATE

    def link_torque(time):
        q, qd, qdd = trajectory.evaluate(time)
        rigid = rd.inverse_dynamics(truth.without_joint_effects(), q, qd, qdd)
        return q, qd, qdd, rigid
    q, qd, qdd, tau = link_torque(t)
    tau_m, tau_p = link_torque(t - h)[3], link_torque(t + h)[3]
    theta = q + tau / STIFFNESS                                   # encoder on the motor
    theta_d = qd + (tau_p - tau_m) / (2 * h) / STIFFNESS
    theta_dd = qdd + (tau_p - 2 * tau + tau_m) / h ** 2 / STIFFNESS
    motor = tau + truth.reflected_inertia * theta_dd + rd.friction_torques(truth, theta_d)
    return theta, theta_d, theta_dd, motor


def mismatched_recording(nominal, trajectory, seconds, seed=0, noise=True):
    """Return the recording of the module docstring (joint names of ``nominal``)."""
    rng = np.random.default_rng(seed)
    t = (np.arange(int(seconds * RATE)) + 0.5) / RATE
    shift = t >= 0.85 * t[-1]
    theta, theta_d, _, motor = motor_side(truth_model(nominal), trajectory, t)
    motor[shift] = motor_side(truth_model(nominal, shifted=True), trajectory, t[shift])[3]
    effort = _lag(motor, 4e-4, 1.0 / RATE)
    position, velocity, stamps = theta.copy(), theta_d.copy(), t.copy()
    if noise:
        scale = np.sqrt(np.mean(effort ** 2, axis=0))
        white = rng.normal(size=effort.shape)
        a = np.exp(-1.0 / (RATE * 0.02))
        coloured = _lag(white, 0.02, 1.0 / RATE) * np.sqrt((1 + a) / (1 - a))  # unit variance
        effort = effort + 0.015 * scale * coloured
        position = np.round((position + 2e-5 * rng.normal(size=position.shape)) / QUANTUM) \
            * QUANTUM
        velocity = velocity + 2e-3 * rng.normal(size=velocity.shape)
        stamps = t + np.clip(1e-4 * rng.normal(size=t.shape), -4e-4, 4e-4)
        stale = np.flatnonzero(rng.random(t.size) < 0.01)
        stale = stale[stale > 0]
        for array in (position, velocity, effort):
            array[stale] = array[stale - 1]
        duplicated = np.flatnonzero(rng.random(t.size) < 0.002)
        keep = np.sort(np.concatenate((np.arange(t.size), duplicated)))
        position, velocity, effort, stamps = (x[keep] for x in (position, velocity, effort,
                                                                stamps))
    return Recording(nominal.joint_names, stamps, position, effort, velocity,
                     'simulated_panda.csv')
