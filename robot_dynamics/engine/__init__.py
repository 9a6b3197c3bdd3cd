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
"""The compiled engine: every public dynamics function, for any model, as data.

The C sources in ``robot_dynamics/engine/src/`` (RNEA, gravity, CRBA, the Christoffel
Coriolis matrix, CRBA + Cholesky and articulated-body forward dynamics, kinematics, energies
and the integrators) are built into the extension :mod:`robot_dynamics.engine._engine` when
the package is installed (``pip install .`` or ``colcon build``); no compiler is needed at run
time and no code is generated per model. A model is unpacked once into the engine's own
structure (:func:`engine_model`) and kept in a weak-keyed cache, outside the immutable
:class:`~robot_dynamics.RobotModel`; a derived model (``replace``, ``with_payload``,
``with_gravity``) is unpacked again on its first use, in microseconds.

:data:`ENGINE` is the extension module, or None when it could not be imported (the package
then runs its numpy implementations and says so once with :class:`EngineUnavailableWarning`)
or when ``ROBOT_DYNAMICS_NO_ENGINE=1`` is set (numpy on purpose, silently).

Packed model (doubles): ``[n, gx, gy, gz, tip_rotation (9, row-major), tip_translation (3)]``
then per joint ``type`` (0 revolute, 1 prismatic), ``axis`` (3), ``placement_rotation`` (9),
``placement_translation`` (3), ``mass``, ``com`` (3), ``inertia`` (9, about the centre of
mass), reflected rotor inertia, viscous and Coulomb friction, then the friction law's offset,
Coulomb asymmetry, smoothing velocity, Stribeck excess and Stribeck velocity
(:mod:`robot_dynamics.model.friction`): 37 numbers.
"""

import os
import warnings
import weakref

import numpy as np

from robot_dynamics.errors import ResultOverflowError
from robot_dynamics.model.arguments import MAX_RESULT_BYTES, batch_arguments
from robot_dynamics.model.friction import EXTRA_FIELDS

from robot_dynamics.engine.checkout import after_import_error

try:
    from robot_dynamics.engine import _engine
    _import_error = None
except ImportError as exc:      # the source checkout borrows the installed engine, or says why
    _engine, _import_error = after_import_error(exc)

HEADER = 16
JOINT_STRIDE = 37
_MODELS = weakref.WeakKeyDictionary()          # RobotModel → its unpacked engine Model
INTEGRATOR_CODES = {'euler': 0, 'semi_implicit_euler': 1, 'rk4': 2, 'implicit': 3,
                    'implicit_coriolis': 4}
#: Torque forms of a simulation run (integrate.h): constant (n,), one row per step, G(q).
TORQUE_CONSTANT, TORQUE_PER_STEP, TORQUE_GRAVITY = 0, 1, 2
#: Integration outcomes (engine.h): fine, state non-finite within a step or after it,
#: mass matrix not positive definite, energy above the limit.
OK, NONFINITE_WITHIN, NONFINITE, NOT_SPD, RUNAWAY = 0, 1, 2, 3, 4


class EngineUnavailableWarning(RuntimeWarning):
    """The compiled engine could not be loaded; the numpy implementations run instead."""


def _load():
    if os.environ.get('ROBOT_DYNAMICS_NO_ENGINE', '') not in ('', '0'):
        return None
    if _engine is None:
        warnings.warn(f'robot_dynamics: {_import_error}', EngineUnavailableWarning, stacklevel=3)
        return None
    constants = {'RK4': INTEGRATOR_CODES['rk4'], 'IMPLICIT': INTEGRATOR_CODES['implicit'],
                 'TORQUE_GRAVITY': TORQUE_GRAVITY,
                 'RUNAWAY': RUNAWAY, 'NOT_SPD': NOT_SPD, 'MAX_RESULT_BYTES': MAX_RESULT_BYTES}
    assert all(getattr(_engine, k) == v for k, v in constants.items()), 'stale extension'
    _engine.set_hooks(engine_model, _explain, _MODELS.data, ResultOverflowError)
    return _engine


def pack(model):
    """Pack ``model`` into the flat array the engine reads (see the module docstring)."""
    rows = [np.array([model.dof, *model.gravity], dtype=float), model.tip_rotation.ravel(),
            model.tip_translation]
    reflected = model.reflected_inertia
    for i in range(model.dof):
        rows.append(np.concatenate((
            [0.0 if model.joint_types[i] == 'revolute' else 1.0], model.axis[i],
            model.placement_rotation[i].ravel(), model.placement_translation[i],
            [model.mass[i]], model.com[i], model.inertia[i].ravel(),
            [reflected[i], model.viscous_friction[i], model.coulomb_friction[i]],
            [getattr(model, name)[i] for name in EXTRA_FIELDS])))
    return np.ascontiguousarray(np.concatenate(rows))


def engine_model(model):
    """Return the engine's unpacked ``model``, built on first use and cached (weakly).

    Models are immutable, so the cache never goes stale; an entry goes with its model.
    """
    cached = _MODELS.get(model)
    if cached is None:
        cached = _MODELS[model] = ENGINE.Model(pack(model), weakref.ref(model))
    return cached


def _explain(model, names, values):
    """Raise the library's error message for arguments the engine refused."""
    batch_arguments(model, **dict(zip(names, values)))


ENGINE = _load()
