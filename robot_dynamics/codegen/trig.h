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
 * sin q, cos q and the versine 1 - cos q of a joint angle, for the engine (engine/src: every
 * rotation, R = Rt + sin q RtK + (1 - cos q) RtK2) and for generated C (emit.py copies this file
 * and trig_lanes.h into every generated module). Written out rather than taken from the C
 * library so that the lanes of a batch (trig_lanes.h) compute the same bits as one call, and
 * for speed: the library's sin and cos were half the time of a batched inverse dynamics.
 *
 * The method is fdlibm's: q = k pi/2 + r with pi/2 in three parts (Cody-Waite; exact for
 * |k| < 2^20), its minimax polynomials for sin r and cos r on |r| <= pi/4 (error under one unit
 * in the last place), then the quadrant k mod 4. Beyond |q| = RD_TRIG_MAX (1e5 rad, ten times
 * the model's plausibility bound) the C library takes over. Compile without floating-point
 * contraction (-ffp-contract=off) for the bit-for-bit agreement of lanes and single calls.
 */
#ifndef RD_TRIG_H
#define RD_TRIG_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define RD_TRIG_MAX 1.0e5
#define RD_ROUNDING 6755399441055744.0          /* 1.5 * 2^52: x + it - it rounds x */
#define RD_2_OVER_PI 6.36619772367581382433e-01
#define RD_PI_2_A 1.57079632673412561417e+00    /* first 33 bits of pi/2 */
#define RD_PI_2_B 6.07710050630396597660e-11    /* next 33 bits */
#define RD_PI_2_C 2.02226624879595063154e-21    /* pi/2 - A - B */
/* fdlibm __kernel_sin and __kernel_cos: sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2) */
#define RD_SIN_POLY(z_) (-1.66666666666666324348e-01 + (z_) * (8.33333333332248946124e-03 \
    + (z_) * (-1.98412698298579493134e-04 + (z_) * (2.75573137070700676789e-06            \
    + (z_) * (-2.50507602534068634195e-08 + (z_) * 1.58969099521155010221e-10)))))
#define RD_COS_POLY(z_) (4.16666666666666019037e-02 + (z_) * (-1.38888888888741095749e-03 \
    + (z_) * (2.48015872894767294178e-05 + (z_) * (-2.75573143513906633035e-07           \
    + (z_) * (2.08757232129817482790e-09 + (z_) * -1.13596475577881948265e-11)))))

/* q = k pi/2 + r, |q| <= RD_TRIG_MAX: sin r, cos r; returns k mod 4 */
static inline int rd_trig_reduce(double q, double *sin_r, double *cos_r)
{
    double t = q * RD_2_OVER_PI + RD_ROUNDING, k = t - RD_ROUNDING;    /* nearest k */
    double r, z;
    int64_t bits;
    memcpy(&bits, &t, sizeof bits);                                      /* low bits: k */
    r = ((q - k * RD_PI_2_A) - k * RD_PI_2_B) - k * RD_PI_2_C;
    z = r * r;
    *sin_r = r + (r * z) * RD_SIN_POLY(z);
    *cos_r = 1.0 - (0.5 * z - z * (z * RD_COS_POLY(z)));
    return (int)(bits & 3);
}

/* sin(k pi/2 + r) from sin r and cos r; cos(k pi/2 + r) is the same at k + 1 */
static inline double rd_trig_quadrant(int k, double sin_r, double cos_r)
{
    switch (k & 3) {
    case 0: return sin_r;
    case 1: return cos_r;
    case 2: return -sin_r;
    default: return -cos_r;
    }
}

static inline void rd_sin_versine(double q, double *s, double *v)
{
    double sin_r, cos_r;
    int k;
    if (!(fabs(q) <= RD_TRIG_MAX)) {
        *s = sin(q);
        *v = 1.0 - cos(q);
        return;
    }
    k = rd_trig_reduce(q, &sin_r, &cos_r);
    *s = rd_trig_quadrant(k, sin_r, cos_r);
    *v = 1.0 - rd_trig_quadrant(k + 1, sin_r, cos_r);
}

static inline double rd_sin(double q)
{
    double sin_r, cos_r;
    int k;
    if (!(fabs(q) <= RD_TRIG_MAX)) return sin(q);
    k = rd_trig_reduce(q, &sin_r, &cos_r);        /* before sin_r, cos_r are read */
    return rd_trig_quadrant(k, sin_r, cos_r);
}

static inline double rd_cos(double q)
{
    double sin_r, cos_r;
    int k;
    if (!(fabs(q) <= RD_TRIG_MAX)) return cos(q);
    k = rd_trig_reduce(q, &sin_r, &cos_r);
    return rd_trig_quadrant(k + 1, sin_r, cos_r);
}

#endif
