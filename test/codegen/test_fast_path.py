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
"""The compiled fast path: agreement with the library, fallback, disk cache, input errors."""

import pathlib
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.codegen import compiled
from robots import random_model, random_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOL = 1e-12
needs_compiler = pytest.mark.skipif(not compiled.compiler_available(),
                                    reason='no C compiler or Python headers')


@pytest.fixture(autouse=True, scope='module')
def private_cache(tmp_path_factory):
    """Build into a fresh cache directory, so the tests compile for real."""
    patch = pytest.MonkeyPatch()
    patch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path_factory.mktemp('codegen_cache')))
    patch.delenv('ROBOT_DYNAMICS_NO_COMPILE', raising=False)
    fast._models.clear()
    compiled._loaded.clear()                  # libraries other tests loaded from elsewhere
    yield
    patch.undo()
    fast._models.clear()
    compiled._loaded.clear()


def load(name):
    """Load a bundled model from the source tree, model warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(ROOT / rd.BUNDLED_MODELS[name]))


def scale(x):
    """Tolerance scale max(1, |x|)."""
    return max(1.0, float(np.abs(x).max()))


def check(fm, model, rng, N=5):
    """Check every fast function against the library, batch and single state."""
    n = model.dof
    q, qd, qdd = random_state(rng, n, N)
    tau = rng.uniform(-5, 5, (N, n))
    expected = {
        'inverse_dynamics': (fm.inverse_dynamics(q, qd, qdd),
                             rd.inverse_dynamics(model, q, qd, qdd)),
        'gravity': (fm.gravity(q), rd.gravity_torques(model, q)),
        'mass_matrix': (fm.mass_matrix(q), rd.mass_matrix(model, q)),
    }
    for name, (value, reference) in expected.items():
        assert value.shape == reference.shape, name
        assert np.abs(value - reference).max() <= TOL * scale(reference), name
    M = rd.mass_matrix(model, q)
    condition = max(np.linalg.cond(M_k) for M_k in M)
    reference = rd.forward_dynamics(model, q, qd, tau)
    assert np.abs(fm.forward_dynamics(q, qd, tau) - reference).max() \
        <= TOL * condition * scale(reference)
    single = fm.inverse_dynamics(q[0], qd[0], qdd[0])
    assert single.shape == (n,)
    assert np.abs(single - expected['inverse_dynamics'][1][0]).max() <= TOL * scale(single)
    assert fm.mass_matrix(q[1]).shape == (n, n) and fm.gravity(q[2]).shape == (n,)
    assert fm.forward_dynamics(q[0], qd[0], tau[0]).shape == (n,)


@needs_compiler
@pytest.mark.parametrize('name', ['puma560', 'stanford'])
def test_compiled_bundled_models_agree(name):
    model = load(name)
    fm = fast.compile(model)
    assert fm.backend == 'c'
    check(fm, model, np.random.default_rng(1))


@needs_compiler
def test_compiled_random_model_with_friction_rotor_and_prismatic_joints():
    rng = np.random.default_rng(2)
    model = random_model(rng, 4, prismatic_fraction=0.5, friction=True, rotor=True)
    model = rd.RobotModel.from_urdf(model.to_urdf())
    assert model.has_friction and model.reflected_inertia.any()
    check(fast.compile(model), model, rng)


def test_forced_fallback_runs_the_generated_numpy_code(monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_NO_COMPILE', '1')
    assert not compiled.compiler_available()
    rng = np.random.default_rng(3)
    model = random_model(rng, 3, prismatic_fraction=0.3, friction=True, rotor=True)
    fm = fast.compile(model)
    assert fm.backend == 'python'
    check(fm, model, rng)
    monkeypatch.setenv('CC', '/nonexistent/cc')
    monkeypatch.setenv('PATH', '')
    monkeypatch.delenv('ROBOT_DYNAMICS_NO_COMPILE')
    assert compiled.compiler() is None and not compiled.compiler_available()


@needs_compiler
def test_restart_loads_the_library_from_disk_without_compiling(monkeypatch):
    model = load('two_link')
    fast._models.clear()
    compiled._loaded.clear()
    first = fast.compile(model)
    key, = compiled._loaded
    assert pathlib.Path(compiled.cached_path(key)).exists()
    fast._models.clear()                       # a new process: nothing in memory
    compiled._loaded.clear()

    def refuse(*args, **kwargs):
        raise AssertionError('compiled again although the cache holds the library')
    monkeypatch.setattr(compiled, 'build_source', refuse)     # generates (the key), no build
    again = fast.compile(model)
    q = np.array([0.3, -0.4])
    assert np.array_equal(again.inverse_dynamics(q, q, q), first.inverse_dynamics(q, q, q))


@pytest.mark.parametrize('backend', ['c', 'python'])
def test_input_errors_name_the_argument_and_its_shape(backend):
    if backend == 'c' and compiled.compiler() is None:
        pytest.skip('no C compiler')
    fm = fast.compile(load('two_link'), backend=backend)
    with pytest.raises(ValueError, match=r'^inverse_dynamics\(\): q must have shape \(2,\) or '
                       r'\(N, 2\), got shape \(3,\)$'):
        fm.inverse_dynamics(np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match=r'qd must have shape \(2,\) or \(N, 2\), the same as '
                       r'q, got shape \(3, 2\)'):
        fm.inverse_dynamics(np.zeros((4, 2)), np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match=r'forward_dynamics\(\): tau must have shape'):
        fm.forward_dynamics(np.zeros(2), np.zeros(2), np.zeros((1, 1, 2)))
    with pytest.raises(ValueError, match=r'qdd must be real numbers, shape \(2,\) or '
                       r'\(N, 2\); got str'):
        fm.inverse_dynamics(np.zeros(2), np.zeros(2), 'abc')
    with pytest.raises(ValueError, match='q must have shape'):
        fm.gravity(0.0)
    with pytest.raises(TypeError, match='takes 3 arrays'):
        fm.inverse_dynamics(np.zeros(2), np.zeros(2))
    assert fm.gravity([0, 0]).shape == (2,)                      # lists and ints convert
    with pytest.raises(ValueError, match='backend'):
        fast.compile(load('two_link'), backend='fortran')


@needs_compiler
def test_batch_helpers_and_large_batch():
    model = load('puma560')
    fm = fast.compile(model)
    rng = np.random.default_rng(4)
    q, qd, qdd = random_state(rng, 6, 2000)
    tau = fm.inverse_dynamics_batch(q, qd, qdd)
    assert tau.shape == (2000, 6)
    assert np.abs(tau - rd.inverse_dynamics(model, q, qd, qdd)).max() <= TOL * scale(tau)
    assert fm.mass_matrix_batch(q[0]).shape == (1, 6, 6)
    np.testing.assert_allclose(fm.forward_dynamics_batch(q, qd, tau), qdd, atol=1e-9)


@needs_compiler
@pytest.mark.parametrize('n', [1, 5, 30])                  # 1, 5: Cholesky; 30: ABA
def test_compiled_reference_path_agrees(n):
    """The loop-based C RNEA/CRBA/Cholesky path (long chains; no per-model compilation)."""
    rng = np.random.default_rng(40 + n)
    model = random_model(rng, n, prismatic_fraction=0.4, friction=True, rotor=True)
    fm = fast.compile(model, method='reference')
    assert (fm.backend, fm.method) == ('c', 'reference')
    check(fm, model, rng, N=3)
    assert fast.compile(random_model(rng, 13), backend='c').method == 'reference'   # auto


def test_reference_path_without_compiler_is_the_library(monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_NO_COMPILE', '1')
    rng = np.random.default_rng(9)
    model = random_model(rng, 3, prismatic_fraction=0.4, friction=True, rotor=True)
    fm = fast.compile(model, method='reference')
    assert fm.backend == 'python'
    check(fm, model, rng, N=3)


def test_step_matches_the_library_integrators():
    """fast.step is rd.step with the compiled forward dynamics (python backend: no compiler)."""
    rng = np.random.default_rng(12)
    model = random_model(rng, 3, prismatic_fraction=0.3, friction=True, rotor=True)
    fm = fast.compile(model)
    q, qd, _ = random_state(rng, 3)
    tau = rng.uniform(-2, 2, 3)
    for integrator in ('euler', 'semi_implicit_euler', 'rk4'):
        expected = rd.step(model, q, qd, tau, 1e-3, integrator)
        for value, reference in zip(fast.step(fm, q, qd, tau, 1e-3, integrator), expected):
            np.testing.assert_allclose(value, reference, rtol=0, atol=1e-12)
    with pytest.raises(rd.SimulationError):
        fast.step(fm, q, qd, np.full(3, 1e300), 1e-3)
    with pytest.raises(ValueError, match='integrator'):
        fast.step(fm, q, qd, tau, 1e-3, 'leapfrog')


@needs_compiler
def test_written_c_file_compiles_standalone(tmp_path):
    """The exported C (``code.write('x.c')``) builds with a plain main() and gives the torques."""
    import subprocess
    model = load('ur5')
    code = rd.generate(model)
    code.write(tmp_path / 'ur5_dynamics.c')
    (tmp_path / 'main.c').write_text(
        '#include <stdio.h>\n#include <stdlib.h>\n'
        'void rd_inverse_dynamics(const double *q, const double *qd, const double *qdd, '
        'double *out);\n'
        'int main(int argc, char **argv) {\n'
        '  double x[18], tau[6];\n'
        '  for (int k = 0; k < 18; ++k) x[k] = atof(argv[k + 1]);\n'
        '  rd_inverse_dynamics(x, x + 6, x + 12, tau);\n'
        '  for (int k = 0; k < 6; ++k) printf("%.17g\\n", tau[k]);\n'
        '  return 0;\n}\n')
    binary = tmp_path / 'ur5_dynamics'
    subprocess.run([compiled.compiler(), '-O1', '-std=c99', str(tmp_path / 'main.c'),
                    str(tmp_path / 'ur5_dynamics.c'), '-o', str(binary), '-lm'], check=True)
    q, qd, qdd = random_state(np.random.default_rng(5), 6)
    output = subprocess.run([str(binary)] + [repr(float(x)) for x in np.concatenate((q, qd, qdd))],
                            capture_output=True, text=True, check=True).stdout
    tau = np.array([float(line) for line in output.split()])
    reference = rd.inverse_dynamics(model, q, qd, qdd)
    assert np.abs(tau - reference).max() <= TOL * scale(reference)


@needs_compiler
def test_fast_path_agrees_with_pinocchio():
    """An independent oracle: Pinocchio's rnea, crba and aba on the rigid PUMA 560."""
    import pinocchio as pin
    from robots import pinocchio_configuration
    model = load('puma560').without_joint_effects()
    fm = fast.compile(model)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        pm = pin.buildModelFromXML(model.to_urdf())
    pd = pm.createData()
    rng = np.random.default_rng(6)
    for _ in range(5):
        q, qd, qdd = random_state(rng, 6)
        qp = pinocchio_configuration(pm, q)
        tau = pin.rnea(pm, pd, qp, qd, qdd)
        assert np.abs(fm.inverse_dynamics(q, qd, qdd) - tau).max() <= 1e-10 * scale(tau)
        M = pin.crba(pm, pd, qp)
        M = np.triu(M) + np.triu(M, 1).T
        assert np.abs(fm.mass_matrix(q) - M).max() <= 1e-10 * scale(M)
        qdd_pin = pin.aba(pm, pd, qp, qd, tau)
        assert np.abs(fm.forward_dynamics(q, qd, tau) - qdd_pin).max() <= 1e-8 * scale(qdd_pin)


def test_broken_toolchain_falls_back_to_numpy(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError('compiling the generated model failed: cc1: internal error')
    monkeypatch.setattr(compiled, 'compiler_available', lambda: True)
    monkeypatch.setattr(compiled, 'load_cached', lambda key: None)
    monkeypatch.setattr(compiled, 'build', broken)
    model = random_model(np.random.default_rng(13), 2)
    with pytest.warns(RuntimeWarning, match='using numpy instead'):
        fm = fast.compile(model)
    assert fm.backend == 'python'
    check(fm, model, np.random.default_rng(14), N=3)


def singular_model():
    """Two joints whose second link has no mass and no inertia: M is singular."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.RobotModel(
            joint_types=['revolute', 'revolute'], axis=[[0, 0, 1], [0, 1, 0]],
            placement_rotation=[np.eye(3)] * 2, placement_translation=[[0, 0, 0], [0.5, 0, 0]],
            mass=[1.0, 0.0], com=[[0.2, 0, 0], [0, 0, 0]],
            inertia=[np.eye(3) * 0.1, np.zeros((3, 3))], name='singular')


@pytest.mark.parametrize('backend, method', [
    pytest.param('c', 'generated', marks=needs_compiler),
    pytest.param('c', 'reference', marks=needs_compiler),
    ('python', 'generated'),
])
def test_non_finite_inputs_and_results_are_errors(backend, method):
    """The fast path never returns NaN: bad inputs and a singular M raise ValueError."""
    fm = fast.compile(load('two_link'), backend=backend, method=method)
    good = np.array([0.1, 0.2])
    for bad in (np.array([np.nan, 0.0]), np.array([0.0, np.inf])):
        with pytest.raises(ValueError, match='NaN or inf'):
            fm.inverse_dynamics(good, bad, good)
        with pytest.raises(ValueError, match='NaN or inf'):
            fm.forward_dynamics(np.stack([good, bad]), np.stack([good, good]),
                                np.stack([good, good]))
    if method == 'generated':        # the generator sees the structural zero pivot
        with pytest.raises(rd.ModelError, match='mass matrix is singular in every config'):
            fast.compile(singular_model(), backend=backend, method=method)
        return
    singular = fast.compile(singular_model(), backend=backend, method=method)
    assert np.all(np.isfinite(singular.inverse_dynamics(good, good, good)))
    with pytest.raises(ValueError, match='not finite|not positive definite'):
        singular.forward_dynamics(good, good, good)
