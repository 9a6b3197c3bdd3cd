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
"""A model's array fields: converted to float, shape-checked, checked finite, frozen.

:func:`frozen_fields` converts every field first and checks finiteness in two calls for all
of them; only when one fails (or a later field cannot be converted) are the fields checked
one by one, in order, so the error is the one a field-by-field check would raise first.
"""

import functools

import numpy as np

from robot_dynamics.errors import ModelError
from robot_dynamics.model.friction import EXTRA_FIELDS

PER_JOINT_SHAPES = {
    'axis': (3,),
    'placement_rotation': (3, 3),
    'placement_translation': (3,),
    'mass': (),
    'com': (3,),
    'inertia': (3, 3),
    'lower_limit': (),
    'upper_limit': (),
    'velocity_limit': (),
    'effort_limit': (),
    'viscous_friction': (),
    'coulomb_friction': (),
    'rotor_inertia': (),
    'gear_ratio': (),
    **{name: () for name in EXTRA_FIELDS},
}
#: Limits may be infinite (none); NaN is refused everywhere.
LIMITS = ('lower_limit', 'upper_limit', 'velocity_limit', 'effort_limit')
FIXED_SHAPES = {'tip_rotation': (3, 3), 'tip_translation': (3,), 'gravity': (3,)}
FIXED_DEFAULTS = {'tip_rotation': np.eye(3), 'tip_translation': np.zeros(3),
                  'gravity': np.array([0.0, 0.0, -9.81])}
DEFAULTS = {
    'lower_limit': -np.inf, 'upper_limit': np.inf, 'velocity_limit': np.inf,
    'effort_limit': np.inf, 'viscous_friction': 0.0, 'coulomb_friction': 0.0,
    'rotor_inertia': 0.0, 'gear_ratio': 1.0, **dict.fromkeys(EXTRA_FIELDS, 0.0),
}


def frozen_fields(values, n):
    """Return ``{name: read-only float array}`` for every array field, defaults filled in.

    ``values``: name → the given value or None (the default: finite, or inf where a limit may
    be); ``n``: the number of joints. Raises :class:`ModelError` as :func:`frozen_array` on
    each field in order would.
    """
    out, given = {}, []
    try:
        for name, shape in _shapes(n):
            value = values[name]
            if value is None:
                out[name] = (_filled(n, DEFAULTS[name]) if name in DEFAULTS else
                             np.array(FIXED_DEFAULTS[name]))
            else:
                out[name] = _converted(value, shape, name)
                given.append(name)
    except Exception:                    # an earlier field's NaN first, as field by field
        _check_each(out, given)
        raise
    plain = [out[name] for name in given if name not in LIMITS]
    limits = [out[name] for name in given if name in LIMITS]
    if plain and not _finite(np.concatenate(plain, axis=None)) or \
            limits and np.count_nonzero(np.isnan(np.concatenate(limits))):
        _check_each(out, given)
    for name in LIMITS[2:]:
        if name in given:
            out[name] = _unknown_as_inf(out[name])
    for array in out.values():
        array.setflags(write=False)       # new arrays all (np.array and np.full copy)
    return out


def frozen_array(value, shape, name):
    """Return ``value`` as a read-only float array of ``shape``, checked (field ``name``)."""
    array = _converted(value, shape, name)
    _check_each({name: array}, [name])
    if name in LIMITS[2:]:
        array = _unknown_as_inf(array)
    array.setflags(write=False)
    return array


@functools.lru_cache(maxsize=64)
def _shapes(n):
    """``(name, shape)`` of every array field of a model of ``n`` joints, in order."""
    return (*((k, (n,) + s) for k, s in PER_JOINT_SHAPES.items()), *FIXED_SHAPES.items())


def _filled(n, value):
    """Return ``np.full(n, value)`` (at a third of its cost; zeros: ``np.zeros``, less)."""
    if value == 0.0:                  # the defaults' zeros are +0.0, as np.zeros's
        return np.zeros(n)
    array = np.empty(n)
    array.fill(value)
    return array


def _converted(value, shape, name):
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ModelError(f'{name}: expected numbers of shape {shape}, got {value!r}') from exc
    if array.shape != shape:
        raise ModelError(f'{name}: expected shape {shape}, got {array.shape}')
    return array


def _finite(array):
    """``np.isfinite(array).all()`` of a 1-d array, in less time (``count_nonzero``)."""
    return np.count_nonzero(np.isfinite(array)) == array.size


def _check_each(arrays, names):
    """Raise for the first of ``names`` whose array has NaN (or, not a limit, inf)."""
    for name in names:
        if name not in LIMITS and not np.isfinite(arrays[name]).all():
            raise ModelError(f'{name}: contains NaN or inf')
        if name in LIMITS and np.isnan(arrays[name]).any():
            raise ModelError(f'{name}: contains NaN')


def _unknown_as_inf(array):
    # A velocity or effort limit of 0 is "not given" (ROS, MoveIt, ros2_control; a URDF
    # exporter's all-zero <limit>): unknown, inf, for every consumer (docs/models.md).
    if np.count_nonzero(array) == array.size:         # no 0 (np.count_nonzero: cheapest)
        return array
    return np.where(array == 0, np.inf, array)
