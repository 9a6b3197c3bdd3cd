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
 */
#include "binding.h"

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
