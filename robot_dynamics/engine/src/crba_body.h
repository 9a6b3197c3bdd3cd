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
 * Composite-rigid-body mass matrix (Walker-Orin 1982; Featherstone, RBDA 6.2) in the base
 * frame, written once over the scalar of lanes.h: crba.c includes it for doubles (one row),
 * batch_pair.c and batch_quad.c for two and four rows of a batch (the same operations lane by
 * lane, so the same bits). World poses W_i = X_1 ... X_i, motion subspaces S_i about the base
 * origin (revolute [z; o x z], prismatic [0; z], z the world axis; along a frame axis e_k,
 * z is column k of the pose), body inertias about the base origin (body_inertia: from the
 * split Ic = Ia 1 + u0 u0^T + u1 u1^T) summed into composites I^c_i, then
 * M_ij = S_j . (I^c_i S_i) for j <= i, the
 * reflected rotor inertia on the diagonal. One outward and one inward loop, everything in
 * the caller's storage: no workspace is read or written besides it.
 */
#if RD_HAVE_LANES

/* The inertia of joint J's body posed at (R, o), about the base origin: spatial.h's
 * inertia_placed with Ic = Ia 1 + u0 u0^T + u1 u1^T (rd_joint), so that R Ic R^T =
 * Ia 1 + v0 v0^T + v1 v1^T with v_k = R u_k: two rotated vectors instead of two 3 x 3
 * products. Ib = R Ic R^T + (m c'.c') 1 - h c'^T, c' = R c + o, h = m c'. */
static inline void RD_SP(body_inertia)(const rd_joint *J, const RD_T *R, const RD_T *o,
                                       RD_SP(inertia) *In)
{
    RD_T cw[3], v0[3], v1[3], cc;
    int r, k;
    RD_SP(mv_c)(R, J->c, cw);
    for (k = 0; k < 3; ++k) cw[k] += o[k];
    cc = J->m * RD_SP(dot3)(cw, cw) + J->Ia;
    RD_SP(mv_c)(R, J->Iu[0], v0);
    RD_SP(mv_c)(R, J->Iu[1], v1);
    In->m = RD_SPLAT(J->m);
    for (k = 0; k < 3; ++k) In->h[k] = J->m * cw[k];
    for (r = 0; r < 3; ++r)
        for (k = r; k < 3; ++k) {
            RD_T s = v0[r] * v0[k] + v1[r] * v1[k] - In->h[r] * cw[k];
            if (r == k) s += cc;
            In->Ib[3 * r + k] = In->Ib[3 * k + r] = s;
        }
}

/* M (n x n, row-major) from the placements X of every body (RD_SP(place) at q). S, Ic: n
 * motion subspaces and composite inertias (scratch). */
static RD_INLINE void RD_SP(crba_pass)(const rd_model *m, const RD_SP(placement) *X,
                                       RD_T (*S)[6], RD_SP(inertia) *Ic, RD_T *M)
{
    const int n = m->n;
    RD_SP(placement) W = X[0], next;
    RD_T F[6];
    int i, j;
    for (i = 0; i < n; ++i) {                         /* outward: poses, subspaces, inertias */
        const rd_joint *J = m->J + i;
        if (i > 0) {
            RD_SP(compose)(&W, &X[i], &next);                          /* X_1 ... X_i */
            W = next;
        }
        if (J->type == RD_REVOLUTE && J->unit_axis >= 0) {    /* z = e_k: a column of W.R */
            for (int r = 0; r < 3; ++r) S[i][r] = W.R[3 * r + J->unit_axis];
            RD_SP(cross)(W.p, S[i], S[i] + 3);
        } else if (J->type == RD_REVOLUTE) {
            RD_SP(mv_c)(W.R, J->axis, S[i]);
            RD_SP(cross)(W.p, S[i], S[i] + 3);
        } else {
            S[i][0] = S[i][1] = S[i][2] = RD_SPLAT(0.0);
            RD_SP(mv_c)(W.R, J->axis, S[i] + 3);
        }
        RD_SP(body_inertia)(J, W.R, W.p, &Ic[i]);
    }
    for (i = n - 1; i > 0; --i) RD_SP(inertia_add)(&Ic[i - 1], &Ic[i]);   /* composites */
    for (i = 0; i < n; ++i) {                            /* row and column i of M, in order */
        RD_SP(inertia_apply)(&Ic[i], S[i], F);
        for (j = 0; j < i; ++j) M[n * i + j] = M[n * j + i] = RD_SP(dot6)(S[j], F);
        M[n * i + i] = RD_SP(dot6)(S[i], F) + m->J[i].rotor;
    }
}

#if RD_LANES > 1
/* s_i = sin q_i and v_i = 1 - cos q_i of the n joints of one row, LANES joints at a time
 * (trig_lanes.h: the bits of rd_sin_versine): the single-row mass matrix's sines (crba.c). */
void RD_LANES_FN(rd_sin_versine)(int n, const double *q, double *s, double *v)
{
    for (int i = 0; i < n; i += LANES) {
        VEC x, sines, versines;
        int l;
        for (l = 0; l < LANES; ++l) x[l] = i + l < n ? q[i + l] : 0.0;
        vsin_versine(x, &sines, &versines);
        for (l = 0; l < LANES && i + l < n; ++l) {
            s[i + l] = sines[l];
            v[i + l] = versines[l];
        }
    }
}

/* M of LANES rows of a batch: x[l] = {q}, out[l] its n x n matrix; at most RD_LANES_MAX
 * joints (stack arrays). */
int RD_LANES_FN(rd_crba)(rd_model *m, const double *const *const *x, double *const *out)
{
    const int n = m->n > 0 ? m->n : 1;
    RD_SP(placement) X[n];
    RD_SP(inertia) Ic[n];
    RD_T S[n][6], M[n * n];
    for (int i = 0; i < m->n; ++i) RD_SP(place)(m->J + i, RD_SP(load)(x, 0, i), &X[i]);
    RD_SP(crba_pass)(m, X, S, Ic, M);
    RD_SP(scatter)(M, m->n * m->n, out, 0);
    return 0;
}
#endif

#elif RD_LANES == 2
/* No vector types: the pair is two single rows. */
int rd_crba_pair(rd_model *m, const double *const *const *x, double *const *out)
{
    for (int l = 0; l < 2; ++l) rd_crba(m, x[l][0], out[l]);
    return 0;
}

void rd_sin_versine_pair(int n, const double *q, double *s, double *v)
{
    for (int i = 0; i < n; ++i) rd_sin_versine(q[i], s + i, v + i);
}
#endif
