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
 * The binding of the momentum observer (observer.h): the momentum terms of states, and the
 * observer run over one sample (a node's loop) or a whole recording (the batch form), through
 * the same step, so both give the same bits. Arguments are checked as every entry point's
 * (binding_model.c: take_all, the library's messages); the state array is the Python side's
 * (robot_dynamics/contacts/observer.py).
 */
#include "binding.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "observer.h"
#include "parallel.h"

static int not_finite(const double *x, npy_intp count)
{
    for (npy_intp i = 0; i < count; ++i)
        if (!isfinite(x[i])) return 1;
    return 0;
}

static PyObject *overflow(void)
{
    PyErr_SetString(overflow_error != NULL ? overflow_error : PyExc_ValueError,
                    "the result is not finite: the inputs are too large for double precision; "
                    "give physically meaningful values");
    return NULL;
}

/* momentum(model, q, qd) -> (3, n) or (N, 3, n): rows p = M qd, C^T qd, G. */
PyObject *py_momentum(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {2, {"q", "qd"}, -1, 0, 0, OUT_VECTOR, NULL, NULL, NULL};
    Arg args[2] = {{0}};
    ModelObject *model;
    PyObject *out = NULL;
    npy_intp N, dims[3];
    int single, n;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "momentum(model, q, qd)");
        return NULL;
    }
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    if (take_all(argv[0], &spec, argv + 1, n, args, &N, &single) == 0) {
        dims[0] = N; dims[1] = 3; dims[2] = n;
        out = single ? PyArray_SimpleNew(2, dims + 1, NPY_DOUBLE)
                     : PyArray_SimpleNew(3, dims, NPY_DOUBLE);
    }
    if (out != NULL) {
        double *o = (double *)PyArray_DATA((PyArrayObject *)out);
        for (npy_intp row = 0; row < N; ++row, o += 3 * n)
            rd_momentum(&model->model, args[0].data + row * args[0].stride,
                        args[1].data + row * args[1].stride, o, o + n, o + 2 * n);
        if (not_finite((double *)PyArray_DATA((PyArrayObject *)out), 3 * n * N)) {
            Py_CLEAR(out);
            overflow();
        }
    }
    Py_XDECREF(args[0].array);
    Py_XDECREF(args[1].array);
    Py_DECREF(model);
    return out;
}

/* The observer's state: a writable, aligned float64 array of RD_OBS_HEADER + 7 n numbers. */
static double *state_of(PyObject *obj, int n)
{
    PyArrayObject *a = (PyArrayObject *)obj;
    if (!PyArray_Check(obj) || PyArray_TYPE(a) != NPY_DOUBLE || !PyArray_IS_C_CONTIGUOUS(a)
            || !PyArray_ISWRITEABLE(a) || !PyArray_ISALIGNED(a) || !PyArray_ISNOTSWAPPED(a)
            || PyArray_SIZE(a) != RD_OBS_HEADER + RD_OBS_BLOCKS * (npy_intp)n) {
        PyErr_Format(PyExc_TypeError, "momentum_observer: the state must be a writable float64 "
                     "array of %d numbers (robot_dynamics.contacts.observer)",
                     RD_OBS_HEADER + RD_OBS_BLOCKS * n);
        return NULL;
    }
    return (double *)PyArray_DATA(a);
}

/* The times of the samples: a number for one sample (read directly: a node's loop), a (N,)
 * array for N; *value holds the one time. */
static PyArrayObject *times_of(PyObject *obj, int single, npy_intp N, double *value)
{
    PyArrayObject *t;
    if (single && !PyArray_Check(obj)) {
        *value = PyFloat_AsDouble(obj);
        if (*value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "t: expected the sample's time in seconds (a "
                         "number), got %.80s", Py_TYPE(obj)->tp_name);
            return NULL;
        }
        return (PyArrayObject *)Py_NewRef(Py_None);
    }
    t = (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 1, NPY_ARRAY_IN_ARRAY);
    if (t == NULL) return NULL;
    if (PyArray_NDIM(t) != (single ? 0 : 1) || PyArray_SIZE(t) != N) {
        PyErr_Format(PyExc_ValueError, "t: expected %s, got %d value(s)",
                     single ? "one time (a number) with one sample" : "one time per sample",
                     (int)PyArray_SIZE(t));
        Py_DECREF(t);
        return NULL;
    }
    *value = *(const double *)PyArray_DATA(t);
    return t;
}

/* N outputs (n,) or (N, n); NULL on failure. */
static PyObject *series_array(int single, npy_intp N, int n)
{
    npy_intp dims[2] = {N, n};
    return single ? PyArray_SimpleNew(1, dims + 1, NPY_DOUBLE)
                  : PyArray_SimpleNew(2, dims, NPY_DOUBLE);
}

/* Rows of a batch whose momentum terms are computed ahead, in blocks (memory bounded). */
#define BLOCK_ROWS 8192

typedef struct {
    const Arg *args;
    double *terms;              /* (rows, 3 n): p, C^T qd, g */
    npy_intp first;
} Terms;

static int terms_row(rd_model *m, long row, void *context)
{
    const Terms *job = (const Terms *)context;
    const npy_intp at = job->first + row;
    double *o = job->terms + (size_t)row * 3 * (size_t)m->n;
    rd_momentum(m, job->args[0].data + at * job->args[0].stride,
                job->args[1].data + at * job->args[1].stride, o, o + m->n, o + 2 * m->n);
    return 0;
}

/* The momentum terms of rows first .. first + count - 1 into terms: without the GIL on
 * several threads (forked workspaces) for a large block, else here. */
static int block_terms(ModelObject *model, const Arg *args, npy_intp first, npy_intp count,
                       double *terms)
{
    Terms job = {args, terms, first};
    long failed = 0;
    int status = 0;
    if (count * model->model.n < PARALLEL_FROM || rd_engine_threads < 2) {
        for (long row = 0; row < count; ++row) terms_row(&model->model, row, &job);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
    status = rd_parallel_rows(&model->model, (long)count, rd_engine_threads, 128, terms_row,
                              &job, &failed);
    Py_END_ALLOW_THREADS
    if (status != 0) PyErr_NoMemory();
    return status;
}

static int time_error(npy_intp row, double t, double previous)
{
    char message[300];
    if (!isfinite(t))
        snprintf(message, sizeof message, "t: sample %ld has the time %s; give finite times in "
                 "seconds", (long)row, isnan(t) ? "NaN" : "inf");
    else
        snprintf(message, sizeof message, "t: sample %ld at %.9g s is not after the previous "
                 "sample at %.9g s; give strictly increasing times (sort the samples, drop "
                 "repeated stamps) or reset the observer", (long)row, t, previous);
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

/* Run the samples through the state; fill r (and pdot, g when not NULL). One sample takes
 * rd_observer_update; a batch its terms by blocks, then rd_observer_advance row by row. */
static int run(ModelObject *model, double *state, const double *t, const Arg *args,
               npy_intp N, double *r, double *pdot, double *g)
{
    rd_model *m = &model->model;
    const int n = m->n;
    const double *block = state + RD_OBS_HEADER;
    double *terms = NULL;
    int status = 0;
    if (N > 1 && (terms = (double *)PyMem_Malloc(sizeof(double) * 3 * (size_t)n
                                                 * (size_t)(N < BLOCK_ROWS ? N : BLOCK_ROWS)))
            == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (npy_intp first = 0; first < N && status == 0; first += BLOCK_ROWS) {
        npy_intp count = N - first < BLOCK_ROWS ? N - first : BLOCK_ROWS;
        if (terms != NULL && block_terms(model, args, first, count, terms) != 0) {
            status = -1;
            break;
        }
        for (npy_intp k = 0; k < count; ++k) {
            const npy_intp row = first + k;
            const double *qd = args[1].data + row * args[1].stride;
            const double *tau = args[2].data + row * args[2].stride;
            const double *o = terms + (size_t)k * 3 * (size_t)n;
            int failed = !isfinite(t[row]) || (terms == NULL
                ? rd_observer_update(m, state, t[row], args[0].data + row * args[0].stride,
                                     qd, tau)
                : rd_observer_advance(m, state, t[row], o, o + n, o + 2 * n, qd, tau));
            if (failed) {
                status = time_error(row, t[row], state[1]);
                break;
            }
            memcpy(r + row * n, block + RD_OBS_R * n, sizeof(double) * (size_t)n);
            if (pdot != NULL) {
                memcpy(pdot + row * n, block + RD_OBS_PDOT * n, sizeof(double) * (size_t)n);
                memcpy(g + row * n, block + RD_OBS_G * n, sizeof(double) * (size_t)n);
            }
        }
    }
    PyMem_Free(terms);
    if (status == 0 && not_finite(block + RD_OBS_R * n, n)) {
        overflow();
        status = -1;
    }
    return status;
}

/* momentum_observer(model, state, t, q, qd, tau, series) -> r; (r, pdot, g) if series. */
PyObject *py_momentum_observer(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {3, {"q", "qd", "tau"}, -1, 0, 0, OUT_VECTOR, NULL, NULL, NULL};
    Arg args[3] = {{0}};
    ModelObject *model;
    PyArrayObject *t = NULL;
    PyObject *r = NULL, *pdot = NULL, *g = NULL, *result = NULL;
    double *state, one_time = 0.0;
    npy_intp N;
    int single, n, series;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "momentum_observer(model, state, t, q, qd, tau, series)");
        return NULL;
    }
    series = PyObject_IsTrue(argv[6]);
    model = series < 0 ? NULL : engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    if ((state = state_of(argv[1], n)) == NULL
            || take_all(argv[0], &spec, argv + 3, n, args, &N, &single) != 0
            || (t = times_of(argv[2], single, N, &one_time)) == NULL)
        goto done;
    r = series_array(single, N, n);
    if (series) {
        pdot = series_array(single, N, n);
        g = series_array(single, N, n);
    }
    if (r == NULL || (series && (pdot == NULL || g == NULL))) goto done;
    if (run(model, state, (PyObject *)t == Py_None ? &one_time
                                                          : (const double *)PyArray_DATA(t),
            args, N,
            (double *)PyArray_DATA((PyArrayObject *)r),
            series ? (double *)PyArray_DATA((PyArrayObject *)pdot) : NULL,
            series ? (double *)PyArray_DATA((PyArrayObject *)g) : NULL) != 0)
        goto done;
    result = series ? PyTuple_Pack(3, r, pdot, g) : Py_NewRef(r);
done:
    for (int k = 0; k < 3; ++k) Py_XDECREF(args[k].array);
    Py_XDECREF(t);
    Py_XDECREF(r);
    Py_XDECREF(pdot);
    Py_XDECREF(g);
    Py_DECREF(model);
    return result;
}
