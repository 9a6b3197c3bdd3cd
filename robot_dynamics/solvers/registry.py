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
"""The solver registry: :class:`Solver`, :func:`register`, :func:`get`, :func:`available`."""

from dataclasses import dataclass
from importlib.metadata import entry_points
import warnings

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
            warnings.warn(f'solver plugin {entry.name!r} ({entry.value}) failed to load: {exc}',
                          RuntimeWarning, stacklevel=2)


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
