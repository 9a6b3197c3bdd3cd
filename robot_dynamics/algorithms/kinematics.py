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
"""Joint transforms, forward kinematics, the geometric Jacobian and energies.

Shapes: ``q`` is (N, n) inside the library (the public wrappers in :mod:`robot_dynamics.api`
accept (n,) too). Rotations are (…, 3, 3), positions (…, 3), base-frame unless stated.
"""

import numpy as np

from robot_dynamics.spatial.algebra import compose
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import axis_rotation, cross


def joint_transform(model, i, q_i):
    """Placement of body ``i`` in its parent's frame at joint values ``q_i`` (N,).

    Returns ``R`` (N, 3, 3) and ``p`` (N, 3): a vector ``x`` in frame {i} is ``R x + p`` in
    the parent frame. Revolute: ``R = R_tree Rot(axis, q)``, ``p = p_tree``; prismatic:
    ``R = R_tree``, ``p = p_tree + R_tree axis q``.
    """
    R_tree, p_tree = model.placement_rotation[i], model.placement_translation[i]
    if model.joint_types[i] == REVOLUTE:
        R = R_tree @ axis_rotation(model.axis[i], q_i)
        p = np.broadcast_to(p_tree, R.shape[:-1])
    else:
        R = np.broadcast_to(R_tree, q_i.shape + (3, 3))
        p = p_tree + np.multiply.outer(q_i, R_tree @ model.axis[i])
    return R, p


def body_poses(model, q):
    """Base-frame poses of every body: ``R`` (N, n, 3, 3) and ``p`` (N, n, 3)."""
    N, n = q.shape
    R_all = np.empty((N, n, 3, 3), dtype=q.dtype)
    p_all = np.empty((N, n, 3), dtype=q.dtype)
    R0, p0 = np.broadcast_to(np.eye(3), (N, 3, 3)), np.zeros((N, 3))
    for i in range(n):
        R, p = joint_transform(model, i, q[:, i])
        R0, p0 = compose(R0, p0, R, p)
        R_all[:, i], p_all[:, i] = R0, p0
    return R_all, p_all


def tip_pose(model, q):
    """Base-frame pose of the tool frame: ``R`` (N, 3, 3), ``p`` (N, 3)."""
    R_all, p_all = body_poses(model, q)
    R_n, p_n = R_all[:, -1], p_all[:, -1]
    tip_offset = np.broadcast_to(model.tip_translation, p_n.shape)
    return compose(R_n, p_n, model.tip_rotation, tip_offset)


def jacobian(model, q, frame='base'):
    """Geometric Jacobian of the tool frame (Craig §5.7), (N, 6, n), rows ``[v; ω]``.

    ``frame='base'`` expresses the tip's linear velocity ``v`` and angular velocity ``ω`` in the
    base frame (Craig's ⁰J); ``frame='tip'`` in the tool frame (Craig's ᴺJ).
    """
    if frame not in ('base', 'tip'):
        raise ValueError(f"frame must be 'base' or 'tip', got {frame!r}")
    R_all, p_all = body_poses(model, q)
    R_tip, p_tip = tip_pose(model, q)
    z = np.einsum('nkij,kj->nki', R_all, model.axis)               # joint axes, base frame
    J = np.zeros(q.shape[:1] + (6, model.dof), dtype=q.dtype)
    revolute = model.is_revolute
    J[:, :3, revolute] = np.swapaxes(cross(z, p_tip[:, None, :] - p_all), 1, 2)[:, :, revolute]
    J[:, 3:, revolute] = np.swapaxes(z, 1, 2)[:, :, revolute]
    J[:, :3, ~revolute] = np.swapaxes(z, 1, 2)[:, :, ~revolute]
    if frame == 'tip':
        R_t = np.swapaxes(R_tip, 1, 2)
        J = np.concatenate((R_t @ J[:, :3], R_t @ J[:, 3:]), axis=1)
    return J


def tip_wrench_torques(model, q, f_tip):
    """Joint torques ``ᴺJᵀ f_tip`` (N, n) of the tool wrench ``f_tip`` (N, 6) (Craig 5.96).

    ``f_tip`` is ``[f; n]`` the tool exerts on the environment, in the tool frame.
    """
    return np.einsum('nji,nj->ni', jacobian(model, q, 'tip'), f_tip)


def potential_energy(model, q):
    """Gravitational potential energy ``-Σ m_i gᵀ p_ci`` (N,), J, zero at the base origin."""
    R_all, p_all = body_poses(model, q)
    com = p_all + np.einsum('nkij,kj->nki', R_all, model.com)
    return -np.einsum('k,nki,i->n', model.mass, com, model.gravity)
