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
"""The specialist path: a model's customised (generated) dynamics, compiled per model.

The public functions already run compiled code for any model (:mod:`robot_dynamics.engine`);
``rd.fast`` is for users who want one robot's straight-line generated code, built explicitly
(never implicitly: not on a first call, not in a ROS callback).

Example::

    import robot_dynamics as rd
    fast = rd.fast.compile(rd.load_model('puma560'))
    tau = fast.inverse_dynamics(q, qd, qdd)        # (n,) -> (n,), or (N, n) -> (N, n)
    M = fast.mass_matrix(q)                       # (n, n) or (N, n, n)
    G = fast.gravity(q)
    qdd = fast.forward_dynamics(q, qd, tau)

:func:`compile` generates the model's inverse dynamics, gravity vector, mass matrix and
forward dynamics (:mod:`robot_dynamics.codegen`, numeric parameters baked in, friction and
rotor inertia included exactly as in :func:`robot_dynamics.inverse_dynamics`), builds them into
a CPython extension with the C compiler and caches the library on disk keyed by the SHA-256
of its exact source text (and compiler, flags, Python ABI), verified against the hash recorded
at build time before it is loaded: the first call for a model pays generation and compilation
(about a second), later calls only look it up in memory and restarted processes generate the
source again (to know the key) and load the library. ``backend='python'`` (or no compiler, or
``ROBOT_DYNAMICS_NO_COMPILE=1``) runs the same generated code as numpy expressions instead.
The tip wrench is not an input here: use :func:`robot_dynamics.inverse_dynamics` for it.
"""

import collections
from functools import partial
import warnings

import numpy as np

from robot_dynamics import api
from robot_dynamics.codegen import compiled
from robot_dynamics.codegen.generator import fingerprint, generate
from robot_dynamics.model.friction import EXTRA_FIELDS, friction_slopes, has_extra_friction
from robot_dynamics.simulation.schemes import INTEGRATORS, NEEDS_DAMPED_MASS, SimulationError

BACKENDS = ('auto', 'c', 'python')
METHODS = ('auto', 'generated', 'reference')
GENERATED_MAX_DOF = 12
#: Compiled models in memory, least recently used first; bounded, because a node that gets
#: a new payload per message compiles (packs) a new model each time.
_models = collections.OrderedDict()
MAX_CACHED_MODELS = 32


class FastModel:
    """Compiled dynamics of one model, arrays (n,) or a batch (N, n) in, array out.

    Functions: ``inverse_dynamics``, ``mass_matrix``, ``gravity``, ``forward_dynamics``.

    ``backend`` is ``'c'`` or ``'python'``; ``generated`` the
    :class:`~robot_dynamics.codegen.GeneratedModel` (None when loaded from the disk cache).
    ``kernels``: the compiled module's ``Kernels`` type (C backend): the functions are its
    methods, bound to this model's refusal of booleans, so a call checks every input in C and
    runs no Python code; otherwise each function is wrapped in a Python check for booleans.
    """

    def __init__(self, model, backend, functions, generated=None, method='generated',
                 kernels=None):
        self.model, self.backend, self.generated = model, backend, generated
        self.method, self.functions, self.kernels = method, functions, kernels
        if kernels is not None:       # compiled: every check in C, booleans by _refuse_boolean
            bound = kernels(partial(_refuse_boolean, model))
            for name in ('inverse_dynamics', 'mass_matrix', 'gravity', 'forward_dynamics'):
                setattr(self, name, getattr(bound, name))
            return
        self.inverse_dynamics = _refusing_booleans(functions['inverse_dynamics'],
                                                   ('q', 'qd', 'qdd'), model)
        self.mass_matrix = _refusing_booleans(functions['mass_matrix'], ('q',), model)
        self.gravity = _refusing_booleans(functions['gravity'], ('q',), model)
        self.forward_dynamics = _refusing_booleans(functions['forward_dynamics'],
                                                   ('q', 'qd', 'tau'), model)

    # batch names for readers who look for them; the functions accept (N, n) directly
    def inverse_dynamics_batch(self, q, qd, qdd):
        """Torques (N, n) for states (N, n)."""
        return self.inverse_dynamics(np.atleast_2d(q), np.atleast_2d(qd), np.atleast_2d(qdd))

    def mass_matrix_batch(self, q):
        """Mass matrices (N, n, n)."""
        return self.mass_matrix(np.atleast_2d(q))

    def gravity_batch(self, q):
        """Gravity vectors (N, n)."""
        return self.gravity(np.atleast_2d(q))

    def forward_dynamics_batch(self, q, qd, tau):
        """Accelerations (N, n)."""
        return self.forward_dynamics(np.atleast_2d(q), np.atleast_2d(qd), np.atleast_2d(tau))

    def __repr__(self):
        """Model and backend."""
        return (f'FastModel({self.model.name!r}, dof={self.model.dof}, '
                f'backend={self.backend!r}, method={self.method!r})')


def _refusing_booleans(function, labels, model):
    """Return ``function`` refusing bool arrays as the public functions do (check_array)."""
    name = getattr(function, '__name__', None) or getattr(function, 'func', function).__name__

    def checked(*arrays):
        _check_not_boolean(model, labels, arrays)
        return function(*arrays)
    checked.__name__ = name
    checked.__doc__ = function.__doc__
    return checked


def _check_not_boolean(model, labels, arrays):
    """Raise ``ValueError`` naming the first of ``arrays`` that holds booleans (dtype bool).

    A compiled kernel converts True/False to 1.0/0.0 silently: a flag passed where values
    belong. The message is the one of :func:`robot_dynamics.model.arguments.check_array`.
    """
    for label, value in zip(labels, arrays):
        if _is_boolean(value):
            _refuse_boolean(model, label)


def _refuse_boolean(model, label):
    """Raise the ``ValueError`` for booleans given as ``label`` (the compiled kernels call it)."""
    raise ValueError(f'{label}: expected real numbers for joints {list(model.joint_names)}, got '
                     'booleans (dtype bool); give the values as numbers')


def _is_boolean(value):
    """Whether ``value`` converts to an array of dtype bool."""
    try:
        return np.asarray(value).dtype == bool
    except Exception:  # noqa: BLE001 - not an array at all: the function itself says so
        return False


def compile(model, backend='auto', method='auto'):
    """Compile ``model``'s dynamics (see the module docstring); cached per fingerprint.

    ``method='generated'``: the customised straight-line code; ``'reference'``: the public
    functions, i.e. the compiled engine (:mod:`robot_dynamics.engine`), no per-model
    compilation; ``'auto'``: generated up to :data:`GENERATED_MAX_DOF` joints (beyond, the
    straight-line mass matrix takes long to compile), reference beyond.
    """
    if backend not in BACKENDS:
        raise ValueError(f'backend must be one of {BACKENDS}, got {backend!r}')
    if method not in METHODS:
        raise ValueError(f'method must be one of {METHODS}, got {method!r}')
    if backend == 'auto':
        if compiled.compiler_available():
            try:
                return compile(model, 'c', method)
            except (RuntimeError, OSError) as exc:     # a broken toolchain: stay exact
                warnings.warn(f'compiling the fast path failed, using numpy instead: {exc}',
                              RuntimeWarning, stacklevel=2)
        backend = 'python'
    if has_extra_friction(model):
        if method == 'generated':
            raise ValueError('method=\'generated\': the generated code holds viscous and '
                             'Coulomb friction only, and this model has the richer friction '
                             "law (offset, asymmetry, smoothing or Stribeck); use method='auto' "
                             "or 'reference' (the compiled engine computes the whole law)")
        method = 'reference'
    if method == 'auto':
        method = 'generated' if model.dof <= GENERATED_MAX_DOF else 'reference'
    key = _key(model)
    if (key, backend, method) in _models:
        _models.move_to_end((key, backend, method))
        cached = _models[(key, backend, method)]
        return FastModel(model, backend, cached.functions, cached.generated, method,
                         cached.kernels)
    generated = kernels = None
    if method == 'reference':
        functions = _reference_functions(model, backend)
    elif backend == 'c':
        generated = _generate(model)          # the cache key is the exact source text
        module = compiled.build(generated)
        functions = {name: getattr(module, name) for name in
                     ('inverse_dynamics', 'mass_matrix', 'gravity', 'forward_dynamics')}
        kernels = module.Kernels
    else:
        generated = _generate(model)
        functions = python_functions(generated)
    fast = FastModel(model, backend, functions, generated, method, kernels)
    _models[(key, backend, method)] = fast
    while len(_models) > MAX_CACHED_MODELS:
        _models.popitem(last=False)
    return fast


def _reference_functions(model, backend):
    """Return the public functions on ``model``: the compiled engine (the model as data)."""
    return {'inverse_dynamics': partial(api.inverse_dynamics, model),
            'mass_matrix': partial(api.mass_matrix, model),
            'gravity': partial(api.gravity_torques, model),
            'forward_dynamics': partial(api.forward_dynamics, model)}


def _key(model):
    return fingerprint(model, version=compiled.source_digest(), name=model.name,
                       python=compiled.python_version_tag(), regroup='base',
                       friction=[getattr(model, name).tolist() for name in EXTRA_FIELDS])


def _generate(model):
    return generate(model, symbolic_inertia=False, regroup_parameters='base', functions='all')


def _numeric(value):
    """Whether ``value`` converts to a float array."""
    try:
        np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def python_functions(generated):
    """Wrap the generated numpy functions with the compiled functions' signatures."""
    namespace = generated.python_namespace()
    n = generated.dof

    def stacked(values, rows):
        out = np.empty((len(values), rows))
        for k, value in enumerate(values):
            out[k] = value
        return out.T

    def vector_function(name, arity):
        raw = namespace[name]

        def function(*arrays):
            if len(arrays) != arity:
                raise TypeError(f'{name}() takes {arity} arrays, got {len(arrays)}')
            labels = ('q', 'qd', 'tau' if name.startswith('forward') else 'qdd')
            try:
                arrays = [np.asarray(a, dtype=float) for a in arrays]
            except (TypeError, ValueError):
                bad = next(k for k, a in enumerate(arrays) if not _numeric(a))
                raise ValueError(f'{name}(): {labels[bad]} must be real numbers, shape ({n},) '
                                 f'or (N, {n}); got {type(arrays[bad]).__name__}') from None
            single = arrays[0].ndim == 1
            for label, a in zip(labels, arrays):
                if a.ndim not in (1, 2) or a.shape[-1] != n or a.shape != arrays[0].shape:
                    same = ', the same as q' if label != 'q' else ''
                    raise ValueError(f'{name}(): {label} must have shape ({n},) or (N, {n})'
                                     f'{same}, got shape {a.shape}')
            batch = [np.atleast_2d(a) for a in arrays]
            for label, a in zip(labels, batch):
                if not np.all(np.isfinite(a)):
                    raise ValueError(f'{name}(): {label} contains NaN or inf; give finite '
                                     'values')
            with np.errstate(all='ignore'):
                out = stacked(raw(*(a.T for a in batch)), batch[0].shape[0])
            if not np.all(np.isfinite(out)):
                raise ValueError(f'{name}(): the result is not finite: the mass matrix is '
                                 'singular or the inputs are too large')
            return out[0] if single else out
        function.__name__ = name
        return function

    lower = vector_function('mass_matrix', 1)

    def mass_matrix(q):
        values = np.atleast_2d(lower(q))
        rows, cols = np.tril_indices(n)
        M = np.empty((values.shape[0], n, n))
        M[:, rows, cols] = values
        M[:, cols, rows] = values
        return M[0] if np.asarray(q).ndim == 1 else M

    return {'inverse_dynamics': vector_function('inverse_dynamics', 3),
            'gravity': vector_function('gravity', 1), 'mass_matrix': mass_matrix,
            'forward_dynamics': vector_function('forward_dynamics', 3)}


def step(fast, q, qd, tau, dt, integrator='rk4'):
    """:func:`robot_dynamics.step` (n,) with ``fast.forward_dynamics``; no tip wrench.

    Same integrators and the same checks: raises
    :class:`robot_dynamics.simulation.integrators.SimulationError` when the state becomes
    non-finite.
    Returns ``q, qd, qdd`` (qdd at the start of the step).
    """
    if integrator not in INTEGRATORS:
        raise ValueError(f'integrator: unknown {integrator!r}; use one of {sorted(INTEGRATORS)}')
    if integrator == 'implicit_coriolis':          # needs C(q, qd), which fast does not build
        raise ValueError("integrator: 'implicit_coriolis' is not available in fast.step; use "
                         "robot_dynamics.step (the engine) or integrator='implicit'")
    if not (np.isfinite(dt) and dt > 0):
        raise ValueError(f'dt: must be a positive number of seconds, got {dt}')
    _check_not_boolean(fast.model, ('q', 'qd', 'tau'), (q, qd, tau))
    tau = np.asarray(tau, dtype=float)

    def accel(q_, qd_):
        if not (np.all(np.isfinite(q_)) and np.all(np.isfinite(qd_))):
            raise SimulationError('state became NaN/inf within the step: dt is too large for '
                                  'these torques, or the torques are unbounded')
        try:
            return fast.forward_dynamics(q_, qd_, tau)
        except ValueError as exc:          # non-finite result: singular M or overflow
            raise SimulationError(str(exc)) from exc

    def damped_mass(q_, qd_, dt_):
        M = fast.mass_matrix(q_)
        return M, M + dt_ * np.diag(np.maximum(friction_slopes(fast.model, qd_), 0.0))

    extra = (damped_mass,) if integrator in NEEDS_DAMPED_MASS else ()
    with np.errstate(over='ignore', invalid='ignore'):
        q_next, qd_next, qdd = INTEGRATORS[integrator](
            accel, np.asarray(q, dtype=float), np.asarray(qd, dtype=float), dt, *extra)
    if not (np.all(np.isfinite(q_next)) and np.all(np.isfinite(qd_next))):
        raise SimulationError('state became NaN/inf: dt is too large for these torques, or '
                              'the torques are unbounded')
    return q_next, qd_next, qdd
