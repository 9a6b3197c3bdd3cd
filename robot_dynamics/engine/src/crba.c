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
 * Composite-rigid-body mass matrix (Walker-Orin 1982; Featherstone, RBDA 6.2) in the base
 * frame: composite inertias about the base origin, M_ij = S_j . (I^c_i S_i) for j <= i.
 */
#include <string.h>

#include "engine.h"

/* Inertia of body J, posed at (R, o), about the base origin, base-frame axes. */
void rd_world_inertia(const rd_joint *J, const double *R, const double *o, rd_inertia *In)
{
    double c[3], T[9], cc;
    int r, k;
    rd_mv(R, J->c, c);
    for (k = 0; k < 3; ++k) c[k] += o[k];
    cc = rd_dot3(c, c);
    In->m = J->m;
    for (k = 0; k < 3; ++k) In->h[k] = J->m * c[k];
    for (r = 0; r < 3; ++r)                                      /* T = R Ic */
        for (k = 0; k < 3; ++k)
            T[3 * r + k] = R[3 * r] * J->Ic[k] + R[3 * r + 1] * J->Ic[3 + k]
                           + R[3 * r + 2] * J->Ic[6 + k];
    for (r = 0; r < 3; ++r)                                      /* R Ic R^T + parallel axis */
        for (k = r; k < 3; ++k) {
            double s = T[3 * r] * R[3 * k] + T[3 * r + 1] * R[3 * k + 1]
                       + T[3 * r + 2] * R[3 * k + 2] + J->m * ((r == k) * cc - c[r] * c[k]);
            In->Ib[3 * r + k] = In->Ib[3 * k + r] = s;
        }
}

/* f = I s: n = Ib w + h x v, f = m v - h x w for s = [w; v]. */
void rd_inertia_apply(const rd_inertia *In, const double *s, double *f)
{
    double t[3], u[3];
    rd_mv(In->Ib, s, f);
    rd_cross(In->h, s + 3, t);
    rd_cross(In->h, s, u);
    for (int k = 0; k < 3; ++k) {
        f[k] += t[k];
        f[3 + k] = In->m * s[3 + k] - u[k];
    }
}

static void add_inertia(rd_inertia *to, const rd_inertia *from)
{
    to->m += from->m;
    for (int k = 0; k < 3; ++k) to->h[k] += from->h[k];
    for (int k = 0; k < 9; ++k) to->Ib[k] += from->Ib[k];
}

void rd_crba(rd_model *m, const double *q, double *M)
{
    for (int i = 0; i < m->n; ++i) rd_place(m->J + i, q[i], &m->w.X[i]);
    rd_crba_placed(m, M);
}

void rd_crba_placed(rd_model *m, double *M)
{
    const int n = m->n;
    rd_work *w = &m->w;
    double F[6];
    int i, j;
    rd_world_placed(m);
    for (i = 0; i < n; ++i) rd_world_inertia(m->J + i, w->R[i], w->o[i], &w->Ic[i]);
    for (i = n - 1; i > 0; --i) add_inertia(&w->Ic[i - 1], &w->Ic[i]);
    for (i = 0; i < n; ++i) {
        rd_inertia_apply(&w->Ic[i], w->S[i], F);
        for (j = 0; j <= i; ++j) M[n * i + j] = M[n * j + i] = rd_dot6(w->S[j], F);
        M[n * i + i] += m->J[i].rotor;
    }
}
