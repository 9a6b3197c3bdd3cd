/* Copyright 2026 robot_dynamics contributors
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 *
 * The Newton-Euler recursion of rnea.c on two states at once (GCC vector extensions: two-lane
 * doubles, SSE2 on x86-64, NEON on aarch64): a batch runs its rows in pairs. The arithmetic is
 * rnea.c's, operation for operation, lane by lane.
 */
#include <math.h>

#include "engine.h"

#if defined(__GNUC__)

typedef double v2 __attribute__((vector_size(16)));

static inline v2 splat(double x) { return (v2){x, x}; }

static inline void cross2(const v2 *a, const v2 *b, v2 *o)
{
    v2 x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void cross2c(const v2 *a, const double *b, v2 *o)     /* b constant */
{
    v2 x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void crossc2(const double *a, const v2 *b, v2 *o)     /* a constant */
{
    v2 x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static inline void mv2(const v2 *R, const v2 *v, v2 *o)              /* o = R v */
{
    v2 x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    v2 y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void mtv2(const v2 *R, const v2 *v, v2 *o)             /* o = R^T v */
{
    v2 x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    v2 y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    o[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static inline void mcv2(const double *M, const v2 *v, v2 *o)         /* o = M v, M constant */
{
    v2 x = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
    v2 y = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
    o[2] = M[6] * v[0] + M[7] * v[1] + M[8] * v[2]; o[0] = x; o[1] = y;
}

typedef struct { v2 R[9], p[3]; } placement2;

static void place2(const rd_joint *J, v2 q, placement2 *X)
{
    int k;
    if (J->type == RD_REVOLUTE) {
        double s0 = sin(q[0]), c0 = cos(q[0]), s1 = sin(q[1]), c1 = cos(q[1]);
        v2 s = {s0, s1}, v = {1.0 - c0, 1.0 - c1};
        for (k = 0; k < 9; ++k) X->R[k] = J->Rt[k] + s * J->RtK[k] + v * J->RtK2[k];
        for (k = 0; k < 3; ++k) X->p[k] = splat(J->pt[k]);
    } else {
        for (k = 0; k < 9; ++k) X->R[k] = splat(J->Rt[k]);
        for (k = 0; k < 3; ++k) X->p[k] = J->pt[k] + J->Rta[k] * q;
    }
}

/* tau for rows a and b (q, qd, qdd: each row n doubles; f_tip rows of 6 or NULL). */
int rd_rnea_pair(rd_model *m, const double *const *qa, const double *const *qb, double *ta,
                 double *tb)
{
    const int n = m->n;
    placement2 X[n > 0 ? n : 1];
    v2 F[n > 0 ? n : 1][3], Nm[n > 0 ? n : 1][3];
    v2 w[3], dw[3], dv[3], t[3], u[3], f[3], nm[3];
    int i, k;
    for (k = 0; k < 3; ++k) {
        w[k] = dw[k] = splat(0.0);
        dv[k] = splat(-m->g[k]);                                            /* a0 = -g */
    }
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        const double *z = J->axis, *c = J->c;
        v2 q = {qa[0][i], qb[0][i]}, qd = {qa[1][i], qb[1][i]}, qdd = {qa[2][i], qb[2][i]};
        v2 Iw[3];
        place2(J, q, &X[i]);
        cross2(dw, X[i].p, t); cross2(w, X[i].p, u); cross2(w, u, u);
        for (k = 0; k < 3; ++k) t[k] += dv[k] + u[k];
        mtv2(X[i].R, t, dv); mtv2(X[i].R, w, w); mtv2(X[i].R, dw, dw);       /* 6.47 */
        cross2c(w, z, u);
        if (J->type == RD_REVOLUTE) {
            for (k = 0; k < 3; ++k) dw[k] += qd * u[k] + qdd * z[k];            /* 6.46 */
            for (k = 0; k < 3; ++k) w[k] += qd * z[k];                           /* 6.45 */
        } else {
            for (k = 0; k < 3; ++k) dv[k] += 2.0 * qd * u[k] + qdd * z[k];
        }
        cross2c(dw, c, t); cross2c(w, c, u); cross2(w, u, u);
        for (k = 0; k < 3; ++k) F[i][k] = J->m * (t[k] + u[k] + dv[k]);          /* 6.48-49 */
        mcv2(J->Ic, w, Iw); cross2(w, Iw, u); mcv2(J->Ic, dw, t);
        for (k = 0; k < 3; ++k) Nm[i][k] = t[k] + u[k];                          /* 6.50 */
    }
    for (k = 0; k < 3; ++k) f[k] = nm[k] = splat(0.0);
    if (qa[3] != NULL) {                             /* tool wrench, as rnea.c's tip_wrench */
        v2 ft[3] = {{qa[3][0], qb[3][0]}, {qa[3][1], qb[3][1]}, {qa[3][2], qb[3][2]}};
        v2 nt[3] = {{qa[3][3], qb[3][3]}, {qa[3][4], qb[3][4]}, {qa[3][5], qb[3][5]}};
        mcv2(m->tipR, ft, f); mcv2(m->tipR, nt, nm);
        crossc2(m->tipp, f, t);
        for (k = 0; k < 3; ++k) nm[k] += t[k];
    }
    for (i = n - 1; i >= 0; --i) {
        const rd_joint *J = m->J + i;
        v2 qd = {qa[1][i], qb[1][i]}, qdd = {qa[2][i], qb[2][i]}, tau;
        if (i + 1 < n) {
            mv2(X[i + 1].R, f, f); mv2(X[i + 1].R, nm, nm);
            cross2(X[i + 1].p, f, t);
            for (k = 0; k < 3; ++k) nm[k] += t[k];
        }
        crossc2(J->c, F[i], t);
        for (k = 0; k < 3; ++k) { nm[k] += Nm[i][k] + t[k]; f[k] += F[i][k]; }   /* 6.51-52 */
        {
            const v2 *e = J->type == RD_REVOLUTE ? nm : f;
            tau = J->axis[0] * e[0] + J->axis[1] * e[1] + J->axis[2] * e[2];       /* 6.53 */
        }
        tau += J->rotor * qdd + J->fv * qd
               + J->fc * (v2){rd_sign(qd[0]), rd_sign(qd[1])};
        ta[i] = tau[0];
        tb[i] = tau[1];
    }
    return 0;
}

#else

int rd_rnea_pair(rd_model *m, const double *const *qa, const double *const *qb, double *ta,
                 double *tb)
{
    rd_rnea(m, qa[0], qa[1], qa[2], 1, 1, qa[3], ta);
    rd_rnea(m, qb[0], qb[1], qb[2], 1, 1, qb[3], tb);
    return 0;
}

#endif
