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
"""Craig's iterative Newton-Euler (Introduction to Robotics §6.5) on modified DH frames.

Seed 004, eq. 6.45-6.50 (outward iterations) and 6.51-6.53 (inward iterations). Frame {i} is
Craig's link frame: its ``Ẑ_i`` is joint i's axis and its origin lies on that axis. In {i}:
``ω_i, ω̇_i`` angular velocity and acceleration, ``v̇_i`` acceleration of the origin,
``v̇_Ci`` of the centre of mass ``P_Ci``, ``F_i, N_i`` inertial force and moment (6.49, 6.50),
``f_i, n_i`` force and moment exerted on link i by link i-1. ``ⁱ⁺¹_iR`` rotates {i} into
{i+1} and ``ⁱP_{i+1}`` locates {i+1} in {i}.

**The same algorithm as the reference** :func:`robot_dynamics.algorithms.rnea.rnea` (Luh,
Walker and Paul's recursion in link frames, which Craig's §6.5 writes out): the same
equations in the same order, so this module runs that code and keeps only what differs, the
frames. A URDF model's frames are turned into Craig's by
:func:`robot_dynamics.model.frames.proximal_frames` (a constant rotation per joint maps the
joint axis onto ``Ẑ``; centre of mass, inertia and tool frame follow), and the joint transform
is ``ⁱ⁻¹_iR = P_i Rz(θ_i)``, the general form of ``Rx(α_{i-1}) Rz(θ_i)`` (4 products, where
the reference's rotation about a general axis costs 4 products and 3 additions), with
``ⁱ⁻¹P_i`` growing by ``d_i`` along ``Ẑ`` at a prismatic joint (Craig's eq. 6.33-6.34 form).
Gravity: ``v̇_0 = -g`` (Craig §6.5). The tool frame is "link n+1" of the inward iteration, so
``f_{n+1}, n_{n+1}`` are the tip wrench. Both give the same torques to rounding
(``test/solvers``); their operation counts differ by the joint rotation only
(docs/operation_counts.md).
"""

import weakref

import numpy as np

from robot_dynamics.algorithms.rnea import rnea
from robot_dynamics.model.frames import proximal_frames
from robot_dynamics.solvers.registry import Solver
from robot_dynamics.spatial.explicit import then_rz
from robot_dynamics.spatial.joints import REVOLUTE

_EZ = np.array([0.0, 0.0, 1.0])
_craig_models = weakref.WeakKeyDictionary()


def craig_frames_model(model):
    """Express the model in Craig's frames {i}' (every joint axis ``Ẑ``); cached per model."""
    converted = _craig_models.get(model)
    if converted is None:
        fr = proximal_frames(model)
        converted = model.replace(
            axis=np.tile(_EZ, (model.dof, 1)), placement_rotation=fr.P,
            placement_translation=fr.p, com=fr.com, inertia=fr.inertia,
            tip_rotation=fr.tip_rotation, tip_translation=fr.tip_translation)
        _craig_models[model] = converted
    return converted


def craig_transform(model, i, q_i):
    """Joint transform in Craig's frames: ``ⁱ⁻¹_iR = P_i Rz(θ_i)``, or ``ⁱ⁻¹P_i + d_i Ẑ``."""
    P, p = model.placement_rotation[i], model.placement_translation[i]
    if model.joint_types[i] == REVOLUTE:
        return then_rz(P, np.cos(q_i), np.sin(q_i)), np.broadcast_to(p, q_i.shape + (3,))
    return np.broadcast_to(P, q_i.shape + (3, 3)), p + np.multiply.outer(q_i, P[:, 2])


def craig(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by Craig's iterations; see the module docstring."""
    return rnea(craig_frames_model(model), q, qd, qdd, gravity, f_tip, transform=craig_transform)


SOLVER = Solver(
    name='craig',
    function=craig,
    description="Craig's iterative Newton-Euler, outward and inward iterations (modified DH)",
    reference='Craig, Introduction to Robotics §6.5, eq. 6.45-6.53 (seed 004)',
)
