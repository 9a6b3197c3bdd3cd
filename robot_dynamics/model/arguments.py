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
"""Argument checks at the public entry points: shapes, dtypes, finiteness, batching.

Every public function takes one state as ``(n,)`` arrays or a batch as ``(N, n)``; these helpers
turn either into checked float batches ``(N, n)`` and back. Errors name the argument, the
expected shape and the model's joint names.
"""

import numpy as np

from robot_dynamics.errors import bounded, RESULT_NOT_FINITE, ResultOverflowError


def _invalid(message):
    """Return a ValueError whose message is cut by :func:`~robot_dynamics.errors.bounded`."""
    return ValueError(bounded(message))


def check_array(model, name, value, width=None):
    """Return ``value`` as a float array (N, width) and whether it was a single row."""
    per_joint = width is None                      # else a wrench: [fx, fy, fz, nx, ny, nz]
    width = model.dof if per_joint else width
    what = f'joints {list(model.joint_names)}' if per_joint else '[fx, fy, fz, nx, ny, nz]'
    try:
        array = np.asarray(value)
    except Exception as exc:  # pragma: no cover - numpy accepts nearly anything
        raise _invalid(f'{name}: cannot convert {value!r} to an array') from exc
    if array.dtype == bool:             # True/False: a flag passed where values belong
        raise _invalid(f'{name}: expected real numbers for {what}, got booleans (dtype bool); '
                       'give the values as numbers')
    if array.dtype == object or not np.issubdtype(array.dtype, np.number) \
            or np.iscomplexobj(array):
        raise _invalid(f'{name}: expected real numbers for {what}, got dtype {array.dtype}')
    if array.ndim not in (1, 2) or array.shape[-1] != width:
        raise _invalid(f'{name}: expected shape ({width},) or (N, {width}) for {what}, '
                       f'got shape {array.shape}')
    array = array.astype(float)
    if not np.all(np.isfinite(array)):
        bad = sorted(set(np.argwhere(~np.isfinite(np.atleast_2d(array)))[:, 1].tolist()))
        labels = [model.joint_names[j] for j in bad] if per_joint else \
            [what[1:-1].split(', ')[j] for j in bad]
        rows = np.flatnonzero(~np.all(np.isfinite(np.atleast_2d(array)), axis=1))
        where = f' in batch rows {rows[:5].tolist()}' if array.ndim == 2 else ''
        raise _invalid(f'{name}: contains NaN or inf at {labels}{where}; give finite values '
                       f'for {what}')
    return np.atleast_2d(array), array.ndim == 1


OPTIONAL = ('f_tip',)                    # None: no tool wrench


def per_joint(model, value, field, unit):
    """Return ``value``, one number or one per joint of ``model``, as (n,) floats (a copy).

    Anything else raises ``ValueError`` naming ``field``, the joints and ``unit``: the one
    reading of per-joint settings (limits, gains, thresholds).
    """
    try:
        return np.broadcast_to(np.asarray(value, dtype=float), (model.dof,)).copy()
    except (TypeError, ValueError):
        raise ValueError(f'{field}: {str(value)[:60]!r}; give one number or {model.dof} (one '
                         f'per joint of {list(model.joint_names)}), {unit}') from None


def batch_arguments(model, **arrays):
    """Check named arrays, broadcast single rows to the common batch size."""
    checked = {}
    single = True
    for name, value in arrays.items():
        if value is None and name in OPTIONAL:
            checked[name] = None
            continue
        if value is None:
            raise _invalid(f'{name}: got None; give {model.dof} values, one per joint of '
                           f'{list(model.joint_names)} (or an (N, {model.dof}) batch)')
        width = 6 if name == 'f_tip' else None
        checked[name], is_single = check_array(model, name, value, width)
        single &= is_single
    sizes = {a.shape[0] for a in checked.values() if a is not None and a.shape[0] != 1}
    if len(sizes) > 1:
        shapes = {k: v.shape for k, v in checked.items() if v is not None}
        raise _invalid(f'batch sizes differ: {shapes}; give every argument N rows '
                       '(or a single row to broadcast)')
    N = sizes.pop() if sizes else 1
    for name, array in checked.items():
        if array is not None and array.shape[0] != N:
            checked[name] = np.broadcast_to(array, (N,) + array.shape[1:])
    return checked, single


#: The most one call may return or record: 1 GiB of float64 (a batch's results, a simulated
#: trajectory). Beyond it a call is refused before any work, with the chunk size that fits.
MAX_RESULT_BYTES = 1 << 30


def batch_rows(**arrays):
    """Return the batch size N the arrays ask for (1 for single rows), without copying them."""
    rows = 1
    for value in arrays.values():
        shape = getattr(value, 'shape', None) if value is not None else ()
        shape = np.shape(value) if shape is None else shape        # a list of lists
        if len(shape) == 2 and shape[0] > rows:
            rows = shape[0]
    return rows


def check_result_size(rows, bytes_per_row, what, fix=None):
    """Refuse a call whose ``rows`` results of ``bytes_per_row`` exceed :data:`MAX_RESULT_BYTES`.

    ``what`` names the input and the result (``'q: a batch of'`` ... ``'derivatives'``);
    ``fix`` replaces the default advice (call in chunks of the largest size that fits).
    """
    size = float(rows) * bytes_per_row
    if size <= MAX_RESULT_BYTES:
        return
    largest = int(MAX_RESULT_BYTES // bytes_per_row)
    fix = fix or f'call in chunks of at most {largest} rows'
    raise _invalid(f'{what}: {rows:.4g} rows give {size / 2 ** 30:.3g} GiB of results; at most '
                   f'{MAX_RESULT_BYTES / 2 ** 30:g} GiB are returned per call: {fix}')


def check_result(result, arrays):
    """Return ``result``; raise if the finite ``arrays`` gave a non-finite one (overflow).

    ``|qd| >= 1e160`` squares past the largest double: the error names the largest input, as
    the engine's does, instead of returning NaN or inf.
    """
    with np.errstate(invalid='ignore'):
        if np.all(np.isfinite(result)):
            return result
    name, largest = max(((k, float(np.abs(v).max())) for k, v in arrays.items()
                         if v is not None), key=lambda item: item[1])
    raise ResultOverflowError(f'{RESULT_NOT_FINITE}: the inputs are too large for double '
                              f'precision (largest |{name}| = {largest:.3g}); give physically '
                              'meaningful values')


def unbatch(array, single):
    """Return row 0 of a batch result when the inputs were single rows, else the batch."""
    return array[0] if single else array
