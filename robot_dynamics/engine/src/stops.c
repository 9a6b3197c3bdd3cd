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
 * Joint position limits as hard stops, the model of robot_dynamics/simulation/stops.py (the
 * reference these functions follow line by line; test/simulation/test_stops_engine.py holds
 * them to it): after a step, the joints that pass a stop get the impulses that land them on
 * it within the step (perfectly inelastic impacts, coupled through M(q), solved as a linear
 * complementarity problem by active sets: a stop pushes and never pulls), q' = q + dt v, and
 * the landed joints stop dead (the M-orthogonal projection, which never adds kinetic energy).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "integrate.h"

#define SEEN_MAX 64         /* active sets remembered against a cycle (stops.py: all of them) */

int rd_stops_init(rd_stops *s, int n, const double *lower, const double *upper)
{
    size_t nn = (size_t)n * (size_t)n;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->lower = lower;
    s->upper = upper;
    s->L = malloc(sizeof(double) * (3 * nn + 4 * (size_t)n));
    s->flags = malloc((size_t)n * (SEEN_MAX + 4));
    s->index = malloc(sizeof(int) * (size_t)n);
    if (s->L == NULL || s->flags == NULL || s->index == NULL) {
        rd_stops_free(s);
        return -1;
    }
    s->MinvS = s->L + nn;
    s->A = s->MinvS + nn;
    s->target = s->A + nn;
    s->impulse = s->target + n;
    s->after = s->impulse + n;
    s->rhs = s->after + n;
    return 0;
}

void rd_stops_free(rd_stops *s)
{
    free(s->L);
    free(s->flags);
    free(s->index);
    s->L = NULL;
    s->flags = NULL;
    s->index = NULL;
}

/* stops.py _inelastic_impact: the velocity `after` the impulse along the stopped joints that
 * sets them to `target`, from the factor L of M. -1 if M^-1's principal block is singular. */
static int inelastic_impact(rd_stops *s, const double *qd, const char *stopped)
{
    const int n = s->n;
    int i, c, d, k = 0;
    memcpy(s->after, qd, sizeof(double) * (size_t)n);
    memset(s->impulse, 0, sizeof(double) * (size_t)n);
    for (i = 0; i < n; ++i)
        if (stopped[i]) s->index[k++] = i;
    if (k == 0) return 0;
    for (c = 0; c < k; ++c) {                                    /* column c of M^-1 S^T */
        double *col = s->rhs;
        memset(col, 0, sizeof(double) * (size_t)n);
        col[s->index[c]] = 1.0;
        rd_cholesky_solve(s->L, n, col);
        for (i = 0; i < n; ++i) s->MinvS[k * i + c] = col[i];
    }
    for (c = 0; c < k; ++c) {
        for (d = 0; d < k; ++d) s->A[k * c + d] = s->MinvS[k * s->index[c] + d];
        s->rhs[c] = s->target[s->index[c]] - qd[s->index[c]];
    }
    if (rd_cholesky(s->A, k) != 0) return -1;
    rd_cholesky_solve(s->A, k, s->rhs);
    for (i = 0; i < n; ++i)
        for (c = 0; c < k; ++c) s->after[i] += s->MinvS[k * i + c] * s->rhs[c];
    for (c = 0; c < k; ++c) {
        s->impulse[s->index[c]] = s->rhs[c];
        s->after[s->index[c]] = s->target[s->index[c]];      /* exactly */
    }
    return 0;
}

/* stops.py _impact_set: active sets from the joints moving past their target; leaves the
 * velocity in s->after. M is factored into s->L here. */
static int impact_set(rd_model *m, rd_stops *s, const double *q, const double *qd,
                      const char *low, const char *high)
{
    const int n = s->n;
    char *stopped = s->flags + 2 * n, *seen = s->flags + 4 * n;
    int i, seen_count = 0;
    rd_crba(m, q, s->L);
    if (rd_cholesky(s->L, n) != 0) return RD_NOT_SPD;
    for (i = 0; i < n; ++i)          /* a joint at both stops (lower == upper) stays stopped */
        stopped[i] = (low[i] && qd[i] < s->target[i]) || (high[i] && qd[i] > s->target[i])
                     || (low[i] && high[i]);
    for (;;) {
        int change = 0, cycle = 0, k;
        if (inelastic_impact(s, qd, stopped) != 0) return RD_NOT_SPD;
        for (k = 0; k < seen_count && !cycle; ++k)
            cycle = memcmp(seen + (size_t)n * k, stopped, (size_t)n) == 0;
        for (i = 0; i < n; ++i) {
            double p = s->impulse[i], v = s->after[i], t = s->target[i];
            int pulls = stopped[i] && !(low[i] && high[i])
                        && ((low[i] && p < 0) || (high[i] && p > 0));
            int into = !stopped[i] && ((low[i] && v < t) || (high[i] && v > t));
            change |= pulls || into;
        }
        if (!change || cycle || seen_count == SEEN_MAX) return RD_OK;
        memcpy(seen + (size_t)n * seen_count++, stopped, (size_t)n);
        for (i = 0; i < n; ++i) {
            double p = s->impulse[i], v = s->after[i], t = s->target[i];
            if (stopped[i] && !(low[i] && high[i]) && ((low[i] && p < 0) || (high[i] && p > 0)))
                stopped[i] = 0;
            else if (!stopped[i] && ((low[i] && v < t) || (high[i] && v > t))) stopped[i] = 1;
        }
    }
}

/* stops.py apply_position_limits for q within the limits: the landed joints stop dead. */
static int halt_at_stops(rd_model *m, rd_stops *s, const double *q, double *qd)
{
    const int n = s->n;
    char *low = s->flags, *high = s->flags + n;
    int i, moving = 0, status;
    for (i = 0; i < n; ++i) {
        low[i] = q[i] <= s->lower[i] || s->lower[i] == s->upper[i];
        high[i] = q[i] >= s->upper[i] || s->lower[i] == s->upper[i];
        moving |= (low[i] && qd[i] < 0) || (high[i] && qd[i] > 0);
        s->target[i] = 0.0;
    }
    if (!moving) return RD_OK;
    status = impact_set(m, s, q, qd, low, high);
    if (status == RD_OK) memcpy(qd, s->after, sizeof(double) * (size_t)n);
    return status;
}

int rd_stop_step(rd_model *m, rd_stops *s, const double *q, double dt, double *q_next,
                 double *qd_next)
{
    const int n = s->n;
    char *low = s->flags, *high = s->flags + n;
    int i, passing = 0, status;
    for (i = 0; i < n; ++i) {
        low[i] = q_next[i] < s->lower[i] || s->lower[i] == s->upper[i];     /* locked: both */
        high[i] = q_next[i] > s->upper[i] || s->lower[i] == s->upper[i];
        passing |= low[i] || high[i];
        s->target[i] = low[i] ? (s->lower[i] - q[i]) / dt
                              : high[i] ? (s->upper[i] - q[i]) / dt : 0.0;
    }
    if (!passing) return RD_OK;
    status = impact_set(m, s, q, qd_next, low, high);
    if (status != RD_OK) return status;
    for (i = 0; i < n; ++i) {
        qd_next[i] = s->after[i];
        q_next[i] = fmin(fmax(q[i] + dt * qd_next[i], s->lower[i]), s->upper[i]);
    }
    return halt_at_stops(m, s, q_next, qd_next);
}
