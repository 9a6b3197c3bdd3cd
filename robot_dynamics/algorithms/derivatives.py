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
"""Analytic derivatives of the inverse dynamics, batched numpy (the engine's twin).

Carpentier & Mansard, "Analytical Derivatives of Rigid Body Dynamics Algorithms", RSS 2018,
in world (base-frame) spatial vectors ``[ω; v]`` about the base origin; the derivation, term
by term, is in ``engine/src/derivatives_body.h``. Forward pass: world motion subspaces
``S_i``, velocities ``v_i``, accelerations ``a_i`` (``a_0 = -g``), body forces and the partials
``dVdq``, ``dAdq``, ``dAdv``; backward pass: composite inertia ``Yc``, its rate ``dYc`` and
force ``fc``, and row i of ``∂τ/∂q``, ``∂τ/∂q̇``, ``M``.
"""

import numpy as np

from robot_dynamics.algorithms.kinematics import body_poses
from robot_dynamics.model.friction import friction_slopes
from robot_dynamics.spatial.algebra import crf, crm, parent_to_child, spatial_inertia
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import cross


#: s ×* h = _BAR[:, :, c] h for s = e_c: the matrix of s ↦ s ×* h is einsum('rkc,nk->nrc').
_BAR = np.stack([crf(e) for e in np.eye(6)], axis=-1)


def _mv(A, x):
    return np.einsum('nij,nj->ni', A, x)


def world_subspace(model, i, R, p):
    """World motion subspace (N, 6): revolute ``[z; p × z]``, prismatic ``[0; z]``."""
    z = np.einsum('nij,j->ni', R, model.axis[i])
    if model.joint_types[i] == REVOLUTE:
        return np.concatenate((z, cross(p, z)), axis=1)
    return np.concatenate((np.zeros_like(z), z), axis=1)


def tip_force(model, R, p, f_tip):
    """Express the tool wrench ``[f; n]`` (tool frame) as a world force ``[n₀; f₀]`` (N, 6)."""
    R_tool = R @ model.tip_rotation
    p_tool = p + np.einsum('nij,j->ni', R, model.tip_translation)
    f = _mv(R_tool, f_tip[:, :3])
    return np.concatenate((_mv(R_tool, f_tip[:, 3:]) + cross(p_tool, f), f), axis=1)


def forward_pass(model, q, qd, qdd):
    """Per body: ``S, Y, dY, f, dVdq, dAdq, dAdv`` (lists of batches), see the module."""
    N, n = q.shape
    R, p = body_poses(model, q)
    vp, ap = np.zeros((N, 6)), np.zeros((N, 6))
    ap[:, 3:] = -model.gravity
    out = {k: [] for k in ('S', 'Y', 'dY', 'f', 'dVdq', 'dAdq', 'dAdv')}
    for i in range(n):
        S = world_subspace(model, i, R[:, i], p[:, i])
        v = vp + S * qd[:, i, None]
        a = ap + S * qdd[:, i, None] + _mv(crm(v), S) * qd[:, i, None]
        dVdq = _mv(crm(vp), S)
        X = parent_to_child(R[:, i], p[:, i])                          # world → body i
        Y = np.swapaxes(X, 1, 2) @ spatial_inertia(model.mass[i], model.com[i],
                                                   model.inertia[i]) @ X
        h = _mv(Y, v)
        dY = crf(v) @ Y - Y @ crm(v) + np.einsum('rkc,nk->nrc', _BAR, h)
        for key, value in (('S', S), ('Y', Y), ('dY', dY), ('f', _mv(Y, a) + _mv(crf(v), h)),
                           ('dVdq', dVdq), ('dAdq', _mv(crm(ap), S) + _mv(crm(vp), dVdq)),
                           ('dAdv', 2.0 * dVdq)):
            out[key].append(value)
        vp, ap = v, a
    return out, R[:, -1], p[:, -1]


def rnea_derivatives(model, q, qd, qdd, f_tip=None):
    """``∂τ/∂q``, ``∂τ/∂q̇``, ``M`` of the full inverse dynamics, stacked (N, 3, n, n).

    Rotor inertia on ``M``'s diagonal, the friction slope on ``∂τ/∂q̇``'s; states (N, n).
    """
    N, n = q.shape
    body, R_last, p_last = forward_pass(model, q, qd, qdd)
    S, dVdq, dAdq, dAdv = body['S'], body['dVdq'], body['dAdq'], body['dAdv']
    out = np.zeros((N, 3, n, n))
    Fa, Fv, Fq = [None] * n, [None] * n, [None] * n
    Yc, dYc, fc = 0.0, 0.0, 0.0
    if f_tip is not None:
        fc = tip_force(model, R_last, p_last, f_tip)
    for i in reversed(range(n)):
        Yc, dYc, fc = Yc + body['Y'][i], dYc + body['dY'][i], fc + body['f'][i]
        Fa[i] = _mv(Yc, S[i])
        Fv[i] = _mv(dYc, S[i]) + _mv(Yc, dAdv[i])
        Fq[i] = _mv(dYc, dVdq[i]) + _mv(Yc, dAdq[i])
        for j in range(i, n):                                         # j >= i: columns below
            out[:, 0, i, j] = np.einsum('nk,nk->n', S[i], Fq[j])
            out[:, 1, i, j] = np.einsum('nk,nk->n', S[i], Fv[j])
            out[:, 2, i, j] = out[:, 2, j, i] = np.einsum('nk,nk->n', S[i], Fa[j])
        Fq[i] = Fq[i] + _mv(crf(S[i]), fc)
        r2 = np.einsum('nkr,nk->nr', dYc, S[i])                       # dYcᵀ S_i
        for j in range(i):                                            # j < i: ancestors
            out[:, 0, i, j] = np.einsum('nk,nk->n', Fa[i], dAdq[j]) \
                + np.einsum('nk,nk->n', r2, dVdq[j])
            out[:, 1, i, j] = np.einsum('nk,nk->n', Fa[i], dAdv[j]) \
                + np.einsum('nk,nk->n', r2, S[j])
    diagonal = np.arange(n)
    out[:, 2, diagonal, diagonal] += model.reflected_inertia
    out[:, 1, diagonal, diagonal] += friction_slopes(model, qd)
    return out
