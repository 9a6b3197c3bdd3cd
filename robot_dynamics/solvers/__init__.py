# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Registry of inverse-dynamics solvers, filled from Python entry points.

A solver is a function ``f(model, q, qd, qdd, gravity, f_tip) -> tau`` on batches
(``q, qd, qdd``: (N, n); ``gravity``: (3,); ``f_tip``: (N, 6) or None; ``tau``: (N, n)) that
returns the *rigid-body* joint torques including gravity and the tip wrench. Joint-space
terms (friction, rotor inertia) are added once, by :func:`robot_dynamics.inverse_dynamics`.

Another package adds a solver with one line in its ``setup.py``::

    entry_points={'robot_dynamics.solvers': ['my_solver = my_pkg.module:SOLVER']}

where ``SOLVER`` is a :class:`Solver` or a plain function with that signature.
"""

from dataclasses import dataclass
from importlib.metadata import entry_points

from robot_dynamics.errors import SolverError

ENTRY_POINT_GROUP = 'robot_dynamics.solvers'
DEFAULT_SOLVER = 'rnea'


@dataclass(frozen=True)
class Solver:
    """A named inverse-dynamics formulation."""

    name: str
    function: object
    description: str = ''
    reference: str = ''

    def __call__(self, model, q, qd, qdd, gravity, f_tip=None):
        """Rigid-body torques (N, n); see the module docstring."""
        return self.function(model, q, qd, qdd, gravity, f_tip)


_registry = {}
_loaded = False


def register(solver, name=None):
    """Register a :class:`Solver` (or a plain function under ``name``) at run time."""
    if not isinstance(solver, Solver):
        if not callable(solver):
            raise SolverError(f'cannot register {solver!r}: not a Solver or a function')
        solver = Solver(name=name or solver.__name__, function=solver,
                        description=(solver.__doc__ or '').strip().split('\n')[0])
    elif name is not None and name != solver.name:
        solver = Solver(name, solver.function, solver.description, solver.reference)
    _registry[solver.name] = solver
    return solver


def _load_entry_points():
    global _loaded
    if _loaded:
        return
    _loaded = True
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in _registry:
            continue
        try:
            register(entry.load(), name=entry.name)
        except Exception as exc:  # a broken plugin must not break the library
            import warnings
            warnings.warn(f'solver plugin {entry.name!r} ({entry.value}) failed to load: {exc}',
                          RuntimeWarning, stacklevel=2)
    _register_builtins()


def _register_builtins():
    """Make the built-in solvers available even when the package's metadata is absent."""
    from importlib import import_module
    for name, target in BUILTIN_SOLVERS.items():
        if name not in _registry:
            module, attribute = target.split(':')
            register(getattr(import_module(module), attribute), name=name)


BUILTIN_SOLVERS = {
    'rnea': 'robot_dynamics.rnea:SOLVER',
    'lagrange_euler': 'robot_dynamics.solvers.lagrange_euler:SOLVER',
    'generalized_dalembert': 'robot_dynamics.solvers.generalized_dalembert:SOLVER',
    'lwp_base': 'robot_dynamics.solvers.lwp_base:SOLVER',
    'lwp_link': 'robot_dynamics.solvers.lwp_link:SOLVER',
    'turney_mudge_lee': 'robot_dynamics.solvers.turney_mudge_lee:SOLVER',
    'renaud': 'robot_dynamics.solvers.renaud:SOLVER',
    'craig': 'robot_dynamics.solvers.craig:SOLVER',
    'generated': 'robot_dynamics.solvers.generated:SOLVER',
}


def available():
    """Return the sorted names of every registered solver."""
    _load_entry_points()
    return sorted(_registry)


def get(name=None):
    """Return the :class:`Solver` registered under ``name`` (default: the reference ``'rnea'``)."""
    if isinstance(name, Solver):
        return name
    _load_entry_points()
    key = DEFAULT_SOLVER if name is None else name
    try:
        return _registry[key]
    except (KeyError, TypeError):
        raise SolverError(f'unknown solver {name!r}; available solvers: '
                          f'{", ".join(available())}') from None
