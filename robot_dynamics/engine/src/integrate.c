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
 * an Euler step implicit in the joints' velocity-dependent forces (MuJoCo's implicitfast), the
 * torque held over each step. The arithmetic follows the numpy integrators term by term.
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

/* Implicit in the joint friction and damping (robot_dynamics.simulation.schemes._implicit):
 * (M + dt D) (qd' - qd) = dt (tau - b(q, qd)), D = diag(max(d tau_f / d qd, 0)) at the start,
 * q' = q + dt qd'. qdd is the explicit acceleration M^-1 (tau - b) at the start of the step. */
static int implicit(rd_model *m, const double *q, const double *qd, const double *tau,
                    const double *f_tip, double dt, double *q_next, double *qd_next,
                    double *qdd)
{
    const int n = m->n;
    double *M = m->w.M, *Mh = m->w.Mh, *b = m->w.b, *dv = m->w.sim;
    int i;
    if (!finite_vector(q, n) || !finite_vector(qd, n)) return RD_NONFINITE_WITHIN;
    memset(m->w.zero, 0, sizeof(double) * (size_t)n);
    rd_rnea(m, q, qd, m->w.zero, 1, 1, f_tip, b);          /* b = V + G + F + J^T f_tip */
    rd_crba_placed(m, M);
    memcpy(Mh, M, sizeof(double) * (size_t)n * (size_t)n);
    for (i = 0; i < n; ++i) {
        Mh[n * i + i] += dt * fmax(rd_friction_slope(m->J + i, qd[i]), 0.0);
        qdd[i] = dv[i] = tau[i] - b[i];
    }
    if (rd_cholesky(M, n) != 0 || rd_cholesky(Mh, n) != 0) return RD_NOT_SPD;
    rd_cholesky_solve(M, n, qdd);
    rd_cholesky_solve(Mh, n, dv);
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
    } else if (integrator == RD_IMPLICIT) {
        CHECK(implicit(m, q, qd, tau, f_tip, dt, q_next, qd_next, qdd));
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
        if (run->check_energy && rd_kinetic_energy(m, q + n, qd + n)
                + rd_potential_energy(m, q + n) > run->energy_limit)
            return RD_RUNAWAY;
    }
    for (k = 0; k <= run->steps; ++k)
        E[k] = rd_kinetic_energy(m, Q + n * k, QD + n * k) + rd_potential_energy(m, Q + n * k);
    return RD_OK;
}
