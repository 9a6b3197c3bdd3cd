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
 * trig.h on LANES angles at once, the same operations lane by lane (so the same bits), for GCC
 * vector types: included after trig.h by the engine's batch kernels (engine/src/lanes.h)
 * and copied by emit.py into generated C. Define VEC (LANES doubles) and IVEC (LANES 64-bit
 * integers) and LANES first. No include guard: one copy per vector width.
 */
static inline VEC vselect(IVEC mask, VEC a, VEC b)                    /* mask ? a : b */
{
    return (VEC)(((IVEC)a & mask) | ((IVEC)b & ~mask));
}

static inline VEC vflip(VEC x, IVEC sign)                             /* -x where sign bit set */
{
    return (VEC)((IVEC)x ^ sign);
}

static inline int vtrig_in_range(VEC q)
{
    for (int l = 0; l < LANES; ++l)
        if (!(fabs(q[l]) <= RD_TRIG_MAX)) return 0;
    return 1;
}

/* rd_trig_reduce on every lane: sin r, cos r; returns bits whose low two are k mod 4 */
static inline IVEC vtrig_reduce(VEC q, VEC *sin_r, VEC *cos_r)
{
    VEC t = q * RD_2_OVER_PI + RD_ROUNDING, k = t - RD_ROUNDING;
    VEC r = ((q - k * RD_PI_2_A) - k * RD_PI_2_B) - k * RD_PI_2_C, z = r * r;
    *sin_r = r + (r * z) * RD_SIN_POLY(z);
    *cos_r = 1.0 - (0.5 * z - z * (z * RD_COS_POLY(z)));
    return (IVEC)t;
}

/* rd_trig_quadrant on every lane: sin(k pi/2 + r); at k + 1, cos(k pi/2 + r) */
static inline VEC vtrig_quadrant(IVEC k, VEC sin_r, VEC cos_r)
{
    return vflip(vselect(-(k & 1), cos_r, sin_r), (k & 2) << 62);   /* odd k: cos; 2, 3: - */
}

static inline void vsin_versine(VEC q, VEC *s, VEC *v)
{
    VEC sin_r, cos_r;
    IVEC k;
    if (!vtrig_in_range(q)) {                               /* rare: lane by lane */
        for (int l = 0; l < LANES; ++l) rd_sin_versine(q[l], &(*s)[l], &(*v)[l]);
        return;
    }
    k = vtrig_reduce(q, &sin_r, &cos_r);
    *s = vtrig_quadrant(k, sin_r, cos_r);
    *v = 1.0 - vtrig_quadrant(k + 1, sin_r, cos_r);
}

/* sin(q + quarter pi/2): vsin at quarter 0, vcos at 1 */
static inline VEC vsin_quarter(VEC q, int quarter)
{
    VEC sin_r, cos_r, out;
    IVEC k;
    if (!vtrig_in_range(q)) {
        for (int l = 0; l < LANES; ++l) out[l] = quarter ? rd_cos(q[l]) : rd_sin(q[l]);
        return out;
    }
    k = vtrig_reduce(q, &sin_r, &cos_r);          /* before sin_r, cos_r are read */
    return vtrig_quadrant(k + quarter, sin_r, cos_r);
}

static inline VEC vsin(VEC q)
{
    return vsin_quarter(q, 0);
}

static inline VEC vcos(VEC q)
{
    return vsin_quarter(q, 1);
}
