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
 * and a Cholesky solve below ABA_FROM joints, by Featherstone's articulated-body algorithm
 * (RBDA Table 7.1) from there on (both measured; ABA is O(n), CRBA + Cholesky O(n^3) but with
 * smaller constants).
 */
#include <math.h>
#include <string.h>

#include "engine.h"

#define ABA_FROM 9

int rd_forward(rd_model *m, const double *q, const double *qd, const double *tau,
               const double *f_tip, double *qdd)
{
    return (m->n >= ABA_FROM ? rd_aba : rd_crba_forward)(m, q, qd, tau, f_tip, qdd);
}

/* Cholesky M = L L^T in place (lower triangle); -1 if M is not positive definite. */
int rd_cholesky(double *M, int n)
{
    for (int j = 0; j < n; ++j) {
        double s = M[n * j + j];
        for (int k = 0; k < j; ++k) s -= M[n * j + k] * M[n * j + k];
        if (s <= 0) return -1;         /* NaN (overflow) passes on, for the callers to see */
        s = sqrt(s);
        M[n * j + j] = s;
        for (int i = j + 1; i < n; ++i) {
            double v = M[n * i + j];
            for (int k = 0; k < j; ++k) v -= M[n * i + k] * M[n * j + k];
            M[n * i + j] = v / s;
        }
    }
    return 0;
}

/* x = (L L^T)^-1 x: forward then backward substitution */
void rd_cholesky_solve(const double *L, int n, double *x)
{
    int i, k;
    for (i = 0; i < n; ++i) {
        double v = x[i];
        for (k = 0; k < i; ++k) v -= L[n * i + k] * x[k];
        x[i] = v / L[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {
        double v = x[i];
        for (k = i + 1; k < n; ++k) v -= L[n * k + i] * x[k];
        x[i] = v / L[n * i + i];
    }
}

int rd_crba_forward(rd_model *m, const double *q, const double *qd, const double *tau,
                    const double *f_tip, double *qdd)
{
    const int n = m->n;
    double *M = m->w.M, *b = m->w.b;
    int i, k;
    memset(m->w.zero, 0, sizeof(double) * (size_t)n);
    rd_rnea(m, q, qd, m->w.zero, 1, 1, f_tip, b);
    rd_crba_placed(m, M);                  /* the placements the Newton-Euler pass computed */
    if (rd_cholesky(M, n) != 0) return -1;
    for (i = 0; i < n; ++i) {
        double v = tau[i] - b[i];
        for (k = 0; k < i; ++k) v -= M[n * i + k] * qdd[k];
        qdd[i] = v / M[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {
        double v = qdd[i];
        for (k = i + 1; k < n; ++k) v -= M[n * k + i] * qdd[k];
        qdd[i] = v / M[n * i + i];
    }
    return 0;
}

/* ---- articulated-body algorithm: spatial vectors in body frames (spatial.h), 6x6 row-major ---- */
static void mat6_vec(const double *A, const double *x, double *o)
{
    for (int r = 0; r < 6; ++r) {
        double s = 0;
        for (int c = 0; c < 6; ++c) s += A[6 * r + c] * x[c];
        o[r] = s;
    }
}

static void rotate3(const double *R, const double *M, double *o)   /* o = R M R^T (3x3) */
{
    double T[9];
    rd_mm(R, M, T);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            o[3 * r + c] = T[3 * r] * R[3 * c] + T[3 * r + 1] * R[3 * c + 1]
                           + T[3 * r + 2] * R[3 * c + 2];
}

/* out += X^T I X for a spatial inertia I (child frame), X = (R, p): with blocks
 * I = [[A, B], [B^T, C]] rotated into the parent (A' = R A R^T, ...) and P = [p x]:
 * C'' = C', B'' = B' + P C', A'' = A' - B' P + P B'^T - P C' P. */
static void congruence(const rd_placement *X, const double *In, double *out)
{
    double A[9], B[9], C[9], Ar[9], Br[9], Cr[9], PC[9], BP[9], PCP[9];
    const double *p = X->p;
    double Px[9] = {0, -p[2], p[1], p[2], 0, -p[0], -p[1], p[0], 0};
    int r, c;
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            A[3 * r + c] = In[6 * r + c];
            B[3 * r + c] = In[6 * r + c + 3];
            C[3 * r + c] = In[6 * (r + 3) + c + 3];
        }
    rotate3(X->R, A, Ar); rotate3(X->R, B, Br); rotate3(X->R, C, Cr);
    rd_mm(Px, Cr, PC); rd_mm(Br, Px, BP); rd_mm(PC, Px, PCP);
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            double b = Br[3 * r + c] + PC[3 * r + c];
            double a = Ar[3 * r + c] - BP[3 * r + c] - BP[3 * c + r] - PCP[3 * r + c];
            out[6 * r + c] += a;                     /* P B'^T = -(B' P)^T since P^T = -P */
            out[6 * r + c + 3] += b;
            out[6 * (c + 3) + r] += b;
            out[6 * (r + 3) + c + 3] += Cr[3 * r + c];
        }
}

/* 6x6 spatial inertia of body J about its frame origin (n = Io w + h x v, f = m v - h x w). */
static void body_inertia(const rd_joint *J, double *Ib)
{
    const double *h = J->h;
    double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            Ib[6 * r + c] = J->Io[3 * r + c];
            Ib[6 * r + c + 3] = hx[3 * r + c];
            Ib[6 * (r + 3) + c] = -hx[3 * r + c];
            Ib[6 * (r + 3) + c + 3] = J->m * (r == c);
        }
}

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
        body_inertia(J, IA[i]);
        mat6_vec(IA[i], v, Iv);
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
        mat6_vec(Ia, cb[i], Iac);
        for (r = 0; r < 6; ++r) pa[r] = pA[i][r] + Iac[r] + U[i][r] * u[i] / D[i];
        rd_force_to_parent(&X[i], pa, out);
        for (r = 0; r < 6; ++r) pA[i - 1][r] += out[r];
        congruence(&X[i], Ia, IA[i - 1]);                        /* IA_parent += X^T Ia X */
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
