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
"""Torques predicted by estimated parameters on prepared samples, through the augmented regressor.

Each joint j's row of the augmented regressor is ``X_j = [Y_b,j | F_j]`` (the base regressor
and every candidate friction column, :mod:`robot_dynamics.identification.normal`); a plan
(:func:`robot_dynamics.identification.normal.layout`) picks joint j's columns and their places
in the parameter vector. Used for validation and for the joint compliance
(:mod:`robot_dynamics.identification.compliance`).
"""

import numpy as np

from robot_dynamics.identification.friction_laws import features
from robot_dynamics.identification.normal import chunk_regressor


def layout_for(model, base, plan, nominal=False):
    """Return the plain viscous + Coulomb layout (``nominal``) or ``plan`` itself."""
    if not nominal:
        return plan
    b = base.count
    return ([np.arange(b)] * model.dof, [np.arange(b)] * model.dof, ())


def design(model, base, samples, known, pi0, scale, plan, part=slice(None)):
    """Rows of the parameter vector's design ``A`` (K, n, P) and the known torques (K, n).

    ``τ ≈ A @ θ + known``: joint j's row holds ``X_j``'s columns ``plan`` maps into ``θ``.
    """
    local, global_, _ = plan
    P = max(int(g.max()) for g in global_) + 1
    Y, _ = chunk_regressor(model, samples, part)
    Yb = base.regressor(Y)
    A = np.zeros(Yb.shape[:2] + (P,))
    for j in range(model.dof):
        X = np.concatenate((Yb[:, j], features(samples.qd[part, j], scale[j])), axis=1)
        A[:, j, global_[j]] = X[:, local[j]]
    extra = Y[..., known] @ pi0[known] if known else np.zeros(Yb.shape[:2])
    return A, extra


def predict(model, base, samples, known, pi0, scale, cases, chunk=4000):
    """Torques (K, n) on ``samples`` for each ``(plan, theta)`` of ``cases`` (one pass)."""
    out = [[] for _ in cases]
    for start in range(0, samples.count, chunk):
        part = slice(start, start + chunk)
        Y, _ = chunk_regressor(model, samples, part)
        Yb = base.regressor(Y)
        X = [np.concatenate((Yb[:, j], features(samples.qd[part, j], scale[j])), axis=1)
             for j in range(model.dof)]
        extra = Y[..., known] @ pi0[known] if known else 0.0
        for k, ((local, global_, _), theta) in enumerate(cases):
            tau = np.column_stack([X[j][:, local[j]] @ theta[global_[j]]
                                   for j in range(model.dof)])
            out[k].append(tau + extra)
    return [np.concatenate(parts) for parts in out]
