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

/* dtau/dq, dtau/dqd, M of LANES rows: x[l] = {q, qd, qdd, f_tip or NULL}, out[l] 3 n x n. */
int FUNCTION(rd_model *m, const double *const *const *x, double *const *out)
{
    const int n = m->n, nn = n * n;
    VEC S[n][6], V[n][6], dVdq[n][6], dAdq[n][6], dAdv[n][6], fc[n][6], Fa[n][6], Fv[n][6];
    VEC Fq[n][6];
    dl_inertia Ic[n];
    dl_rate dY[n];
    VEC R[9], o[3], vp[6], ap[6], t[6];
    int i, j, k, l;
    for (k = 0; k < 9; ++k) R[k] = SPLAT((double)(k % 4 == 0));
    for (k = 0; k < 3; ++k) o[k] = SPLAT(0.0);
    for (k = 0; k < 6; ++k) vp[k] = ap[k] = SPLAT(0.0);
    for (k = 0; k < 3; ++k) ap[3 + k] = SPLAT(-m->g[k]);
    for (i = 0; i < n; ++i) {                                   /* rd_world + forward_pass */
        const rd_joint *J = m->J + i;
        VEC Xr[9], Xp[3], Ri[9], z[3], a[6], h[6], f[6];
        VEC q = LANE_LOAD(x, 0, i), qd = LANE_LOAD(x, 1, i), qdd = LANE_LOAD(x, 2, i);
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
        for (j = i; j < n; ++j) {
            VEC e = dl_dot6(S[i], Fa[j]);
            if (j == i) e += m->J[i].rotor;
            for (l = 0; l < LANES; ++l)
                out[l][2 * nn + n * i + j] = out[l][2 * nn + n * j + i] = e[l];
        }
    }
    for (i = n - 1; i >= 0; --i) {                               /* rows */
        VEC r2[3], u[3];
        dl_rate_apply(&dY[i], dVdq[i], Fq[i]);
        dl_inertia_apply(&Ic[i], dAdq[i], t);
        dl_add6(Fq[i], t);
        for (j = i; j < n; ++j) {
            VEC ev = dl_dot6(S[i], Fv[j]), eq = dl_dot6(S[i], Fq[j]);
            if (j == i)
                for (l = 0; l < LANES; ++l) ev[l] += rd_friction_slope(m->J + i, x[l][1][i]);
            for (l = 0; l < LANES; ++l) {
                out[l][nn + n * i + j] = ev[l];
                out[l][n * i + j] = eq[l];
            }
        }
        dl_crf(S[i], fc[i], t);
        dl_add6(Fq[i], t);
        dl_mtv(dY[i].T, S[i], r2);
        dl_cross(S[i] + 3, dY[i].b, u);
        for (k = 0; k < 3; ++k) r2[k] += u[k];
        for (j = 0; j < i; ++j) {
            VEC eq = dl_dot6(Fa[i], dAdq[j]) + dl_dot3(r2, dVdq[j]);
            VEC ev = 2.0 * dl_dot6(Fa[i], dVdq[j]) + dl_dot3(r2, S[j]);
            for (l = 0; l < LANES; ++l) {
                out[l][n * i + j] = eq[l];
                out[l][nn + n * i + j] = ev[l];
            }
        }
    }
    return 0;
}
