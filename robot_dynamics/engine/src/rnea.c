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
 * Recursive Newton-Euler inverse dynamics in link frames (Luh-Walker-Paul; Craig 6.45-6.53),
 * general joint axes, as robot_dynamics.algorithms.rnea, plus the joint-space effects of the
 * public inverse dynamics: reflected rotor inertia and friction.
 */
#include "engine.h"

/* Tool wrench [f; n] (tool frame, exerted on the environment) about the last body's origin,
 * in its frame: Craig's f_{N+1}, n_{N+1}. */
static void tip_wrench(const rd_model *m, const double *f_tip, double *f, double *nm)
{
    double t[3];
    if (f_tip == NULL) {
        f[0] = f[1] = f[2] = nm[0] = nm[1] = nm[2] = 0.0;
        return;
    }
    rd_mv(m->tipR, f_tip, f);
    rd_mv(m->tipR, f_tip + 3, nm);
    rd_cross(m->tipp, f, t);
    nm[0] += t[0]; nm[1] += t[1]; nm[2] += t[2];
}

void rd_rnea(rd_model *m, const double *q, const double *qd, const double *qdd, int gravity,
             int effects, const double *f_tip, double *tau)
{
    const int n = m->n;
    rd_placement *X = m->w.X;
    double (*F)[3] = m->w.F, (*Nm)[3] = m->w.N;
    double w[3] = {0, 0, 0}, dw[3] = {0, 0, 0}, dv[3], t[3], u[3], f[3], nm[3];
    int i, k;
    for (k = 0; k < 3; ++k) dv[k] = gravity ? -m->g[k] : 0.0;                    /* a0 = -g */
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        const double *z = J->axis, *c = J->c;
        double Iw[3];
        rd_place(J, q[i], &X[i]);
        rd_cross(dw, X[i].p, t); rd_cross(w, X[i].p, u); rd_cross(w, u, u);
        for (k = 0; k < 3; ++k) t[k] += dv[k] + u[k];
        rd_mtv(X[i].R, t, dv); rd_mtv(X[i].R, w, w); rd_mtv(X[i].R, dw, dw);        /* 6.47 */
        rd_cross(w, z, u);
        if (J->type == RD_REVOLUTE) {
            for (k = 0; k < 3; ++k) dw[k] += qd[i] * u[k] + qdd[i] * z[k];           /* 6.46 */
            for (k = 0; k < 3; ++k) w[k] += qd[i] * z[k];                            /* 6.45 */
        } else {
            for (k = 0; k < 3; ++k) dv[k] += 2.0 * qd[i] * u[k] + qdd[i] * z[k];
        }
        rd_cross(dw, c, t); rd_cross(w, c, u); rd_cross(w, u, u);
        for (k = 0; k < 3; ++k) F[i][k] = J->m * (t[k] + u[k] + dv[k]);              /* 6.48-49 */
        rd_mv(J->Ic, w, Iw); rd_cross(w, Iw, u); rd_mv(J->Ic, dw, t);
        for (k = 0; k < 3; ++k) Nm[i][k] = t[k] + u[k];                              /* 6.50 */
    }
    tip_wrench(m, f_tip, f, nm);
    for (i = n - 1; i >= 0; --i) {
        const rd_joint *J = m->J + i;
        if (i + 1 < n) {
            rd_mv(X[i + 1].R, f, f); rd_mv(X[i + 1].R, nm, nm);
            rd_cross(X[i + 1].p, f, t);
            for (k = 0; k < 3; ++k) nm[k] += t[k];
        }
        rd_cross(J->c, F[i], t);
        for (k = 0; k < 3; ++k) { nm[k] += Nm[i][k] + t[k]; f[k] += F[i][k]; }     /* 6.51-52 */
        tau[i] = rd_dot3(J->axis, J->type == RD_REVOLUTE ? nm : f);                 /* 6.53 */
        if (effects)
            tau[i] += J->rich ? J->rotor * qdd[i] + rd_friction(J, qd[i])     /* as in lanes */
                              : J->rotor * qdd[i] + J->fv * qd[i] + J->fc * rd_sign(qd[i]);
    }
}

/* Gravity torques G(q) = ID(q, 0, 0): the Newton-Euler recursion without velocities. */
void rd_gravity(rd_model *m, const double *q, double *tau)
{
    const int n = m->n;
    rd_placement *X = m->w.X;
    double (*F)[3] = m->w.F;
    double dv[3] = {-m->g[0], -m->g[1], -m->g[2]}, f[3] = {0, 0, 0}, nm[3] = {0, 0, 0}, t[3];
    int i, k;
    for (i = 0; i < n; ++i) {
        const rd_joint *J = m->J + i;
        rd_place(J, q[i], &X[i]);
        rd_mtv(X[i].R, dv, dv);
        for (k = 0; k < 3; ++k) F[i][k] = J->m * dv[k];
    }
    for (i = n - 1; i >= 0; --i) {
        const rd_joint *J = m->J + i;
        if (i + 1 < n) {
            rd_mv(X[i + 1].R, f, f); rd_mv(X[i + 1].R, nm, nm);
            rd_cross(X[i + 1].p, f, t);
            for (k = 0; k < 3; ++k) nm[k] += t[k];
        }
        rd_cross(J->c, F[i], t);
        for (k = 0; k < 3; ++k) { nm[k] += t[k]; f[k] += F[i][k]; }
        tau[i] = rd_dot3(J->axis, J->type == RD_REVOLUTE ? nm : f);
    }
}
