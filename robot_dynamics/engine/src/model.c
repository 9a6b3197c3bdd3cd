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
 * The engine's model: unpacked once from the flat array robot_dynamics.engine.pack() builds,
 * per-joint constants precomputed (Rodrigues terms, inertia about the origin), one workspace.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define HEADER RD_HEADER
#define STRIDE RD_JOINT_STRIDE

static void skew(const double *a, double *K)
{
    K[0] = 0; K[1] = -a[2]; K[2] = a[1];
    K[3] = a[2]; K[4] = 0; K[5] = -a[0];
    K[6] = -a[1]; K[7] = a[0]; K[8] = 0;
}

/* Ic = Ia 1 + u0 u0^T + u1 u1^T: Ia the least eigenvalue, u_k = sqrt(l_k - Ia) e_k for the
 * other two eigenpairs (cyclic Jacobi rotations on the symmetric 3 x 3 matrix). */
static void inertia_rank2(const double *Ic, double *Ia, double (*u)[3])
{
    double A[9], V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int sweep, p, q, r, low = 0, k;
    memcpy(A, Ic, sizeof A);
    for (sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
        if (off == 0.0) break;
        for (p = 0; p < 2; ++p)
            for (q = p + 1; q < 3; ++q) {
                double apq = A[3 * p + q], theta, t, c, s;
                if (apq == 0.0) continue;
                theta = (A[3 * q + q] - A[3 * p + p]) / (2.0 * apq);
                t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                c = 1.0 / sqrt(t * t + 1.0);
                s = t * c;
                for (r = 0; r < 3; ++r) {          /* A <- A G, V <- V G (columns p, q) */
                    double arp = A[3 * r + p], arq = A[3 * r + q];
                    double vrp = V[3 * r + p], vrq = V[3 * r + q];
                    A[3 * r + p] = c * arp - s * arq; A[3 * r + q] = s * arp + c * arq;
                    V[3 * r + p] = c * vrp - s * vrq; V[3 * r + q] = s * vrp + c * vrq;
                }
                for (r = 0; r < 3; ++r) {          /* A <- G^T A (rows p, q) */
                    double apr = A[3 * p + r], aqr = A[3 * q + r];
                    A[3 * p + r] = c * apr - s * aqr; A[3 * q + r] = s * apr + c * aqr;
                }
                A[3 * p + q] = A[3 * q + p] = 0.0;       /* what the rotation annihilates */
            }
    }
    for (r = 1; r < 3; ++r)
        if (A[4 * r] < A[4 * low]) low = r;
    *Ia = A[4 * low];
    for (r = 0, k = 0; r < 3; ++r) {
        double d;
        if (r == low) continue;
        d = sqrt(fmax(A[4 * r] - *Ia, 0.0));
        for (p = 0; p < 3; ++p) u[k][p] = d * V[3 * p + r];
        ++k;
    }
}

static void unpack_joint(const double *P, rd_joint *J)
{
    double K[9], K2[9];
    double cc;
    int r, c;
    J->type = P[0] == 0.0 ? RD_REVOLUTE : RD_PRISMATIC;
    memcpy(J->axis, P + 1, sizeof J->axis);
    memcpy(J->Rt, P + 4, sizeof J->Rt);
    memcpy(J->pt, P + 13, sizeof J->pt);
    J->m = P[16];
    memcpy(J->c, P + 17, sizeof J->c);
    memcpy(J->Ic, P + 20, sizeof J->Ic);
    J->rotor = P[29]; J->fv = P[30]; J->fc = P[31];
    J->f0 = P[32]; J->fa = P[33]; J->eps = P[34]; J->fs = P[35]; J->vs = P[36];
    J->rich = J->f0 != 0 || J->fa != 0 || J->eps != 0 || J->fs != 0;
    J->unit_axis = -1;
    for (r = 0; r < 3; ++r)
        if (J->axis[r] == 1.0 && J->axis[(r + 1) % 3] == 0.0 && J->axis[(r + 2) % 3] == 0.0)
            J->unit_axis = r;
    skew(J->axis, K);
    rd_mm(K, K, K2);
    rd_mm(J->Rt, K, J->RtK);
    rd_mm(J->Rt, K2, J->RtK2);
    rd_mv(J->Rt, J->axis, J->Rta);
    inertia_rank2(J->Ic, &J->Ia, J->Iu);
    cc = rd_dot3(J->c, J->c);
    for (r = 0; r < 3; ++r) {
        J->h[r] = J->m * J->c[r];
        for (c = 0; c < 3; ++c)
            J->Io[3 * r + c] = J->Ic[3 * r + c] + J->m * ((r == c) * cc - J->c[r] * J->c[c]);
    }
}

/* Carve the workspace out of one block (doubles only, so alignment holds). */
static int allocate(rd_model *m)
{
    size_t n = (size_t)m->n, total;
    double *p;
    rd_work *w = &m->w;
    total = n * (sizeof(rd_placement) / sizeof(double)) + 6 * n + 12 * n + 6 * n
            + 2 * n * (sizeof(rd_inertia) / sizeof(double)) + 18 * n
            + 2 * n * n + 2 * n + 6 * n + 6 * n
            + 36 * n + 18 * n + 6 * n + 2 * n + 12 * n
            + 7 * 6 * n + 12 * n + n + n * n;
    m->block = calloc(total, sizeof(double));
    if (m->block == NULL) return -1;
    p = (double *)m->block;
#define TAKE(field, type, count) do { w->field = (type)p; p += (count); } while (0)
    TAKE(X, rd_placement *, n * (sizeof(rd_placement) / sizeof(double)));
    TAKE(F, double (*)[3], 3 * n);
    TAKE(N, double (*)[3], 3 * n);
    TAKE(R, double (*)[9], 9 * n);
    TAKE(o, double (*)[3], 3 * n);
    TAKE(S, double (*)[6], 6 * n);
    TAKE(Ic, rd_inertia *, n * (sizeof(rd_inertia) / sizeof(double)));
    TAKE(Id, rd_inertia *, n * (sizeof(rd_inertia) / sizeof(double)));
    TAKE(v, double (*)[6], 6 * n);
    TAKE(a, double (*)[6], 6 * n);
    TAKE(hc, double (*)[6], 6 * n);
    TAKE(M, double *, n * n);
    TAKE(Mh, double *, n * n);
    TAKE(b, double *, n);
    TAKE(zero, double *, n);
    TAKE(tmp, double *, 6 * n);
    TAKE(IA, double (*)[36], 36 * n);
    TAKE(pA, double (*)[6], 6 * n);
    TAKE(cb, double (*)[6], 6 * n);
    TAKE(U, double (*)[6], 6 * n);
    TAKE(D, double *, n);
    TAKE(u, double *, n);
    TAKE(sim, double *, 12 * n);
    TAKE(dVdq, double (*)[6], 6 * n);
    TAKE(dAdq, double (*)[6], 6 * n);
    TAKE(dAdv, double (*)[6], 6 * n);
    TAKE(Fa, double (*)[6], 6 * n);
    TAKE(Fv, double (*)[6], 6 * n);
    TAKE(Fq, double (*)[6], 6 * n);
    TAKE(fc, double (*)[6], 6 * n);
    TAKE(dY, rd_rate *, 12 * n);
    TAKE(qdd, double *, n);
    TAKE(Z, double *, n * n);
#undef TAKE
    (void)p;
    return 0;
}

int rd_model_init(rd_model *m, const double *packed, int n)
{
    int i;
    memset(m, 0, sizeof *m);
    m->n = n;
    memcpy(m->g, packed + 1, sizeof m->g);
    memcpy(m->tipR, packed + 4, sizeof m->tipR);
    memcpy(m->tipp, packed + 13, sizeof m->tipp);
    m->J = (rd_joint *)calloc((size_t)n, sizeof(rd_joint));
    m->owns_joints = 1;
    if (m->J == NULL || allocate(m) != 0) {
        rd_model_free(m);
        return -1;
    }
    for (i = 0; i < n; ++i) unpack_joint(packed + HEADER + STRIDE * i, &m->J[i]);
    return 0;
}

int rd_model_fork(const rd_model *m, rd_model *fork)
{
    *fork = *m;
    fork->owns_joints = 0;
    memset(&fork->w, 0, sizeof fork->w);
    fork->block = NULL;
    return allocate(fork);
}

void rd_model_free(rd_model *m)
{
    if (m->owns_joints) free(m->J);
    free(m->block);
    m->J = NULL;
    m->block = NULL;
}
