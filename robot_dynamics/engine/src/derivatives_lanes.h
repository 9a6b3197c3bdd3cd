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
 * The inverse-dynamics derivatives of derivatives.c on LANES states at once, for batches:
 * written once for GCC vector types and included by derivatives_pair.c (two lanes) and
 * derivatives_quad.c (four, AVX2). The arithmetic is that of derivatives.c and of the helpers
 * it calls (rd_world, rd_world_inertia, rd_inertia_apply, rd_crm, rd_crf), operation for
 * operation, so that a batch row equals the single call bit for bit. Define LANES, VEC, SPLAT,
 * IVEC and FUNCTION first.
 */
#include "trig_lanes.h"        /* vsin_versine: trig.h on every lane */

static inline VEC dl_load(const double *const *const *x, int k, int i)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = x[l][k][i];
    return out;
}
#define LANE_LOAD(x_, k_, i_) dl_load(x_, k_, i_)

typedef struct { VEC m, h[3], Ib[9]; } dl_inertia;
typedef struct { VEC T[9], b[3]; } dl_rate;

static inline void dl_cross(const VEC *a, const VEC *b, VEC *o)
{
    VEC x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void dl_mv(const VEC *R, const VEC *v, VEC *o)             /* rd_mv */
{
    VEC x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    VEC y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void dl_mv_cv(const VEC *R, const double *v, VEC *o)       /* rd_mv, v constant */
{
    VEC x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    VEC y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void dl_mtv(const VEC *R, const VEC *v, VEC *o)            /* rd_mtv */
{
    VEC x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    VEC y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    o[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void dl_mm(const VEC *A, const VEC *B, VEC *o)             /* rd_mm */
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            o[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}
static inline VEC dl_dot3(const VEC *a, const VEC *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline VEC dl_dot6(const VEC *a, const VEC *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}
static inline void dl_crm(const VEC *m, const VEC *s, VEC *o)
{
    VEC t[3];
    dl_cross(m, s, o); dl_cross(m + 3, s, o + 3); dl_cross(m, s + 3, t);
    o[3] += t[0]; o[4] += t[1]; o[5] += t[2];
}
static inline void dl_crf(const VEC *m, const VEC *f, VEC *o)
{
    VEC t[3];
    dl_cross(m, f, o); dl_cross(m + 3, f + 3, t); dl_cross(m, f + 3, o + 3);
    o[0] += t[0]; o[1] += t[1]; o[2] += t[2];
}
static inline void dl_add6(VEC *to, const VEC *from)
{
    for (int k = 0; k < 6; ++k) to[k] += from[k];
}

static void dl_place(const rd_joint *J, VEC q, VEC *R, VEC *p)            /* rd_place */
{
    int k;
    if (J->type == RD_REVOLUTE) {
        VEC s, v;
        vsin_versine(q, &s, &v);
        for (k = 0; k < 9; ++k) R[k] = J->Rt[k] + s * J->RtK[k] + v * J->RtK2[k];
        for (k = 0; k < 3; ++k) p[k] = SPLAT(J->pt[k]);
    } else {
        for (k = 0; k < 9; ++k) R[k] = SPLAT(J->Rt[k]);
        for (k = 0; k < 3; ++k) p[k] = J->pt[k] + J->Rta[k] * q;
    }
}

static void dl_world_inertia(const rd_joint *J, const VEC *R, const VEC *o, dl_inertia *In)
{
    VEC c[3], T[9], cc;
    int r, k;
    dl_mv_cv(R, J->c, c);
    for (k = 0; k < 3; ++k) c[k] += o[k];
    cc = dl_dot3(c, c);
    In->m = SPLAT(J->m);
    for (k = 0; k < 3; ++k) In->h[k] = J->m * c[k];
    for (r = 0; r < 3; ++r)
        for (k = 0; k < 3; ++k)
            T[3 * r + k] = R[3 * r] * J->Ic[k] + R[3 * r + 1] * J->Ic[3 + k]
                           + R[3 * r + 2] * J->Ic[6 + k];
    for (r = 0; r < 3; ++r)
        for (k = r; k < 3; ++k) {
            VEC s = T[3 * r] * R[3 * k] + T[3 * r + 1] * R[3 * k + 1]
                    + T[3 * r + 2] * R[3 * k + 2] + J->m * ((double)(r == k) * cc - c[r] * c[k]);
            In->Ib[3 * r + k] = In->Ib[3 * k + r] = s;
        }
}

static void dl_inertia_apply(const dl_inertia *In, const VEC *s, VEC *f)
{
    VEC t[3], u[3];
    dl_mv(In->Ib, s, f);
    dl_cross(In->h, s + 3, t);
    dl_cross(In->h, s, u);
    for (int k = 0; k < 3; ++k) {
        f[k] += t[k];
        f[3 + k] = In->m * s[3 + k] - u[k];
    }
}

static void dl_inertia_rate(const dl_inertia *Y, const VEC *v, const VEC *h, dl_rate *D)
{
    const VEC *w = v, *u = v + 3, *c = Y->h;
    VEC P[9], uc = 2.0 * dl_dot3(u, c), t[3];
    int r, k;
    for (k = 0; k < 3; ++k) {
        P[k] = w[1] * Y->Ib[6 + k] - w[2] * Y->Ib[3 + k];
        P[3 + k] = w[2] * Y->Ib[k] - w[0] * Y->Ib[6 + k];
        P[6 + k] = w[0] * Y->Ib[3 + k] - w[1] * Y->Ib[k];
    }
    for (r = 0; r < 3; ++r)
        for (k = 0; k < 3; ++k)
            D->T[3 * r + k] = P[3 * r + k] + P[3 * k + r] - c[r] * u[k] - u[r] * c[k];
    D->T[0] += uc; D->T[4] += uc; D->T[8] += uc;
    D->T[1] += h[2]; D->T[2] -= h[1]; D->T[5] += h[0];
    D->T[3] -= h[2]; D->T[6] += h[1]; D->T[7] -= h[0];
    dl_cross(w, c, t);
    for (k = 0; k < 3; ++k) D->b[k] = -2.0 * (Y->m * u[k] + t[k]);
}

static void dl_rate_apply(const dl_rate *D, const VEC *s, VEC *o)
{
    dl_mv(D->T, s, o);
    dl_cross(D->b, s, o + 3);
}

/* Workspace of one call (stack arrays sized by the caller's n). */
typedef struct {
    VEC (*S)[6], (*V)[6], (*dVdq)[6], (*dAdq)[6], (*dAdv)[6], (*fc)[6], (*Fa)[6], (*Fv)[6];
    VEC (*Fq)[6];
    dl_inertia *Ic;
    dl_rate *dY;
} dl_work;

/* rd_world + forward_pass (with_qdd 0: zero accelerations, as rd_forward_derivatives), the
 * tool wrench, composites (M into Mout, VEC n x n) of derivatives.c. */
static void dl_pass(rd_model *m, const double *const *const *x, int with_qdd, dl_work *w,
                    VEC *Mout)
{
    const int n = m->n;
    VEC (*S)[6] = w->S, (*V)[6] = w->V, (*dVdq)[6] = w->dVdq, (*dAdq)[6] = w->dAdq;
    VEC (*dAdv)[6] = w->dAdv, (*fc)[6] = w->fc, (*Fa)[6] = w->Fa, (*Fv)[6] = w->Fv;
    dl_inertia *Ic = w->Ic;
    dl_rate *dY = w->dY;
    VEC R[9], o[3], vp[6], ap[6], t[6];
    int i, j, k;
    for (k = 0; k < 9; ++k) R[k] = SPLAT((double)(k % 4 == 0));
    for (k = 0; k < 3; ++k) o[k] = SPLAT(0.0);
    for (k = 0; k < 6; ++k) vp[k] = ap[k] = SPLAT(0.0);
    for (k = 0; k < 3; ++k) ap[3 + k] = SPLAT(-m->g[k]);
    for (i = 0; i < n; ++i) {                                   /* rd_world + forward_pass */
        const rd_joint *J = m->J + i;
        VEC Xr[9], Xp[3], Ri[9], z[3], a[6], h[6], f[6];
        VEC q = LANE_LOAD(x, 0, i), qd = LANE_LOAD(x, 1, i);
        VEC qdd = with_qdd ? LANE_LOAD(x, 2, i) : SPLAT(0.0);
        dl_place(J, q, Xr, Xp);
        dl_mv(R, Xp, t);
        o[0] += t[0]; o[1] += t[1]; o[2] += t[2];
        dl_mm(R, Xr, Ri);
        for (k = 0; k < 9; ++k) R[k] = Ri[k];
        dl_mv_cv(R, J->axis, z);
        if (J->type == RD_REVOLUTE) {
            for (k = 0; k < 3; ++k) S[i][k] = z[k];
            dl_cross(o, z, S[i] + 3);
        } else {
            for (k = 0; k < 3; ++k) { S[i][k] = SPLAT(0.0); S[i][3 + k] = z[k]; }
        }
        for (k = 0; k < 6; ++k) V[i][k] = vp[k] + S[i][k] * qd;
        dl_crm(vp, S[i], dVdq[i]);
        for (k = 0; k < 6; ++k) a[k] = ap[k] + S[i][k] * qdd + dVdq[i][k] * qd;
        dl_crm(ap, S[i], dAdq[i]);
        dl_crm(vp, dVdq[i], t);
        for (k = 0; k < 6; ++k) {
            dAdq[i][k] += t[k];
            dAdv[i][k] = 2.0 * dVdq[i][k];
        }
        dl_world_inertia(J, R, o, &Ic[i]);
        dl_inertia_apply(&Ic[i], V[i], h);
        dl_inertia_apply(&Ic[i], a, f);
        dl_crf(V[i], h, t);
        for (k = 0; k < 6; ++k) fc[i][k] = f[k] + t[k];
        dl_inertia_rate(&Ic[i], V[i], h, &dY[i]);
        for (k = 0; k < 6; ++k) { vp[k] = V[i][k]; ap[k] = a[k]; }
    }
    if (x[0][3] != NULL) {                                       /* tip_force */
        VEC Rt[9], tipR[9], p[3], ft[3], nt[3], u[3];
        for (k = 0; k < 9; ++k) tipR[k] = SPLAT(m->tipR[k]);
        dl_mm(R, tipR, Rt);
        dl_mv_cv(R, m->tipp, p);
        for (k = 0; k < 3; ++k) p[k] += o[k];
        for (k = 0; k < 3; ++k) { ft[k] = LANE_LOAD(x, 3, k); nt[k] = LANE_LOAD(x, 3, 3 + k); }
        dl_mv(Rt, ft, t + 3);
        dl_mv(Rt, nt, t);
        dl_cross(p, t + 3, u);
        for (k = 0; k < 3; ++k) t[k] += u[k];
        dl_add6(fc[n - 1], t);
    }
    for (i = n - 1; i >= 0; --i) {                               /* composites */
        if (i + 1 < n) {
            Ic[i].m += Ic[i + 1].m;
            for (k = 0; k < 3; ++k) Ic[i].h[k] += Ic[i + 1].h[k];
            for (k = 0; k < 9; ++k) Ic[i].Ib[k] += Ic[i + 1].Ib[k];
            for (k = 0; k < 9; ++k) dY[i].T[k] += dY[i + 1].T[k];
            for (k = 0; k < 3; ++k) dY[i].b[k] += dY[i + 1].b[k];
            dl_add6(fc[i], fc[i + 1]);
        }
        dl_inertia_apply(&Ic[i], S[i], Fa[i]);
        dl_rate_apply(&dY[i], S[i], Fv[i]);
        dl_inertia_apply(&Ic[i], dAdv[i], t);
        dl_add6(Fv[i], t);
        for (j = i; j < n; ++j) Mout[n * i + j] = Mout[n * j + i] = dl_dot6(S[i], Fa[j]);
        Mout[n * i + i] += m->J[i].rotor;
    }
}

/* rows of derivatives.c: dtau/dq into dq, dtau/dqd into dqd (VEC n x n each). */
static void dl_rows(rd_model *m, const double *const *const *x, dl_work *w, VEC *dq, VEC *dqd)
{
    const int n = m->n;
    VEC (*S)[6] = w->S, (*dVdq)[6] = w->dVdq, (*dAdq)[6] = w->dAdq, (*fc)[6] = w->fc;
    VEC (*Fa)[6] = w->Fa, (*Fv)[6] = w->Fv, (*Fq)[6] = w->Fq;
    dl_inertia *Ic = w->Ic;
    dl_rate *dY = w->dY;
    VEC t[6];
    int i, j, k, l;
    for (i = n - 1; i >= 0; --i) {                               /* rows */
        VEC r2[3], u[3];
        dl_rate_apply(&dY[i], dVdq[i], Fq[i]);
        dl_inertia_apply(&Ic[i], dAdq[i], t);
        dl_add6(Fq[i], t);
        for (j = i; j < n; ++j) {
            dqd[n * i + j] = dl_dot6(S[i], Fv[j]);
            dq[n * i + j] = dl_dot6(S[i], Fq[j]);
        }
        dl_crf(S[i], fc[i], t);
        dl_add6(Fq[i], t);
        dl_mtv(dY[i].T, S[i], r2);
        dl_cross(S[i] + 3, dY[i].b, u);
        for (k = 0; k < 3; ++k) r2[k] += u[k];
        for (j = 0; j < i; ++j) {
            dq[n * i + j] = dl_dot6(Fa[i], dAdq[j]) + dl_dot3(r2, dVdq[j]);
            dqd[n * i + j] = 2.0 * dl_dot6(Fa[i], dVdq[j]) + dl_dot3(r2, S[j]);
        }
        for (l = 0; l < LANES; ++l) dqd[n * i + i][l] += rd_friction_slope(m->J + i, x[l][1][i]);
    }
}

#define DL_WORK(w_, n_)                                                                    \
    VEC S_[n_][6], V_[n_][6], dVdq_[n_][6], dAdq_[n_][6], dAdv_[n_][6], fc_[n_][6];      \
    VEC Fa_[n_][6], Fv_[n_][6], Fq_[n_][6];                                                \
    dl_inertia Ic_[n_];                                                                     \
    dl_rate dY_[n_];                                                                        \
    dl_work w_ = {S_, V_, dVdq_, dAdq_, dAdv_, fc_, Fa_, Fv_, Fq_, Ic_, dY_}

static void dl_scatter(const VEC *from, int count, double *const *out, int offset)
{
    for (int l = 0; l < LANES; ++l)
        for (int k = 0; k < count; ++k) out[l][offset + k] = from[k][l];
}

/* dtau/dq, dtau/dqd, M of LANES rows: x[l] = {q, qd, qdd, f_tip or NULL}, out[l] 3 n x n. */
int FUNCTION(rd_model *m, const double *const *const *x, double *const *out)
{
    const int n = m->n, nn = n * n;
    VEC M[nn], dq[nn], dqd[nn];
    DL_WORK(w, n);
    dl_pass(m, x, 1, &w, M);
    dl_rows(m, x, &w, dq, dqd);
    dl_scatter(dq, nn, out, 0);
    dl_scatter(dqd, nn, out, nn);
    dl_scatter(M, nn, out, 2 * nn);
    return 0;
}


/* add_accelerations of derivatives.c */
static void dl_add_accelerations(rd_model *m, dl_work *w, const VEC *qdd)
{
    const int n = m->n;
    VEC da[6], below[6], t[6], Yda[n][6];
    int i, k;
    for (k = 0; k < 6; ++k) da[k] = below[k] = SPLAT(0.0);
    for (i = 0; i < n; ++i) {
        dl_crm(da, w->S[i], t);
        dl_add6(w->dAdq[i], t);
        dl_inertia_apply(&w->Ic[i], da, Yda[i]);
        for (k = 0; k < 6; ++k) da[k] += w->S[i][k] * qdd[i];
    }
    for (i = n - 1; i >= 0; --i) {
        for (k = 0; k < 6; ++k) below[k] += qdd[i] * w->Fa[i][k];
        for (k = 0; k < 6; ++k) w->fc[i][k] += Yda[i][k] + below[k];
    }
}

/* rd_cholesky of forward.c on every lane; -1 if any lane's matrix is not positive definite */
static int dl_cholesky(VEC *M, int n)
{
    for (int j = 0; j < n; ++j) {
        VEC s = M[n * j + j];
        for (int k = 0; k < j; ++k) s -= M[n * j + k] * M[n * j + k];
        for (int l = 0; l < LANES; ++l) {
            if (s[l] <= 0) return -1;
            s[l] = sqrt(s[l]);
        }
        M[n * j + j] = s;
        for (int i = j + 1; i < n; ++i) {
            VEC v = M[n * i + j];
            for (int k = 0; k < j; ++k) v -= M[n * i + k] * M[n * j + k];
            M[n * i + j] = v / s;
        }
    }
    return 0;
}

/* inverse_from_factor of derivatives.c */
static void dl_inverse_from_factor(const VEC *L, int n, VEC *Z, VEC *Minv)
{
    int i, j, k;
    for (k = 0; k < n * n; ++k) Z[k] = Minv[k] = SPLAT(0.0);
    for (i = 0; i < n; ++i) {
        VEC *z = Z + n * i;
        const VEC d = 1.0 / L[n * i + i];
        for (k = 0; k < i; ++k) {
            const VEC l = L[n * i + k], *y = Z + n * k;
            for (j = 0; j <= k; ++j) z[j] -= l * y[j];
        }
        for (j = 0; j < i; ++j) z[j] *= d;
        z[i] = d;
    }
    for (k = 0; k < n; ++k) {
        const VEC *z = Z + n * k;
        for (i = 0; i <= k; ++i) {
            VEC *row = Minv + n * i;
            for (j = 0; j <= i; ++j) row[j] += z[i] * z[j];
        }
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j) Minv[n * j + i] = Minv[n * i + j];
}

/* times_minus_inverse of derivatives.c: X <- -M^-1 X through T */
static void dl_times_minus_inverse(const VEC *Minv, int n, VEC *X, VEC *T)
{
    for (int k = 0; k < n * n; ++k) { T[k] = X[k]; X[k] = SPLAT(0.0); }
    for (int i = 0; i < n; ++i) {
        const VEC *mi = Minv + n * i;
        VEC *xr = X + n * i;
        int k = 0, c;
        for (; k + 4 <= n; k += 4) {
            const VEC a0 = mi[k], a1 = mi[k + 1], a2 = mi[k + 2], a3 = mi[k + 3];
            const VEC *t0 = T + n * k, *t1 = t0 + n, *t2 = t1 + n, *t3 = t2 + n;
            for (c = 0; c < n; ++c) xr[c] -= a0 * t0[c] + a1 * t1[c] + a2 * t2[c] + a3 * t3[c];
        }
        for (; k < n; ++k) {
            const VEC a = mi[k], *t = T + n * k;
            for (c = 0; c < n; ++c) xr[c] -= a * t[c];
        }
    }
}

/* rd_forward_derivatives of derivatives.c on LANES rows: x[l] = {q, qd, tau, f_tip or NULL},
 * out[l] = dqdd/dq, dqdd/dqd, M^-1; RD_NOT_SPD if a mass matrix is not positive definite. */
int FD_FUNCTION(rd_model *m, const double *const *const *x, double *const *out)
{
    const int n = m->n, nn = n * n;
    VEC M[nn], L[nn], dq[nn], dqd[nn], Minv[nn], qdd[n];
    DL_WORK(w, n);
    int i, k;
    dl_pass(m, x, 0, &w, M);
    for (k = 0; k < nn; ++k) L[k] = M[k];
    if (dl_cholesky(L, n) != 0) return RD_NOT_SPD;
    for (i = 0; i < n; ++i) {
        VEC v = LANE_LOAD(x, 2, i) - dl_dot6(w.S[i], w.fc[i]), f;
        for (int l = 0; l < LANES; ++l) f[l] = rd_friction(m->J + i, x[l][1][i]);
        v -= f;
        for (k = 0; k < i; ++k) v -= L[n * i + k] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {
        VEC v = qdd[i];
        for (k = i + 1; k < n; ++k) v -= L[n * k + i] * qdd[k];
        qdd[i] = v / L[n * i + i];
    }
    dl_add_accelerations(m, &w, qdd);
    dl_rows(m, x, &w, dq, dqd);
    dl_inverse_from_factor(L, n, M, Minv);                  /* M: the scratch from here on */
    dl_times_minus_inverse(Minv, n, dq, M);
    dl_times_minus_inverse(Minv, n, dqd, M);
    dl_scatter(dq, nn, out, 0);
    dl_scatter(dqd, nn, out, nn);
    dl_scatter(Minv, nn, out, 2 * nn);
    return 0;
}
