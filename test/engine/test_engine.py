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
"""The compiled engine against Pinocchio and against the library's numpy implementations.

Random chains of 1-12 joints (revolute and prismatic, friction, rotors, any gravity, a tool
wrench) and the bundled arms; one state and batches; the error messages; the numpy fallback.
"""

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pinocchio as pin
import pytest

import robot_dynamics as rd
from robot_dynamics import api, engine
from robots import pinocchio_configuration, random_model, random_state

SIZES = list(range(1, 13))
TOLERANCE = 1e-10


def close(a, b, tolerance=TOLERANCE):
    """Agreement to ``tolerance`` relative to max(1, |b|), shapes equal."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    size = max(1.0, np.max(np.abs(b), initial=0.0))
    return np.max(np.abs(a - b), initial=0.0) <= tolerance * size


def random_case(n, seed=0):
    """Give a random robot with friction, rotors and random gravity, a state and a wrench."""
    rng = np.random.default_rng(9100 + 37 * n + seed)
    model = random_model(rng, n, prismatic_fraction=0.35, friction=True, rotor=True)
    model = model.with_gravity(rng.normal(size=3) * 6.0)
    q, qd, qdd = random_state(rng, n)
    return model, q, qd, qdd, rng.uniform(-20, 20, 6), rng


def numpy_reference(function, *args, **kwargs):
    """Call ``function`` with the engine switched off."""
    saved, api._engine = api._engine, None
    try:
        return function(*args, **kwargs)
    finally:
        api._engine = saved


# ---------------------------------------------------------------------- the build
def test_engine_is_built_and_used():
    assert engine.ENGINE is not None, 'the compiled engine did not load: run setup_venv.sh'
    assert api._engine is engine.ENGINE


# ---------------------------------------------------------------------- Pinocchio
def pinocchio_of(model):
    """Pinocchio model (rotor inertia as armature, same gravity) and its data."""
    pm = pin.buildModelFromXML(model.to_urdf())
    pm.armature = np.array(model.reflected_inertia)
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    return pm, pm.createData()


def pinocchio_tip_force(model, pm, f_tip):
    """External forces: the environment pushes back on the last body (its frame)."""
    f = model.tip_rotation @ f_tip[:3]
    m = model.tip_rotation @ f_tip[3:] + np.cross(model.tip_translation, f)
    fext = [pin.Force.Zero() for _ in range(pm.njoints)]
    fext[-1] = pin.Force(-f, -m)
    return fext


@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
def test_every_function_agrees_with_pinocchio(n):
    model, q, qd, qdd, f_tip, _ = random_case(n)
    pm, data = pinocchio_of(model)
    config = pinocchio_configuration(pm, q)
    fext = pinocchio_tip_force(model, pm, f_tip)
    friction = rd.friction_torques(model, qd)
    tau_pin = pin.rnea(pm, data, config, qd, qdd, fext) + friction
    assert close(rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip), tau_pin)
    assert close(rd.inverse_dynamics(model, q, qd, qdd),
                 pin.rnea(pm, data, config, qd, qdd) + friction)
    assert close(rd.gravity_torques(model, q), pin.computeGeneralizedGravity(pm, data, config))
    M_pin = pin.crba(pm, data, config)
    assert close(rd.mass_matrix(model, q), np.triu(M_pin) + np.triu(M_pin, 1).T)
    C_pin = pin.computeCoriolisMatrix(pm, data, config, qd)
    assert close(rd.coriolis_matrix(model, q, qd), C_pin)
    assert close(rd.mass_matrix_dot(model, q, qd), C_pin + C_pin.T)
    assert close(rd.coriolis_torques(model, q, qd), C_pin @ qd)
    tau = rng_torque(n)
    qdd_pin = pin.aba(pm, data, config, qd, tau - friction, fext)
    assert close(rd.forward_dynamics(model, q, qd, tau, f_tip=f_tip), qdd_pin, 1e-9)
    assert close(rd.kinetic_energy(model, q, qd),                      # armature included
                 pin.computeKineticEnergy(pm, data, config, qd))
    assert close(rd.potential_energy(model, q), pin.computePotentialEnergy(pm, data, config))


def rng_torque(n):
    """Draw a seeded torque vector within a few tens of N m."""
    return np.random.default_rng(n).uniform(-30, 30, n)


def test_jacobian_and_tip_pose_agree_with_pinocchio():
    model, q, _, _, _, _ = random_case(7)
    pm = pin.buildModelFromXML(model.to_urdf())
    data = pm.createData()
    config = pinocchio_configuration(pm, q)
    pin.forwardKinematics(pm, data, config)
    pin.updateFramePlacements(pm, data)
    frame = pm.getFrameId(model.tip_link)
    placement = data.oMf[frame]
    assert close(rd.tip_pose(model, q)[:3, :3], placement.rotation)
    assert close(rd.tip_pose(model, q)[:3, 3], placement.translation)
    J_world = pin.computeFrameJacobian(pm, data, config, frame, pin.LOCAL_WORLD_ALIGNED)
    J_local = pin.computeFrameJacobian(pm, data, config, frame, pin.LOCAL)
    assert close(rd.jacobian(model, q), J_world)
    assert close(rd.jacobian(model, q, 'tip'), J_local)


@pytest.mark.parametrize('name', sorted(rd.BUNDLED_MODELS))
def test_bundled_arms_agree_with_pinocchio(name):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model(name)
    pm, data = pinocchio_of(model)
    rng = np.random.default_rng(5)
    for _ in range(5):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, model.dof), *rng.uniform(-2, 2, (2, model.dof))
        config = pinocchio_configuration(pm, q)
        friction = rd.friction_torques(model, qd)
        tau = pin.rnea(pm, data, config, qd, qdd) + friction
        assert close(rd.inverse_dynamics(model, q, qd, qdd), tau)
        assert close(rd.forward_dynamics(model, q, qd, tau), qdd, 1e-9)
        assert close(rd.coriolis_matrix(model, q, qd),
                     pin.computeCoriolisMatrix(pm, data, config, qd))


# ---------------------------------------------------------------------- numpy reference
def all_functions(model, q, qd, qdd, f_tip):
    """Every public function the engine serves, as name → result."""
    return {
        'inverse_dynamics': rd.inverse_dynamics(model, q, qd, qdd, f_tip=f_tip),
        'inverse_dynamics (no wrench)': rd.inverse_dynamics(model, q, qd, qdd),
        'gravity_torques': rd.gravity_torques(model, q),
        'coriolis_torques': rd.coriolis_torques(model, q, qd),
        'coriolis_matrix': rd.coriolis_matrix(model, q, qd),
        'mass_matrix': rd.mass_matrix(model, q),
        'mass_matrix_dot': rd.mass_matrix_dot(model, q, qd),
        'forward_dynamics': rd.forward_dynamics(model, q, qd, qdd, f_tip=f_tip),
        'jacobian': rd.jacobian(model, q),
        'jacobian tip': rd.jacobian(model, q, frame='tip'),
        'tip_pose': rd.tip_pose(model, q),
        'static_torques': rd.static_torques(model, q, f_tip),
        'kinetic_energy': rd.kinetic_energy(model, q, qd),
        'potential_energy': rd.potential_energy(model, q),
        'total_energy': rd.total_energy(model, q, qd),
    }


@pytest.mark.parametrize('n', SIZES, ids=lambda n: f'n{n}')
def test_every_function_agrees_with_numpy(n):
    model, q, qd, qdd, f_tip, rng = random_case(n, seed=1)
    for rows in (None, 4):
        if rows is not None:
            q, qd, qdd = random_state(rng, n, rows)
            f_tip = rng.uniform(-20, 20, (rows, 6))
        compiled = all_functions(model, q, qd, qdd, f_tip)
        reference = numpy_reference(all_functions, model, q, qd, qdd, f_tip)
        for name, value in compiled.items():
            assert close(value, reference[name], 1e-9 if 'forward' in name else TOLERANCE), name
            assert np.shape(value) == np.shape(reference[name]), name
            assert type(value) is type(reference[name]), name


def test_batches_broadcast_and_accept_lists_and_integers():
    model, q, qd, qdd, f_tip, rng = random_case(5, seed=2)
    Q, QD, QDD = random_state(rng, 5, 6)
    batch = rd.inverse_dynamics(model, Q, qd, QDD, f_tip=f_tip)
    assert batch.shape == (6, 5)
    assert close(batch[3], rd.inverse_dynamics(model, Q[3], qd, QDD[3], f_tip=f_tip))
    assert close(rd.inverse_dynamics(model, q.tolist(), list(qd), tuple(qdd)),
                 rd.inverse_dynamics(model, q, qd, qdd))
    integers = np.arange(5)
    assert close(rd.gravity_torques(model, integers), rd.gravity_torques(model, integers * 1.0))
    assert rd.mass_matrix(model, Q[:1]).shape == (1, 5, 5)
    assert rd.mass_matrix(model, np.zeros((0, 5))).shape == (0, 5, 5)
    assert rd.jacobian(model, Q).shape == (6, 6, 5)
    assert rd.kinetic_energy(model, Q, QD).shape == (6,)
    strided = np.asfortranarray(np.repeat(Q, 2, axis=1))[:, ::2]     # non-contiguous input
    assert close(rd.mass_matrix(model, strided), rd.mass_matrix(model, Q))


# ---------------------------------------------------------------------- errors
BAD_INPUTS = {
    'short q': lambda m, n: rd.inverse_dynamics(m, np.zeros(n - 1), np.zeros(n), np.zeros(n)),
    'nan qd': lambda m, n: rd.inverse_dynamics(m, np.zeros(n), np.r_[np.nan, np.zeros(n - 1)],
                                               np.zeros(n)),
    'inf q': lambda m, n: rd.mass_matrix(m, np.full(n, np.inf)),
    'complex': lambda m, n: rd.gravity_torques(m, np.zeros(n) + 1j),
    'strings': lambda m, n: rd.gravity_torques(m, ['a'] * n),
    'ragged': lambda m, n: rd.gravity_torques(m, [[0.0] * n, [0.0]]),
    'objects': lambda m, n: rd.gravity_torques(m, np.zeros(n, dtype=object)),
    'batch sizes': lambda m, n: rd.forward_dynamics(m, np.zeros((2, n)), np.zeros((3, n)),
                                                    np.zeros(n)),
    'wrench width': lambda m, n: rd.inverse_dynamics(m, np.zeros(n), np.zeros(n), np.zeros(n),
                                                     f_tip=np.zeros(5)),
    'wrench nan': lambda m, n: rd.static_torques(m, np.zeros(n), np.full(6, np.nan)),
    '3-d': lambda m, n: rd.coriolis_matrix(m, np.zeros((1, 1, n)), np.zeros(n)),
    'scalar': lambda m, n: rd.potential_energy(m, 0.0),
    'None qd': lambda m, n: rd.inverse_dynamics(m, np.zeros(n), None, np.zeros(n)),
    'None q': lambda m, n: rd.forward_dynamics(m, None, np.zeros(n), np.zeros(n)),
}


@pytest.mark.parametrize('case', sorted(BAD_INPUTS))
def test_errors_are_the_library_messages(case):
    model, _, _, _, _, _ = random_case(4, seed=3)
    with pytest.raises(ValueError) as compiled:
        BAD_INPUTS[case](model, 4)
    with pytest.raises(ValueError) as reference:
        numpy_reference(BAD_INPUTS[case], model, 4)
    assert str(compiled.value) == str(reference.value)
    assert compiled.value.args[0].split(':')[0] in ('q', 'qd', 'f_tip', 'batch sizes differ')
    if case.startswith('None'):                     # the argument that is None, and the fix
        assert compiled.value.args[0].startswith(case.split()[1] + ': got None; give 4 values')


def test_error_names_the_joints():
    model, _, _, _, _, _ = random_case(3, seed=4)
    q = np.array([0.0, np.nan, 0.0])
    joint = model.joint_names[1]
    with pytest.raises(ValueError, match=rf"q: contains NaN or inf at \['{joint}'\]"):
        rd.gravity_torques(model, q)


def test_singular_mass_matrix_raises_linalg_error():
    model, q, qd, _, _, _ = random_case(2, seed=5)
    massless = model.replace(mass=np.zeros(2), inertia=np.zeros((2, 3, 3)),
                             rotor_inertia=np.zeros(2))
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.forward_dynamics(massless, q, qd, np.zeros(2))


# ---------------------------------------------------------------------- the model cache
def test_derived_models_are_unpacked_again():
    model, q, qd, qdd, _, _ = random_case(6, seed=6)
    before = rd.inverse_dynamics(model, q, qd, qdd)
    heavier = model.with_payload(3.0, com=[0.0, 0.0, 0.1])
    moon = model.with_gravity([0.0, 0.0, -1.62])
    assert close(rd.inverse_dynamics(heavier, q, qd, qdd),
                 numpy_reference(rd.inverse_dynamics, heavier, q, qd, qdd))
    assert close(rd.gravity_torques(moon, q), numpy_reference(rd.gravity_torques, moon, q))
    assert not close(rd.inverse_dynamics(heavier, q, qd, qdd), before)
    assert close(rd.inverse_dynamics(model, q, qd, qdd), before)


def test_a_used_model_still_pickles():
    model, q, _, _, _, _ = random_case(3, seed=7)
    G = rd.gravity_torques(model, q)
    copy = pickle.loads(pickle.dumps(model))
    assert close(rd.gravity_torques(copy, q), G)


# ---------------------------------------------------------------------- the fallback
FALLBACK_SCRIPT = r'''
import importlib.abc, sys, warnings
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == 'robot_dynamics.engine._engine':
            raise ImportError('simulated: no compiled engine')
sys.meta_path.insert(0, Missing())
warnings.simplefilter('always')
with warnings.catch_warnings(record=True) as caught:
    import numpy as np
    import robot_dynamics as rd
    model = rd.load_model('puma560')
    q = np.linspace(-1, 1, model.dof)
    tau = rd.inverse_dynamics(model, q, q, q)
    rd.mass_matrix(model, q)
    trajectory = rd.simulate(model, q, 0 * q, 'gravity', 0.01)
messages = [str(w.message) for w in caught if w.category.__name__ == 'EngineUnavailableWarning']
print(len(messages), rd.api._engine is None, ','.join(map(repr, tau.tolist())), messages[0][:60])
'''


def test_without_the_extension_numpy_answers_and_warns_once():
    env = dict(os.environ)
    env.pop('ROBOT_DYNAMICS_NO_ENGINE', None)
    result = subprocess.run([sys.executable, '-c', FALLBACK_SCRIPT], capture_output=True,
                            text=True, env=env, cwd=os.path.dirname(os.path.dirname(
                                os.path.dirname(os.path.abspath(__file__)))), timeout=120)
    assert result.returncode == 0, result.stderr
    count, numpy_only, tau, message = result.stdout.strip().split(' ', 3)
    assert count == '1' and numpy_only == 'True'
    assert 'compiled engine' in message
    model = rd.load_model('puma560')
    q = np.linspace(-1, 1, model.dof)
    assert close([float(x) for x in tau.split(',')], rd.inverse_dynamics(model, q, q, q))


# ---------------------------------------------------------------------- large batches
def test_large_batches_run_in_parallel_and_equal_single_calls():
    model, _, _, _, f_tip, rng = random_case(6, seed=8)
    rows = engine.ENGINE.PARALLEL_FROM // 6 + 501                     # threads, uneven split
    Q, QD, QDD = random_state(rng, 6, rows)
    batch = rd.forward_dynamics(model, Q, QD, QDD, f_tip=f_tip)
    for k in (0, 1, rows // 2, rows - 1):
        assert np.array_equal(batch[k], rd.forward_dynamics(model, Q[k], QD[k], QDD[k],
                                                            f_tip=f_tip))
    M = rd.mass_matrix(model, Q)
    assert np.array_equal(M[-1], rd.mass_matrix(model, Q[-1]))
    massless = model.replace(mass=np.zeros(6), inertia=np.zeros((6, 3, 3)),
                             rotor_inertia=np.zeros(6))
    with pytest.raises(np.linalg.LinAlgError, match='not positive definite'):
        rd.forward_dynamics(massless, Q, QD, QDD)


def test_thread_count_follows_the_environment():
    script = 'from robot_dynamics.engine import ENGINE; print(ENGINE.THREADS)'
    env = dict(os.environ, ROBOT_DYNAMICS_THREADS='3')
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                         env=env, timeout=120, cwd=os.path.dirname(os.path.dirname(
                             os.path.dirname(os.path.abspath(__file__)))))
    assert out.stdout.strip() == '3', out.stderr


@pytest.mark.parametrize('rows', [2, 7, 9, engine.ENGINE.PARALLEL_FROM // 5 + 3])
def test_batched_inverse_dynamics_in_lanes_equals_single_calls(rows):
    """Batches run their rows 4 (AVX2) or 2 at a time: the same arithmetic, the same bits."""
    model, _, _, _, _, rng = random_case(5, seed=9)
    Q, QD, QDD = random_state(rng, 5, rows)
    wrenches = rng.uniform(-20, 20, (rows, 6))
    for f_tip in (None, wrenches, wrenches[0]):
        batch = rd.inverse_dynamics(model, Q, QD, QDD, f_tip=f_tip)
        for k in sorted({0, 1, rows // 2, rows - 1}):
            wrench = None if f_tip is None else np.atleast_2d(f_tip)[min(k, len(
                np.atleast_2d(f_tip)) - 1)]
            single = rd.inverse_dynamics(model, Q[k], QD[k], QDD[k], f_tip=wrench)
            assert np.array_equal(batch[k], single)


@pytest.mark.parametrize('n', [1, 6, 12])
def test_gravity_is_the_newton_euler_pass_at_rest(n):
    """One recursion (rnea_body.h) serves both: G(q) = ID(q, 0, 0) of the rigid model, bitwise."""
    model, q, _, _, _, rng = random_case(n, seed=4)
    rigid, zero = model.without_joint_effects(), np.zeros(n)
    assert np.array_equal(rd.gravity_torques(model, q), rd.inverse_dynamics(rigid, q, zero, zero))
    Q = rng.uniform(-np.pi, np.pi, (5, n))                    # a batch: four lanes and one row
    assert np.array_equal(rd.gravity_torques(model, Q),
                          rd.inverse_dynamics(rigid, Q, np.zeros_like(Q), np.zeros_like(Q)))


LANES_SCRIPT = r'''
import sys
import numpy as np
import robot_dynamics as rd
from robot_dynamics.engine import ENGINE
sys.path.insert(0, 'test')
from robots import random_model, random_state
rng = np.random.default_rng(5)
model = random_model(rng, 6, prismatic_fraction=0.3, friction=True, rotor=True)
Q, QD, QDD = random_state(rng, 6, 11)
batch = rd.inverse_dynamics(model, Q, QD, QDD, f_tip=np.arange(6.0))
single = [rd.inverse_dynamics(model, *row, f_tip=np.arange(6.0)) for row in zip(Q, QD, QDD)]
print(ENGINE.BATCH_LANES, int(np.array_equal(batch, single)))
'''


def without_avx2(script):
    """Run ``script`` (printing the batch lanes and 0/1) with ROBOT_DYNAMICS_NO_AVX2=1."""
    env = dict(os.environ, ROBOT_DYNAMICS_NO_AVX2='1')
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                         env=env, timeout=120, cwd=os.path.dirname(os.path.dirname(
                             os.path.dirname(os.path.abspath(__file__)))))
    return (*out.stdout.split(), out.stderr)


def test_the_two_lane_batches_where_avx2_is_missing():
    lanes, equal, errors = without_avx2(LANES_SCRIPT)
    assert lanes == '2' and equal == '1', errors


# ---------------------------------------------------------------------- joint angles
ANGLES = np.concatenate([
    np.linspace(-7.0, 7.0, 2001),                                   # every quadrant
    np.arange(-40, 41) * np.pi / 2,                                 # on the quadrant borders
    np.arange(-40, 41) * np.pi / 4,                                 # and halfway
    np.arange(-40, 41) * np.pi / 2 - 1e-9, np.arange(-40, 41) * np.pi / 2 + 1e-9,   # beside
    [0.0, -0.0, 1e-300, -1e-17, 1e-8, 9999.25, -1e4, 99999.0, 1e5, -1.5e5, 3e7],  # |q| > 1e5: libm
])


def test_joint_rotations_are_exact_to_the_last_place():
    """The engine's own sin q and 1 - cos q (trig.h), seen through a joint about z at the origin.

    Against numpy's sin and cos: within 2 ulp of 1 at every angle, quadrant borders, tiny and
    huge angles included; batch rows (4 or 2 lanes) equal single calls bit for bit.
    """
    model = rd.RobotModel.from_dh({'convention': 'modified', 'links': [
        dict(a=0.0, alpha=0.0, d=0.0, mass=1.0, com=[0.1, 0.0, 0.0],
             inertia=[0.1, 0.1, 0.1, 0.0, 0.0, 0.0])]})
    q = ANGLES[:, None]
    T = rd.tip_pose(model, q)
    assert T.shape == (len(ANGLES), 4, 4)
    expected = np.stack([np.cos(ANGLES), -np.sin(ANGLES), np.sin(ANGLES), np.cos(ANGLES)], -1)
    assert np.abs(T[:, :2, :2].reshape(-1, 4) - expected).max() <= 2 * np.finfo(float).eps
    for k in range(len(ANGLES)):
        assert np.array_equal(rd.tip_pose(model, q[k]), T[k])
    tau = rd.inverse_dynamics(model, q, np.ones_like(q), np.zeros_like(q))
    for k in range(0, len(ANGLES), 7):
        assert np.array_equal(rd.inverse_dynamics(model, q[k], [1.0], [0.0]), tau[k])
