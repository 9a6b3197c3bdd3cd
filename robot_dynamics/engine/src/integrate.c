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
 * Time integration of the forward dynamics, as robot_dynamics.simulation.integrators: explicit
 * Euler (Craig 6.117), semi-implicit (symplectic) Euler, the classical RK4 of seed 002 7 and
 * an Euler step implicit in the joints' velocity-dependent forces (MuJoCo's implicitfast) or in
 * these and the Coriolis term (MuJoCo's implicit), the torque held over each step. The arithmetic follows the numpy integrators term by term.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "integrate.h"

static int finite_vector(const double *x, int n)
{
    for (int i = 0; i < n; ++i)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* qdd = FD(q, qd, tau), the state checked first as the numpy integrators do */
static int accel(rd_model *m, const double *q, const double *qd, const double *tau,
                 const double *f_tip, double *qdd)
{
    if (!finite_vector(q, m->n) || !finite_vector(qd, m->n)) return RD_NONFINITE_WITHIN;
    return rd_forward(m, q, qd, tau, f_tip, qdd) == 0 ? RD_OK : RD_NOT_SPD;
}

#define CHECK(call) do { int status_ = (call); if (status_ != RD_OK) return status_; } while (0)

static int rk4(rd_model *m, const double *q, const double *qd, const double *tau,
               const double *f_tip, double dt, double *q_next, double *qd_next, double *qdd)
{
    const int n = m->n;
    double *k2v = m->w.sim, *k3v = k2v + n, *k4v = k3v + n, *y = k4v + n, *yd = y + n;
    double *k2q = yd + n, *k3q = k2q + n, *k4q = k3q + n;
    double h = 0.5 * dt;
    int i;
    CHECK(accel(m, q, qd, tau, f_tip, qdd));                                   /* k1 */
    for (i = 0; i < n; ++i) {
        k2q[i] = qd[i] + h * qdd[i];
        y[i] = q[i] + h * qd[i];
        yd[i] = qd[i] + h * qdd[i];
    }
    CHECK(accel(m, y, yd, tau, f_tip, k2v));
    for (i = 0; i < n; ++i) {
        k3q[i] = qd[i] + h * k2v[i];
        y[i] = q[i] + h * k2q[i];
        yd[i] = qd[i] + h * k2v[i];
    }
    CHECK(accel(m, y, yd, tau, f_tip, k3v));
    for (i = 0; i < n; ++i) {
        k4q[i] = qd[i] + dt * k3v[i];
        y[i] = q[i] + dt * k3q[i];
        yd[i] = qd[i] + dt * k3v[i];
    }
    CHECK(accel(m, y, yd, tau, f_tip, k4v));
    for (i = 0; i < n; ++i) {
        q_next[i] = q[i] + dt / 6.0 * (qd[i] + 2 * k2q[i] + 2 * k3q[i] + k4q[i]);
        qd_next[i] = qd[i] + dt / 6.0 * (qdd[i] + 2 * k2v[i] + 2 * k3v[i] + k4v[i]);
    }
    return RD_OK;
}

/* A = P L U in place by Gaussian elimination with partial pivoting (A n x n, row-major;
 * piv[k] the row swapped with row k, held as a double in the engine's scratch). Returns -1
 * on a zero pivot. For the non-symmetric matrix of the Coriolis-implicit step. */
static int lu_factor(double *A, int n, double *piv)
{
    int i, j, k;
    for (k = 0; k < n; ++k) {
        int p = k;
        for (i = k + 1; i < n; ++i)
            if (fabs(A[n * i + k]) > fabs(A[n * p + k])) p = i;
        if (!(fabs(A[n * p + k]) > 0)) return -1;
        piv[k] = p;
        for (j = 0; j < n && p != k; ++j) {
            double t = A[n * k + j];
            A[n * k + j] = A[n * p + j];
            A[n * p + j] = t;
        }
        for (i = k + 1; i < n; ++i) {
            double l = A[n * i + k] /= A[n * k + k];
            for (j = k + 1; j < n; ++j) A[n * i + j] -= l * A[n * k + j];
        }
    }
    return 0;
}

/* x = A^-1 x with the factors of lu_factor */
static void lu_solve(const double *A, int n, const double *piv, double *x)
{
    int i, j;
    for (i = 0; i < n; ++i) {
        int p = (int)piv[i];
        double t = x[p];
        x[p] = x[i];
        x[i] = t;
        for (j = 0; j < i; ++j) x[i] -= A[n * i + j] * x[j];
    }
    for (i = n - 1; i >= 0; --i) {
        for (j = i + 1; j < n; ++j) x[i] -= A[n * i + j] * x[j];
        x[i] /= A[n * i + i];
    }
}

/* 1-norm (largest column sum of |a_ij|) of A (n x n) */
static double norm1(const double *A, int n)
{
    double largest = 0.0;
    for (int j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int i = 0; i < n; ++i) sum += fabs(A[n * i + j]);
        largest = fmax(largest, sum);
    }
    return largest;
}

/* x = W^-1 x, W destroyed; -1 if W is singular to working precision: its 1-norm condition
 * number ||W||_1 ||W^-1||_1 (W^-1 column by column from the factors, exact, not estimated)
 * above RD_MAX_STEP_CONDITION, the criterion of the numpy twin (simulation/integrators.py).
 * col (n) and piv (n) are scratch. */
static int solve_step_matrix(double *W, int n, double *x, double *col, double *piv)
{
    double norm = norm1(W, n), inverse = 0.0;
    if (lu_factor(W, n, piv) != 0) return -1;
    for (int j = 0; j < n; ++j) {
        double sum = 0.0;
        memset(col, 0, sizeof(double) * (size_t)n);
        col[j] = 1.0;
        lu_solve(W, n, piv, col);
        for (int i = 0; i < n; ++i) sum += fabs(col[i]);
        inverse = fmax(inverse, sum);
    }
    if (!(norm * inverse <= RD_MAX_STEP_CONDITION)) return -1;
    lu_solve(W, n, piv, x);
    return 0;
}

/* W = M + dt D, D = diag(max(d tau_f / d qd, 0)) (implicit) or, with the Coriolis term's
 * velocity derivative (implicit_coriolis), W = M + dt (d b / d qd - diag(min(d tau_f / d qd, 0)))
 * = M + dt (d(C qd)/d qd + D) from the inverse dynamics' derivatives at qdd = 0. Fills M and
 * W; b = V + G + F + J^T f_tip was computed first (w.b), the placements are those of q. */
static void step_matrix(rd_model *m, int coriolis, const double *q, const double *qd,
                        const double *f_tip, double dt, double *M, double *W)
{
    const int n = m->n;
    int i, j;
    if (coriolis) {
        rd_rnea_derivatives(m, q, qd, m->w.zero, f_tip, m->w.Z, W, M);     /* W = d b / d qd */
        for (i = 0; i < n; ++i) {
            for (j = 0; j < n; ++j) W[n * i + j] = M[n * i + j] + dt * W[n * i + j];
            W[n * i + i] -= dt * fmin(rd_friction_slope(m->J + i, qd[i]), 0.0);
        }
        return;
    }
    rd_crba_placed(m, M);
    memcpy(W, M, sizeof(double) * (size_t)n * (size_t)n);
    for (i = 0; i < n; ++i) W[n * i + i] += dt * fmax(rd_friction_slope(m->J + i, qd[i]), 0.0);
}

/* Implicit in the velocity-dependent forces (robot_dynamics.simulation.schemes._implicit):
 * W (qd' - qd) = dt (tau - b(q, qd)) with W of step_matrix at the start of the step,
 * q' = q + dt qd'. qdd is the explicit acceleration M^-1 (tau - b) at the start of the step. */
static int implicit(rd_model *m, int coriolis, const double *q, const double *qd,
                    const double *tau, const double *f_tip, double dt, double *q_next,
                    double *qd_next, double *qdd)
{
    const int n = m->n;
    double *M = m->w.M, *W = m->w.Mh, *b = m->w.b, *dv = m->w.sim;
    int i, singular;
    if (!finite_vector(q, n) || !finite_vector(qd, n)) return RD_NONFINITE_WITHIN;
    memset(m->w.zero, 0, sizeof(double) * (size_t)n);
    rd_rnea(m, q, qd, m->w.zero, 1, 1, f_tip, b);          /* b = V + G + F + J^T f_tip */
    step_matrix(m, coriolis, q, qd, f_tip, dt, M, W);
    for (i = 0; i < n; ++i) qdd[i] = dv[i] = tau[i] - b[i];
    if (rd_cholesky(M, n) != 0) return RD_NOT_SPD;
    singular = coriolis ? solve_step_matrix(W, n, dv, dv + n, dv + 2 * n) : rd_cholesky(W, n);
    if (singular != 0) return RD_NOT_SPD;
    rd_cholesky_solve(M, n, qdd);
    if (!coriolis) rd_cholesky_solve(W, n, dv);
    for (i = 0; i < n; ++i) {
        qd_next[i] = qd[i] + dt * dv[i];
        q_next[i] = q[i] + dt * qd_next[i];
    }
    return RD_OK;
}

int rd_step(rd_model *m, int integrator, const double *q, const double *qd, const double *tau,
            const double *f_tip, double dt, double *q_next, double *qd_next, double *qdd)
{
    const int n = m->n;
    int i;
    if (integrator == RD_RK4) {
        CHECK(rk4(m, q, qd, tau, f_tip, dt, q_next, qd_next, qdd));
    } else if (integrator == RD_IMPLICIT || integrator == RD_IMPLICIT_CORIOLIS) {
        CHECK(implicit(m, integrator == RD_IMPLICIT_CORIOLIS, q, qd, tau, f_tip, dt, q_next,
                       qd_next, qdd));
    } else {
        CHECK(accel(m, q, qd, tau, f_tip, qdd));
        for (i = 0; i < n; ++i) {
            double v = qd[i] + qdd[i] * dt;
            q_next[i] = integrator == RD_EULER ? q[i] + qd[i] * dt + 0.5 * qdd[i] * dt * dt
                                               : q[i] + v * dt;
            qd_next[i] = v;
        }
    }
    if (!finite_vector(q_next, n) || !finite_vector(qd_next, n)) return RD_NONFINITE;
    return RD_OK;
}

int rd_simulate(rd_model *m, const rd_run *run, double *Q, double *QD, double *QDD,
                double *TAU, double *E, long *at)
{
    const int n = m->n;
    long k;
    for (k = 0; k <= run->steps; ++k) {
        double *q = Q + n * k, *qd = QD + n * k, *tau = TAU + n * k;
        if (run->torque == RD_TORQUE_GRAVITY) rd_gravity(m, q, tau);
        else memcpy(tau, run->tau + (run->torque == RD_TORQUE_PER_STEP ? n * k : 0),
                    sizeof(double) * (size_t)n);
        *at = k;
        if (k == run->steps) {
            if (rd_forward(m, q, qd, tau, run->f_tip, QDD + n * k) != 0) return RD_NOT_SPD;
            break;
        }
        CHECK(rd_step(m, run->integrator, q, qd, tau, run->f_tip, run->dt, q + n, qd + n,
                      QDD + n * k));
        if (run->stops != NULL) CHECK(rd_stop_step(m, run->stops, q, run->dt, q + n, qd + n));
        if (run->check_energy && rd_kinetic_energy(m, q + n, qd + n)
                + rd_potential_energy(m, q + n) > run->energy_limit)
            return RD_RUNAWAY;
    }
    for (k = 0; k <= run->steps; ++k)
        E[k] = rd_kinetic_energy(m, Q + n * k, QD + n * k) + rd_potential_energy(m, Q + n * k);
    return RD_OK;
}
