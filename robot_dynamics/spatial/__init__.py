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
"""Geometry and inertia below every other layer: vectors, spatial algebra, bodies, joint types.

The one frame convention (the same as the engine's ``engine/src/spatial.h``; Featherstone's
Plücker coordinates, as in Pinocchio):

- Body i carries frame {i}, its origin o_i on joint i's axis, placed by the model
  (:mod:`robot_dynamics.model`). A placement ``(R, p)`` puts {i} in its parent {i-1}:
  ``x_parent = R x_i + p``, so ``R`` maps coordinates in {i} to coordinates in {i-1} and ``p``
  is o_i in {i-1}'s coordinates. At ``q = 0`` it is the joint's constant placement; the joint
  motion is a rotation about, or a slide along, the joint axis given in {i}
  (:func:`robot_dynamics.algorithms.kinematics.joint_transform`). The base pose of {i} is the
  composition ``X_1 … X_i``.
- A spatial vector is ordered (angular; linear). Expressed in the axes of a frame F it is taken
  about F's origin: a motion ``(ω; v)`` has ``v`` the velocity of the body-fixed point at F's
  origin, a force ``(n; f)`` has ``n`` the moment about F's origin.
- A spatial inertia ``(m, h = m c, I_b)`` has mass m, first moment h and rotational inertia
  ``I_b`` about the origin of its frame (as a 6×6 matrix:
  :func:`~robot_dynamics.spatial.algebra.spatial_inertia`).
- Cross products: motion ``s₁ × s₂`` and force ``s ×* f`` (RBDA 2.31-2.32,
  :func:`~robot_dynamics.spatial.algebra.crm`, :func:`~robot_dynamics.spatial.algebra.crf`).
- Gravity enters once, as the base acceleration ``a_0 = -g``. The Newton-Euler recursions carry
  Craig's classical linear acceleration of each origin o_i rather than the spatial one, in the
  same frames and about the same points.

Modules: :mod:`.vectors` (batched 3-vectors and rotations), :mod:`.algebra` (placements,
spatial motion and force vectors, spatial inertia, cross products), :mod:`.explicit` (batched
3-vectors written out by component, structural zeros skipped: the papers' analytical forms,
countable), :mod:`.components`
(3-vectors as tuples of any scalar, for the recursion written once over numbers, counting
numbers and symbols), :mod:`.inertia` (inertia input forms, merging bodies), :mod:`.joints`.
"""
