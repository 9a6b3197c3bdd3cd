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
 * The compiled engine: rigid-body dynamics of a serial chain whose model is data. This header
 * holds the model, its workspace and the kernels' API; the frames, points and spatial algebra
 * every kernel uses are those of spatial.h (documented once there). Body i carries frame {i},
 * placed at (Rt, pt) in its parent at q = 0; the joint turns about, or slides along, `axis`
 * (frame {i}). Gravity enters as the fictitious base acceleration a0 = -g.
 */
#ifndef RD_ENGINE_H
#define RD_ENGINE_H

#include <math.h>
#include <stddef.h>

#include "trig.h"

/* The n^3 loops in AVX2 where the CPU has it (GCC picks the clone at load time); the same
 * arithmetic per element, so the same bits either way (no contraction: setup.py). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define RD_WIDE __attribute__((target_clones("avx2", "default")))
#else
#define RD_WIDE
#endif

enum { RD_REVOLUTE = 0, RD_PRISMATIC = 1 };

/* Packed model (robot_dynamics.engine.pack): a header, then this many numbers per joint. */
#define RD_HEADER 16
#define RD_JOINT_STRIDE 37

typedef struct {
    int type;
    double axis[3];
    double Rt[9], pt[3];        /* placement in the parent at q = 0 (row-major R) */
    double RtK[9], RtK2[9];     /* Rt [axis x] and Rt [axis x]^2: Rodrigues, R = Rt + s RtK + (1 - c) RtK2 */
    double Rta[3];              /* Rt axis: the prismatic displacement direction in the parent */
    double m, c[3], h[3];       /* mass, centre of mass, first moment m c (frame {i}) */
    double Ic[9], Io[9];        /* rotational inertia about the centre of mass / the origin */
    double rotor, fv, fc;       /* reflected rotor inertia, viscous and Coulomb friction */
    double f0, fa, eps, fs, vs; /* friction offset, Coulomb asymmetry, smoothing velocity,
                                   Stribeck excess and velocity (robot_dynamics.model.friction) */
    int rich;                   /* any of them non-zero: rd_friction takes the full law */
    int unit_axis;              /* k if axis is exactly e_k (k = 0, 1, 2), else -1 */
    double Ia, Iu[2][3];        /* Ic = Ia 1 + Iu_0 Iu_0^T + Iu_1 Iu_1^T (model.c: eigen) */
} rd_joint;

/* rd_placement, rd_inertia and the spatial algebra on doubles (rd_cross, rd_mv, rd_crm, ...) */
#include "spatial.h"

/* Rate of a world inertia along a velocity (derivatives_body.h): dY s = (T s_w; b x s_w). */
typedef struct { double T[9], b[3]; } rd_rate;

typedef struct {
    rd_placement *X;                /* n placements in the parent */
    double (*F)[3], (*N)[3];        /* RNEA: inertial forces and moments */
    double (*R)[9], (*o)[3];        /* world orientation and origin of every body */
    double (*S)[6];                 /* world motion subspaces (about the base origin) */
    rd_inertia *Ic;                 /* world composite inertias */
    rd_inertia *Id;                 /* world composite inertia rates (Coriolis matrix) */
    double (*v)[6], (*a)[6], (*hc)[6];
    double *M, *b, *zero, *tmp;     /* n x n matrix, bias, zeros, scratch (6 n) */
    double *Mh;                     /* n x n: M + dt D of the implicit integrator */
    double (*IA)[36], (*pA)[6], (*cb)[6], (*U)[6], *D, *u;   /* articulated-body algorithm */
    double *sim;                    /* integrator scratch (12 n) */
    double (*dVdq)[6], (*dAdq)[6], (*dAdv)[6];  /* derivatives_body.h, per joint */
    double (*Fa)[6], (*Fv)[6], (*Fq)[6], (*fc)[6];
    rd_rate *dY;   /* column forces, composites */
    double *qdd, *Z;                /* forward-dynamics derivatives: qdd (n), scratch (n x n) */
} rd_work;

typedef struct {
    int n;
    double g[3];                    /* gravity, base frame */
    double tipR[9], tipp[3];        /* tool frame in the last body */
    rd_joint *J;
    int owns_joints;                /* 0 for a fork: joints shared with the original */
    rd_work w;
    void *block;                    /* the one allocation behind w */
} rd_model;

/* model.c */
int rd_model_init(rd_model *m, const double *packed, int n);
void rd_model_free(rd_model *m);
/* A copy sharing the (read-only) joints with a workspace of its own: for another thread. */
int rd_model_fork(const rd_model *m, rd_model *fork);

/* rnea.c: tau = ID(q, qd, qdd) with gravity if `gravity`, joint effects (rotor, friction) if
 * `effects`, tool wrench f_tip (6, tool frame) if not NULL. */
void rd_rnea(rd_model *m, const double *q, const double *qd, const double *qdd, int gravity,
             int effects, const double *f_tip, double *tau);
void rd_gravity(rd_model *m, const double *q, double *tau);
/* batch_pair.c, batch_quad.c: 2 (4) states at once, for batches, each lane the bits of the
 * single call: the full inverse dynamics (x[l] = {q, qd, qdd, f_tip or NULL} of row l, out[l]
 * its torques), the gravity torques and the mass matrix (x[l] = {q}; out[l] n or n x n), the
 * forward dynamics (x[l] = {q, qd, tau, f_tip or NULL}; RD_NOT_SPD if a mass matrix is not
 * positive definite); at most RD_LANES_MAX joints (stack arrays). The _quad kernels need AVX2
 * and exist on x86-64 only (RD_HAVE_QUAD). */
#define RD_LANES_MAX 64
#define RD_BATCH_KERNELS 1      /* gravity, mass matrix and forward dynamics have them too */
int rd_rnea_pair(rd_model *m, const double *const *const *x, double *const *tau);
int rd_gravity_pair(rd_model *m, const double *const *const *x, double *const *tau);
int rd_crba_pair(rd_model *m, const double *const *const *x, double *const *M);
int rd_forward_pair(rd_model *m, const double *const *const *x, double *const *qdd);
/* s = sin q, v = 1 - cos q of the n joints of one row, 2 (4) at a time: rd_sin_versine's bits */
void rd_sin_versine_pair(int n, const double *q, double *s, double *v);
#if defined(__GNUC__) && defined(__x86_64__)
#define RD_HAVE_QUAD 1
int rd_rnea_quad(rd_model *m, const double *const *const *x, double *const *tau);
int rd_gravity_quad(rd_model *m, const double *const *const *x, double *const *tau);
int rd_crba_quad(rd_model *m, const double *const *const *x, double *const *M);
int rd_forward_quad(rd_model *m, const double *const *const *x, double *const *qdd);
void rd_sin_versine_quad(int n, const double *q, double *s, double *v);
#endif

/* kinematics.c */
void rd_world(rd_model *m, const double *q);                 /* fills w.X, w.R, w.o, w.S */
void rd_world_placed(rd_model *m);                           /* the same from w.X */
void rd_tip_pose(rd_model *m, const double *q, double *T);   /* 4 x 4 */
void rd_jacobian(rd_model *m, const double *q, int tip_frame, double *J);   /* 6 x n */
double rd_kinetic_energy(rd_model *m, const double *q, const double *qd);
double rd_potential_energy(rd_model *m, const double *q);

/* crba.c */
void rd_world_inertia(const rd_joint *J, const double *R, const double *o, rd_inertia *In);
void rd_crba(rd_model *m, const double *q, double *M);       /* rotor inertia included */
void rd_crba_placed(rd_model *m, double *M);                 /* from the placements in w.X */

/* coriolis.c: Christoffel-symbol Coriolis matrix and Mdot = C + C^T (both n x n) */
void rd_coriolis_matrix(rd_model *m, const double *q, const double *qd, double *C);
void rd_mass_matrix_dot(rd_model *m, const double *q, const double *qd, double *Md);

/* forward.c: qdd = M^-1 (tau - bias); return 0, or -1 if M is not positive definite. By the
 * mass matrix and a Cholesky solve below RD_ABA_FROM joints, by the articulated-body
 * algorithm from there on. */
#define RD_ABA_FROM 9
int rd_forward(rd_model *m, const double *q, const double *qd, const double *tau,
               const double *f_tip, double *qdd);
int rd_aba(rd_model *m, const double *q, const double *qd, const double *tau,
           const double *f_tip, double *qdd);
int rd_crba_forward(rd_model *m, const double *q, const double *qd, const double *tau,
                    const double *f_tip, double *qdd);
/* Cholesky M = L L^T in place (n x n row-major, read from the lower triangle; L in the lower
 * triangle on return, the upper one used as scratch); -1 if not positive definite */
int rd_cholesky(double *M, int n);
/* x = M^-1 x (n) from the factor L of rd_cholesky */
void rd_cholesky_solve(const double *L, int n, double *x);

/* derivatives.c (derivatives_body.h on doubles): dtau/dq, dtau/dqd and M of the full inverse
 * dynamics (n x n each, row-major); dqdd/dq, dqdd/dqd and M^-1 of the forward dynamics (-1 if M is not positive definite). */
void rd_rnea_derivatives(rd_model *m, const double *q, const double *qd, const double *qdd,
                         const double *f_tip, double *dq, double *dqd, double *M);
int rd_forward_derivatives(rd_model *m, const double *q, const double *qd, const double *tau,
                           const double *f_tip, double *dq, double *dqd, double *Minv);
/* derivatives_pair.c, derivatives_quad.c: rd_rnea_derivatives (rd_forward_derivatives) of 2 (4)
 * rows at once, x as for rd_rnea_pair, out[l] the three matrices of row l; at most
 * RD_LANES_MAX joints. The forward ones return RD_NOT_SPD if a mass matrix is not positive
 * definite (a batch status, as module.c's kernels return). */
int rd_rnea_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out);
int rd_forward_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out);
#if defined(__GNUC__) && defined(__x86_64__)
int rd_rnea_derivatives_quad(rd_model *m, const double *const *const *x, double *const *out);
int rd_forward_derivatives_quad(rd_model *m, const double *const *const *x, double *const *out);
#endif

/* integrate.c */
enum { RD_EULER = 0, RD_SEMI_IMPLICIT_EULER = 1, RD_RK4 = 2, RD_IMPLICIT = 3 };
enum { RD_OK = 0, RD_NONFINITE_WITHIN = 1, RD_NONFINITE = 2, RD_NOT_SPD = 3, RD_RUNAWAY = 4 };
int rd_step(rd_model *m, int integrator, const double *q, const double *qd, const double *tau,
            const double *f_tip, double dt, double *q_next, double *qd_next, double *qdd);

/* joint effects beside the rigid bodies: the sign and the friction law */
static inline double rd_sign(double x)
{
    return (double)((x > 0) - (x < 0));
}
/* Joint friction tau_f(qd) = Fv qd + f0 + (Fc + Fs exp(-(qd/vs)^2)) s + Fa |s|, with
 * s = tanh(qd/eps) (sign(qd) if eps = 0); the numpy twin and the derivation are in
 * robot_dynamics/model/friction.py. Viscous + Coulomb only: two multiplications. */
static inline double rd_friction(const rd_joint *J, double qd)
{
    double s, level = J->fc;
    if (!J->rich) return J->fv * qd + J->fc * rd_sign(qd);
    s = J->eps > 0 ? tanh(qd / J->eps) : rd_sign(qd);
    if (J->fs != 0) {
        double r = qd / J->vs;
        level += J->fs * exp(-r * r);
    }
    return J->fv * qd + J->f0 + level * s + J->fa * fabs(s);
}
/* d tau_f / d qd (friction.py: friction_slopes); the step (eps = 0) contributes 0, at 0 too. */
static inline double rd_friction_slope(const rd_joint *J, double qd)
{
    double s, ds, e = 0, slope;
    if (!J->rich || J->eps <= 0) {
        if (!J->rich || J->fs == 0) return J->fv;
        s = rd_sign(qd);
        ds = 0;
    } else {
        s = tanh(qd / J->eps);
        ds = (1 - s * s) / J->eps;
    }
    if (J->fs != 0) {
        double r = qd / J->vs;
        e = exp(-r * r);
    }
    slope = J->fv + (J->fc + J->fs * e) * ds + J->fa * rd_sign(qd) * ds;
    if (J->fs != 0) slope -= 2 * J->fs * e * s * qd / (J->vs * J->vs);
    return slope;
}
#endif
