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
 * min_affine(slope, offset, cap, y0, reverse): the recurrence of TOPP-RA's two passes
 * (robot_dynamics.analysis.reachability), stepped through in C.
 *
 * slope, offset (N, W) and cap (N,) float64: stage i maps a value v to
 * min(cap_i, min_p (slope_ip v + offset_ip)). Forward (reverse 0): y_0 = y0 and
 * y_{i+1} = stage_i(y_i); backward (reverse 1): y_N = y0 and y_i = stage_i(y_{i+1}). Returns
 * y (N+1,). The same arithmetic as the Python loop (one product and one sum per line, no
 * fused multiply-add: setup.py), so the same bits.
 *
 * largest_feasible(alpha, beta, lo, hi, delta, big, iterations): per stage the largest x >= 0
 * at which some u meets every slab lo <= alpha u + beta x <= hi, Newton's steps from the right
 * exactly as reachability.largest_feasible takes them (same operations, same bits).
 */
#include "binding.h"

#include <math.h>

static PyArrayObject *matrix(PyObject *obj, int ndim, const char *name)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, ndim, ndim,
                                                        NPY_ARRAY_IN_ARRAY);
    if (a == NULL) PyErr_Format(PyExc_ValueError, "min_affine: %s must be a %d-D float array",
                                name, ndim);
    return a;
}

PyObject *py_min_affine(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    PyArrayObject *slope = NULL, *offset = NULL, *cap = NULL, *out = NULL;
    double y0;
    int reverse;
    npy_intp N, W, dims[1];
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "min_affine(slope, offset, cap, y0, reverse)");
        return NULL;
    }
    y0 = PyFloat_AsDouble(argv[3]);
    if (y0 == -1.0 && PyErr_Occurred()) return NULL;
    reverse = PyObject_IsTrue(argv[4]);
    if (reverse < 0) return NULL;
    slope = matrix(argv[0], 2, "slope");
    offset = slope ? matrix(argv[1], 2, "offset") : NULL;
    cap = offset ? matrix(argv[2], 1, "cap") : NULL;
    if (cap == NULL) goto done;
    N = PyArray_DIM(slope, 0);
    W = PyArray_DIM(slope, 1);
    if (PyArray_DIM(offset, 0) != N || PyArray_DIM(offset, 1) != W || PyArray_DIM(cap, 0) != N) {
        PyErr_SetString(PyExc_ValueError, "min_affine: slope, offset (N, W) and cap (N,) differ");
        goto done;
    }
    dims[0] = N + 1;
    out = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (out == NULL) goto done;
    {
        const double *a = (const double *)PyArray_DATA(slope);
        const double *b = (const double *)PyArray_DATA(offset);
        const double *c = (const double *)PyArray_DATA(cap);
        double *y = (double *)PyArray_DATA(out);
        npy_intp step;
        Py_BEGIN_ALLOW_THREADS
        y[reverse ? N : 0] = y0;
        for (step = 0; step < N; ++step) {
            npy_intp i = reverse ? N - 1 - step : step, p;
            double v = y[reverse ? i + 1 : i], best = c[i];
            for (p = 0; p < W; ++p) {
                double value = a[i * W + p] * v + b[i * W + p];
                if (value < best) best = value;
            }
            y[reverse ? i : i + 1] = best;
        }
        Py_END_ALLOW_THREADS
    }
done:
    Py_XDECREF(slope);
    Py_XDECREF(offset);
    Py_XDECREF(cap);
    return (PyObject *)out;
}

/* One stage of largest_feasible (W slabs): the numpy version's steps, row by row. */
static double largest_one(const double *al, const double *be, const double *lo, const double *hi,
                          npy_intp W, double D, double big, long iterations)
{
    double x = big, top, bottom, link, gap, scale, slope, step, ai, aj, Si, Sj;
    npy_intp p, i, j;
    long it;
    int use_link, up_i, up_j;
    for (p = 0; p < W; ++p) {                  /* the alpha = 0 slabs bound x alone */
        double cap = big;
        if (!(al[p] > 0)) {
            if (be[p] > 0) cap = hi[p] / be[p];
            else if (be[p] < 0) cap = lo[p] / be[p];
        }
        if (cap < x) x = cap;
    }
    x = x < 0.0 ? 0.0 : (x > big ? big : x);
    for (it = 0; it < iterations; ++it) {
        top = big;
        bottom = -big;
        i = j = 0;
        for (p = 0; p < W; ++p) {
            double upper = big, lower = -big;
            if (al[p] > 0) {
                upper = (hi[p] - be[p] * x) / al[p];
                lower = (lo[p] - be[p] * x) / al[p];
            }
            if (p == 0 || upper < top) { top = upper; i = p; }
            if (p == 0 || lower > bottom) { bottom = lower; j = p; }
        }
        link = -x / (2.0 * D);
        use_link = link > bottom;
        if (use_link) bottom = link;
        gap = top - bottom;
        up_i = al[i] > 0;
        up_j = al[j] > 0;
        ai = up_i ? al[i] : 1.0;
        aj = up_j ? al[j] : 1.0;
        Si = up_i ? -be[i] / ai : 0.0;
        Sj = up_j ? -be[j] / aj : 0.0;
        scale = (fabs(hi[i]) + fabs(be[i] * x)) / ai
            + (use_link ? fabs(link) : (fabs(lo[j]) + fabs(be[j] * x)) / aj);
        if (!(gap < -1e-12 * scale)) break;
        slope = Si - (use_link ? -1.0 / (2.0 * D) : Sj);
        step = x - gap / slope;
        step = step < 0.0 ? 0.0 : step;        /* np.maximum: NaN stays NaN */
        if (step == x) break;
        x = step;
    }
    return x;
}

PyObject *py_largest_feasible(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    PyArrayObject *a[5] = {NULL, NULL, NULL, NULL, NULL}, *out = NULL;
    static const char *names[5] = {"alpha", "beta", "lo", "hi", "delta"};
    double big;
    long iterations;
    npy_intp k, W, dims[1], s;
    int f;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "largest_feasible(alpha, beta, lo, hi, delta, big, iterations)");
        return NULL;
    }
    big = PyFloat_AsDouble(argv[5]);
    if (big == -1.0 && PyErr_Occurred()) return NULL;
    iterations = PyLong_AsLong(argv[6]);
    if (iterations == -1 && PyErr_Occurred()) return NULL;
    for (f = 0; f < 5; ++f)
        if ((a[f] = matrix(argv[f], f < 4 ? 2 : 1, names[f])) == NULL) goto done;
    k = PyArray_DIM(a[0], 0);
    W = PyArray_DIM(a[0], 1);
    for (f = 1; f < 5; ++f)
        if (PyArray_DIM(a[f], 0) != k || (f < 4 && PyArray_DIM(a[f], 1) != W)) {
            PyErr_SetString(PyExc_ValueError,
                            "largest_feasible: alpha, beta, lo, hi (k, W) and delta (k,) differ");
            goto done;
        }
    dims[0] = k;
    out = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_DOUBLE);
    if (out == NULL) goto done;
    {
        const double *al = (const double *)PyArray_DATA(a[0]), *be = (const double *)PyArray_DATA(a[1]);
        const double *lo = (const double *)PyArray_DATA(a[2]), *hi = (const double *)PyArray_DATA(a[3]);
        const double *D = (const double *)PyArray_DATA(a[4]);
        double *X = (double *)PyArray_DATA(out);
        Py_BEGIN_ALLOW_THREADS
        for (s = 0; s < k; ++s)
            X[s] = largest_one(al + s * W, be + s * W, lo + s * W, hi + s * W, W, D[s], big,
                               iterations);
        Py_END_ALLOW_THREADS
    }
done:
    for (f = 0; f < 5; ++f) Py_XDECREF(a[f]);
    return (PyObject *)out;
}
