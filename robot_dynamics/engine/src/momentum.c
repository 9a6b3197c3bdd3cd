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
 * The generalized momentum, C^T qd and gravity in one O(n) pass, and the momentum observer's
 * step (observer.h).
 *
 * With S_i the motion subspace of joint i, v_i the spatial velocity of body i, I_i its spatial
 * inertia, h_i = I_i v_i its momentum and hc_i = sum_{k >= i} h_k that of bodies i..n:
 *     p_i        = S_i . hc_i + rotor_i qd_i          (M = sum_k J_k^T I_k J_k)
 *     (C^T qd)_i = (v_i x S_i) . hc_i
 *     G_i        = S_i . sum_{k >= i} I_k a0          (a0 = (0; -g): gravity, once)
 * The second: p_i = S_i . hc_i gives pdot_i = Sdot_i . hc_i + S_i . sum_k (I_k a_k +
 * v_k x* I_k v_k) with Sdot_i = v_i x S_i; at qdd = 0 this is (Mdot qd)_i and its second term
 * is Newton-Euler's (C qd)_i, so with Mdot = C + C^T (any C with Mdot - 2C skew-symmetric,
 * coriolis.c's included) (v_i x S_i) . hc_i = (Mdot qd - C qd)_i = (C^T qd)_i. The rotors add
 * a constant diagonal to M and nothing to C.
 *
 * Everything is carried in body frames {i} (spatial.h): a motion, a force and their dot
 * product, the same in every frame, as rd_kinetic_energy does.
 */
#include <math.h>
#include <string.h>

#include "observer.h"

/* S_i in {i}: (axis; 0) revolute, (0; axis) prismatic. */
static void subspace(const rd_joint *J, double *S)
{
    int revolute = J->type == RD_REVOLUTE;
    for (int k = 0; k < 3; ++k) {
        S[k] = revolute ? J->axis[k] : 0.0;
        S[3 + k] = revolute ? 0.0 : J->axis[k];
    }
}

void rd_momentum(rd_model *m, const double *q, const double *qd, double *p, double *c,
                 double *g)
{
    const int n = m->n;
    rd_work *w = &m->w;
    double v[6] = {0, 0, 0, 0, 0, 0}, a0[3] = {-m->g[0], -m->g[1], -m->g[2]};
    double S[6], t[3], u[3], vS[6];
    int i, k;
    for (i = 0; i < n; ++i) {                                   /* outward: v_i, h_i, I_i a0 */
        const rd_joint *J = m->J + i;
        double *h = w->hc[i], *f = w->a[i];
        rd_place(J, q[i], &w->X[i]);
        rd_motion_to_child(&w->X[i], v, v);
        rd_mtv(w->X[i].R, a0, a0);
        subspace(J, S);
        for (k = 0; k < 6; ++k) v[k] += S[k] * qd[i];
        memcpy(w->v[i], v, sizeof v);
        rd_mv(J->Io, v, h);                                     /* I v = (Io w + h x v; */
        rd_cross(J->h, v + 3, t);                               /*        m v - h x w)  */
        rd_cross(J->h, v, u);
        for (k = 0; k < 3; ++k) {
            h[k] += t[k];
            h[3 + k] = J->m * v[3 + k] - u[k];
        }
        rd_cross(J->h, a0, f);                                  /* I (0; a0) = (h x a0; m a0) */
        for (k = 0; k < 3; ++k) f[3 + k] = J->m * a0[k];
    }
    for (i = n - 1; i > 0; --i) {                               /* inward: composites */
        rd_force_to_parent(&w->X[i], w->hc[i], S);
        rd_add6(w->hc[i - 1], S);
        rd_force_to_parent(&w->X[i], w->a[i], S);
        rd_add6(w->a[i - 1], S);
    }
    for (i = 0; i < n; ++i) {
        subspace(m->J + i, S);
        rd_crm(w->v[i], S, vS);
        p[i] = rd_dot6(S, w->hc[i]) + m->J[i].rotor * qd[i];
        c[i] = rd_dot6(vS, w->hc[i]);
        g[i] = rd_dot6(S, w->a[i]);
    }
}

/* The observer (Haddadin et al. 2017, eq. 29): rdot = K (pdot - tau + beta - r) with
 * beta = G - C^T qd + tau_f, i.e. rdot = K (tau_ext - r). Over a sample interval of length h
 * its exact solution is r+ = e^{-K h} r + (1 - e^{-K h}) dy / h when y = p - int (tau - beta)
 * grows linearly over it; dy takes p's exact increment and the integral of tau - beta by the
 * trapezoid rule (tau held at its previous value instead with the hold flag). The momentum's
 * rate goes through the same filter: pdot+ = e^{-K h} pdot + (1 - e^{-K h}) dp / h. */
int rd_observer_update(rd_model *m, double *state, double t, const double *q,
                       const double *qd, const double *tau)
{
    double *p = m->w.tmp, *c = p + m->n, *g = c + m->n;
    if (state[0] != 0.0 && !(t - state[1] > 0)) return -1;
    rd_momentum(m, q, qd, p, c, g);
    return rd_observer_advance(m, state, t, p, c, g, qd, tau);
}

int rd_observer_advance(const rd_model *m, double *state, double t, const double *p_now,
                        const double *c, const double *g, const double *qd, const double *tau)
{
    const int n = m->n;
    double *block = state + RD_OBS_HEADER;
    double *K = block + RD_OBS_K * n, *p = block + RD_OBS_P * n, *w = block + RD_OBS_W * n;
    double *held = block + RD_OBS_TAU * n, *r = block + RD_OBS_R * n;
    double *pdot = block + RD_OBS_PDOT * n, *G = block + RD_OBS_G * n;
    double h = t - state[1], b = 0.0;
    int started = state[0] != 0.0, hold = state[2] != 0.0;
    if (started && !(h > 0)) return -1;
    for (int j = 0; j < n; ++j) {
        double w_now = c[j] - g[j] - rd_friction(m->J + j, qd[j]);
        if (started) {
            double dp = p_now[j] - p[j];
            double torque = hold ? held[j] : 0.5 * (held[j] + tau[j]);
            double dy = dp - h * (torque + 0.5 * (w[j] + w_now));
            if (j == 0 || K[j] != K[j - 1]) b = -expm1(-K[j] * h);    /* 1 - e^{-K h} */
            r[j] += b * (dy / h - r[j]);
            pdot[j] += b * (dp / h - pdot[j]);
        } else {
            r[j] = pdot[j] = 0.0;
        }
        p[j] = p_now[j];
        w[j] = w_now;
        held[j] = tau[j];
        G[j] = g[j];
    }
    state[0] = 1.0;
    state[1] = t;
    return 0;
}
