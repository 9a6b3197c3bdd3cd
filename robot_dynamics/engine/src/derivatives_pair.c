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
 * Batches of inverse- and forward-dynamics derivatives two rows at a time: derivatives_lanes.h
 * on two-lane GCC vectors (SSE2 on x86-64, NEON on aarch64); elsewhere the scalar kernels.
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "trig.h"

#if defined(__GNUC__)

#define LANES 2
typedef double VEC __attribute__((vector_size(16)));
typedef long long IVEC __attribute__((vector_size(16)));
#define SPLAT(x_) ((VEC){(x_), (x_)})
#define FUNCTION rd_rnea_derivatives_pair
#define FD_FUNCTION rd_forward_derivatives_pair
#include "derivatives_lanes.h"

#else

int rd_rnea_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    for (int l = 0; l < 2; ++l)
        rd_rnea_derivatives(m, x[l][0], x[l][1], x[l][2], x[l][3], out[l], out[l] + nn,
                            out[l] + 2 * nn);
    return 0;
}

int rd_forward_derivatives_pair(rd_model *m, const double *const *const *x, double *const *out)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    for (int l = 0; l < 2; ++l)
        if (rd_forward_derivatives(m, x[l][0], x[l][1], x[l][2], x[l][3], out[l], out[l] + nn,
                                   out[l] + 2 * nn) != 0)
            return RD_NOT_SPD;
    return 0;
}

#endif
