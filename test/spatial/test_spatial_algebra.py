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
"""The spatial layer states one frame convention; its functions agree with it and each other.

Each identity is checked on random placements against an independent construction: 4×4
homogeneous matrices for placements, the power of a force on a motion (invariant under a change
of frame) for the force transform, the engine's ``(m, h, Ib)`` formula for the spatial inertia.
"""

import numpy as np

from robot_dynamics.analysis.opcount import Counted, counting
from robot_dynamics.codegen.expr import Graph
from robot_dynamics.spatial import algebra, components
from robot_dynamics.spatial.vectors import skew
from robots import random_inertia, random_rotation

N = 5


def random_placements(rng):
    """N placements ``(R, p)`` of a child in its parent."""
    return np.array([random_rotation(rng) for _ in range(N)]), rng.normal(size=(N, 3))


def homogeneous(R, p):
    """4×4 matrices ``[[R, p], [0, 1]]`` (N, 4, 4)."""
    T = np.zeros((len(R), 4, 4))
    T[:, :3, :3], T[:, :3, 3], T[:, 3, 3] = R, p, 1.0
    return T


def test_compose_is_the_product_of_homogeneous_matrices():
    rng = np.random.default_rng(1)
    (Ra, pa), (Rb, pb) = random_placements(rng), random_placements(rng)
    R, p = algebra.compose(Ra, pa, Rb, pb)
    T = homogeneous(Ra, pa) @ homogeneous(Rb, pb)
    assert np.abs(R - T[:, :3, :3]).max() < 1e-15 and np.abs(p - T[:, :3, 3]).max() < 1e-14


def test_force_to_parent_keeps_the_power_on_every_motion():
    """``f_parent · m_parent = f_child · X m_parent``: the force transform is ``Xᵀ``."""
    rng = np.random.default_rng(2)
    R, p = random_placements(rng)
    n, f = rng.normal(size=(N, 3)), rng.normal(size=(N, 3))
    n_parent, f_parent = algebra.force_to_parent(R, p, n, f)
    X = algebra.parent_to_child(R, p)
    for _ in range(3):
        motion = rng.normal(size=(N, 6))                         # (ω; v) in the parent
        in_child = np.einsum('nij,nj->ni', X, motion)
        power_parent = np.einsum('ni,ni->n', np.hstack((n_parent, f_parent)), motion)
        power_child = np.einsum('ni,ni->n', np.hstack((n, f)), in_child)
        assert np.abs(power_parent - power_child).max() < 1e-13


def test_parent_to_child_moves_the_velocity_to_the_child_origin():
    """``X (ω; v)``: the parent-origin velocity of a rigid motion, seen at the child origin."""
    rng = np.random.default_rng(3)
    R, p = random_placements(rng)
    w, v = rng.normal(size=(N, 3)), rng.normal(size=(N, 3))
    child = np.einsum('nij,nj->ni', algebra.parent_to_child(R, p), np.hstack((w, v)))
    at_child_origin = v + np.cross(w, p)                         # v(o_i) = v(o) + ω × (o_i - o)
    assert np.abs(child[:, :3] - np.einsum('nji,nj->ni', R, w)).max() < 1e-15
    assert np.abs(child[:, 3:] - np.einsum('nji,nj->ni', R, at_child_origin)).max() < 1e-14


def test_spatial_inertia_is_the_engines_m_h_ib_form():
    """``I (ω; v) = (Ib ω + h × v; m v - h × ω)``, ``h = m c``, ``Ib = Ic + m(|c|² E - c cᵀ)``."""
    rng = np.random.default_rng(4)
    m, c = 2.5, rng.normal(size=3)
    Ic = random_inertia(rng, m)
    w, v = rng.normal(size=3), rng.normal(size=3)
    h, Ib = m * c, Ic + m * (c @ c * np.eye(3) - np.outer(c, c))
    expected = np.concatenate((Ib @ w + np.cross(h, v), m * v - np.cross(h, w)))
    got = algebra.spatial_inertia(m, c, Ic) @ np.concatenate((w, v))
    assert np.abs(got - expected).max() < 1e-14


def test_cross_products_are_featherstones():
    """``crm(s) x = s × x`` (RBDA 2.31) and ``crf = -crmᵀ`` (2.32), on (angular; linear)."""
    rng = np.random.default_rng(5)
    s, x = rng.normal(size=(N, 6)), rng.normal(size=(N, 6))
    expected = np.hstack((np.cross(s[:, :3], x[:, :3]),
                          np.cross(s[:, :3], x[:, 3:]) + np.cross(s[:, 3:], x[:, :3])))
    assert np.abs(np.einsum('nij,nj->ni', algebra.crm(s), x) - expected).max() < 1e-14
    assert np.array_equal(algebra.crf(s), -np.swapaxes(algebra.crm(s), 1, 2))
    assert np.abs(algebra.crm(s)[:, :3, :3] - skew(s[:, :3])).max() == 0


def test_components_skip_structural_zeros_and_ones_on_every_scalar():
    """A numeric 0 or ±1 of a constant matrix forms no product, counted or symbolic."""
    M = ((0.0, 1.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, 0.5))      # Rz(90°) with a scale
    values = (1.5, -2.0, 0.25)
    with counting() as tally:
        counted = components.matvec(M, tuple(Counted(x) for x in values))
    assert (tally.mul, tally.add) == (1, 0)
    assert [x.value for x in counted] == list(np.array(M) @ values)
    graph = Graph()
    symbols = tuple(graph.symbol(name) for name in 'xyz')
    out = components.matvec(M, symbols)
    assert out[0] is symbols[1] and graph.count(out) == {'mul': 1, 'add': 0, 'div': 0}
    arrays = components.matvec(M, tuple(np.full(2, x) for x in values))
    assert all(np.array_equal(a, np.full(2, e)) for a, e in zip(arrays, np.array(M) @ values))
