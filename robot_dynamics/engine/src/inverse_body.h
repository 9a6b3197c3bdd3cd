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
 * What follows from the Cholesky factor L of M (cholesky_body.h) for the forward-dynamics
 * derivatives: M^-1 = L^-T L^-1 and X <- -M^-1 X, written once over the scalar of lanes.h
 * (derivatives_body.h includes it); the loops of one row (doubles) also in an AVX2 clone.
 */
#if RD_LANES == 1
#define RD_DWIDE RD_WIDE
#else
#define RD_DWIDE
#endif

/* M^-1 = L^-T L^-1 from the Cholesky factor L (lower triangle): Z = L^-1 row by row (lower
 * triangular), then (M^-1)_ij = sum_{k >= i, j} Z_ki Z_kj, the lower triangle mirrored. Each
 * element's sum runs k ascending, one term at a time; four terms share a sweep of a row (the
 * terms with Z's zeros above its diagonal are exact no-ops: every sum starts at +0). */
RD_DWIDE static void RD_SP(inverse_from_factor)(const RD_T *L, int n, RD_T *Z, RD_T *Minv)
{
    int i, j, k;
    for (k = 0; k < n * n; ++k) Z[k] = Minv[k] = RD_SPLAT(0.0);
    for (i = 0; i < n; ++i) {
        RD_T *z = Z + n * i;
        const RD_T d = 1.0 / L[n * i + i], *l = L + n * i;
        for (k = 0; k + 4 <= i; k += 4) {
            const RD_T *y0 = Z + n * k, *y1 = y0 + n, *y2 = y1 + n, *y3 = y2 + n;
            for (j = 0; j <= k + 3; ++j)
                z[j] = z[j] - l[k] * y0[j] - l[k + 1] * y1[j] - l[k + 2] * y2[j]
                       - l[k + 3] * y3[j];
        }
        for (; k < i; ++k)
            for (j = 0; j <= k; ++j) z[j] -= l[k] * Z[n * k + j];
        for (j = 0; j < i; ++j) z[j] *= d;
        z[i] = d;
    }
    for (k = 0; k + 4 <= n; k += 4) {
        const RD_T *z0 = Z + n * k, *z1 = z0 + n, *z2 = z1 + n, *z3 = z2 + n;
        for (i = 0; i <= k + 3; ++i) {
            RD_T *row = Minv + n * i;
            for (j = 0; j <= i; ++j)
                row[j] = row[j] + z0[i] * z0[j] + z1[i] * z1[j] + z2[i] * z2[j] + z3[i] * z3[j];
        }
    }
    for (; k < n; ++k) {
        const RD_T *z = Z + n * k;
        for (i = 0; i <= k; ++i) {
            RD_T *row = Minv + n * i;
            for (j = 0; j <= i; ++j) row[j] += z[i] * z[j];
        }
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j) Minv[n * j + i] = Minv[n * i + j];
}

/* x_c = -sum_k a_k t_kc for the columns c from c0 of one row of X <- -M^-1 X (a: M^-1's row),
 * k in fours, then one by one: THE order of every element's sum. */
static RD_INLINE void RD_SP(row_minus)(const RD_T *a, const RD_T *T, int n, int c0, RD_T *x)
{
    int k = 0, c;
    for (c = c0; c < n; ++c) x[c] = RD_SPLAT(0.0);
    for (; k + 4 <= n; k += 4) {
        const RD_T a0 = a[k], a1 = a[k + 1], a2 = a[k + 2], a3 = a[k + 3];
        const RD_T *t0 = T + n * k, *t1 = t0 + n, *t2 = t1 + n, *t3 = t2 + n;
        for (c = c0; c < n; ++c) x[c] -= a0 * t0[c] + a1 * t1[c] + a2 * t2[c] + a3 * t3[c];
    }
    for (; k < n; ++k) {
        const RD_T ak = a[k], *t = T + n * k;
        for (c = c0; c < n; ++c) x[c] -= ak * t[c];
    }
}

#if RD_LANES == 1
/* The same sums for RD_TILE_ROWS rows and RD_TILE_VECS x 4 columns held in registers (vectors
 * of four doubles), for the large matrices of one row. Measured (one product alone, best of 300,
 * n = 30 / 60 / 100, load ~5): 8 x 4 2.5 / 12.6 / 52.7 us, 6 x 4 the same, 4 x 4 2.6 / 13.1 /
 * 55.4 us, 4 x 8 2.9 / 17.2 / 70.9 us (its accumulators spill). */
typedef double rd_v4 __attribute__((vector_size(32), aligned(8), may_alias));
#ifndef RD_TILE_ROWS
#define RD_TILE_ROWS 8
#define RD_TILE_VECS 1
#endif

static RD_INLINE void rd_tile_minus(const double *A, const double *T, int n, int c0, double *X)
{
    rd_v4 acc[RD_TILE_ROWS][RD_TILE_VECS] = {{{0}}};
    int k = 0, r, h;
    for (; k + 4 <= n; k += 4) {
        const double *t0 = T + n * k + c0, *t1 = t0 + n, *t2 = t1 + n, *t3 = t2 + n;
        for (h = 0; h < RD_TILE_VECS; ++h) {
            const rd_v4 T0 = *(const rd_v4 *)(t0 + 4 * h), T1 = *(const rd_v4 *)(t1 + 4 * h);
            const rd_v4 T2 = *(const rd_v4 *)(t2 + 4 * h), T3 = *(const rd_v4 *)(t3 + 4 * h);
            for (r = 0; r < RD_TILE_ROWS; ++r) {
                const double *a = A + n * r + k;
                acc[r][h] -= a[0] * T0 + a[1] * T1 + a[2] * T2 + a[3] * T3;
            }
        }
    }
    for (; k < n; ++k)
        for (h = 0; h < RD_TILE_VECS; ++h) {
            const rd_v4 t = *(const rd_v4 *)(T + n * k + c0 + 4 * h);
            for (r = 0; r < RD_TILE_ROWS; ++r) acc[r][h] -= A[n * r + k] * t;
        }
    for (r = 0; r < RD_TILE_ROWS; ++r)
        for (h = 0; h < RD_TILE_VECS; ++h) *(rd_v4 *)(X + n * r + c0 + 4 * h) = acc[r][h];
}
#endif

/* X <- -M^-1 X (n x n), through the scratch T (n x n). */
RD_DWIDE static void RD_SP(times_minus_inverse)(const RD_T *Minv, int n, RD_T *X, RD_T *T)
{
    int i = 0;
    for (int k = 0; k < n * n; ++k) T[k] = X[k];
#if RD_LANES == 1
    if (n >= 16) {
        int c0 = 0;                                          /* measured: tiles win from here */
        for (; i + RD_TILE_ROWS <= n; i += RD_TILE_ROWS)
            for (c0 = 0; c0 + 4 * RD_TILE_VECS <= n; c0 += 4 * RD_TILE_VECS)
                rd_tile_minus(Minv + n * i, T, n, c0, X + n * i);
        for (int r = 0; r < i; ++r) RD_SP(row_minus)(Minv + n * r, T, n, c0, X + n * r);
    }
#endif
    for (; i < n; ++i) RD_SP(row_minus)(Minv + n * i, T, n, 0, X + n * i);
}
