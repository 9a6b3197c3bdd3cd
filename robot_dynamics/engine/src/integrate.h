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
 * A whole simulation in one call: the run's settings.
 */
#ifndef RD_INTEGRATE_H
#define RD_INTEGRATE_H

#include "engine.h"

enum { RD_TORQUE_CONSTANT = 0, RD_TORQUE_PER_STEP = 1, RD_TORQUE_GRAVITY = 2 };

typedef struct {
    int integrator, torque, check_energy;
    const double *tau;          /* (n,) constant or (steps + 1, n) per step; unused for gravity */
    const double *f_tip;        /* (6,) or NULL */
    double dt, energy_limit;
    long steps;
} rd_run;

/* Q, QD (steps + 1, n) hold the initial state in row 0 and receive the trajectory; QDD, TAU
 * (steps + 1, n) and E (steps + 1) are filled. Returns an RD_ status; *at is the step reached. */
int rd_simulate(rd_model *m, const rd_run *run, double *Q, double *QD, double *QDD,
                double *TAU, double *E, long *at);

#endif
