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
"""Joint origins as poses: one at a time and stacked, the same bits; after a body's own frame.

:func:`~robot_dynamics.io.urdf_tree.compose` after ``IDENTITY`` (a body's own frame) is the
pose itself plus 0.0, the values of the matrix products (a zero +0, as the product gives it);
:func:`~robot_dynamics.io.urdf_tree.compose_all` composes many at once, bit for bit as one by
one.
"""

import math
import random

import numpy as np

from robot_dynamics.io.urdf_elements import IDENTITY, _pose, stacked_poses
from robot_dynamics.io.urdf_tree import compose, compose_all
from robot_dynamics.spatial.vectors import rpy_matrix

ANGLES = [0.0, -0.0, math.pi / 2, -math.pi / 2, math.pi, 0.3]


def random_parts(rng, count):
    """Origin parts as :func:`~robot_dynamics.io.urdf_elements._pose_parts` returns them."""
    parts = []
    for _ in range(count):
        if rng.random() < 0.15:
            parts.append(None)
            continue
        xyz = [rng.choice([0.0, -0.0, rng.uniform(-1, 1)]) for _ in range(3)]
        rpy = [0.0, 0.0, 0.0] if rng.random() < 0.3 else [rng.choice(ANGLES + [rng.uniform(-4, 4)])
                                                          for _ in range(3)]
        parts.append((xyz, rpy))
    return parts


def test_an_origin_pose_is_its_rotation_and_translation():
    xyz, rpy = [0.1, -0.0, 2.0], [-1.5707963267948966, 0.0, 0.4]
    R, p = _pose((xyz, rpy))
    assert R.tobytes() == rpy_matrix(rpy).tobytes() and p.tobytes() == np.array(xyz).tobytes()
    assert _pose(None) is IDENTITY and _pose((xyz, [0.0, 0.0, 0.0]))[0] is IDENTITY[0]


def test_a_pose_after_the_identity_has_the_products_values_and_no_negative_zero():
    rng = random.Random(3)
    for part in random_parts(rng, 300):
        pose = _pose(part)
        R, p = compose(IDENTITY, pose)
        assert (R == np.eye(3) @ pose[0]).all() and (p == np.eye(3) @ pose[1]).all()
        assert not np.signbit(R[R == 0]).any() and not np.signbit(p[p == 0]).any()
        assert R is not pose[0] and p is not pose[1]


def test_stacked_poses_compose_as_one_by_one():
    rng = random.Random(4)
    for count in (1, 3, 8, 20):
        parts = random_parts(rng, count)
        placements = [IDENTITY if rng.random() < 0.6 else _pose(random_parts(rng, 1)[0])
                      for _ in parts]
        R, p = compose_all(placements, stacked_poses(parts))
        for k, (placement, part) in enumerate(zip(placements, parts)):
            R_k, p_k = compose(placement, _pose(part))
            assert R[k].tobytes() == R_k.tobytes() and p[k].tobytes() == p_k.tobytes(), k
