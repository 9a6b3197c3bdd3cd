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
 * Inverse dynamics and gravity torques of one state: rnea_body.h on doubles. The placements
 * stay in the workspace (w.X) for the mass matrix of rd_crba_forward.
 */
#define RD_LANES 1
#include "lanes.h"
#include "rnea_body.h"

void rd_rnea(rd_model *m, const double *q, const double *qd, const double *qdd, int gravity,
             int effects, const double *f_tip, double *tau)
{
    const double *row[4] = {q, qd, qdd, f_tip}, *const *x[1] = {row};
    double *out[1] = {tau};
    rd_rnea_pass(m, x, gravity, 1, effects, m->w.X, m->w.F, m->w.N, out);
}

/* Gravity torques G(q) = ID(q, 0, 0): the same recursion without velocities. */
void rd_gravity(rd_model *m, const double *q, double *tau)
{
    const double *row[4] = {q, NULL, NULL, NULL}, *const *x[1] = {row};
    double *out[1] = {tau};
    rd_rnea_pass(m, x, 1, 0, 0, m->w.X, m->w.F, m->w.N, out);
}
