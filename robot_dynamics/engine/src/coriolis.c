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
 * The Coriolis matrix built from the Christoffel symbols of the first kind,
 *     C_ij = sum_k 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) qd_k = 1/2 (Mdot + A - A^T)_ij,
 * with A = d(M qd)/dq at fixed qd, in O(n^2) from base-frame spatial quantities (in the spirit
 * of Echeandia and Wensing 2021). With S_i the motion subspaces, v_i the body velocities,
 * a_i = v_i x S_i = dS_i/dt, I^c_i, h^c_i and Idot^c_i the composite inertia, momentum and
 * inertia rate of bodies i..n, and for j <= i
 *     F1 = I^c_i a_i, F2 = I^c_i S_i, F3 = Idot^c_i S_i, F4 = S_i x* h^c_i:
 *     C_ij = F2 . a_j + 1/2 (F3 - F4) . S_j,      C_ji = (F1 + 1/2 (F3 + F4)) . S_j.
 * (dS_i/dq_j = S_j x S_i and dI_k/dq_j = S_j x* I_k - I_k S_j x for the bodies beyond joint j
 * give A_ij = F2 . a_j and A_ji = (F1 + F4) . S_j; Mdot_ij = (F1 + F3) . S_j + F2 . a_j.)
 */
#include <string.h>

#include "engine.h"

/* Rate of a world-frame inertia (m, h, Ib) moving with velocity s = [w; v]:
 * hdot = w x h + m v, Ibdot = [w x] Ib - Ib [w x] - (h v^T + v h^T - 2 (h . v) 1). */
static void inertia_rate(const rd_inertia *In, const double *s, rd_inertia *out)
{
    const double *w = s, *v = s + 3, *h = In->h;
    double A[9], hv = rd_dot3(h, v), t[3];
    int r, c;
    for (c = 0; c < 3; ++c) {                              /* column c of [w x] Ib */
        double col[3] = {In->Ib[c], In->Ib[3 + c], In->Ib[6 + c]};
        rd_cross(w, col, t);
        A[c] = t[0]; A[3 + c] = t[1]; A[6 + c] = t[2];
    }
    out->m = 0.0;
    rd_cross(w, h, out->h);
    for (r = 0; r < 3; ++r) out->h[r] += In->m * v[r];
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c)
            out->Ib[3 * r + c] = A[3 * r + c] + A[3 * c + r]
                                - (h[r] * v[c] + v[r] * h[c] - 2.0 * (r == c) * hv);
}

/* Fill w.Ic, w.Id, w.hc (composites), w.v and w.a for state (q, qd). */
static void composites(rd_model *m, const double *q, const double *qd)
{
    const int n = m->n;
    rd_work *w = &m->w;
    double v[6] = {0, 0, 0, 0, 0, 0};
    int i, k;
    rd_world(m, q);
    for (i = 0; i < n; ++i) {
        for (k = 0; k < 6; ++k) v[k] += w->S[i][k] * qd[i];
        memcpy(w->v[i], v, sizeof v);
        rd_crm(v, w->S[i], w->a[i]);
        rd_world_inertia(m->J + i, w->R[i], w->o[i], &w->Ic[i]);
        rd_inertia_apply(&w->Ic[i], v, w->hc[i]);
        inertia_rate(&w->Ic[i], v, &w->Id[i]);
    }
    for (i = n - 1; i > 0; --i) {
        rd_inertia_add(&w->Ic[i - 1], &w->Ic[i]);
        rd_inertia_add(&w->Id[i - 1], &w->Id[i]);
        for (k = 0; k < 6; ++k) w->hc[i - 1][k] += w->hc[i][k];
    }
}

void rd_coriolis_matrix(rd_model *m, const double *q, const double *qd, double *C)
{
    const int n = m->n;
    rd_work *w = &m->w;
    int i, j, k;
    composites(m, q, qd);
    for (i = 0; i < n; ++i) {
        double F1[6], F2[6], F3[6], F4[6], lower[6], upper[6];
        rd_inertia_apply(&w->Ic[i], w->a[i], F1);
        rd_inertia_apply(&w->Ic[i], w->S[i], F2);
        rd_inertia_apply(&w->Id[i], w->S[i], F3);
        rd_crf(w->S[i], w->hc[i], F4);
        for (k = 0; k < 6; ++k) {
            lower[k] = 0.5 * (F3[k] - F4[k]);
            upper[k] = F1[k] + 0.5 * (F3[k] + F4[k]);
        }
        for (j = 0; j <= i; ++j) {
            C[n * i + j] = rd_dot6(F2, w->a[j]) + rd_dot6(lower, w->S[j]);
            C[n * j + i] = rd_dot6(upper, w->S[j]);
        }
    }
}

void rd_mass_matrix_dot(rd_model *m, const double *q, const double *qd, double *Md)
{
    const int n = m->n;
    rd_coriolis_matrix(m, q, qd, Md);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = Md[n * i + j] + Md[n * j + i];
            Md[n * i + j] = Md[n * j + i] = s;
        }
}
