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
 * The generalized-momentum observer of external joint torques (De Luca & Mattone 2003;
 * Haddadin, De Luca & Albu-Schaeffer, IEEE T-RO 2017, eq. 29): momentum.c computes the
 * momentum terms in one pass and the observer's step; binding_observer.c is its binding.
 * robot_dynamics/contacts/observer.py is the numpy twin and documents the discretisation.
 */
#ifndef RD_OBSERVER_H
#define RD_OBSERVER_H

#include "engine.h"

/* p = M(q) qd (rotor inertia included), c = C(q, qd)^T qd, g = G(q): one O(n) pass. */
void rd_momentum(rd_model *m, const double *q, const double *qd, double *p, double *c,
                 double *g);

/* The observer's state: RD_OBS_HEADER numbers, then RD_OBS_BLOCKS blocks of n (a float64
 * array the Python side owns, robot_dynamics/contacts/observer.py: STATE_LAYOUT).
 *   [0] 1 once a sample was taken, [1] its time t (s), [2] torque hold: 0 linear, 1 held;
 *   K gain (1/s), p momentum, w = C^T qd - g - tau_f and tau of the last sample, r the
 *   estimate, pdot the momentum's rate d(M qd)/dt through the same filter, g of the last
 *   sample. */
#define RD_OBS_HEADER 3
#define RD_OBS_BLOCKS 7
enum { RD_OBS_K, RD_OBS_P, RD_OBS_W, RD_OBS_TAU, RD_OBS_R, RD_OBS_PDOT, RD_OBS_G };

/* One sample (t, q, qd, tau) into the state; r = the estimate of the external torque after
 * it. Returns 0, or -1 if t is not later than the previous sample (state unchanged). */
int rd_observer_update(rd_model *m, double *state, double t, const double *q,
                       const double *qd, const double *tau);
/* The same from the sample's momentum terms (rd_momentum: p, c = C^T qd, g): the step of a
 * batch whose terms were computed on several threads, bit for bit rd_observer_update's. */
int rd_observer_advance(const rd_model *m, double *state, double t, const double *p,
                        const double *c, const double *g, const double *qd, const double *tau);

#ifdef Py_PYTHON_H
/* binding_observer.c: momentum(model, q, qd) -> [p, C^T qd, g] (3, n) or (N, 3, n);
 * momentum_observer(model, state, t, q, qd, tau, series) -> r, or (r, pdot, g) if series. */
PyObject *py_momentum(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
PyObject *py_momentum_observer(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
#endif

#endif
