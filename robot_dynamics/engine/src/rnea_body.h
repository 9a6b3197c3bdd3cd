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
 * public inverse dynamics (reflected rotor inertia, friction): written once over the scalar of
 * lanes.h and included by rnea.c (doubles, one row), batch_pair.c and batch_quad.c (two and four
 * rows of a batch at once, the same operations lane by lane, so the same bits).
 *
 * Frames and points are spatial.h's. Per body i, in {i}: w and dw the angular velocity and
 * acceleration, dv the (classical) linear acceleration of the origin o_i, F and N the inertial
 * force and the moment about the centre of mass c; inward, fn = (n; f) the force body i-1
 * exerts on body i about o_i. The base's dv is a0 = -g (gravity enters once).
 */
#if RD_HAVE_LANES                      /* lanes.h: this width can be built here */

/* Outward step for body i (6.45-6.50): its placement X, the parent's (w, dw, dv) carried into
 * {i} with the joint's motion added (in place), and the inertial F and N. Without `moving`
 * (w = dw = 0, qd and qdd unused) only dv and F = m dv: the gravity torques. */
static RD_INLINE void RD_SP(rnea_outward)(const rd_joint *J, RD_T q, RD_T qd, RD_T qdd,
                                          int moving, RD_SP(placement) *X, RD_T *w,
                                          RD_T *dw, RD_T *dv, RD_T *F, RD_T *N)
{
    RD_T t[3], u[3], Iw[3];
    int k;
    RD_SP(place)(J, q, X);
    if (!moving) {
        RD_SP(mtv)(X->R, dv, dv);
        for (k = 0; k < 3; ++k) F[k] = J->m * dv[k];
        return;
    }
    RD_SP(cross)(dw, X->p, t); RD_SP(cross)(w, X->p, u); RD_SP(cross)(w, u, u);
    for (k = 0; k < 3; ++k) t[k] += dv[k] + u[k];
    RD_SP(mtv)(X->R, t, dv); RD_SP(mtv)(X->R, w, w); RD_SP(mtv)(X->R, dw, dw);     /* 6.47 */
    RD_SP(cross_c)(w, J->axis, u);
    if (J->type == RD_REVOLUTE) {
        for (k = 0; k < 3; ++k) dw[k] += qd * u[k] + qdd * J->axis[k];             /* 6.46 */
        for (k = 0; k < 3; ++k) w[k] += qd * J->axis[k];                           /* 6.45 */
    } else {
        for (k = 0; k < 3; ++k) dv[k] += 2.0 * qd * u[k] + qdd * J->axis[k];
    }
    RD_SP(cross_c)(dw, J->c, t); RD_SP(cross_c)(w, J->c, u); RD_SP(cross)(w, u, u);
    for (k = 0; k < 3; ++k) F[k] = J->m * (t[k] + u[k] + dv[k]);                    /* 6.48-49 */
    RD_SP(c_mv)(J->Ic, w, Iw); RD_SP(cross)(w, Iw, u); RD_SP(c_mv)(J->Ic, dw, t);
    for (k = 0; k < 3; ++k) N[k] = t[k] + u[k];                                     /* 6.50 */
}

/* Inward step for body i (6.51-6.53): fn, the child's force (about its origin, in its frame;
 * child NULL for the last body: the tool's), becomes body i's (in place); returns the joint
 * torque or force. N is NULL without `moving`. */
static RD_INLINE RD_T RD_SP(rnea_inward)(const rd_joint *J, const RD_SP(placement) *child,
                                         const RD_T *F, const RD_T *N, RD_T *fn)
{
    RD_T t[3];
    int k;
    if (child != NULL) RD_SP(force_to_parent)(child, fn, fn);
    RD_SP(c_cross)(J->c, F, t);
    if (N != NULL)
        for (k = 0; k < 3; ++k) fn[k] += N[k] + t[k];                               /* 6.52 */
    else
        for (k = 0; k < 3; ++k) fn[k] += t[k];
    for (k = 0; k < 3; ++k) fn[3 + k] += F[k];                                      /* 6.51 */
    return RD_SP(c_dot3)(J->axis, J->type == RD_REVOLUTE ? fn : fn + 3);           /* 6.53 */
}

/* The tool wrench of every row (x[l][3] = (f; n), tool frame, exerted on the environment) as a
 * force (n; f) on the last body about its origin, in its frame: Craig's f_{N+1}, n_{N+1}. */
static inline void RD_SP(tool_force)(const rd_model *m, const double *const *const *x,
                                     RD_T *fn)
{
    RD_SP(placement) tool;
    RD_T wrench[6];
    for (int k = 0; k < 3; ++k) {
        wrench[k] = RD_SP(load)(x, 3, 3 + k);
        wrench[3 + k] = RD_SP(load)(x, 3, k);
    }
    RD_SP(placement_of)(m->tipR, m->tipp, &tool);
    RD_SP(force_to_parent)(&tool, wrench, fn);
}

/* Reflected rotor inertia and friction at joint J (robot_dynamics.model.friction). */
static RD_INLINE RD_T RD_SP(joint_effects)(const rd_joint *J, RD_T qd, RD_T qdd)
{
    if (J->rich) return J->rotor * qdd + RD_SP(friction)(J, qd);
    return J->rotor * qdd + J->fv * qd + J->fc * RD_SP(sign)(qd);
}

/* tau = ID(q, qd, qdd) of every row: x[l] = {q, qd, qdd, f_tip or NULL}, out[l] its torques;
 * gravity if `gravity`, rotor and friction if `effects`, the tool wrench if x[0][3]. X, F, N:
 * n placements and inertial forces (the caller's storage). */
static RD_INLINE void RD_SP(rnea_pass)(const rd_model *m, const double *const *const *x,
                                       int gravity, int moving, int effects,
                                       RD_SP(placement) *X, RD_T (*F)[3], RD_T (*N)[3],
                                       double *const *out)
{
    const int n = m->n;
    const RD_T zero = RD_SPLAT(0.0);
    RD_T w[3], dw[3], dv[3], fn[6];
    int i, k;
    for (k = 0; k < 3; ++k) {
        w[k] = dw[k] = zero;
        dv[k] = RD_SPLAT(gravity ? -m->g[k] : 0.0);                        /* a0 = -g */
    }
    for (i = 0; i < n; ++i)                                                 /* outward */
        RD_SP(rnea_outward)(m->J + i, RD_SP(load)(x, 0, i),
                            moving ? RD_SP(load)(x, 1, i) : zero,
                            moving ? RD_SP(load)(x, 2, i) : zero,
                            moving, &X[i], w, dw, dv, F[i], N[i]);
    if (x[0][3] != NULL) RD_SP(tool_force)(m, x, fn);
    else for (k = 0; k < 6; ++k) fn[k] = zero;
    for (i = n - 1; i >= 0; --i) {                                          /* inward */
        const rd_joint *J = m->J + i;
        RD_T tau = RD_SP(rnea_inward)(J, i + 1 < n ? &X[i + 1] : NULL, F[i],
                                      moving ? N[i] : NULL, fn);
        if (effects) tau += RD_SP(joint_effects)(J, RD_SP(load)(x, 1, i), RD_SP(load)(x, 2, i));
        RD_SP(store)(out, i, tau);
    }
}

#if RD_LANES > 1
/* The full inverse dynamics (gravity, effects, tool wrench) of LANES rows of a batch; at most
 * RD_LANES_MAX joints (stack arrays). */
int RD_LANES_FN(rd_rnea)(rd_model *m, const double *const *const *x, double *const *tau)
{
    const int n = m->n > 0 ? m->n : 1;
    RD_SP(placement) X[n];
    RD_T F[n][3], N[n][3];
    RD_SP(rnea_pass)(m, x, 1, 1, 1, X, F, N, tau);
    return 0;
}

/* The gravity torques G(q) of LANES rows (x[l] = {q}): rd_gravity's pass lane by lane. */
int RD_LANES_FN(rd_gravity)(rd_model *m, const double *const *const *x, double *const *tau)
{
    const int n = m->n > 0 ? m->n : 1;
    RD_SP(placement) X[n];
    RD_T F[n][3], N[n][3];
    RD_SP(rnea_pass)(m, x, 1, 0, 0, X, F, N, tau);
    return 0;
}
#endif

#elif RD_LANES == 2
/* No vector types: the pair is two single rows. */
int rd_rnea_pair(rd_model *m, const double *const *const *x, double *const *tau)
{
    for (int l = 0; l < 2; ++l) rd_rnea(m, x[l][0], x[l][1], x[l][2], 1, 1, x[l][3], tau[l]);
    return 0;
}

int rd_gravity_pair(rd_model *m, const double *const *const *x, double *const *tau)
{
    for (int l = 0; l < 2; ++l) rd_gravity(m, x[l][0], tau[l]);
    return 0;
}
#endif
