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
 * Forward dynamics of LANES rows of a batch: forward.c's rd_crba_forward lane by lane (the same
 * operations, so the same bits): the bias b = ID(q, qd, 0) (rnea_body.h, gravity, rotor,
 * friction and tool wrench included), M from the same placements (crba_body.h), M = L L^T and
 * qdd = (L L^T)^-1 (tau - b) (cholesky_body.h). From RD_ABA_FROM joints the rows run one by one
 * through rd_aba, as a single call does. Include after lanes.h, rnea_body.h, crba_body.h and
 * cholesky_body.h (batch_pair.c, batch_quad.c).
 */
#if RD_LANES > 1 && RD_HAVE_LANES

/* x[l] = {q, qd, tau, f_tip or NULL}, qdd[l] its accelerations; RD_NOT_SPD if a mass matrix
 * is not positive definite. At most RD_LANES_MAX joints (stack arrays). */
int RD_LANES_FN(rd_forward)(rd_model *m, const double *const *const *x, double *const *qdd)
{
    static const double zeros[RD_LANES_MAX];
    const int n = m->n > 0 ? m->n : 1;
    RD_SP(placement) X[n];
    RD_SP(inertia) Ic[n];
    RD_T F[n][3], N[n][3], S[n][6], M[n * n], v[n];
    double bias[LANES][n], *b[LANES];
    const double *rows[LANES][4], *const *at_rest[LANES];
    int i, l;
    if (m->n >= RD_ABA_FROM) {
        for (l = 0; l < LANES; ++l)
            if (rd_aba(m, x[l][0], x[l][1], x[l][2], x[l][3], qdd[l]) != 0) return RD_NOT_SPD;
        return 0;
    }
    for (l = 0; l < LANES; ++l) {                       /* the rows at qdd = 0: the bias */
        rows[l][0] = x[l][0];
        rows[l][1] = x[l][1];
        rows[l][2] = zeros;
        rows[l][3] = x[l][3];
        at_rest[l] = rows[l];
        b[l] = bias[l];
    }
    RD_SP(rnea_pass)(m, at_rest, 1, 1, 1, X, F, N, b);
    RD_SP(crba_pass)(m, X, S, Ic, M);                  /* the placements of that pass */
    if (RD_SP(cholesky_factor)(M, m->n) != 0) return RD_NOT_SPD;
    for (i = 0; i < m->n; ++i) {                       /* tau - b */
        RD_T bi;
        for (l = 0; l < LANES; ++l) bi[l] = bias[l][i];
        v[i] = RD_SP(load)(x, 2, i) - bi;
    }
    RD_SP(cholesky_substitute)(M, m->n, v);
    for (i = 0; i < m->n; ++i) RD_SP(store)(qdd, i, v[i]);
    return 0;
}

#elif RD_LANES == 2 && !RD_HAVE_LANES
/* No vector types: the pair is two single rows. */
int rd_forward_pair(rd_model *m, const double *const *const *x, double *const *qdd)
{
    for (int l = 0; l < 2; ++l)
        if (rd_forward(m, x[l][0], x[l][1], x[l][2], x[l][3], qdd[l]) != 0) return RD_NOT_SPD;
    return 0;
}
#endif
