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
"""3-vectors as tuples of components, over any scalar.

A vector is a 3-tuple and a matrix a 3×3 nested sequence of *scalars*: Python or numpy floats
(model constants), numpy arrays (N,) (one component of a batch of states), numpy object arrays
of the counting scalar (:mod:`robot_dynamics.analysis.opcount`) or symbolic expressions
(:class:`robot_dynamics.codegen.expr.Expr`). Only ``+``, ``-`` and ``*`` are used, so one
recursion written with these helpers evaluates, counts or generates code.

A *numeric* zero (a Python or numpy float or int equal to 0) is structural: products with it
are skipped and never formed, and products with a numeric ±1 are a copy or a negation, as seed
001 asks of an analytical form ("no adds with 0 or multiplies by 0 or 1").
"""

ZERO3 = (0.0, 0.0, 0.0)


def is_zero(x):
    """Tell whether ``x`` is a numeric (structural) zero; arrays and symbols never are."""
    return isinstance(x, (int, float)) and x == 0


def lincomb(coefficients, values):
    """``Σ c_k x_k`` forming only the terms whose ``c_k`` and ``x_k`` are not structural zeros."""
    total = 0.0
    for c, x in zip(coefficients, values):
        if is_zero(c) or is_zero(x):
            continue
        if isinstance(c, (int, float)) and c in (1, -1):
            term = x if c == 1 else -x
        else:
            term = c * x
        total = term if is_zero(total) else total + term
    return total


def add3(*vectors):
    """Sum of 3-tuples, left to right."""
    total = vectors[0]
    for v in vectors[1:]:
        total = tuple(x + y for x, y in zip(total, v))
    return total


def scale3(c, v):
    """``c v``; the zero vector when ``c`` is a structural zero."""
    if is_zero(c):
        return ZERO3
    return tuple(c * x for x in v)


def cross(a, b):
    """Cross product ``a × b`` of two 3-tuples."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def matvec(M, v):
    """``M v`` for a 3×3 nested sequence ``M``; zeros and ±1 of ``M`` fold away."""
    return tuple(lincomb(M[k], v) for k in range(3))


def matTvec(M, v):
    """``Mᵀ v``."""
    return tuple(lincomb([M[0][k], M[1][k], M[2][k]], v) for k in range(3))


def rz(c, s, v):
    """``Rz(q) v`` from ``c = cos q``, ``s = sin q``: 4 multiplications, 2 additions."""
    return (c * v[0] - s * v[1], s * v[0] + c * v[1], v[2])


def rz_T(c, s, v):
    """``Rz(q)ᵀ v``."""
    return (c * v[0] + s * v[1], c * v[1] - s * v[0], v[2])


def placement_rotate(P, c, s, v):
    """``P Rz(q) v``, a modified DH rotation ``R_{i-1,i}`` applied (no ``Rz`` if ``c`` is None)."""
    return matvec(P, v if c is None else rz(c, s, v))
