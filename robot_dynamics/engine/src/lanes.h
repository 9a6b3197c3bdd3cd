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
 * The scalar of a kernel written once (rnea_body.h, ...): define RD_LANES to 1, 2 or 4, then
 * include this header first (before engine.h: the four-lane build switches the translation unit
 * to AVX2), then the kernel's body.
 *   1: RD_T = double and the names rd_* (spatial.h's double instance, engine.h's helpers).
 *   2: two-lane GCC vectors (SSE2 on x86-64, NEON on aarch64), names rdv_*.
 *   4: four-lane GCC vectors compiled for AVX2 (x86-64 only), names rdv_*; module.c uses them
 *      only where the processor has AVX2 (ROBOT_DYNAMICS_NO_AVX2=1 keeps the pairs).
 * It defines LANES, RD_T, RD_SP(name), RD_SPLAT(x), RD_LANES_FN(name) (name_pair, name_quad),
 * RD_HAVE_LANES (0 where this width cannot be built: no GCC vectors, or four lanes off x86-64),
 * VEC, IVEC and SPLAT for the vector widths (trig_lanes.h's names), and for every width the
 * row access of a batch, x[l] = {q, qd, qdd or tau, f_tip or NULL} and out[l] of row l:
 *   RD_SP(load)(x, k, i)       x[l][k][i] of every lane
 *   RD_SP(store)(out, i, v)    out[l][i] = v of every lane
 *   rdv_scatter(A, nn, out, o) out[l][o + k] = A[k] of every lane, k < nn (lanes only)
 * and the joint effects lane by lane: RD_SP(sign), RD_SP(friction), RD_SP(friction_slope).
 * No include guard: one width per translation unit.
 */
#if RD_LANES == 4 && defined(__GNUC__) && defined(__x86_64__)
#pragma GCC target("avx2")
#define RD_HAVE_LANES 1
#elif RD_LANES == 2 && defined(__GNUC__)
#define RD_HAVE_LANES 1
#elif RD_LANES == 1
#define RD_HAVE_LANES 1
#else
#define RD_HAVE_LANES 0
#endif

#include <math.h>
#include <string.h>

#include "engine.h"

#define LANES RD_LANES
#if RD_LANES == 2
#define RD_LANES_FN(name_) name_##_pair
#elif RD_LANES == 4
#define RD_LANES_FN(name_) name_##_quad
#endif

#if RD_LANES == 1
/* ------------------------------------------------------------------ one row, doubles */
#define RD_T double
#define RD_SP(name_) rd_##name_
#define RD_SPLAT(x_) (x_)

static inline double rd_load(const double *const *const *x, int k, int i)
{
    return x[0][k][i];
}

static inline void rd_store(double *const *out, int i, double v)
{
    out[0][i] = v;
}

#elif RD_HAVE_LANES
/* ------------------------------------------------------------------ LANES rows, GCC vectors */
#if RD_LANES == 2
typedef double VEC __attribute__((vector_size(16)));
typedef long long IVEC __attribute__((vector_size(16)));
#define SPLAT(x_) ((VEC){(x_), (x_)})
#else
typedef double VEC __attribute__((vector_size(32)));
typedef long long IVEC __attribute__((vector_size(32)));
#define SPLAT(x_) ((VEC){(x_), (x_), (x_), (x_)})
#endif

#include "trig_lanes.h"        /* vsin_versine: trig.h on every lane */

#define RD_T VEC
#define RD_SP(name_) rdv_##name_
#define RD_SPLAT(x_) SPLAT(x_)
#define RD_SIN_VERSINE vsin_versine
#define RD_PLACE_ATTR inline
#include "spatial.h"           /* rdv_cross, rdv_placement, ...: the algebra on lanes */

static inline VEC rdv_load(const double *const *const *x, int k, int i)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = x[l][k][i];
    return out;
}

static inline void rdv_store(double *const *out, int i, VEC v)
{
    for (int l = 0; l < LANES; ++l) out[l][i] = v[l];
}

#if RD_LANES == 4
#ifdef __clang__
#define SHUFFLE4(a_, b_, i_, j_, k_, l_) __builtin_shufflevector(a_, b_, i_, j_, k_, l_)
#else
#define SHUFFLE4(a_, b_, i_, j_, k_, l_) __builtin_shuffle(a_, b_, (IVEC){i_, j_, k_, l_})
#endif
/* out[l][k..k+3] = A[k..k+3][l] of the four lanes: a 4 x 4 transpose in registers (pair the
 * lanes, then the halves), four stores of four values instead of sixteen lane extractions.
 * Values copied: the bits are unchanged. */
static inline void rdv_transpose4(const VEC *A, int k, double *const *out)
{
    VEC t0 = SHUFFLE4(A[k], A[k + 1], 0, 4, 2, 6), t1 = SHUFFLE4(A[k], A[k + 1], 1, 5, 3, 7);
    VEC t2 = SHUFFLE4(A[k + 2], A[k + 3], 0, 4, 2, 6);
    VEC t3 = SHUFFLE4(A[k + 2], A[k + 3], 1, 5, 3, 7);
    VEC r0 = SHUFFLE4(t0, t2, 0, 1, 4, 5), r1 = SHUFFLE4(t1, t3, 0, 1, 4, 5);
    VEC r2 = SHUFFLE4(t0, t2, 2, 3, 6, 7), r3 = SHUFFLE4(t1, t3, 2, 3, 6, 7);
    memcpy(out[0] + k, &r0, sizeof r0);
    memcpy(out[1] + k, &r1, sizeof r1);
    memcpy(out[2] + k, &r2, sizeof r2);
    memcpy(out[3] + k, &r3, sizeof r3);
}
#endif

/* nn values of every lane (a matrix, row-major) into out[l] + offset. */
static inline void rdv_scatter(const RD_T *A, int nn, double *const *out, int offset)
{
    int k = 0;
    double *o[LANES];
    for (int l = 0; l < LANES; ++l) o[l] = out[l] + offset;
#if RD_LANES == 4
    for (; k + 4 <= nn; k += 4) rdv_transpose4(A, k, o);
#endif
    for (; k < nn; ++k)
        for (int l = 0; l < LANES; ++l) o[l][k] = A[k][l];
}

static inline VEC rdv_sign(VEC x)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = rd_sign(x[l]);
    return out;
}

static inline VEC rdv_friction(const rd_joint *J, VEC qd)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = rd_friction(J, qd[l]);
    return out;
}

static inline VEC rdv_friction_slope(const rd_joint *J, VEC qd)
{
    VEC out;
    for (int l = 0; l < LANES; ++l) out[l] = rd_friction_slope(J, qd[l]);
    return out;
}
#endif
