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
 * A whole simulation in one call: the run's settings; the Coriolis-implicit scheme's code
 * (beside engine.h's RD_EULER ... RD_IMPLICIT) and the joint stops (stops.c).
 */
#ifndef RD_INTEGRATE_H
#define RD_INTEGRATE_H

#include "engine.h"

enum { RD_IMPLICIT_CORIOLIS = 4 };     /* implicit with d(C qd)/d qd too (MuJoCo's implicit) */

/* The Coriolis-implicit step refuses (RD_NOT_SPD) a step matrix W = M + dt (D + 2C) whose
 * 1-norm condition number exceeds this: its solve would return round-off (a W singular to
 * working precision). Equal to MAX_STEP_CONDITION of simulation/integrators.py. */
#define RD_MAX_STEP_CONDITION 1e10

/* Hard stops at the joint limits (stops.c, the model of simulation/stops.py): the limits and
 * a scratch block for n joints (rd_stops_init allocates it, rd_stops_free releases it). */
typedef struct {
    int n;
    const double *lower, *upper;            /* (n,), -inf / +inf where a joint has none */
    double *L, *MinvS, *A, *target, *impulse, *after, *rhs;
    char *flags;
    int *index;
} rd_stops;

int rd_stops_init(rd_stops *s, int n, const double *lower, const double *upper);
void rd_stops_free(rd_stops *s);
/* The stops acting on the step from q (within the limits) to (q_next, qd_next), in place:
 * RD_OK, or RD_NOT_SPD if a mass matrix is not positive definite. */
int rd_stop_step(rd_model *m, rd_stops *s, const double *q, double dt, double *q_next,
                 double *qd_next);

enum { RD_TORQUE_CONSTANT = 0, RD_TORQUE_PER_STEP = 1, RD_TORQUE_GRAVITY = 2 };

typedef struct {
    int integrator, torque, check_energy;
    const double *tau;          /* (n,) constant or (steps + 1, n) per step; unused for gravity */
    const double *f_tip;        /* (6,) or NULL */
    rd_stops *stops;            /* the joint limits as hard stops, or NULL */
    double dt, energy_limit;
    long steps;
} rd_run;

/* Q, QD (steps + 1, n) hold the initial state in row 0 and receive the trajectory; QDD, TAU
 * (steps + 1, n) and E (steps + 1) are filled. Returns an RD_ status; *at is the step reached. */
int rd_simulate(rd_model *m, const rd_run *run, double *Q, double *QD, double *QDD,
                double *TAU, double *E, long *at);

#endif
