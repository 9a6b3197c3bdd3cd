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
"""Inverse-dynamics solvers selectable by name: the seed formulations and plugins.

A solver is a function ``f(model, q, qd, qdd, gravity, f_tip) -> tau`` on batches
(``q, qd, qdd``: (N, n); ``gravity``: (3,); ``f_tip``: (N, 6) or None; ``tau``: (N, n)) that
returns the *rigid-body* joint torques including gravity and the tip wrench. Joint-space
terms (friction, rotor inertia) are added once, by :func:`robot_dynamics.inverse_dynamics`.

Another package adds a solver with one line in its ``setup.py``::

    entry_points={'robot_dynamics.solvers': ['my_solver = my_pkg.module:SOLVER']}

where ``SOLVER`` is a :class:`Solver` or a plain function with that signature.
"""

from robot_dynamics.solvers import (craig, generalized_dalembert, generated, lagrange_euler,
                                    lwp_base, lwp_link, reference, renaud, turney_mudge_lee)
from robot_dynamics.solvers.registry import (DEFAULT_SOLVER, ENTRY_POINT_GROUP, Solver,
                                             available, get, register)

BUILTIN_SOLVERS = {module.SOLVER.name: module.SOLVER for module in (
    reference, lagrange_euler, generalized_dalembert, lwp_base, lwp_link, turney_mudge_lee,
    renaud, craig, generated)}
for _solver in BUILTIN_SOLVERS.values():
    register(_solver)

__all__ = ['BUILTIN_SOLVERS', 'DEFAULT_SOLVER', 'ENTRY_POINT_GROUP', 'Solver', 'available',
           'get', 'register']
