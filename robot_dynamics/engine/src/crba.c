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
    rd_inertia_placed(J->m, J->c, J->Ic, R, o, In);
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
    for (i = n - 1; i > 0; --i) rd_inertia_add(&w->Ic[i - 1], &w->Ic[i]);
    for (i = 0; i < n; ++i) {
        rd_inertia_apply(&w->Ic[i], w->S[i], F);
        for (j = 0; j <= i; ++j) M[n * i + j] = M[n * j + i] = rd_dot6(w->S[j], F);
        M[n * i + i] += m->J[i].rotor;
    }
}
