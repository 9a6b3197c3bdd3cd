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
"""Normal equations per time block: least squares, cross-validation and the block bootstrap.

One pass over the samples builds, for each block of ``block_seconds`` of contiguous time and
each joint j, the normal equations of joint j's rows of the augmented regressor
``X_j = [Y_b,j | F_j]`` (the base regressor and every candidate friction column of joint j,
:mod:`robot_dynamics.identification.friction_laws`): ``X_jᵀX_j``, ``X_jᵀτ_j``, ``τ_jᵀτ_j``
and the row count. Everything after is small linear algebra on sums of blocks:

- weighted least squares (Gautier 1997) for any choice of friction law per joint;
- K-fold cross-validation over contiguous groups of blocks (the torque error on data not
  fitted), used to choose the filter cut-off and the friction laws;
- the block bootstrap (Künsch 1989; Efron-Tibshirani ch. 8.6): blocks drawn with replacement,
  refitted; the spread of the estimates is their standard deviation. Blocks keep the
  residuals' correlation in time and their dependence on the motion, which the textbook
  ``s² (WᵀW)⁻¹`` (white, homoscedastic noise) ignores.

Memory: blocks × joints × (b + 17)² doubles (30 MB for 200 blocks of a 7-joint arm); the
blocks are at least ``block_seconds`` long and at most 200.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.identification.friction_laws import FEATURES, features
from robot_dynamics.identification.regressor import (
    JOINT_PARAMETERS, PER_JOINT, PER_LINK, batch_regressor,
)

MAX_BLOCKS = 200


@dataclass
class Blocks:
    """Normal equations per block and joint.

    ``gram`` (B, n, P, P), ``moment`` (B, n, P),
    ``shifted`` (2, B, n, P) the moments of the efforts one sample earlier and later (the
    sensitivity to their timing), ``energy`` (B, n), ``rows`` (B, n), ``windows`` (B, 2) s;
    ``b`` base parameters; ``fc`` (n,): FC_j's column in the base regressor (-1 if not
    identified); ``scale`` (n,): RMS joint velocities (the friction grids' unit).
    """

    gram: np.ndarray
    moment: np.ndarray
    shifted: np.ndarray           # (2, B, n, P): τ one sample earlier, later
    energy: np.ndarray
    rows: np.ndarray
    windows: np.ndarray
    b: int
    fc: np.ndarray
    scale: np.ndarray

    def total(self, which=None):
        """Return sums over the blocks ``which`` (default all): gram, moment, energy, rows."""
        which = slice(None) if which is None else which
        return (self.gram[which].sum(0), self.moment[which].sum(0),
                self.energy[which].sum(0), self.rows[which].sum(0))


def accumulate(model, base, samples, known, pi0, scale, block_seconds=1.0, chunk=4000):
    """One pass over ``samples``: :class:`Blocks` of the augmented regressor.

    Joint j's rows where it is at rest (``samples.rest``) are left out of its equations.
    """
    n, b = model.dof, base.count
    P = b + FEATURES
    span = samples.t[-1] - samples.t[0]
    length = max(block_seconds, span / MAX_BLOCKS)
    block = np.minimum(((samples.t - samples.t[0]) / length).astype(int),
                       int(span / length))
    B = int(block.max()) + 1
    gram, moment, shifted = np.zeros((B, n, P, P)), np.zeros((B, n, P)), np.zeros((2, B, n, P))
    index = np.arange(samples.count)
    neighbours = [np.maximum(index - 1, 0), np.minimum(index + 1, samples.count - 1)]
    energy, rows = np.zeros((B, n)), np.zeros((B, n))
    fc = np.array([_fc_column(base, model, j) for j in range(n)])
    for start in range(0, samples.count, chunk):
        part = slice(start, start + chunk)
        Y, tau = chunk_regressor(model, samples, part)
        around = [samples.tau[k[part]] for k in neighbours]
        if known:
            correction = Y[..., known] @ pi0[known]
            tau, around = tau - correction, [t - correction for t in around]
        Yb = base.regressor(Y)
        for j in range(n):
            X = np.concatenate((Yb[:, j], features(samples.qd[part, j], scale[j])), axis=1)
            moving = np.ones(X.shape[0], bool) if samples.rest is None \
                else ~samples.rest[part, j]                 # at rest: Coulomb set-valued
            for k in np.unique(block[part]):
                mine = (block[part] == k) & moving
                Xk, tk = np.ascontiguousarray(X[mine]), tau[mine, j]
                gram[k, j] += np.einsum('kb,kc->bc', Xk, Xk)   # not BLAS: its threads spin
                moment[k, j] += Xk.T @ tk                       # when the machine is busy
                for side in range(2):
                    shifted[side, k, j] += Xk.T @ around[side][mine, j]
                energy[k, j] += tk @ tk
                rows[k, j] += mine.sum()
    windows = np.array([[samples.t[block == k].min(), samples.t[block == k].max()]
                        if np.any(block == k) else [np.nan, np.nan] for k in range(B)])
    used = rows.sum(axis=1) > 0
    return Blocks(gram[used], moment[used], shifted[:, used], energy[used], rows[used],
                  windows[used], b, fc, np.asarray(scale, dtype=float))


def _fc_column(base, model, j):
    index = PER_LINK * model.dof + PER_JOINT * j + JOINT_PARAMETERS.index('FC')
    found = np.flatnonzero(base.independent == index)
    return int(found[0]) if found.size else -1


def chunk_regressor(model, samples, part):
    """``Y`` (K, n, 13 n) and τ of a slice; the Coulomb columns filtered like τ when it was."""
    Y = batch_regressor(model, samples.q[part], samples.qd[part], samples.qdd[part])
    if samples.coulomb is not None:
        n = model.dof
        columns = PER_LINK * n + PER_JOINT * np.arange(n) + JOINT_PARAMETERS.index('FC')
        Y[:, np.arange(n), columns] = samples.coulomb[part]
    return Y, samples.tau[part]


# ---------------------------------------------------------------------- variants → equations
def layout(blocks, chosen):
    """Local and global column indices per joint for the variants ``chosen`` (n,).

    Returns ``(local, global_, names)``: joint j's columns of its augmented row, their
    positions in the parameter vector ``[θ_b, extras…]``, and the extras' names.
    """
    b = blocks.b
    local, global_, names = [], [], []
    for j, variant in enumerate(chosen):
        columns = np.arange(b)
        if variant.switch is not None and blocks.fc[j] >= 0:
            columns = columns.copy()
            columns[blocks.fc[j]] = b + variant.switch
        extra = [b + e for e in variant.extras]
        start = b + len(names)
        local.append(np.concatenate((columns, extra)).astype(int))
        global_.append(np.concatenate((np.arange(b), start + np.arange(len(extra)))).astype(int))
        names += [f'{name}{j + 1}' for name in variant.names]
    return local, global_, tuple(names)


def assemble(per_joint, plan, weights):
    """Weighted ``G`` (P, P) and ``m`` (P,) from per-joint sums (gram, moment) and a layout."""
    gram, moment = per_joint
    local, global_, names = plan
    P = global_[0].size if not names else max(g.max() for g in global_) + 1
    G, m = np.zeros((P, P)), np.zeros(P)
    for j, (L, g) in enumerate(zip(local, global_)):
        G[np.ix_(g, g)] += weights[j] * gram[j][np.ix_(L, L)]
        m[g] += weights[j] * moment[j][L]
    return G, m


def solve(G, m):
    """Solve ``G θ = m`` with unit-diagonal scaling (the columns' units differ widely)."""
    scale = 1.0 / np.sqrt(np.maximum(np.diag(G), 1e-300))
    return scale * np.linalg.solve(G * np.outer(scale, scale), m * scale)


def joint_residuals(per_joint, plan, theta):
    """Residual energy ``‖τ_j - X_j θ‖²`` per joint (n,) of per-joint sums."""
    gram, moment, energy = per_joint[:3]
    local, global_, _ = plan
    return np.array([energy[j] - 2 * moment[j][L] @ theta[g] + theta[g] @ gram[j][np.ix_(L, L)]
                     @ theta[g] for j, (L, g) in enumerate(zip(local, global_))])


def fit(blocks, chosen, weights=None, which=None):
    """Least squares over the blocks ``which``: θ, the plan, per-joint noise σ (n,)."""
    n = len(chosen)
    sums = blocks.total(which)
    plan = layout(blocks, chosen)
    theta = solve(*assemble(sums[:2], plan, np.ones(n) if weights is None else weights))
    residual = joint_residuals(sums, plan, theta)
    dof = np.maximum(sums[3] - theta.size / n, 1.0)
    sigma = np.sqrt(np.maximum(residual, 1e-12 * np.maximum(sums[2], 1e-300)) / dof)
    return theta, plan, sigma


def cross_validate(blocks, chosen, weights, folds=5):
    """Per-joint held-out residual and torque energies (n,), (n,) over K contiguous folds."""
    B = len(blocks.rows)
    folds = max(2, min(folds, B))
    edges = np.linspace(0, B, folds + 1).astype(int)
    plan = layout(blocks, chosen)
    total = blocks.total()
    error, energy = np.zeros(len(chosen)), np.zeros(len(chosen))
    for lo, hi in zip(edges[:-1], edges[1:]):
        held = blocks.total(slice(lo, hi))
        train = [t - h for t, h in zip(total[:2], held[:2])]
        try:
            theta = solve(*assemble(train, plan, weights))
        except np.linalg.LinAlgError:
            return np.full(len(chosen), np.inf), np.ones(len(chosen))
        error += np.maximum(joint_residuals(held, plan, theta), 0.0)    # round-off
        energy += held[2]
    return error, energy


def choose_laws(blocks, candidates, weights, parsimony=0.005):
    """Per joint, the variant with the least cross-validated error of its torque.

    ``candidates``: per joint a list of variants, simplest first. Joints are visited in
    order, each with the others at their current choice; a richer variant must lower the
    joint's held-out error by more than ``parsimony`` (relative) and by more than 1e-9 of its
    torque energy (round-off) to be taken.
    """
    chosen = [options[0] for options in candidates]
    for j, options in enumerate(candidates):
        tried = {}

        def held_out(variant):
            tried[variant] = cross_validate(blocks, chosen[:j] + [variant] + chosen[j + 1:],
                                            weights)[0][j]
            return tried[variant]
        floor = 1e-9 * blocks.energy[:, j].sum()
        plain = [v for v in options if v.law != 'stribeck']
        for variant in plain:
            held_out(variant)
        if plain:                  # Stribeck on the plain laws' best switch (step or tanh)
            switch = min(plain, key=tried.get).switch
            options = plain + [v for v in options if v.law == 'stribeck' and v.switch == switch]
        best = options[0]
        if best not in tried:
            held_out(best)
        for variant in options:
            error = tried[variant] if variant in tried else held_out(variant)
            if variant is best:
                continue
            gain = tried[best] - error          # round-off (floor) makes no law better
            if gain > parsimony * tried[best] and gain > floor:
                best = variant
        chosen[j] = best
    return chosen


def bootstrap(blocks, plan, weights, replicates=200, seed=0):
    """Estimates refitted on ``replicates`` block-bootstrap resamples: (replicates, P)."""
    B = len(blocks.rows)
    per_block = [assemble((blocks.gram[k], blocks.moment[k]), plan, weights) for k in range(B)]
    G_blocks = np.array([g for g, _ in per_block])
    m_blocks = np.array([m for _, m in per_block])
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(replicates):
        counts = np.bincount(rng.integers(0, B, B), minlength=B).astype(float)
        try:
            out.append(solve(np.tensordot(counts, G_blocks, 1), counts @ m_blocks))
        except np.linalg.LinAlgError:              # a resample that misses a direction
            continue
    return np.array(out)
