# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""The compiled reference path: loop-based RNEA, CRBA and forward dynamics in C.

The same algorithms as :mod:`robot_dynamics.algorithms.rnea` (Craig 6.45-6.53, general joint axes,
link frames) and :mod:`robot_dynamics.algorithms.crba`, and forward dynamics by CRBA + Cholesky
(below 9 joints) or Featherstone's articulated-body algorithm (from 9), written once in C over a
packed model array, so any model runs compiled without generating code for it: the library is built
once per machine and cached like the generated ones. It is the fast path for long chains, where the
straight-line mass matrix grows too large to compile quickly.

Packed model (doubles): ``[n, gx, gy, gz]`` then per joint ``type`` (0 revolute, 1
prismatic), ``axis`` (3), ``R_tree`` (9, row-major), ``p_tree`` (3), ``mass``, ``com`` (3),
``inertia`` (9, about the centre of mass), reflected rotor inertia, viscous and Coulomb
friction: 32 numbers.
"""

import hashlib

import numpy as np

JOINT_STRIDE = 32


def pack(model):
    """Pack ``model`` into the flat array the C functions read."""
    rows = [np.array([model.dof, *model.gravity], dtype=float)]
    for i in range(model.dof):
        rows.append(np.concatenate((
            [0.0 if model.joint_types[i] == 'revolute' else 1.0], model.axis[i],
            model.placement_rotation[i].ravel(), model.placement_translation[i],
            [model.mass[i]], model.com[i], model.inertia[i].ravel(),
            [model.reflected_inertia[i], model.viscous_friction[i],
             model.coulomb_friction[i]])))
    return np.ascontiguousarray(np.concatenate(rows))


SOURCE = r'''
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <string.h>
#undef I   /* complex.h's imaginary unit, pulled in by numpy */

#define STRIDE 32
#define MAXN 128
#define ABA_FROM 9    /* O(n) ABA from 9 joints, CRBA + Cholesky below (measured) */
typedef struct { double R[9], p[3]; } Placement;

static void cross(const double *a, const double *b, double *o)
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0]; o[0] = x; o[1] = y;
}
static void mv(const double *R, const double *v, double *o)      /* o = R v */
{
    double x = R[0] * v[0] + R[1] * v[1] + R[2] * v[2];
    double y = R[3] * v[0] + R[4] * v[1] + R[5] * v[2];
    o[2] = R[6] * v[0] + R[7] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}
static void mtv(const double *R, const double *v, double *o)     /* o = R^T v */
{
    double x = R[0] * v[0] + R[3] * v[1] + R[6] * v[2];
    double y = R[1] * v[0] + R[4] * v[1] + R[7] * v[2];
    o[2] = R[2] * v[0] + R[5] * v[1] + R[8] * v[2]; o[0] = x; o[1] = y;
}

/* Placement of body i in its parent (kinematics.joint_transform): Rodrigues for revolute. */
static void placement(const double *J, double q, Placement *X)
{
    const double *a = J + 1, *Rt = J + 4, *pt = J + 13;
    int r, c, k;
    if (J[0] == 0.0) {
        double s = sin(q), v = 1.0 - cos(q);
        double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
        double Rot[9];
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) {
                double KK = 0;
                for (k = 0; k < 3; ++k) KK += K[3 * r + k] * K[3 * k + c];
                Rot[3 * r + c] = (r == c) + s * K[3 * r + c] + v * KK;
            }
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c)
                X->R[3 * r + c] = Rt[3 * r] * Rot[c] + Rt[3 * r + 1] * Rot[3 + c]
                                  + Rt[3 * r + 2] * Rot[6 + c];
        memcpy(X->p, pt, sizeof X->p);
    } else {
        double d[3];
        memcpy(X->R, Rt, sizeof X->R);
        mv(Rt, a, d);
        for (k = 0; k < 3; ++k) X->p[k] = pt[k] + d[k] * q;
    }
}

/* Recursive Newton-Euler (Craig 6.45-6.53) plus joint effects; gravity from the model
 * when use_gravity, rotor inertia and friction when effects. */
static void rnea(const double *P, const double *q, const double *qd, const double *qdd,
                 int use_gravity, int effects, double *tau)
{
    int n = (int)P[0], i, k;
    Placement X[MAXN];
    double F[MAXN][3], N[MAXN][3];
    double w[3] = {0, 0, 0}, dw[3] = {0, 0, 0}, dv[3], t[3], u[3];
    for (k = 0; k < 3; ++k) dv[k] = use_gravity ? -P[1 + k] : 0.0;
    for (i = 0; i < n; ++i) {
        const double *J = P + 4 + STRIDE * i, *z = J + 1, *c = J + 17, *In = J + 20;
        double m = J[16], Iw[3];
        placement(J, q[i], &X[i]);
        cross(dw, X[i].p, t); cross(w, X[i].p, u); cross(w, u, u);
        for (k = 0; k < 3; ++k) t[k] += dv[k] + u[k];
        mtv(X[i].R, t, dv); mtv(X[i].R, w, w); mtv(X[i].R, dw, dw);          /* 6.47 */
        if (J[0] == 0.0) {
            cross(w, z, u);
            for (k = 0; k < 3; ++k) dw[k] += qd[i] * u[k] + qdd[i] * z[k];      /* 6.46 */
            for (k = 0; k < 3; ++k) w[k] += qd[i] * z[k];                       /* 6.45 */
        } else {
            cross(w, z, u);
            for (k = 0; k < 3; ++k) dv[k] += 2.0 * qd[i] * u[k] + qdd[i] * z[k];
        }
        cross(dw, c, t); cross(w, c, u); cross(w, u, u);
        for (k = 0; k < 3; ++k) F[i][k] = m * (t[k] + u[k] + dv[k]);          /* 6.48-49 */
        mv(In, w, Iw); cross(w, Iw, u); mv(In, dw, t);
        for (k = 0; k < 3; ++k) N[i][k] = t[k] + u[k];                         /* 6.50 */
    }
    {
        double f[3] = {0, 0, 0}, nm[3] = {0, 0, 0};
        for (i = n - 1; i >= 0; --i) {
            const double *J = P + 4 + STRIDE * i, *z = J + 1, *c = J + 17;
            if (i + 1 < n) {
                mv(X[i + 1].R, f, f); mv(X[i + 1].R, nm, nm);
                cross(X[i + 1].p, f, t);
                for (k = 0; k < 3; ++k) nm[k] += t[k];
            }
            cross(c, F[i], t);
            for (k = 0; k < 3; ++k) { nm[k] += N[i][k] + t[k]; f[k] += F[i][k]; }  /* 6.51-52 */
            tau[i] = J[0] == 0.0 ? z[0] * nm[0] + z[1] * nm[1] + z[2] * nm[2]
                                 : z[0] * f[0] + z[1] * f[1] + z[2] * f[2];         /* 6.53 */
            if (effects)
                tau[i] += J[29] * qdd[i] + J[30] * qd[i]
                          + J[31] * (double)((qd[i] > 0) - (qd[i] < 0));
        }
    }
}

/* Featherstone's articulated-body algorithm (Featherstone 2008, Table 7.1), spatial vectors
 * ordered (angular; linear) in body frames, joint effects as in the library: rotor inertia
 * on D (armature), friction in the bias. O(n). Returns 0, or -1 if a D_i is not positive. */
static void x_motion(const Placement *X, const double *m, double *o)  /* parent -> child */
{
    double t[3], u[3];
    cross(X->p, m, t);
    for (int k = 0; k < 3; ++k) u[k] = m[3 + k] - t[k];
    mtv(X->R, m, o); mtv(X->R, u, o + 3);
}
static void x_force_T(const Placement *X, const double *f, double *o)   /* child -> parent */
{
    double t[3];
    mv(X->R, f + 3, o + 3); mv(X->R, f, o);
    cross(X->p, o + 3, t);
    for (int k = 0; k < 3; ++k) o[k] += t[k];
}
static void crm(const double *m, const double *x, double *o)
{
    double t[3];
    cross(m, x, o); cross(m + 3, x, o + 3); cross(m, x + 3, t);
    for (int k = 0; k < 3; ++k) o[3 + k] += t[k];
}
static void crf(const double *m, const double *f, double *o)
{
    double t[3];
    cross(m, f, o); cross(m + 3, f + 3, t); cross(m, f + 3, o + 3);
    for (int k = 0; k < 3; ++k) o[k] += t[k];
}
static void mat6_vec(const double *A, const double *x, double *o)
{
    for (int r = 0; r < 6; ++r) {
        double s = 0;
        for (int c = 0; c < 6; ++c) s += A[6 * r + c] * x[c];
        o[r] = s;
    }
}

/* out += X^T I X for a spatial inertia I (6x6, child frame) and X = (R, p): with blocks
 * I = [[A, B], [B^T, C]] rotated into the parent (A' = R A R^T, ...), and P = [p x]:
 * C'' = C', B'' = B' + P C', A'' = A' - B' P + P B'^T - P C' P. */
static void rotate3(const double *R, const double *M, double *o)   /* o = R M R^T (3x3) */
{
    double T[9];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            T[3 * r + c] = R[3 * r] * M[c] + R[3 * r + 1] * M[3 + c] + R[3 * r + 2] * M[6 + c];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            o[3 * r + c] = T[3 * r] * R[3 * c] + T[3 * r + 1] * R[3 * c + 1]
                           + T[3 * r + 2] * R[3 * c + 2];
}
static void mul3(const double *A, const double *B, double *o)       /* o = A B (3x3) */
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            o[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}
static void congruence(const Placement *X, const double *In, double *out)
{
    double A[9], B[9], C[9], Ar[9], Br[9], Cr[9], PC[9], BP[9], PCP[9];
    const double *p = X->p;
    double Px[9] = {0, -p[2], p[1], p[2], 0, -p[0], -p[1], p[0], 0};
    int r, c;
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            A[3 * r + c] = In[6 * r + c];
            B[3 * r + c] = In[6 * r + c + 3];
            C[3 * r + c] = In[6 * (r + 3) + c + 3];
        }
    rotate3(X->R, A, Ar); rotate3(X->R, B, Br); rotate3(X->R, C, Cr);
    mul3(Px, Cr, PC); mul3(Br, Px, BP); mul3(PC, Px, PCP);
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            double b = Br[3 * r + c] + PC[3 * r + c];
            double a = Ar[3 * r + c] - BP[3 * r + c] - BP[3 * c + r] - PCP[3 * r + c];
            out[6 * r + c] += a;                       /* P B'^T = -(B' P)^T since P^T = -P */
            out[6 * r + c + 3] += b;
            out[6 * (c + 3) + r] += b;
            out[6 * (r + 3) + c + 3] += Cr[3 * r + c];
        }
}

/* Spatial inertia (6x6, (angular; linear) order) of body J about its frame origin:
 * n = Io w + h x v, f = m v - h x w with h = m c and Io the inertia about the origin. */
static void body_inertia(const double *J, double *Ib)
{
    const double *com = J + 17, *In = J + 20;
    double m = J[16], h[3] = {m * com[0], m * com[1], m * com[2]};
    double cc = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
    double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            Ib[6 * r + c] = In[3 * r + c] + m * ((r == c) * cc - com[r] * com[c]);
            Ib[6 * r + c + 3] = hx[3 * r + c];
            Ib[6 * (r + 3) + c] = -hx[3 * r + c];
            Ib[6 * (r + 3) + c + 3] = m * (r == c);
        }
}

/* Composite-rigid-body mass matrix in the base frame (full, symmetric, rotor inertia on the
 * diagonal): composite inertias summed at the base origin, M_ij = S_j . (Ic_i S_i). */
static void crba(const double *P, const double *q, double *M)
{
    int n = (int)P[0], i, j, k;
    double S[MAXN][6], Ic[MAXN][36], Ib[36];
    Placement W = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}, X;
    for (i = 0; i < n; ++i) {
        const double *J = P + 4 + STRIDE * i, *z = J + 1;
        double t[3], R[9];
        placement(J, q[i], &X);
        mv(W.R, X.p, t);
        for (k = 0; k < 3; ++k) W.p[k] += t[k];
        memcpy(R, W.R, sizeof R);
        mul3(R, X.R, W.R);
        mv(W.R, z, t);                                          /* joint axis, base frame */
        if (J[0] == 0.0) {
            memcpy(S[i], t, sizeof t);
            cross(W.p, t, S[i] + 3);                            /* v at the base origin */
        } else {
            memset(S[i], 0, 3 * sizeof(double));
            memcpy(S[i] + 3, t, sizeof t);
        }
        body_inertia(J, Ib);
        memset(Ic[i], 0, sizeof Ic[i]);
        congruence(&W, Ib, Ic[i]);                              /* body inertia, base frame */
    }
    for (i = n - 1; i > 0; --i)
        for (k = 0; k < 36; ++k) Ic[i - 1][k] += Ic[i][k];
    for (i = 0; i < n; ++i) {
        double F[6];
        mat6_vec(Ic[i], S[i], F);
        for (j = 0; j <= i; ++j) {
            double s = 0;
            for (k = 0; k < 6; ++k) s += S[j][k] * F[k];
            M[n * i + j] = M[n * j + i] = s;
        }
        M[n * i + i] += P[4 + STRIDE * i + 29];
    }
}

static int aba(const double *P, const double *q, const double *qd, const double *tau,
               double *qdd)
{
    int n = (int)P[0], i, k, r, c;
    Placement X[MAXN];
    double IA[MAXN][36], pA[MAXN][6], cb[MAXN][6], U[MAXN][6], D[MAXN], u[MAXN];
    double v[6] = {0, 0, 0, 0, 0, 0};
    for (i = 0; i < n; ++i) {                                     /* pass 1: velocities */
        const double *J = P + 4 + STRIDE * i, *z = J + 1, *com = J + 17, *In = J + 20;
        double m = J[16], h[3], vJ[6] = {0, 0, 0, 0, 0, 0}, vp[6], Iv[6];
        double cc = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
        placement(J, q[i], &X[i]);
        x_motion(&X[i], v, vp);
        for (k = 0; k < 3; ++k) vJ[(J[0] == 0.0 ? 0 : 3) + k] = z[k] * qd[i];
        for (k = 0; k < 6; ++k) v[k] = vp[k] + vJ[k];
        crm(v, vJ, cb[i]);
        for (k = 0; k < 3; ++k) h[k] = m * com[k];
        double *Ib = IA[i];
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) {
                Ib[6 * r + c] = In[3 * r + c] + m * ((r == c) * cc - com[r] * com[c]);
                Ib[6 * (r + 3) + c + 3] = m * (r == c);
            }
        double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
        for (r = 0; r < 3; ++r)
            for (c = 0; c < 3; ++c) {
                Ib[6 * r + c + 3] = hx[3 * r + c];                 /* n = Io w + h x v */
                Ib[6 * (r + 3) + c] = -hx[3 * r + c];              /* f = m v - h x w */
            }
        mat6_vec(Ib, v, Iv);
        crf(v, Iv, pA[i]);
    }
    for (i = n - 1; i >= 0; --i) {                                /* pass 2: inertias */
        const double *J = P + 4 + STRIDE * i, *z = J + 1;
        int off = J[0] == 0.0 ? 0 : 3;
        for (r = 0; r < 6; ++r)
            U[i][r] = IA[i][6 * r + off] * z[0] + IA[i][6 * r + off + 1] * z[1]
                      + IA[i][6 * r + off + 2] * z[2];
        D[i] = z[0] * U[i][off] + z[1] * U[i][off + 1] + z[2] * U[i][off + 2] + J[29];
        u[i] = tau[i] - J[30] * qd[i] - J[31] * (double)((qd[i] > 0) - (qd[i] < 0))
               - (z[0] * pA[i][off] + z[1] * pA[i][off + 1] + z[2] * pA[i][off + 2]);
        if (!(D[i] > 0)) return -1;
        if (i == 0) break;
        double Ia[36], pa[6], Iac[6], out[6];
        for (r = 0; r < 6; ++r)
            for (c = 0; c < 6; ++c)
                Ia[6 * r + c] = IA[i][6 * r + c] - U[i][r] * U[i][c] / D[i];
        mat6_vec(Ia, cb[i], Iac);
        for (r = 0; r < 6; ++r) pa[r] = pA[i][r] + Iac[r] + U[i][r] * u[i] / D[i];
        x_force_T(&X[i], pa, out);
        for (r = 0; r < 6; ++r) pA[i - 1][r] += out[r];
        congruence(&X[i], Ia, IA[i - 1]);                        /* IA_parent += X^T Ia X */
    }
    double a[6] = {0, 0, 0, -P[1], -P[2], -P[3]};                 /* a_0 = -gravity */
    for (i = 0; i < n; ++i) {                                     /* pass 3: accelerations */
        const double *J = P + 4 + STRIDE * i, *z = J + 1;
        int off = J[0] == 0.0 ? 0 : 3;
        double ap[6], Ua = 0;
        x_motion(&X[i], a, ap);
        for (k = 0; k < 6; ++k) { ap[k] += cb[i][k]; Ua += U[i][k] * ap[k]; }
        qdd[i] = (u[i] - Ua) / D[i];
        for (k = 0; k < 6; ++k) a[k] = ap[k];
        for (k = 0; k < 3; ++k) a[off + k] += z[k] * qdd[i];
    }
    return 0;
}

/* qdd = M^-1 (tau - b): Cholesky M = L L^T in place. Returns 0, or -1 if not SPD. */
static int forward(const double *P, const double *q, const double *qd, const double *tau,
                   double *qdd)
{
    int n = (int)P[0], i, j, k;
    double M[MAXN * MAXN], zero[MAXN], b[MAXN];
    memset(zero, 0, sizeof(double) * n);
    rnea(P, q, qd, zero, 1, 1, b);
    crba(P, q, M);
    for (j = 0; j < n; ++j) {
        double s = M[n * j + j];
        for (k = 0; k < j; ++k) s -= M[n * j + k] * M[n * j + k];
        if (!(s > 0)) return -1;
        s = sqrt(s);
        M[n * j + j] = s;
        for (i = j + 1; i < n; ++i) {
            double v = M[n * i + j];
            for (k = 0; k < j; ++k) v -= M[n * i + k] * M[n * j + k];
            M[n * i + j] = v / s;
        }
    }
    for (i = 0; i < n; ++i) {
        double v = tau[i] - b[i];
        for (k = 0; k < i; ++k) v -= M[n * i + k] * qdd[k];
        qdd[i] = v / M[n * i + i];
    }
    for (i = n - 1; i >= 0; --i) {
        double v = qdd[i];
        for (k = i + 1; k < n; ++k) v -= M[n * k + i] * qdd[k];
        qdd[i] = v / M[n * i + i];
    }
    return 0;
}

/* f(packed_model, arrays...): rows of (n,) or (N, n). kind 0 ID, 1 gravity, 2 M, 3 FD. */
static PyObject *dispatch(PyObject *const *args, Py_ssize_t nargs, int nin, int kind)
{
    PyArrayObject *arr[4] = {NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    const double *P;
    int n, ndim = 0, k;
    npy_intp N = 1, row;
    if (nargs != nin + 1) {
        PyErr_Format(PyExc_TypeError, "takes %d arrays, got %zd", nin, nargs - 1);
        return NULL;
    }
    for (k = 0; k <= nin; ++k) {
        arr[k] = (PyArrayObject *)PyArray_FROMANY(args[k], NPY_DOUBLE, 1, 2, NPY_ARRAY_IN_ARRAY);
        if (arr[k] == NULL) goto done;
    }
    P = (const double *)PyArray_DATA(arr[0]);
    n = (int)P[0];
    if (n > MAXN) { PyErr_SetString(PyExc_ValueError, "more than 128 joints"); goto done; }
    for (k = 1; k <= nin; ++k) {
        if (PyArray_DIM(arr[k], PyArray_NDIM(arr[k]) - 1) != n
                || (k > 1 && (PyArray_NDIM(arr[k]) != ndim
                              || (ndim == 2 && PyArray_DIM(arr[k], 0) != N)))) {
            PyErr_Format(PyExc_ValueError, "arrays must have shape (%d,) or (N, %d), all alike",
                         n, n);
            goto done;
        }
        if (k == 1) { ndim = PyArray_NDIM(arr[1]); N = ndim == 2 ? PyArray_DIM(arr[1], 0) : 1; }
        {
            const double *data = (const double *)PyArray_DATA(arr[k]);
            npy_intp i, total = PyArray_SIZE(arr[k]);
            for (i = 0; i < total; ++i)
                if (!isfinite(data[i])) {
                    PyErr_Format(PyExc_ValueError, "argument %d contains NaN or inf at joint "
                                 "index %d; give finite values", k, (int)(i % n));
                    goto done;
                }
        }
    }
    {
        npy_intp dims[3]; int out_ndim = 0;
        if (ndim == 2) dims[out_ndim++] = N;
        dims[out_ndim++] = n;
        if (kind == 2) dims[out_ndim++] = n;
        result = PyArray_SimpleNew(out_ndim, dims, NPY_DOUBLE);
        if (result == NULL) goto done;
    }
    {
        double *out = (double *)PyArray_DATA((PyArrayObject *)result), zero[MAXN];
        const double *x[4];
        memset(zero, 0, sizeof zero);
        for (row = 0; row < N; ++row) {
            for (k = 1; k <= nin; ++k) x[k] = (const double *)PyArray_DATA(arr[k]) + row * n;
            if (kind == 0) rnea(P, x[1], x[2], x[3], 1, 1, out + row * n);
            else if (kind == 1) rnea(P, x[1], zero, zero, 1, 0, out + row * n);
            else if (kind == 2) crba(P, x[1], out + row * n * n);
            else if ((n >= ABA_FROM ? aba : forward)(P, x[1], x[2], x[3], out + row * n)
                     != 0) {
                PyErr_SetString(PyExc_ValueError, "mass matrix is not positive definite");
                Py_CLEAR(result);
                goto done;
            }
        }
    }
    {
        const double *o = (const double *)PyArray_DATA((PyArrayObject *)result);
        npy_intp i, total = PyArray_SIZE((PyArrayObject *)result);
        for (i = 0; i < total; ++i)
            if (!isfinite(o[i])) {
                PyErr_SetString(PyExc_ValueError, "the result is not finite: the mass matrix is "
                                "singular or the inputs are too large");
                Py_CLEAR(result);
                break;
            }
    }
done:
    for (k = 0; k <= nin; ++k) Py_XDECREF(arr[k]);
    return result;
}

static PyObject *py_id(PyObject *s, PyObject *const *a, Py_ssize_t n)
{
    return dispatch(a, n, 3, 0);
}
static PyObject *py_g(PyObject *s, PyObject *const *a, Py_ssize_t n)
{
    return dispatch(a, n, 1, 1);
}
static PyObject *py_m(PyObject *s, PyObject *const *a, Py_ssize_t n)
{
    return dispatch(a, n, 1, 2);
}
static PyObject *py_fd(PyObject *s, PyObject *const *a, Py_ssize_t n)
{
    return dispatch(a, n, 3, 3);
}

static PyMethodDef methods[] = {
    {"inverse_dynamics", (PyCFunction)(void (*)(void))py_id, METH_FASTCALL, "RNEA, effects"},
    {"gravity", (PyCFunction)(void (*)(void))py_g, METH_FASTCALL, "G(q)"},
    {"mass_matrix", (PyCFunction)(void (*)(void))py_m, METH_FASTCALL, "CRBA M(q)"},
    {"forward_dynamics", (PyCFunction)(void (*)(void))py_fd, METH_FASTCALL, "ABA or Cholesky"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "%(module)s",
                                    "Compiled reference dynamics", -1, methods};

PyMODINIT_FUNC PyInit_%(module)s(void)
{
    import_array();
    return PyModule_Create(&module);
}
'''


def source(module_name):
    """C source of the extension module ``module_name``."""
    return SOURCE.replace('%(module)s', module_name)


def key():
    """Cache key of the reference library (changes with its source)."""
    return 'reference_' + hashlib.sha256(SOURCE.encode()).hexdigest()[:16]
