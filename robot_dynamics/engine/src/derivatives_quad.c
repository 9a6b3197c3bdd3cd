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
 * Batches of inverse- and forward-dynamics derivatives four rows at a time: derivatives_lanes.h on
 * four-lane vectors compiled for AVX2, used only where the processor has it (module.c, as for
 * rnea_quad.c). Elsewhere the _quad functions are absent.
 */
#if defined(__GNUC__) && defined(__x86_64__)
#pragma GCC target("avx2")

#include <math.h>
#include <string.h>

#include "engine.h"
#include "trig.h"

#define LANES 4
typedef double VEC __attribute__((vector_size(32)));
typedef long long IVEC __attribute__((vector_size(32)));
#define SPLAT(x_) ((VEC){(x_), (x_), (x_), (x_)})
#define FUNCTION rd_rnea_derivatives_quad
#define FD_FUNCTION rd_forward_derivatives_quad
#include "derivatives_lanes.h"

#else
typedef int rd_no_derivatives_quad;     /* ISO C: a translation unit is not empty */
#endif
