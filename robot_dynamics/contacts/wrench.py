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
"""External wrenches at a named link: to joint torques (a simulator) and back (an estimate).

Conventions (one home): a wrench ``w = [fx, fy, fz, mx, my, mz]`` (N, N m) is exerted **by the
environment on the link** (a push on the arm), the moment taken about ``point`` (m, in the
link's frame; default its origin) and both parts expressed in the axes of ``frame``:
``'base'`` (default) or ``'link'``. Its joint torques are ``τ_ext = Jᵀ w`` with ``J`` (6, n)
the geometric Jacobian (rows ``[v; ω]``, Craig §5.7) of that point, columns of the joints
beyond the link zero; they enter the equation of motion as ``M q̈ + C q̇ + G + τ_f = τ + τ_ext``,
the momentum observer's ``τ_ext``. The tool wrench ``f_tip`` of :mod:`robot_dynamics.api` is
the opposite (tool **on** the environment, tool frame): ``τ_ext = -ᴺJᵀ f_tip``; Franka's
``O_F_ext_hat_K`` is the robot's on the environment too. ``link`` names a link of
``model.link_names`` (body i, frame {i} on joint i's axis), the tool ``model.tip_link`` (the
tool frame), or is a body index.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.algorithms.kinematics import body_poses
from robot_dynamics.model.arguments import batch_arguments, check_array, unbatch
from robot_dynamics.spatial.vectors import cross

FRAMES = ('base', 'link')


def link_frame(model, link):
    """Return ``(body index, R, p)``: the link's frame in its body's frame {i}."""
    if isinstance(link, (int, np.integer)) and not isinstance(link, bool) \
            and 0 <= link < model.dof:
        return int(link), np.eye(3), np.zeros(3)
    if link in model.link_names:
        return model.link_names.index(link), np.eye(3), np.zeros(3)
    if link == model.tip_link:
        return model.dof - 1, model.tip_rotation, model.tip_translation
    raise ValueError(f'link: {str(link)[:80]!r} is not a link of model {model.name!r}; use one '
                     f'of {list(model.link_names)}, the tool {model.tip_link!r} or a body index '
                     f'0..{model.dof - 1} (the base {model.base_link!r} does not move: no joint '
                     'feels a wrench there)')


def link_jacobian(model, q, link, point=None, frame='base'):
    """Geometric Jacobian (6, n) or (N, 6, n) of ``point`` on ``link`` (module docstring)."""
    if frame not in FRAMES:
        raise ValueError(f'frame: {frame!r}; use \'base\' or \'link\'')
    body, R_link, p_link = link_frame(model, link)
    offset = p_link if point is None else R_link @ _vector(point, 'point') + p_link
    a, single = batch_arguments(model, q=q)
    R, o = body_poses(model, a['q'])                                  # (N, n, 3, 3), (N, n, 3)
    x = o[:, body] + R[:, body] @ offset                               # the point, base frame
    z = np.einsum('nkij,kj->nki', R, model.axis)                      # joint axes, base frame
    J = np.zeros((len(x), 6, model.dof))
    seen = np.arange(model.dof) <= body
    revolute = np.asarray(model.is_revolute) & seen
    prismatic = ~np.asarray(model.is_revolute) & seen
    J[:, :3, revolute] = np.swapaxes(cross(z, x[:, None] - o), 1, 2)[:, :, revolute]
    J[:, 3:, revolute] = np.swapaxes(z, 1, 2)[:, :, revolute]
    J[:, :3, prismatic] = np.swapaxes(z, 1, 2)[:, :, prismatic]
    if frame == 'link':
        Rt = np.swapaxes(R[:, body] @ R_link, 1, 2)
        J = np.concatenate((Rt @ J[:, :3], Rt @ J[:, 3:]), axis=1)
    return unbatch(J, single)


def link_wrench_torques(model, q, link, wrench, point=None, frame='base'):
    """Joint torques ``τ_ext = Jᵀ w`` (n,) or (N, n) of ``wrench`` on ``link``.

    ``wrench`` (6,) or (N, 6) ``[f; m]`` by the environment on the link, moment about
    ``point`` (link frame, m), axes of ``frame`` (module docstring). A simulator adds the
    result to the motor torques; the momentum observer estimates it.
    """
    J = link_jacobian(model, q, link, point, frame)
    w, single = check_array(model, 'wrench', wrench, width=6)
    J = J if J.ndim == 3 else J[None]
    if len(J) != len(w) and 1 not in (len(J), len(w)):
        raise ValueError(f'batch sizes differ: q has {len(J)} rows, wrench {len(w)}; give '
                         'both N rows (or a single row to broadcast)')
    tau = (np.swapaxes(J, 1, 2) @ w[:, :, None])[:, :, 0]
    return tau[0] if single and len(tau) == 1 and np.ndim(q) == 1 else tau


@dataclass(frozen=True)
class WrenchEstimate:
    """An external wrench at a link from joint torques (:func:`external_wrench`).

    ``wrench`` (6,) or (N, 6), the least-squares (minimum-norm where not observable) estimate;
    ``joints``: the names of the joints that feel a wrench at the link; ``rank``, ``observable``
    (per sample): how many independent components those joints see, and whether all;
    ``unobservable`` (per sample): a basis (k, 6) of the wrench directions no joint feels (the
    estimate is zero along them); ``residual`` (n,) or (N, n): the part of ``τ_ext`` a wrench
    at this link cannot explain (a contact elsewhere, or model error); ``message``.
    """

    wrench: np.ndarray
    joints: tuple
    rank: object
    observable: object
    unobservable: object
    residual: np.ndarray
    message: str


def external_wrench(model, q, tau_ext, link, point=None, frame='base', force_only=False,
                    rcond=1e-6):
    """Estimate the wrench on ``link`` that explains ``tau_ext`` (n,) or (N, n).

    Least squares through the Jacobian: ``ŵ = argmin |J_kᵀ w - τ_ext,k|`` over the joints
    1..k that move the link (the torques of the joints beyond it are the ``residual``); where
    those joints see fewer than 6 independent components (fewer than 6 of them, or a
    singular pose: singular values below ``rcond`` times the largest) the estimate is the
    minimum-norm one and ``observable`` is False, the :class:`WrenchEstimate` naming the
    directions no joint feels. ``force_only``: a pure force at ``point`` (a point contact;
    3 unknowns, the moment part of ``wrench`` zero). Conventions: module docstring.
    """
    body = link_frame(model, link)[0]
    a, single = batch_arguments(model, q=q, tau_ext=tau_ext)
    J = link_jacobian(model, a['q'], link, point, frame)
    rows = slice(0, 3) if force_only else slice(0, 6)
    seen = slice(0, body + 1)
    A = np.swapaxes(J[:, rows, seen], 1, 2)                    # (N, k, m): τ_k = A w
    U, s, Vt = np.linalg.svd(A, full_matrices=True)
    keep = s > rcond * s[:, :1]
    rank = keep.sum(axis=1)
    inverse = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    coefficients = np.einsum('nkj,nk->nj', U[:, :, :s.shape[1]], a['tau_ext'][:, seen])
    w = np.zeros((len(A), 6))
    w[:, rows] = np.einsum('nji,nj->ni', Vt[:, :s.shape[1]], inverse * coefficients)
    residual = a['tau_ext'] - np.einsum('nij,ni->nj', J, w)
    dimension = A.shape[2]
    basis = [_directions(Vt[k, r:], rows) for k, r in enumerate(rank)]
    observable = rank == dimension
    names = model.joint_names[seen]
    message = _message(model, link, names, dimension, rank, observable, basis)
    if single:
        return WrenchEstimate(w[0], names, int(rank[0]), bool(observable[0]), basis[0],
                              residual[0], message)
    return WrenchEstimate(w, names, rank, observable, tuple(basis), residual, message)


def _directions(null_rows, rows):
    out = np.zeros((len(null_rows), 6))
    out[:, rows] = null_rows
    return out


def _message(model, link, names, dimension, rank, observable, basis):
    what = 'force' if dimension == 3 else 'wrench'
    if np.all(observable):
        return (f'the {what} at {link!r} is observable from joints {", ".join(names)} '
                f'({dimension} components)')
    k = int(np.argmin(rank))
    directions = '; '.join('[' + ', '.join(f'{x:.3g}' for x in row) + ']' for row in basis[k])
    return (f'the {what} at {link!r} is not observable from the joints that feel it '
            f'({", ".join(names)}: rank {int(rank[k])} of {dimension}'
            f'{"; the point and pose hide some directions" if len(names) >= dimension else ""}); '
            f'the estimate is the least-norm one, zero along the [f; m] directions {directions}')


def _vector(value, name):
    v = np.asarray(value, dtype=float)
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ValueError(f'{name}: expected 3 finite numbers (m, in the link\'s frame), got '
                         f'{str(value)[:60]}')
    return v
