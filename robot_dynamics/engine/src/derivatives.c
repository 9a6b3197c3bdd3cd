// Copyright 2026 robot_dynamics contributors
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.


/*
 * Analytic derivatives of the inverse and forward dynamics (Carpentier & Mansard, "Analytical
 * Derivatives of Rigid Body Dynamics Algorithms", RSS 2018, Algorithm 1 and section IV), in
 * world (base-frame) spatial vectors (angular; linear) about the base origin.
 *
 * With v_i, a_i the world velocity and acceleration of body i (a_0 = -g), S_i its world motion
 * subspace and p its parent, a change of q_j moves the subtree of j rigidly (dS_k = S_j x S_k):
 *   d v_k/d q_j  = dVdq_j - v_k x S_j,    dVdq_j = v_p x S_j
 *   d a_k/d q_j  = dAdq_j - a_k x S_j - v_k x dVdq_j,    dAdq_j = a_p x S_j + v_p x dVdq_j
 *   d a_k/d qd_j = dAdv_j - v_k x S_j,    dAdv_j = 2 v_p x S_j
 * and of the body force f_k = Y_k a_k + v_k x* Y_k v_k (Y_k its world inertia) the parts that
 * depend on body k gather into its inertia rate dY_k s = v_k x* Y_k s - Y_k (v_k x s)
 * + s x* (Y_k v_k) and the rigid transport S_j x* f_k. Summed over the subtree of i (composite
 * Yc_i, dYc_i, fc_i, the tool wrench a body-fixed force of the last body), with tau_i = S_i.fc_i:
 *   j >= i:  dtau_i/dq_j  = S_i.(dYc_j dVdq_j + Yc_j dAdq_j + S_j x* fc_j)
 *            dtau_i/dqd_j = S_i.(dYc_j S_j + Yc_j dAdv_j),   M_ij = S_i.Yc_j S_j
 *   j <  i:  dtau_i/dq_j  = (Yc_i S_i).dAdq_j + (dYc_i^T S_i).dVdq_j
 *            dtau_i/dqd_j = (Yc_i S_i).dAdv_j + (dYc_i^T S_i).S_j
 * (the transport of S_i cancels that of fc_i for j < i). Joint effects: the rotor inertia adds
 * to M's diagonal, the friction slope (rd_friction_slope) to dtau/dqd's.
 */
#include <string.h>

#include "engine.h"

static void add6(double *to, const double *from)
{
    for (int k = 0; k < 6; ++k) to[k] += from[k];
}

/* The inertia rate dY = [v x*] Y - Y [v x] + [. x* h] (h = Y v) acts on the angular part of a
 * motion only: dY s = (T s_w; b x s_w). For Y = (m, first moment c, Ib about the origin),
 * v = (w; u) and momentum h = (k; l):
 *   T = [w x] Ib - Ib [w x] - (c u^T + u c^T) + 2 (u.c) 1 - [k x],   b = -2 (m u + w x c)
 * (expand the 6 x 6 blocks with [a x][b x] = b a^T - (a.b) 1: the other blocks cancel). */
static void inertia_rate(const rd_inertia *Y, const double *v, const double *h, rd_rate *D)
{
    const double *w = v, *u = v + 3, *c = Y->h;
    double P[9], uc = 2.0 * rd_dot3(u, c), t[3];
    int r, k;
    for (k = 0; k < 3; ++k) {                                   /* P = [w x] Ib */
        P[k] = w[1] * Y->Ib[6 + k] - w[2] * Y->Ib[3 + k];
        P[3 + k] = w[2] * Y->Ib[k] - w[0] * Y->Ib[6 + k];
        P[6 + k] = w[0] * Y->Ib[3 + k] - w[1] * Y->Ib[k];
    }
    for (r = 0; r < 3; ++r)
        for (k = 0; k < 3; ++k)
            D->T[3 * r + k] = P[3 * r + k] + P[3 * k + r] - c[r] * u[k] - u[r] * c[k];
    D->T[0] += uc; D->T[4] += uc; D->T[8] += uc;
    D->T[1] += h[2]; D->T[2] -= h[1]; D->T[5] += h[0];                 /* - [k x] */
    D->T[3] -= h[2]; D->T[6] += h[1]; D->T[7] -= h[0];
    rd_cross(w, c, t);
    for (k = 0; k < 3; ++k) D->b[k] = -2.0 * (Y->m * u[k] + t[k]);
}

static void rate_apply(const rd_rate *D, const double *s, double *o)     /* o = dY s */
{
    rd_mv(D->T, s, o);
    rd_cross(D->b, s, o + 3);
}

static void add_rate(rd_rate *to, const rd_rate *from)
{
    for (int k = 0; k < 9; ++k) to->T[k] += from->T[k];
    for (int k = 0; k < 3; ++k) to->b[k] += from->b[k];
}

static void add_inertia(rd_inertia *to, const rd_inertia *from)
{
    to->m += from->m;
    for (int k = 0; k < 3; ++k) to->h[k] += from->h[k];
    for (int k = 0; k < 9; ++k) to->Ib[k] += from->Ib[k];
}

/* The tool wrench [f; n] (tool frame) as a world force on the last body, about the origin. */
static void tip_force(const rd_model *m, const double *f_tip, double *f)
{
    const int last = m->n - 1;
    double R[9], p[3], t[3];
    rd_mm(m->w.R[last], m->tipR, R);
    rd_mv(m->w.R[last], m->tipp, p);
    for (int k = 0; k < 3; ++k) p[k] += m->w.o[last][k];
    rd_mv(R, f_tip, f + 3);
    rd_mv(R, f_tip + 3, f);
    rd_cross(p, f + 3, t);
    for (int k = 0; k < 3; ++k) f[k] += t[k];
}

/* Forward pass: velocities, accelerations, their partial derivatives and body forces. */
static void forward_pass(rd_model *m, const double *qd, const double *qdd)
{
    rd_work *w = &m->w;
    double vp[6] = {0, 0, 0, 0, 0, 0}, ap[6] = {0, 0, 0, -m->g[0], -m->g[1], -m->g[2]};
    for (int i = 0; i < m->n; ++i) {
        const double *S = w->S[i];
        double *v = w->v[i], *a = w->a[i], t[6], h[6], f[6];
        for (int k = 0; k < 6; ++k) v[k] = vp[k] + S[k] * qd[i];
        rd_crm(vp, S, w->dVdq[i]);                        /* v x S = v_p x S (S x S = 0) */
        for (int k = 0; k < 6; ++k) a[k] = ap[k] + S[k] * qdd[i] + w->dVdq[i][k] * qd[i];
        rd_crm(ap, S, w->dAdq[i]);
        rd_crm(vp, w->dVdq[i], t);
        for (int k = 0; k < 6; ++k) {
            w->dAdq[i][k] += t[k];
            w->dAdv[i][k] = 2.0 * w->dVdq[i][k];
        }
        rd_world_inertia(m->J + i, w->R[i], w->o[i], &w->Ic[i]);
        rd_inertia_apply(&w->Ic[i], v, h);
        rd_inertia_apply(&w->Ic[i], a, f);
        rd_crf(v, h, t);
        for (int k = 0; k < 6; ++k) w->fc[i][k] = f[k] + t[k];
        inertia_rate(&w->Ic[i], v, h, &w->dY[i]);
        memcpy(vp, v, sizeof vp);
        memcpy(ap, a, sizeof ap);
    }
}

/* Backward pass, composites: Yc_i, dYc_i, fc_i of the subtree of i (in place), the column
 * forces Fa_i = Yc_i S_i, Fv_i = dYc_i S_i + Yc_i dAdv_i, and M (rotor inertia included). */
static void composites(rd_model *m, const double *f_tip, double *M)
{
    rd_work *w = &m->w;
    const int n = m->n;
    double t[6];
    if (f_tip != NULL) {
        tip_force(m, f_tip, t);
        add6(w->fc[n - 1], t);
    }
    for (int i = n - 1; i >= 0; --i) {
        const double *S = w->S[i];
        if (i + 1 < n) {
            add_inertia(&w->Ic[i], &w->Ic[i + 1]);
            add_rate(&w->dY[i], &w->dY[i + 1]);
            add6(w->fc[i], w->fc[i + 1]);
        }
        rd_inertia_apply(&w->Ic[i], S, w->Fa[i]);
        rate_apply(&w->dY[i], S, w->Fv[i]);
        rd_inertia_apply(&w->Ic[i], w->dAdv[i], t);
        add6(w->Fv[i], t);
        for (int j = i; j < n; ++j) M[n * i + j] = M[n * j + i] = rd_dot6(S, w->Fa[j]);
        M[n * i + i] += m->J[i].rotor;
    }
}

/* Rows of dtau/dq and dtau/dqd (friction's slope on the diagonal), from the composites. */
static void rows(rd_model *m, const double *qd, double *dq, double *dqd)
{
    rd_work *w = &m->w;
    const int n = m->n;
    for (int i = n - 1; i >= 0; --i) {
        const double *S = w->S[i];
        const rd_rate *dY = &w->dY[i];
        double t[6], r2[3];
        int j, k;
        rate_apply(dY, w->dVdq[i], w->Fq[i]);
        rd_inertia_apply(&w->Ic[i], w->dAdq[i], t);
        add6(w->Fq[i], t);
        for (j = i; j < n; ++j) {
            dqd[n * i + j] = rd_dot6(S, w->Fv[j]);
            dq[n * i + j] = rd_dot6(S, w->Fq[j]);
        }
        rd_crf(S, w->fc[i], t);
        add6(w->Fq[i], t);
        rd_mtv(dY->T, S, r2);                      /* r2 = dYc_i^T S_i = (T^T S_w + S_v x b; 0) */
        rd_cross(S + 3, dY->b, t);
        for (k = 0; k < 3; ++k) r2[k] += t[k];
        for (j = 0; j < i; ++j) {                          /* dAdv_j = 2 dVdq_j */
            dq[n * i + j] = rd_dot6(w->Fa[i], w->dAdq[j]) + rd_dot3(r2, w->dVdq[j]);
            dqd[n * i + j] = 2.0 * rd_dot6(w->Fa[i], w->dVdq[j]) + rd_dot3(r2, w->S[j]);
        }
        dqd[n * i + i] += rd_friction_slope(m->J + i, qd[i]);
    }
}

void rd_rnea_derivatives(rd_model *m, const double *q, const double *qd, const double *qdd,
                         const double *f_tip, double *dq, double *dqd, double *M)
{
    rd_world(m, q);
    forward_pass(m, qd, qdd);
    composites(m, f_tip, M);
    rows(m, qd, dq, dqd);
}

/* After a pass at qdd = 0: add the accelerations of qdd to a_i, dAdq_i and fc_i, with
 * da_i = sum_{j <= i} S_j qdd_j and d fc_i = Yc_i da_{i-1} + sum_{j >= i} qdd_j Fa_j. */
static void add_accelerations(rd_model *m, const double *qdd)
{
    rd_work *w = &m->w;
    const int n = m->n;
    double da[6] = {0, 0, 0, 0, 0, 0}, below[6] = {0, 0, 0, 0, 0, 0}, t[6];
    int i, k;
    for (i = 0; i < n; ++i) {                     /* dAdq_i = a_p x S_i + ...: a_p moves by da */
        rd_crm(da, w->S[i], t);
        add6(w->dAdq[i], t);
        rd_inertia_apply(&w->Ic[i], da, w->tmp + 6 * i);         /* Yc_i da_{i-1} */
        for (k = 0; k < 6; ++k) da[k] += w->S[i][k] * qdd[i];
    }
    for (i = n - 1; i >= 0; --i) {
        for (k = 0; k < 6; ++k) below[k] += qdd[i] * w->Fa[i][k];
        for (k = 0; k < 6; ++k) w->fc[i][k] += w->tmp[6 * i + k] + below[k];
    }
}

/* M^-1 = L^-T L^-1 from the Cholesky factor L (lower triangle): Z = L^-1 row by row (lower
 * triangular), then (M^-1)_ij = sum_{k >= i, j} Z_ki Z_kj, the lower triangle mirrored. */
RD_WIDE static void inverse_from_factor(const double *L, int n, double *Z, double *Minv)
{
    int i, j, k;
    memset(Z, 0, sizeof(double) * (size_t)n * (size_t)n);
    memset(Minv, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (i = 0; i < n; ++i) {
        double *z = Z + n * i;
        const double d = 1.0 / L[n * i + i];
        for (k = 0; k < i; ++k) {
            const double l = L[n * i + k], *y = Z + n * k;
            for (j = 0; j <= k; ++j) z[j] -= l * y[j];
        }
        for (j = 0; j < i; ++j) z[j] *= d;
        z[i] = d;
    }
    for (k = 0; k < n; ++k) {
        const double *z = Z + n * k;
        for (i = 0; i <= k; ++i) {
            double *row = Minv + n * i;
            for (j = 0; j <= i; ++j) row[j] += z[i] * z[j];
        }
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j) Minv[n * j + i] = Minv[n * i + j];
}

/* x[c] = -sum_k m_k t_kc for columns c from c0 (one row of X <- -M^-1 X). */
static inline __attribute__((always_inline)) void rows_minus(const double *m, const double *T, int n, int c0, double *x)
{
    int k = 0, c;
    for (c = c0; c < n; ++c) x[c] = 0;
    for (; k + 4 <= n; k += 4) {
        const double a0 = m[k], a1 = m[k + 1], a2 = m[k + 2], a3 = m[k + 3];
        const double *t0 = T + n * k, *t1 = t0 + n, *t2 = t1 + n, *t3 = t2 + n;
        for (c = c0; c < n; ++c) x[c] -= a0 * t0[c] + a1 * t1[c] + a2 * t2[c] + a3 * t3[c];
    }
    for (; k < n; ++k) {
        const double a = m[k], *t = T + n * k;
        for (c = c0; c < n; ++c) x[c] -= a * t[c];
    }
}

/* Four rows r of x -= sum_k a_rk t_k over columns c0 .. c0 + 7 held in registers (8 vectors of
 * 4): per element the order of the plain loop below (k in fours, then one by one). */
typedef double rd_v4 __attribute__((vector_size(32), aligned(8)));

static inline __attribute__((always_inline)) rd_v4 v4_load(const double *p)
{
    rd_v4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline __attribute__((always_inline)) void tile_4x8(const double *A, const double *T, int n, int c0, double *X)
{
    rd_v4 acc[4][2] = {{{0}}};
    int k = 0, r, h;
    for (; k + 4 <= n; k += 4) {
        const double *t0 = T + n * k + c0, *t1 = t0 + n, *t2 = t1 + n, *t3 = t2 + n;
        rd_v4 T0[2], T1[2], T2[2], T3[2];
        for (h = 0; h < 2; ++h) {
            T0[h] = v4_load(t0 + 4 * h); T1[h] = v4_load(t1 + 4 * h);
            T2[h] = v4_load(t2 + 4 * h); T3[h] = v4_load(t3 + 4 * h);
        }
        for (r = 0; r < 4; ++r) {
            const double *a = A + n * r + k;
            for (h = 0; h < 2; ++h)
                acc[r][h] -= a[0] * T0[h] + a[1] * T1[h] + a[2] * T2[h] + a[3] * T3[h];
        }
    }
    for (; k < n; ++k)
        for (r = 0; r < 4; ++r)
            for (h = 0; h < 2; ++h) acc[r][h] -= A[n * r + k] * v4_load(T + n * k + c0 + 4 * h);
    for (r = 0; r < 4; ++r) memcpy(X + n * r + c0, acc[r], sizeof acc[r]);
}

/* X <- -M^-1 X (n x n, rows), through the scratch T (n x n): tiles of 4 rows by 8 columns
 * in registers, the rest (and the small matrices) by rows; per element
 * x_ic = 0 - (m_i0 t_0c + m_i1 t_1c + m_i2 t_2c + m_i3 t_3c) - ... either way. */
RD_WIDE static void times_minus_inverse(const double *Minv, int n, double *X, double *T)
{
    int i = 0, c0 = 0;
    memcpy(T, X, sizeof(double) * (size_t)n * (size_t)n);
    if (n >= 16) {
        for (; i + 4 <= n; i += 4)
            for (c0 = 0; c0 + 8 <= n; c0 += 8) tile_4x8(Minv + n * i, T, n, c0, X + n * i);
        for (int r = 0; r < i; ++r) rows_minus(Minv + n * r, T, n, c0, X + n * r);
    }
    for (; i < n; ++i) rows_minus(Minv + n * i, T, n, 0, X + n * i);
}

/* qdd = FD(q, qd, tau) from one pass: the pass at qdd = 0 gives M and the bias
 * b_i = S_i.fc_i + friction (tool wrench included), M = L L^T, qdd = M^-1 (tau - b); the
 * accelerations are then added to the pass (add_accelerations) for the rows at that qdd;
 * M^-1 from the factor, and dqdd/dx = -M^-1 dtau/dx (RSS 2018 section IV). */
int rd_forward_derivatives(rd_model *m, const double *q, const double *qd, const double *tau,
                           const double *f_tip, double *dq, double *dqd, double *Minv)
{
    rd_work *w = &m->w;
    const int n = m->n;
    double *qdd = w->qdd, *L = w->M;
    int i, k;
    memset(w->zero, 0, sizeof(double) * (size_t)n);
    rd_world(m, q);
    forward_pass(m, qd, w->zero);
    composites(m, f_tip, Minv);
    memcpy(L, Minv, sizeof(double) * (size_t)n * (size_t)n);
    if (rd_cholesky(L, n) != 0) return -1;
    for (i = 0; i < n; ++i) {                                   /* L y = tau - b */
        double v = tau[i] - rd_dot6(w->S[i], w->fc[i]) - rd_friction(m->J + i, qd[i]);
        for (k = 0; k < i; ++k) v -= L[n * i + k] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {                              /* L^T qdd = y */
        double v = qdd[i];
        for (k = i + 1; k < n; ++k) v -= L[n * k + i] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    add_accelerations(m, qdd);
    rows(m, qd, dq, dqd);
    inverse_from_factor(L, n, w->Z, Minv);
    times_minus_inverse(Minv, n, dq, w->Z);
    times_minus_inverse(Minv, n, dqd, w->Z);
    return 0;
}
