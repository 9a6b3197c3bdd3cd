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
"""docs/coming_from.md's function table, checked: each name exists, each pair agrees (issue 36.5).

Every row of the table that names a Pinocchio function has a comparison here, run on the
PUMA 560 (rotors as Pinocchio's armature, URDF friction left out as Pinocchio does) at a
random state, to 2e-14 of the quantity's size (forward dynamics and derivatives 1e-12).
"""

import pathlib
import re
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robots import pinocchio_configuration
from urdf_trees import arm_with_gripper, oracle_dynamics, reduced_oracle

pin = pytest.importorskip('pinocchio')

PAGE = pathlib.Path(__file__).resolve().parents[1] / 'docs' / 'coming_from.md'


def table_rows():
    """{task: (pinocchio cell, toolbox cell, robot_dynamics cell)} of the function table."""
    lines = PAGE.read_text(encoding='utf-8').splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith('| task | Pinocchio'))
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith('|'):
            break
        task, pinocchio, toolbox, ours = (cell.strip() for cell in line.strip('|').split(' | '))
        rows[task] = (pinocchio, toolbox, ours)
    return rows


ROWS = table_rows()


@pytest.fixture(scope='module')
def puma():
    """(our model, Pinocchio's model, data, q, qd, qdd, tau) of the PUMA 560 at a state."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model('puma560', urdf_friction=False)
    pm = pin.buildModelFromUrdf(rd.data_path('urdf/puma560.urdf'))
    pm.armature = np.asarray(model.reflected_inertia)
    rng = np.random.default_rng(36)
    q, qd, qdd = (rng.uniform(-2, 2, 6) for _ in range(3))
    return model, pm, pm.createData(), q, qd, qdd, rd.inverse_dynamics(model, q, qd, qdd)


def close(ours, theirs, tolerance=2e-14):
    ours, theirs = np.asarray(ours, float), np.asarray(theirs, float)
    assert ours.shape == theirs.shape
    scale = max(1.0, np.abs(theirs).max())
    assert np.abs(ours - theirs).max() <= tolerance * scale, np.abs(ours - theirs).max()


def frame_jacobian(pm, data, model, q, reference):
    pin.computeJointJacobians(pm, data, q)
    pin.framesForwardKinematics(pm, data, q)
    return pin.getFrameJacobian(pm, data, pm.getFrameId(model.tip_link), reference)


def check(task, model, pm, data, q, qd, qdd, tau):
    """Compare the row ``task``'s robot_dynamics function with Pinocchio's."""
    g = pin.computeGeneralizedGravity(pm, data, q)
    if task in ('load a URDF', 'inverse dynamics'):
        close(rd.inverse_dynamics(model, q, qd, qdd), pin.rnea(pm, data, q, qd, qdd))
    elif task == 'mass matrix':
        close(np.triu(rd.mass_matrix(model, q)), np.triu(pin.crba(pm, data, q)))
    elif task == 'gravity torques':
        close(rd.gravity_torques(model, q), g)
    elif task == 'Coriolis matrix':
        close(rd.coriolis_matrix(model, q, qd), pin.computeCoriolisMatrix(pm, data, q, qd))
    elif task == 'Coriolis torques `C q̇`':
        close(rd.coriolis_torques(model, q, qd), pin.nonLinearEffects(pm, data, q, qd) - g)
    elif task == 'forward dynamics':
        close(rd.forward_dynamics(model, q, qd, tau), pin.aba(pm, data, q, qd, tau), 1e-12)
    elif task == 'Jacobian, base axes':
        close(rd.jacobian(model, q), frame_jacobian(pm, data, model, q, pin.LOCAL_WORLD_ALIGNED))
    elif task == 'Jacobian, tool axes':
        close(rd.jacobian(model, q, frame='tip'), frame_jacobian(pm, data, model, q, pin.LOCAL))
    elif task == 'kinetic energy':
        close(rd.kinetic_energy(model, q, qd), pin.computeKineticEnergy(pm, data, q, qd))
    elif task == 'derivatives of ID':
        theirs = pin.computeRNEADerivatives(pm, data, q, qd, qdd)
        for ours, other in zip(rd.inverse_dynamics_derivatives(model, q, qd, qdd), theirs):
            close(ours, other, 1e-12)
    elif task == 'derivatives of FD':
        theirs = pin.computeABADerivatives(pm, data, q, qd, tau)
        for ours, other in zip(rd.forward_dynamics_derivatives(model, q, qd, tau), theirs):
            close(ours, other, 1e-12)
    elif task == 'regressor `τ = Y π`':
        bare = model.without_joint_effects()
        close(rd.regressor(bare, q, qd, qdd)[:, :10 * model.dof],
              pin.computeJointTorqueRegressor(pm, data, q, qd, qdd), 1e-12)
    elif task == 'simulate':                      # one explicit Euler step (Craig 6.117)
        dt, qdd_pin = 1e-3, pin.aba(pm, data, q, qd, tau)
        run = rd.simulate(model, q, qd, tau, dt, dt, integrator='euler')
        close(run.q[1], q + qd * dt + 0.5 * qdd_pin * dt ** 2, 1e-12)
        close(run.qd[1], qd + qdd_pin * dt, 1e-12)
    elif task == 'lock joints':
        urdf = arm_with_gripper()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', rd.ModelWarning)
            arm = rd.RobotModel.from_urdf(urdf, locked_joints={'grip_finger_joint1': 0.02})
        reduced = reduced_oracle(urdf, list(arm.joint_names), dict(arm.locked_joints))
        x = np.linspace(-0.5, 0.5, arm.dof)
        close(rd.inverse_dynamics(arm, x, x, x),
              oracle_dynamics(reduced, x, x, x, arm.base_link)[0])
    else:
        raise AssertionError(f'no comparison for the row {task!r}')


def test_the_table_names_functions_that_exist():
    assert len(ROWS) >= 15
    for task, (pinocchio, _, ours) in ROWS.items():
        for name in re.findall(r'\brd\.(\w+)', ours):
            assert hasattr(rd, name), (task, name)
        for name in re.findall(r'\bRobotModel\.(\w+)|\bmodel\.(\w+)', ours):
            assert hasattr(rd.RobotModel, ''.join(name)), (task, name)
        for name in re.findall(r'\bpin\.(\w+)', pinocchio):
            assert hasattr(pin, name), (task, name)


@pytest.mark.parametrize('task', [task for task, cells in ROWS.items() if 'pin.' in cells[0]])
def test_each_pinocchio_pair_agrees(puma, task):
    check(task, *puma)


def test_the_example_continuous_joints_and_gravity_conventions(puma):
    model, pm, data, q, *_ = puma
    close(model.gravity, pm.gravity.linear)
    assert pinocchio_configuration(pm, q).shape == (pm.nq,) == (model.dof,)   # no continuous
    assert 'fixed-base serial chain' in PAGE.read_text(encoding='utf-8').split('\n## ')[0]
