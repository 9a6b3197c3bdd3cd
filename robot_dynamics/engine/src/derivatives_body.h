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
 * Derivatives of Rigid Body Dynamics Algorithms", RSS 2018, Algorithm 1 and section IV), written
 * once over the scalar of lanes.h: derivatives.c includes it for doubles (one row),
 * derivatives_pair.c and derivatives_quad.c for two and four rows of a batch (the same operations
 * lane by lane, so the same bits). World (base-frame) spatial vectors about the base origin
 * (spatial.h's convention).
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
 * to M's diagonal, the friction slope to dtau/dqd's. The forward dynamics: dqdd/dx =
 * -M^-1 dtau/dx at qdd = FD(q, qd, tau) (section IV), M^-1 from the Cholesky factor.
 */
#if RD_HAVE_LANES
#include "cholesky_body.h"
#include "inverse_body.h"

#if RD_LANES == 1
#define RD_FACTOR rd_cholesky            /* forward.c: cholesky_body.h with that clone */
#else
#define RD_FACTOR rdv_cholesky_factor
typedef struct { RD_T T[9], b[3]; } RD_SP(rate);        /* engine.h's rd_rate on lanes */
#endif

/* Per-joint quantities of one pass (the caller's storage). */
typedef struct {
    RD_T (*S)[6], (*v)[6], (*dVdq)[6], (*dAdq)[6], (*dAdv)[6], (*fc)[6];
    RD_T (*Fa)[6], (*Fv)[6], (*Fq)[6];
    RD_SP(inertia) *Ic;
    RD_SP(rate) *dY;
} RD_SP(dwork);

/* The inertia rate dY = [v x*] Y - Y [v x] + [. x* h] (h = Y v) acts on the angular part of a
 * motion only: dY s = (T s_w; b x s_w). For Y = (m, first moment c, Ib about the origin),
 * v = (w; u) and momentum h = (k; l):
 *   T = [w x] Ib - Ib [w x] - (c u^T + u c^T) + 2 (u.c) 1 - [k x],   b = -2 (m u + w x c)
 * (expand the 6 x 6 blocks with [a x][b x] = b a^T - (a.b) 1: the other blocks cancel). */
static RD_INLINE void RD_SP(inertia_rate)(const RD_SP(inertia) *Y, const RD_T *v,
                                          const RD_T *h, RD_SP(rate) *D)
{
    const RD_T *w = v, *u = v + 3, *c = Y->h;
    RD_T P[9], uc = 2.0 * RD_SP(dot3)(u, c), t[3];
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
    RD_SP(cross)(w, c, t);
    for (k = 0; k < 3; ++k) D->b[k] = -2.0 * (Y->m * u[k] + t[k]);
}

static RD_INLINE void RD_SP(rate_apply)(const RD_SP(rate) *D, const RD_T *s, RD_T *o)
{
    RD_SP(mv)(D->T, s, o);
    RD_SP(cross)(D->b, s, o + 3);
}

static RD_INLINE void RD_SP(rate_add)(RD_SP(rate) *to, const RD_SP(rate) *from)
{
    for (int k = 0; k < 9; ++k) to->T[k] += from->T[k];
    for (int k = 0; k < 3; ++k) to->b[k] += from->b[k];
}

/* The tool wrench [f; n] of row x (tool frame) as a world force on the last body (world pose
 * W), about the base origin. */
static RD_INLINE void RD_SP(tip_force)(const rd_model *m, const double *const *const *x,
                                       const RD_SP(placement) *W, RD_T *f)
{
    RD_T R[9], p[3], ft[3], nt[3], t[3];
    int k;
    RD_SP(mm_c)(W->R, m->tipR, R);
    RD_SP(mv_c)(W->R, m->tipp, p);
    for (k = 0; k < 3; ++k) p[k] += W->p[k];
    for (k = 0; k < 3; ++k) {
        ft[k] = RD_SP(load)(x, 3, k);
        nt[k] = RD_SP(load)(x, 3, 3 + k);
    }
    RD_SP(mv)(R, ft, f + 3);
    RD_SP(mv)(R, nt, f);
    RD_SP(cross)(p, f + 3, t);
    for (k = 0; k < 3; ++k) f[k] += t[k];
}

/* Forward pass: world poses and motion subspaces, velocities, accelerations (qdd of row x, or
 * zero without `with_qdd`), their partial derivatives, body inertias, forces and inertia rates;
 * then the tool wrench on the last body. */
static RD_INLINE void RD_SP(derivatives_forward)(const rd_model *m, const double *const *const *x,
                                                 int with_qdd, RD_SP(dwork) *w)
{
    const RD_T zero = RD_SPLAT(0.0);
    RD_SP(placement) W, X, Wp;
    RD_T vp[6], ap[6], t[6];
    int i, k;
    for (k = 0; k < 9; ++k) W.R[k] = RD_SPLAT((double)(k % 4 == 0));
    for (k = 0; k < 3; ++k) W.p[k] = zero;
    for (k = 0; k < 6; ++k) vp[k] = ap[k] = zero;
    for (k = 0; k < 3; ++k) ap[3 + k] = RD_SPLAT(-m->g[k]);            /* a0 = -g */
    for (i = 0; i < m->n; ++i) {
        const rd_joint *J = m->J + i;
        RD_T *S = w->S[i], *v = w->v[i], a[6], h[6], f[6], z[3];
        RD_T qd = RD_SP(load)(x, 1, i), qdd = with_qdd ? RD_SP(load)(x, 2, i) : zero;
        RD_SP(place)(J, RD_SP(load)(x, 0, i), &X);
        Wp = W;
        RD_SP(compose)(&Wp, &X, &W);
        RD_SP(mv_c)(W.R, J->axis, z);
        for (k = 0; k < 3; ++k) {
            S[k] = J->type == RD_REVOLUTE ? z[k] : zero;
            S[3 + k] = z[k];
        }
        if (J->type == RD_REVOLUTE) RD_SP(cross)(W.p, z, S + 3);
        for (k = 0; k < 6; ++k) v[k] = vp[k] + S[k] * qd;
        RD_SP(crm)(vp, S, w->dVdq[i]);                   /* v x S = v_p x S (S x S = 0) */
        for (k = 0; k < 6; ++k) a[k] = ap[k] + S[k] * qdd + w->dVdq[i][k] * qd;
        RD_SP(crm)(ap, S, w->dAdq[i]);
        RD_SP(crm)(vp, w->dVdq[i], t);
        for (k = 0; k < 6; ++k) {
            w->dAdq[i][k] += t[k];
            w->dAdv[i][k] = 2.0 * w->dVdq[i][k];
        }
        RD_SP(inertia_placed)(J->m, J->c, J->Ic, W.R, W.p, &w->Ic[i]);
        RD_SP(inertia_apply)(&w->Ic[i], v, h);
        RD_SP(inertia_apply)(&w->Ic[i], a, f);
        RD_SP(crf)(v, h, t);
        for (k = 0; k < 6; ++k) w->fc[i][k] = f[k] + t[k];
        RD_SP(inertia_rate)(&w->Ic[i], v, h, &w->dY[i]);
        for (k = 0; k < 6; ++k) { vp[k] = v[k]; ap[k] = a[k]; }
    }
    if (x[0][3] != NULL) {
        RD_SP(tip_force)(m, x, &W, t);
        RD_SP(add6)(w->fc[m->n - 1], t);
    }
}

/* Backward pass, composites: Yc_i, dYc_i, fc_i of the subtree of i (in place), the column
 * forces Fa_i = Yc_i S_i, Fv_i = dYc_i S_i + Yc_i dAdv_i, and M (rotor inertia included). */
static RD_INLINE void RD_SP(derivatives_composites)(const rd_model *m, RD_SP(dwork) *w,
                                                    RD_T *M)
{
    const int n = m->n;
    RD_T t[6];
    for (int i = n - 1; i >= 0; --i) {
        const RD_T *S = w->S[i];
        if (i + 1 < n) {
            RD_SP(inertia_add)(&w->Ic[i], &w->Ic[i + 1]);
            RD_SP(rate_add)(&w->dY[i], &w->dY[i + 1]);
            RD_SP(add6)(w->fc[i], w->fc[i + 1]);
        }
        RD_SP(inertia_apply)(&w->Ic[i], S, w->Fa[i]);
        RD_SP(rate_apply)(&w->dY[i], S, w->Fv[i]);
        RD_SP(inertia_apply)(&w->Ic[i], w->dAdv[i], t);
        RD_SP(add6)(w->Fv[i], t);
        for (int j = i; j < n; ++j) M[n * i + j] = M[n * j + i] = RD_SP(dot6)(S, w->Fa[j]);
        M[n * i + i] += m->J[i].rotor;
    }
}

/* Rows of dtau/dq and dtau/dqd (friction's slope on the diagonal), from the composites. */
static RD_INLINE void RD_SP(derivatives_rows)(const rd_model *m, const double *const *const *x,
                                              RD_SP(dwork) *w, RD_T *dq, RD_T *dqd)
{
    const int n = m->n;
    for (int i = n - 1; i >= 0; --i) {
        const RD_T *S = w->S[i];
        const RD_SP(rate) *dY = &w->dY[i];
        RD_T t[6], r2[3];
        int j, k;
        RD_SP(rate_apply)(dY, w->dVdq[i], w->Fq[i]);
        RD_SP(inertia_apply)(&w->Ic[i], w->dAdq[i], t);
        RD_SP(add6)(w->Fq[i], t);
        for (j = i; j < n; ++j) {
            dqd[n * i + j] = RD_SP(dot6)(S, w->Fv[j]);
            dq[n * i + j] = RD_SP(dot6)(S, w->Fq[j]);
        }
        RD_SP(crf)(S, w->fc[i], t);
        RD_SP(add6)(w->Fq[i], t);
        RD_SP(mtv)(dY->T, S, r2);                  /* r2 = dYc_i^T S_i = (T^T S_w + S_v x b; 0) */
        RD_SP(cross)(S + 3, dY->b, t);
        for (k = 0; k < 3; ++k) r2[k] += t[k];
        for (j = 0; j < i; ++j) {                          /* dAdv_j = 2 dVdq_j */
            dq[n * i + j] = RD_SP(dot6)(w->Fa[i], w->dAdq[j]) + RD_SP(dot3)(r2, w->dVdq[j]);
            dqd[n * i + j] = 2.0 * RD_SP(dot6)(w->Fa[i], w->dVdq[j]) + RD_SP(dot3)(r2, w->S[j]);
        }
        dqd[n * i + i] += RD_SP(friction_slope)(m->J + i, RD_SP(load)(x, 1, i));
    }
}

/* dtau/dq, dtau/dqd and M of row x at its qdd. */
static RD_INLINE void RD_SP(inverse_derivatives)(const rd_model *m, const double *const *const *x,
                                                 RD_SP(dwork) *w, RD_T *dq, RD_T *dqd, RD_T *M)
{
    RD_SP(derivatives_forward)(m, x, 1, w);
    RD_SP(derivatives_composites)(m, w, M);
    RD_SP(derivatives_rows)(m, x, w, dq, dqd);
}

/* After a pass at qdd = 0: add the accelerations of qdd to a_i, dAdq_i and fc_i, with
 * da_i = sum_{j <= i} S_j qdd_j and d fc_i = Yc_i da_{i-1} + sum_{j >= i} qdd_j Fa_j
 * (Yda: n scratch vectors). */
static RD_INLINE void RD_SP(add_accelerations)(const rd_model *m, RD_SP(dwork) *w,
                                               const RD_T *qdd, RD_T (*Yda)[6])
{
    const int n = m->n;
    RD_T da[6], below[6], t[6];
    int i, k;
    for (k = 0; k < 6; ++k) da[k] = below[k] = RD_SPLAT(0.0);
    for (i = 0; i < n; ++i) {                     /* dAdq_i = a_p x S_i + ...: a_p moves by da */
        RD_SP(crm)(da, w->S[i], t);
        RD_SP(add6)(w->dAdq[i], t);
        RD_SP(inertia_apply)(&w->Ic[i], da, Yda[i]);               /* Yc_i da_{i-1} */
        for (k = 0; k < 6; ++k) da[k] += w->S[i][k] * qdd[i];
    }
    for (i = n - 1; i >= 0; --i) {
        for (k = 0; k < 6; ++k) below[k] += qdd[i] * w->Fa[i][k];
        for (k = 0; k < 6; ++k) w->fc[i][k] += Yda[i][k] + below[k];
    }
}

/* dqdd/dq, dqdd/dqd and M^-1 of row x = {q, qd, tau, f_tip}: the pass at qdd = 0 gives M and
 * the bias b_i = S_i.fc_i + friction (tool wrench included), M = L L^T, qdd = M^-1 (tau - b);
 * the accelerations are then added to the pass for the rows at that qdd; M^-1 from the factor
 * and dqdd/dx = -M^-1 dtau/dx. Scratch: L, Z (n x n), qdd (n), Yda (n x 6). -1 if a mass
 * matrix is not positive definite. */
static RD_INLINE int RD_SP(forward_derivatives_body)(const rd_model *m,
                                                     const double *const *const *x,
                                                     RD_SP(dwork) *w, RD_T *dq, RD_T *dqd,
                                                     RD_T *Minv, RD_T *L, RD_T *Z, RD_T *qdd,
                                                     RD_T (*Yda)[6])
{
    const int n = m->n;
    int i, k;
    RD_SP(derivatives_forward)(m, x, 0, w);
    RD_SP(derivatives_composites)(m, w, L);
    if (RD_FACTOR(L, n) != 0) return -1;
    for (i = 0; i < n; ++i) {                                   /* L y = tau - b */
        RD_T v = RD_SP(load)(x, 2, i) - RD_SP(dot6)(w->S[i], w->fc[i]);
        v -= RD_SP(friction)(m->J + i, RD_SP(load)(x, 1, i));
        for (k = 0; k < i; ++k) v -= L[n * i + k] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {                              /* L^T qdd = y */
        RD_T v = qdd[i];
        for (k = i + 1; k < n; ++k) v -= L[n * k + i] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    RD_SP(add_accelerations)(m, w, qdd, Yda);
    RD_SP(derivatives_rows)(m, x, w, dq, dqd);
    RD_SP(inverse_from_factor)(L, n, Z, Minv);
    RD_SP(times_minus_inverse)(Minv, n, dq, Z);
    RD_SP(times_minus_inverse)(Minv, n, dqd, Z);
    return 0;
}

#if RD_LANES > 1 && RD_HAVE_LANES
/* ------------------------------------------------------------------ LANES rows of a batch */
/* Stack storage of one call (at most RD_LANES_MAX joints). */
#define RD_DWORK(w_, n_)                                                                    \
    RD_T S_[n_][6], v_[n_][6], dVdq_[n_][6], dAdq_[n_][6], dAdv_[n_][6], fc_[n_][6];      \
    RD_T Fa_[n_][6], Fv_[n_][6], Fq_[n_][6];                                               \
    RD_SP(inertia) Ic_[n_];                                                                 \
    RD_SP(rate) dY_[n_];                                                                    \
    RD_SP(dwork) w_ = {S_, v_, dVdq_, dAdq_, dAdv_, fc_, Fa_, Fv_, Fq_, Ic_, dY_}

/* Three n x n matrices of every lane into out[l] (one after the other). */
static void RD_SP(scatter3)(const RD_T *A, const RD_T *B, const RD_T *C, int nn,
                            double *const *out)
{
    RD_SP(scatter)(A, nn, out, 0);
    RD_SP(scatter)(B, nn, out, nn);
    RD_SP(scatter)(C, nn, out, 2 * nn);
}

/* dtau/dq, dtau/dqd, M of LANES rows: x[l] = {q, qd, qdd, f_tip or NULL}, out[l] 3 n x n. */
int RD_LANES_FN(rd_rnea_derivatives)(rd_model *m, const double *const *const *x,
                                     double *const *out)
{
    const int n = m->n > 0 ? m->n : 1, nn = n * n;
    RD_T M[nn], dq[nn], dqd[nn];
    RD_DWORK(w, n);
    RD_SP(inverse_derivatives)(m, x, &w, dq, dqd, M);
    RD_SP(scatter3)(dq, dqd, M, m->n * m->n, out);
    return 0;
}

/* dqdd/dq, dqdd/dqd, M^-1 of LANES rows: x[l] = {q, qd, tau, f_tip or NULL}; RD_NOT_SPD if a
 * mass matrix is not positive definite. */
int RD_LANES_FN(rd_forward_derivatives)(rd_model *m, const double *const *const *x,
                                        double *const *out)
{
    const int n = m->n > 0 ? m->n : 1, nn = n * n;
    RD_T L[nn], Z[nn], dq[nn], dqd[nn], Minv[nn], qdd[n], Yda[n][6];
    RD_DWORK(w, n);
    if (RD_SP(forward_derivatives_body)(m, x, &w, dq, dqd, Minv, L, Z, qdd, Yda) != 0)
        return RD_NOT_SPD;
    RD_SP(scatter3)(dq, dqd, Minv, m->n * m->n, out);
    return 0;
}
#endif  /* LANES rows */
#endif  /* RD_HAVE_LANES */

#if RD_LANES == 2 && !RD_HAVE_LANES
/* No vector types: the pair is two single rows. */
int rd_rnea_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    for (int l = 0; l < 2; ++l)
        rd_rnea_derivatives(m, x[l][0], x[l][1], x[l][2], x[l][3], out[l], out[l] + nn,
                            out[l] + 2 * nn);
    return 0;
}

int rd_forward_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    for (int l = 0; l < 2; ++l)
        if (rd_forward_derivatives(m, x[l][0], x[l][1], x[l][2], x[l][3], out[l], out[l] + nn,
                                   out[l] + 2 * nn) != 0)
            return RD_NOT_SPD;
    return 0;
}
#endif
