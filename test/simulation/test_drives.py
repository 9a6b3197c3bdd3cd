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
"""The velocity-limited drive (simulation/drives.py) and the message of a saturated speed-up.

The trial: 10 ms of efforts saturated at the UR5's limits (150/28 N m) drove its wrist past
1000 rad/s in 5 steps, and the error said "the step diverged; dt = 0.001 s is too large".
"""

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics.simulation.drives import drive_torque, velocity_limits
from robots import joint, link, quiet_bundled, quiet_model_from_urdf, robot

DT = 1e-3


@pytest.fixture(scope='module')
def ur5():
    """Return the bundled UR5 (velocity limits 3.14 rad/s, efforts 150/28 N m, no friction)."""
    return quiet_bundled('ur5')


def saturated(model, value=1e5):
    """Return ``value`` on every joint, saturated at the effort limits (as the node does)."""
    return np.clip(np.full(model.dof, value), -model.effort_limit, model.effort_limit)


def wheel(damping):
    """Return one joint about the vertical (no gravity): I = 0.02 kg m^2, b = ``damping``."""
    limit = '<limit lower="-1e3" upper="1e3" effort="50" velocity="3"/>'
    extra = limit + f'<dynamics damping="{damping}" friction="0"/>'
    return quiet_model_from_urdf(robot(
        link('base'), link('rotor', c='0 0 0', ixx=0.02, iyy=0.02, izz=0.02, ixy=0),
        joint('j', 'base', 'rotor', extra=extra)))


def test_the_trial_without_a_drive_model_is_refused_naming_the_efforts(ur5):
    q, qd, tau = np.zeros(6), np.zeros(6), saturated(ur5)
    with pytest.raises(rd.SimulationError) as error:
        for _ in range(10):
            q, qd, _ = rd.step(ur5, q, qd, tau, DT, 'implicit')
    message = str(error.value)
    assert message.startswith("joint 'wrist_3_joint' reached ")
    assert "commanded efforts at their effort limits (N m or N: 'shoulder_pan_joint' 150" \
        in message
    assert 'its velocity limit is 3.14' in message and 'velocity_limits parameter' in message
    assert 'diverged' not in message and 'too large' not in message


def test_the_trial_with_the_drive_model_runs_at_the_velocity_limits(ur5):
    q, qd, command = np.zeros(6), np.zeros(6), saturated(ur5)
    v_max = velocity_limits(ur5)
    fastest = np.zeros(6)
    for _ in range(1000):                                    # 1 s, as long as the trial's
        tau = drive_torque(ur5, q, qd, command, DT)
        q, qd, _ = rd.step(ur5, q, qd, tau, DT, 'implicit')
        fastest = np.maximum(fastest, np.abs(qd))
        assert np.all(np.abs(tau) <= ur5.effort_limit)
    # 'implicit' without damping ends where the explicit prediction does: on the limit
    assert np.all(fastest <= v_max * (1 + 1e-12))
    np.testing.assert_allclose(np.abs(qd), v_max, rtol=1e-12)


def test_the_drive_lands_the_pushing_joints_on_their_limit_pinocchio(ur5):
    # oracle: Pinocchio's ABA with the drive's torque gives the predicted end speed +-v_max
    rng = np.random.default_rng(3)
    pin_model = pin.buildModelFromXML(ur5.to_urdf())
    data = pin_model.createData()
    v_max = velocity_limits(ur5)
    checked = 0
    for _ in range(20):
        q = rng.uniform(-np.pi, np.pi, 6)
        qd = rng.uniform(-1, 1, 6) * v_max
        command = saturated(ur5) * rng.choice([-1.0, 1.0], 6)
        tau = drive_torque(ur5, q, qd, command, DT)
        free = qd + DT * pin.aba(pin_model, data, q, qd, command)
        end = qd + DT * pin.aba(pin_model, data, q, qd, tau)
        changed = tau != command
        held = changed & (np.abs(tau) < ur5.effort_limit)     # the loop within its effort
        np.testing.assert_allclose(np.abs(end[held]), v_max[held], rtol=0, atol=1e-10)
        # the others end within the limit, or their loop is saturated at the command's limit
        free = ~changed
        assert np.all((np.abs(end[free]) <= v_max[free] * (1 + 1e-12))
                      | (np.abs(tau[free]) == ur5.effort_limit[free]))
        checked += held.sum()
    assert checked > 20


def test_steady_speed_under_damping_is_the_limit_with_torque_b_v_max():
    # closed form: semi-implicit Euler with I = 0.02, b = 0.5, effort 50 N m, limit 3 rad/s;
    # the free speed would tend to 50 / 0.5 = 100 rad/s. The drive holds exactly 3 rad/s with
    # tau = b v_max = 1.5 N m once there; before, the full 50 N m (2.5 rad/s per step).
    model = wheel(0.5)
    q, qd = np.zeros(1), np.zeros(1)
    speeds, torques = [], []
    for _ in range(10):
        tau = drive_torque(model, q, qd, np.array([50.0]), DT)
        q, qd, _ = rd.step(model, q, qd, tau, DT, 'semi_implicit_euler')
        speeds.append(qd[0])
        torques.append(tau[0])
    assert torques[0] == 50.0
    assert speeds[0] == pytest.approx(DT * 50.0 / 0.02, rel=1e-12)
    np.testing.assert_allclose(speeds[1:], 3.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(torques[2:], 0.5 * 3.0, rtol=0, atol=1e-10)


def test_no_limit_no_change_and_a_braking_command_at_its_limit_is_kept():
    two_link = quiet_bundled('two_link')                 # no velocity limits in its URDF
    tau = np.array([1e6, -1e6])
    np.testing.assert_array_equal(drive_torque(two_link, np.zeros(2), np.zeros(2), tau, DT),
                                  tau)
    model = wheel(0.0)                                   # beyond the limit, braking command
    tau = drive_torque(model, np.zeros(1), np.array([10.0]), np.array([-50.0]), DT)
    assert tau[0] == -50.0


def test_a_command_below_the_effort_limits_speeds_up_with_the_old_message(ur5):
    # not saturated (beyond the effort limit: rd.step does not saturate): the old diagnosis
    q, qd = np.zeros(6), np.zeros(6)
    with pytest.raises(rd.SimulationError, match='the step diverged; dt = 0.001 s is too'):
        for _ in range(10):
            q, qd, _ = rd.step(ur5, q, qd, np.full(6, 1e5), DT, 'implicit')


@pytest.mark.parametrize('solver', [None, 'rnea'])
def test_simulate_names_the_saturated_efforts_too(ur5, solver):
    with pytest.raises(rd.SimulationError) as error:
        rd.simulate(ur5, np.zeros(6), np.zeros(6), saturated(ur5), 0.02, dt=DT,
                    integrator='implicit', solver=solver)
    message = str(error.value)
    assert message.startswith("joint 'wrist_3_joint' reached ") and ' at t = ' in message
    assert 'commanded efforts at their effort limits' in message and 'diverged' not in message
    # composed with the drive as a torque law, the same run stays at the limits
    command = saturated(ur5)
    run = rd.simulate(ur5, np.zeros(6), np.zeros(6),
                      lambda t, q, qd: drive_torque(ur5, q, qd, command, DT, solver), 0.2,
                      dt=DT, integrator='implicit', solver=solver)
    assert np.all(np.abs(run.qd) <= velocity_limits(ur5) * (1 + 1e-12))
