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
 * The mass matrix of one state: crba_body.h on doubles, in the model's workspace (placements
 * w.X, motion subspaces w.S, composite inertias w.Ic).
 */
#define RD_LANES 1
#include "lanes.h"
#include "crba_body.h"

/* Inertia of body J, posed at (R, o), about the base origin, base-frame axes. */
void rd_world_inertia(const rd_joint *J, const double *R, const double *o, rd_inertia *In)
{
    rd_inertia_placed(J->m, J->c, J->Ic, R, o, In);
}

/* The joints' sines of one row in vector lanes (four with AVX2, else two): the same bits as
 * one by one, in a quarter (a half) of the calls. */
static void row_sines(int n, const double *q, double *s, double *v)
{
#ifdef RD_HAVE_QUAD
    if (__builtin_cpu_supports("avx2")) {
        rd_sin_versine_quad(n, q, s, v);
        return;
    }
#endif
    rd_sin_versine_pair(n, q, s, v);
}

/* With an AVX2 clone (engine.h RD_WIDE: the same operations, so the same bits). */
RD_WIDE void rd_crba(rd_model *m, const double *q, double *M)
{
    double *s = m->w.tmp, *v = m->w.tmp + m->n;            /* scratch of 6 n */
    row_sines(m->n, q, s, v);
    for (int i = 0; i < m->n; ++i) rd_place_sv(m->J + i, q[i], s[i], v[i], &m->w.X[i]);
    rd_crba_pass(m, m->w.X, m->w.S, m->w.Ic, M);
}

RD_WIDE void rd_crba_placed(rd_model *m, double *M)
{
    rd_crba_pass(m, m->w.X, m->w.S, m->w.Ic, M);
}
