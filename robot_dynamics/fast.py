# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""The fast path: a model's customised dynamics, compiled, arrays in and array out.

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
a CPython extension with the C compiler and caches the library on disk keyed by the model's
fingerprint: the first call for a model pays generation and compilation (about a second),
later calls and restarted processes only load it. ``backend='python'`` (or no compiler, or
``ROBOT_DYNAMICS_NO_COMPILE=1``) runs the same generated code as numpy expressions instead.
The tip wrench is not an input here: use :func:`robot_dynamics.inverse_dynamics` for it.
"""

import numpy as np

from robot_dynamics.codegen import compiled
from robot_dynamics.codegen.generator import fingerprint, generate

BACKENDS = ('auto', 'c', 'python')
_models = {}


class FastModel:
    """Compiled dynamics of one model, arrays (n,) or a batch (N, n) in, array out.

    Functions: ``inverse_dynamics``, ``mass_matrix``, ``gravity``, ``forward_dynamics``.

    ``backend`` is ``'c'`` or ``'python'``; ``generated`` the
    :class:`~robot_dynamics.codegen.GeneratedModel` (None when loaded from the disk cache).
    """

    def __init__(self, model, backend, functions, generated=None):
        self.model, self.backend, self.generated = model, backend, generated
        self.inverse_dynamics = functions['inverse_dynamics']
        self.mass_matrix = functions['mass_matrix']
        self.gravity = functions['gravity']
        self.forward_dynamics = functions['forward_dynamics']

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
        return f'FastModel({self.model.name!r}, dof={self.model.dof}, backend={self.backend!r})'


def compile(model, backend='auto'):
    """Compile ``model``'s dynamics (see the module docstring); cached per fingerprint."""
    if backend not in BACKENDS:
        raise ValueError(f'backend must be one of {BACKENDS}, got {backend!r}')
    if backend == 'auto':
        backend = 'c' if compiled.compiler_available() else 'python'
    key = _key(model)
    if (key, backend) in _models:
        cached = _models[(key, backend)]
        return FastModel(model, backend, cached.functions, cached.generated)
    generated = None
    if backend == 'c':
        module = compiled.load_cached(key)
        if module is None:
            generated = _generate(model)
            module = compiled.build(generated, key)
        functions = {name: getattr(module, name) for name in
                     ('inverse_dynamics', 'mass_matrix', 'gravity', 'forward_dynamics')}
    else:
        generated = _generate(model)
        functions = python_functions(generated)
    fast = FastModel(model, backend, functions, generated)
    fast.functions = functions
    _models[(key, backend)] = fast
    return fast


def _key(model):
    return fingerprint(model, version=compiled.GENERATOR_VERSION,
                       python=compiled.python_version_tag(), regroup='base')


def _generate(model):
    return generate(model, symbolic_inertia=False, regroup_parameters='base', functions='all')


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
            arrays = [np.asarray(a, dtype=float) for a in arrays]
            single = arrays[0].ndim == 1
            batch = [np.atleast_2d(a) for a in arrays]
            for a in batch:
                if a.shape[-1] != n or a.shape != batch[0].shape:
                    raise ValueError(f'{name}(): arrays must have shape ({n},) or (N, {n})')
            out = stacked(raw(*(a.T for a in batch)), batch[0].shape[0])
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
