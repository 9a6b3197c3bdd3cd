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
 * Batches of inverse dynamics two rows at a time: rnea_lanes.h on two-lane GCC vectors (SSE2
 * on x86-64, NEON on aarch64); elsewhere the scalar recursion twice.
 */
#include <math.h>

#include "engine.h"
#include "trig.h"

#if defined(__GNUC__)

#define LANES 2
typedef double VEC __attribute__((vector_size(16)));
typedef long long IVEC __attribute__((vector_size(16)));
#define SPLAT(x_) ((VEC){(x_), (x_)})
#define FUNCTION rd_rnea_pair
#include "rnea_lanes.h"

#else

int rd_rnea_pair(rd_model *m, const double *const *const *x, double *const *tau)
{
    for (int l = 0; l < 2; ++l) rd_rnea(m, x[l][0], x[l][1], x[l][2], 1, 1, x[l][3], tau[l]);
    return 0;
}

#endif
