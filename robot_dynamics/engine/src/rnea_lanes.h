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
 * The Newton-Euler recursion of rnea.c on LANES states at once, written once for GCC vector
 * types and included by rnea_pair.c (two lanes) and rnea_quad.c (four, AVX2). The arithmetic
 * is rnea.c's, operation for operation, lane by lane. Define LANES, VEC (LANES doubles), SPLAT
 * (a double in every lane), IVEC (LANES 64-bit integers) and FUNCTION first.
 */
#define LANE_LOAD(x_, k_, i_) lane_load(x_, k_, i_)

static inline VEC lane_load(const double *const *const *x, int k, int i)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = x[l][k][i];
    return out;
}

static inline void vcross(const VEC *a, const VEC *b, VEC *o)
{
    VEC x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void vcross_vc(const VEC *a, const double *b, VEC *o)     /* b constant */
{
    VEC x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void vcross_cv(const double *a, const VEC *b, VEC *o)     /* a constant */
{
    VEC x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void vmv(const VEC *R, const VEC *v, VEC *o)              /* o = R v */
{
    VEC x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    VEC y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void vmtv(const VEC *R, const VEC *v, VEC *o)             /* o = R^T v */
{
    VEC x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    VEC y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    o[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void vmcv(const double *M, const VEC *v, VEC *o)         /* o = M v, M constant */
{
    VEC x = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
    VEC y = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
    o[2] = M[6] * v[0] + M[7] * v[1] + M[8] * v[2]; o[0] = x; o[1] = y;
}

#include "trig_lanes.h"        /* vsin_versine: trig.h on every lane */

typedef struct { VEC R[9], p[3]; } vplacement;

static void vplace(const rd_joint *J, VEC q, vplacement *X)
{
    int k;
    if (J->type == RD_REVOLUTE) {
        VEC s, v;
        vsin_versine(q, &s, &v);
        for (k = 0; k < 9; ++k) X->R[k] = J->Rt[k] + s * J->RtK[k] + v * J->RtK2[k];
        for (k = 0; k < 3; ++k) X->p[k] = SPLAT(J->pt[k]);
    } else {
        for (k = 0; k < 9; ++k) X->R[k] = SPLAT(J->Rt[k]);
        for (k = 0; k < 3; ++k) X->p[k] = J->pt[k] + J->Rta[k] * q;
    }
}

/* tau of LANES rows: x[l] = {q, qd, qdd, f_tip or NULL} of row l, tau[l] its output. */
int FUNCTION(rd_model *m, const double *const *const *x, double *const *tau_out)
{
    const int n = m->n;
    vplacement X[n > 0 ? n : 1];
    VEC F[n > 0 ? n : 1][3], Nm[n > 0 ? n : 1][3];
    VEC w[3], dw[3], dv[3], t[3], u[3], f[3], nm[3];
    int i, k;
    for (k = 0; k < 3; ++k) {
        w[k] = dw[k] = SPLAT(0.0);
        dv[k] = SPLAT(-m->g[k]);                                            /* a0 = -g */
    }
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        const double *z = J->axis, *c = J->c;
        VEC q = LANE_LOAD(x, 0, i), qd = LANE_LOAD(x, 1, i), qdd = LANE_LOAD(x, 2, i);
        VEC Iw[3];
        vplace(J, q, &X[i]);
        vcross(dw, X[i].p, t); vcross(w, X[i].p, u); vcross(w, u, u);
        for (k = 0; k < 3; ++k) t[k] += dv[k] + u[k];
        vmtv(X[i].R, t, dv); vmtv(X[i].R, w, w); vmtv(X[i].R, dw, dw);       /* 6.47 */
        vcross_vc(w, z, u);
        if (J->type == RD_REVOLUTE) {
            for (k = 0; k < 3; ++k) dw[k] += qd * u[k] + qdd * z[k];            /* 6.46 */
            for (k = 0; k < 3; ++k) w[k] += qd * z[k];                           /* 6.45 */
        } else {
            for (k = 0; k < 3; ++k) dv[k] += 2.0 * qd * u[k] + qdd * z[k];
        }
        vcross_vc(dw, c, t); vcross_vc(w, c, u); vcross(w, u, u);
        for (k = 0; k < 3; ++k) F[i][k] = J->m * (t[k] + u[k] + dv[k]);          /* 6.48-49 */
        vmcv(J->Ic, w, Iw); vcross(w, Iw, u); vmcv(J->Ic, dw, t);
        for (k = 0; k < 3; ++k) Nm[i][k] = t[k] + u[k];                          /* 6.50 */
    }
    for (k = 0; k < 3; ++k) f[k] = nm[k] = SPLAT(0.0);
    if (x[0][3] != NULL) {                         /* tool wrench, as rnea.c's tip_wrench */
        VEC ft[3] = {LANE_LOAD(x, 3, 0), LANE_LOAD(x, 3, 1), LANE_LOAD(x, 3, 2)};
        VEC nt[3] = {LANE_LOAD(x, 3, 3), LANE_LOAD(x, 3, 4), LANE_LOAD(x, 3, 5)};
        vmcv(m->tipR, ft, f); vmcv(m->tipR, nt, nm);
        vcross_cv(m->tipp, f, t);
        for (k = 0; k < 3; ++k) nm[k] += t[k];
    }
    for (i = n - 1; i >= 0; --i) {
        const rd_joint *J = m->J + i;
        VEC qd = LANE_LOAD(x, 1, i), qdd = LANE_LOAD(x, 2, i), tau, sign;
        if (i + 1 < n) {
            vmv(X[i + 1].R, f, f); vmv(X[i + 1].R, nm, nm);
            vcross(X[i + 1].p, f, t);
            for (k = 0; k < 3; ++k) nm[k] += t[k];
        }
        vcross_cv(J->c, F[i], t);
        for (k = 0; k < 3; ++k) { nm[k] += Nm[i][k] + t[k]; f[k] += F[i][k]; }   /* 6.51-52 */
        {
            const VEC *e = J->type == RD_REVOLUTE ? nm : f;
            tau = J->axis[0] * e[0] + J->axis[1] * e[1] + J->axis[2] * e[2];       /* 6.53 */
        }
        if (J->rich) {
            for (int l = 0; l < LANES; ++l) sign[l] = rd_friction(J, qd[l]);
            tau += J->rotor * qdd + sign;                  /* sign holds the whole friction */
        } else {
            for (int l = 0; l < LANES; ++l) sign[l] = rd_sign(qd[l]);
            tau += J->rotor * qdd + J->fv * qd + J->fc * sign;
        }
        for (int l = 0; l < LANES; ++l) tau_out[l][i] = tau[l];
    }
    return 0;
}

