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
 * Forward dynamics qdd = M^-1 (tau - V - G - F - J^T f_tip) (Craig 6.115): by the mass matrix
 * and a Cholesky solve below RD_ABA_FROM joints, by Featherstone's articulated-body algorithm
 * (RBDA Table 7.1) from there on (both measured; ABA is O(n), CRBA + Cholesky O(n^3) but with
 * smaller constants).
 */
#include <math.h>
#include <string.h>

#define RD_LANES 1
#include "lanes.h"
#include "cholesky_body.h"


int rd_forward(rd_model *m, const double *q, const double *qd, const double *tau,
               const double *f_tip, double *qdd)
{
    return (m->n >= RD_ABA_FROM ? rd_aba : rd_crba_forward)(m, q, qd, tau, f_tip, qdd);
}

/* Cholesky M = L L^T (cholesky_body.h) on doubles, with an AVX2 clone. */
RD_WIDE int rd_cholesky(double *M, int n)
{
    return rd_cholesky_factor(M, n);
}

/* x = (L L^T)^-1 x: forward then backward substitution (cholesky_body.h) */
void rd_cholesky_solve(const double *L, int n, double *x)
{
    rd_cholesky_substitute(L, n, x);
}

int rd_crba_forward(rd_model *m, const double *q, const double *qd, const double *tau,
                    const double *f_tip, double *qdd)
{
    const int n = m->n;
    double *M = m->w.M, *b = m->w.b;
    memset(m->w.zero, 0, sizeof(double) * (size_t)n);
    rd_rnea(m, q, qd, m->w.zero, 1, 1, f_tip, b);
    rd_crba_placed(m, M);                  /* the placements the Newton-Euler pass computed */
    if (rd_cholesky(M, n) != 0) return -1;
    for (int i = 0; i < n; ++i) qdd[i] = tau[i] - b[i];
    rd_cholesky_solve(M, n, qdd);          /* the same operations in the same order */
    return 0;
}

/* ---- articulated-body algorithm: body-frame spatial vectors (spatial.h) ---- */
int rd_aba(rd_model *m, const double *q, const double *qd, const double *tau,
           const double *f_tip, double *qdd)
{
    const int n = m->n;
    rd_work *w = &m->w;
    rd_placement *X = w->X;
    double (*IA)[36] = w->IA, (*pA)[6] = w->pA, (*cb)[6] = w->cb, (*U)[6] = w->U;
    double *D = w->D, *u = w->u;
    double v[6] = {0, 0, 0, 0, 0, 0}, a[6];
    int i, k, r, c;
    for (i = 0; i < n; ++i) {                                     /* pass 1: velocities */
        const rd_joint *J = m->J + i;
        double vJ[6] = {0, 0, 0, 0, 0, 0}, vp[6], Iv[6];
        rd_place(J, q[i], &X[i]);
        rd_motion_to_child(&X[i], v, vp);
        for (k = 0; k < 3; ++k) vJ[(J->type == RD_REVOLUTE ? 0 : 3) + k] = J->axis[k] * qd[i];
        for (k = 0; k < 6; ++k) v[k] = vp[k] + vJ[k];
        rd_crm(v, vJ, cb[i]);
        rd_inertia6(J->m, J->h, J->Io, IA[i]);
        rd_mat6_apply(IA[i], v, Iv);
        rd_crf(v, Iv, pA[i]);
    }
    if (f_tip != NULL) {               /* the tool pushes on the environment: reaction on it */
        const double wrench[6] = {f_tip[3], f_tip[4], f_tip[5], f_tip[0], f_tip[1], f_tip[2]};
        rd_placement tool;
        double fn[6];
        rd_placement_of(m->tipR, m->tipp, &tool);
        rd_force_to_parent(&tool, wrench, fn);                  /* (n; f) about the origin */
        rd_add6(pA[n - 1], fn);
    }
    for (i = n - 1; i >= 0; --i) {                                /* pass 2: inertias */
        const rd_joint *J = m->J + i;
        const double *z = J->axis;
        int off = J->type == RD_REVOLUTE ? 0 : 3;
        double Ia[36], pa[6], Iac[6], out[6];
        for (r = 0; r < 6; ++r)
            U[i][r] = IA[i][6 * r + off] * z[0] + IA[i][6 * r + off + 1] * z[1]
                      + IA[i][6 * r + off + 2] * z[2];
        D[i] = z[0] * U[i][off] + z[1] * U[i][off + 1] + z[2] * U[i][off + 2] + J->rotor;
        u[i] = tau[i] - rd_friction(J, qd[i])
               - (z[0] * pA[i][off] + z[1] * pA[i][off + 1] + z[2] * pA[i][off + 2]);
        if (D[i] <= 0) return -1;
        if (i == 0) break;
        for (r = 0; r < 6; ++r)
            for (c = 0; c < 6; ++c)
                Ia[6 * r + c] = IA[i][6 * r + c] - U[i][r] * U[i][c] / D[i];
        rd_mat6_apply(Ia, cb[i], Iac);
        for (r = 0; r < 6; ++r) pa[r] = pA[i][r] + Iac[r] + U[i][r] * u[i] / D[i];
        rd_force_to_parent(&X[i], pa, out);
        for (r = 0; r < 6; ++r) pA[i - 1][r] += out[r];
        rd_inertia6_to_parent(&X[i], Ia, IA[i - 1]);     /* IA_parent += X^T Ia X */
    }
    a[0] = a[1] = a[2] = 0.0;
    for (k = 0; k < 3; ++k) a[3 + k] = -m->g[k];                 /* a0 = -g */
    for (i = 0; i < n; ++i) {                                     /* pass 3: accelerations */
        const rd_joint *J = m->J + i;
        int off = J->type == RD_REVOLUTE ? 0 : 3;
        double ap[6], Ua = 0;
        rd_motion_to_child(&X[i], a, ap);
        for (k = 0; k < 6; ++k) { ap[k] += cb[i][k]; Ua += U[i][k] * ap[k]; }
        qdd[i] = (u[i] - Ua) / D[i];
        for (k = 0; k < 6; ++k) a[k] = ap[k];
        for (k = 0; k < 3; ++k) a[off + k] += J->axis[k] * qdd[i];
    }
    return 0;
}
