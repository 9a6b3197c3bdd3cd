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
 * Cholesky factorisation M = L L^T written once over the scalar of lanes.h: forward.c's
 * rd_cholesky and rd_cholesky_solve (doubles: the forward dynamics, the implicit integrator,
 * the derivatives of one row), the batch lanes of derivatives_body.h and of forward_body.h.
 * Include after lanes.h.
 */
#ifndef RD_CHOLESKY_BODY_LANES
#define RD_CHOLESKY_BODY_LANES RD_LANES      /* once per translation unit */

#if RD_LANES == 1
static RD_INLINE int rd_not_positive(double s)
{
    return s <= 0;                  /* NaN (overflow) passes on, for the callers to see */
}

static RD_INLINE double rd_sqrt(double s)
{
    return sqrt(s);
}
#else
static RD_INLINE int rdv_not_positive(RD_T s)           /* any lane */
{
    for (int l = 0; l < LANES; ++l)
        if (s[l] <= 0) return 1;
    return 0;
}

static RD_INLINE RD_T rdv_sqrt(RD_T s)
{
    for (int l = 0; l < LANES; ++l) s[l] = sqrt(s[l]);
    return s;
}
#endif

/* From this many joints the factor is formed along rows of L^T (measured: below, the textbook
 * loop is faster; engine_kernels.py, forward dynamics of 7 joints). */
#define RD_CHOLESKY_ROWS_FROM 16

/* M = L L^T in place, from M's lower triangle (n x n, row-major), L in the lower triangle (the
 * upper one is scratch); -1 if M (any lane's) is not positive definite. Every element is the
 * textbook L_ij = (M_ij - sum_{k<j} L_ik L_jk) / L_jj, k ascending, one term at a time; from
 * RD_CHOLESKY_ROWS_FROM joints row j of the upper triangle gathers column j of L (U = L^T: the
 * updates run along contiguous rows, four terms per sweep, and vectorise), mirrored into the
 * lower triangle at the end. */
static RD_INLINE int RD_SP(cholesky_factor)(RD_T *M, int n)
{
    int i, j, k;
    if (n < RD_CHOLESKY_ROWS_FROM) {           /* small: the textbook loop, nothing mirrored */
        for (j = 0; j < n; ++j) {
            RD_T s = M[n * j + j];
            for (k = 0; k < j; ++k) s -= M[n * j + k] * M[n * j + k];
            if (RD_SP(not_positive)(s)) return -1;
            s = RD_SP(sqrt)(s);
            M[n * j + j] = s;
            for (i = j + 1; i < n; ++i) {
                RD_T v = M[n * i + j];
                for (k = 0; k < j; ++k) v -= M[n * i + k] * M[n * j + k];
                M[n * i + j] = v / s;
            }
        }
        return 0;
    }
    for (j = 0; j < n; ++j) {
        RD_T *u = M + n * j, s;
        for (i = j + 1; i < n; ++i) u[i] = M[n * i + j];
        for (k = 0; k + 4 <= j; k += 4) {            /* four terms per sweep, in order */
            const RD_T c0 = M[n * k + j], c1 = M[n * (k + 1) + j], c2 = M[n * (k + 2) + j];
            const RD_T c3 = M[n * (k + 3) + j], *u0 = M + n * k, *u1 = u0 + n, *u2 = u1 + n;
            const RD_T *u3 = u2 + n;
            for (i = j; i < n; ++i) u[i] = u[i] - c0 * u0[i] - c1 * u1[i] - c2 * u2[i] - c3 * u3[i];
        }
        for (; k < j; ++k) {
            const RD_T c = M[n * k + j], *uk = M + n * k;
            for (i = j; i < n; ++i) u[i] -= c * uk[i];
        }
        s = u[j];
        if (RD_SP(not_positive)(s)) return -1;
        s = RD_SP(sqrt)(s);
        u[j] = s;
        for (i = j + 1; i < n; ++i) u[i] /= s;
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j) M[n * i + j] = M[n * j + i];
    return 0;
}

/* x = (L L^T)^-1 x (n) from the factor L of RD_SP(cholesky_factor): forward, then backward
 * substitution, each sum k ascending (descending backward), one term at a time. */
static RD_INLINE void RD_SP(cholesky_substitute)(const RD_T *L, int n, RD_T *x)
{
    int i, k;
    for (i = 0; i < n; ++i) {
        RD_T v = x[i];
        for (k = 0; k < i; ++k) v -= L[n * i + k] * x[k];
        x[i] = v / L[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {
        RD_T v = x[i];
        for (k = i + 1; k < n; ++k) v -= L[n * k + i] * x[k];
        x[i] = v / L[n * i + i];
    }
}

#endif
