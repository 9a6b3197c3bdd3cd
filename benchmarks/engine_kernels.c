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
 * The engine's kernels timed alone, without Python: built by engine_kernels.py with a tree's
 * engine/src/*.c (binding excluded). Usage: engine_kernels MODEL.bin CALLS TIMINGS, MODEL.bin a
 * packed model (robot_dynamics.engine.pack, float64). Prints one line "kernel=ns ..." of the
 * best time per call over TIMINGS timings of CALLS calls each; q moves by 1e-9 every call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"

#define MAX_JOINTS 128

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double q[MAX_JOINTS], qd[MAX_JOINTS], qdd[MAX_JOINTS], tau[MAX_JOINTS];
static double M[MAX_JOINTS * MAX_JOINTS], lanes_tau[4][MAX_JOINTS];
static double D[3 * MAX_JOINTS * MAX_JOINTS];                  /* three n x n derivatives */
static double lanes_D[4][3 * RD_LANES_MAX * RD_LANES_MAX];

/* One call of kernel k; returns a value of its output (kept, so the call is not elided). */
static double call(rd_model *m, int k, const double *const *const *x, double *const *out,
                   double *const *dout)
{
    const size_t n2 = (size_t)m->n * (size_t)m->n;
    switch (k) {
    case 0: rd_rnea(m, q, qd, qdd, 1, 1, NULL, tau); return tau[0];
    case 1: rd_gravity(m, q, tau); return tau[0];
    case 2: rd_crba(m, q, M); return M[0];
    case 3: rd_forward(m, q, qd, qdd, NULL, tau); return tau[0];
    case 4: rd_coriolis_matrix(m, q, qd, M); return M[0];
    case 5: rd_rnea_derivatives(m, q, qd, qdd, NULL, D, D + n2, D + 2 * n2); return D[1];
    case 6: rd_forward_derivatives(m, q, qd, qdd, NULL, D, D + n2, D + 2 * n2); return D[1];
    case 7: rd_rnea_pair(m, x, out); return out[0][0];
#ifdef RD_HAVE_QUAD
    case 8: rd_rnea_quad(m, x, out); return out[0][0];
    case 9: rd_rnea_derivatives_quad(m, x, dout); return dout[0][1];
    case 10: rd_forward_derivatives_quad(m, x, dout); return dout[0][1];
#ifdef RD_BATCH_KERNELS                 /* a tree with every batch kernel in lanes */
    case 11: rd_gravity_quad(m, x, out); return out[0][0];
    case 12: rd_crba_quad(m, x, dout); return dout[0][1];
    default: rd_forward_quad(m, x, out); return out[0][0];
#else
    default: return 0.0;
#endif
#else
    default: return 0.0;
#endif
    }
}

int main(int argc, char **argv)
{
    static const char *names[] = {"id", "gravity", "crba", "forward", "coriolis",
                                  "id_derivatives", "fd_derivatives", "id_pair", "id_quad",
                                  "id_derivatives_quad", "fd_derivatives_quad", "gravity_quad",
                                  "crba_quad", "forward_quad"};
    static double packed[RD_HEADER + RD_JOINT_STRIDE * MAX_JOINTS];
    const double *rows[4][4];
    const double *const *x[4] = {rows[0], rows[1], rows[2], rows[3]};
    double *out[4] = {lanes_tau[0], lanes_tau[1], lanes_tau[2], lanes_tau[3]};
    double *dout[4] = {lanes_D[0], lanes_D[1], lanes_D[2], lanes_D[3]};
    double sink = 0.0;
    rd_model m;
    FILE *file;
    int n, calls, timings, kernels;
    if (argc != 4 || (file = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: engine_kernels MODEL.bin CALLS TIMINGS\n");
        return 2;
    }
    n = (int)fread(packed, sizeof(double), sizeof packed / sizeof(double), file) > 0
        ? (int)packed[0] : 0;
    fclose(file);
    calls = atoi(argv[2]);
    timings = atoi(argv[3]);
    if (n < 1 || n > MAX_JOINTS || rd_model_init(&m, packed, n) != 0) {
        fprintf(stderr, "engine_kernels: %s is not a packed model of 1-%d joints\n", argv[1],
                MAX_JOINTS);
        return 2;
    }
    for (int i = 0; i < n; ++i) {
        q[i] = -2.0 + 4.0 * (double)((37 * i) % 101) / 100.0;
        qd[i] = 0.7 * q[i];
        qdd[i] = 1.3 * q[i];
    }
    for (int l = 0; l < 4; ++l) {
        rows[l][0] = q; rows[l][1] = qd; rows[l][2] = qdd; rows[l][3] = NULL;
    }
#ifdef RD_BATCH_KERNELS
    kernels = n <= RD_LANES_MAX ? 14 : 7;             /* the lanes serve up to 64 joints */
#else
    kernels = n <= RD_LANES_MAX ? 11 : 7;
#endif
    for (int k = 0; k < kernels; ++k) {
        double best = 1e300;
        for (int t = 0; t < timings; ++t) {
            double start = now(), each;
            for (int c = 0; c < calls; ++c) {
                q[0] += 1e-9;
                sink += call(&m, k, x, out, dout);
            }
            each = (now() - start) / calls;
            best = each < best ? each : best;
        }
        printf("%s=%.1f ", names[k], best * 1e9);
    }
    printf("\n");
    rd_model_free(&m);
    return sink == 0.123456789 ? 1 : 0;                /* never: keeps every call */
}
