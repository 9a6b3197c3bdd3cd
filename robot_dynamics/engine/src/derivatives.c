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
 * Analytic derivatives of the inverse and forward dynamics of one state: derivatives_body.h on
 * doubles, in the model's workspace.
 */
#define RD_LANES 1
#include "lanes.h"
#include "derivatives_body.h"

/* The workspace's per-joint arrays as the body's. */
static rd_dwork workspace(rd_model *m)
{
    rd_work *w = &m->w;
    rd_dwork d = {w->S, w->v, w->dVdq, w->dAdq, w->dAdv, w->fc, w->Fa, w->Fv, w->Fq, w->Ic, w->dY};
    return d;
}

void rd_rnea_derivatives(rd_model *m, const double *q, const double *qd, const double *qdd,
                         const double *f_tip, double *dq, double *dqd, double *M)
{
    const double *row[4] = {q, qd, qdd, f_tip}, *const *x[1] = {row};
    rd_dwork w = workspace(m);
    rd_inverse_derivatives(m, x, &w, dq, dqd, M);
}

int rd_forward_derivatives(rd_model *m, const double *q, const double *qd, const double *tau,
                           const double *f_tip, double *dq, double *dqd, double *Minv)
{
    const double *row[4] = {q, qd, tau, f_tip}, *const *x[1] = {row};
    rd_dwork w = workspace(m);
    return rd_forward_derivatives_body(m, x, &w, dq, dqd, Minv, m->w.M, m->w.Z, m->w.qdd,
                                       (double (*)[6])m->w.tmp);
}
