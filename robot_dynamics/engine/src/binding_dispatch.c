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
 * The binding's dispatch: one public function call = check the arguments (take_all), allocate
 * the output, run the spec's row kernel over every row (in lanes of 2 or 4 rows when the spec
 * has them, on threads without the GIL for large batches), check the result is finite.
 */
#include "binding.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "parallel.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define HAVE_STREAM 1
#else
#define HAVE_STREAM 0
#endif

/* Rows per thread's share of a large batch. */
#define GRAIN_ROWS 128

PyObject *new_output(int out, int single, npy_intp N, int n)
{
    npy_intp dims[3];
    int nd = 0;
    if (!single) dims[nd++] = N;
    if (out == OUT_VECTOR) dims[nd++] = n;
    else if (out == OUT_MATRIX) { dims[nd++] = n; dims[nd++] = n; }
    else if (out == OUT_JACOBIAN) { dims[nd++] = 6; dims[nd++] = n; }
    else if (out == OUT_POSE) { dims[nd++] = 4; dims[nd++] = 4; }
    else if (out == OUT_MATRICES) { dims[nd++] = 3; dims[nd++] = n; dims[nd++] = n; }
    else if (single) dims[nd++] = 1;
    return single ? single_result(nd, dims) : PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
}

static npy_intp row_size(int out, int n)
{
    return out == OUT_VECTOR ? n : out == OUT_MATRIX ? (npy_intp)n * n
           : out == OUT_JACOBIAN ? 6 * (npy_intp)n : out == OUT_POSE ? 16
           : out == OUT_MATRICES ? 3 * (npy_intp)n * n : 1;
}

/* Check the arguments; on success fill args, the batch size and whether all were single. */
int take_all(PyObject *robot, const Spec *spec, PyObject *const *values, int n,
             Arg *args, npy_intp *N, int *single)
{
    int k;
    *N = 1;
    *single = 1;
    for (k = 0; k < spec->nin; ++k) {
        if (k == spec->wrench && spec->optional_wrench && values[k] == Py_None) continue;
        if (take(values[k], k == spec->wrench ? 6 : n, &args[k]) != 0) goto invalid;
        *single &= args[k].single;
        if (args[k].rows != 1) {
            if (*N != 1 && *N != args[k].rows) goto invalid;
            *N = args[k].rows;
        }
    }
    return 0;
invalid:
    explain(robot, spec->nin, spec->names, values);
    return -1;
}

/* 1 if every value is finite: its exponent field plus one carries into the sign bit only when
 * the field is all ones (inf, NaN). Integer and, add, or without an early exit: the loop
 * vectorises (SSE2; AVX2 below). Run on each row right after its kernel, while the row is in
 * the cache and on the row's thread: a scan of the whole result afterwards read a 10,000-row
 * batch of derivatives (12 MB) back from memory on one thread. */
#define ALL_FINITE_BODY                                                             \
    uint64_t bad = 0, bits;                                                         \
    for (npy_intp i = 0; i < total; ++i) {                                          \
        memcpy(&bits, x + i, sizeof bits);                                          \
        bad |= (bits & 0x7ff0000000000000ULL) + 0x0010000000000000ULL;               \
    }                                                                               \
    return (bad >> 63) == 0

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
__attribute__((target("avx2"))) static int all_finite_avx2(const double *x, npy_intp total)
{
    ALL_FINITE_BODY;
}
#endif

static int all_finite(const double *x, npy_intp total)
{
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
    if (rd_have_avx2) return all_finite_avx2(x, total);
#endif
    ALL_FINITE_BODY;
}

typedef struct {
    const Spec *spec;
    const Arg *args;
    double *out;
    npy_intp size, rows;
    int flag, lanes;
    lanes_fn group;
    int not_finite;             /* 1 once a row's result holds inf or NaN (any thread) */
    int stream;                 /* lane groups computed in a buffer, copied past the cache */
} Rows;

/* Note a non-finite result of `count` rows from `out` (the batch goes on: a kernel's own
 * failure, reported first, may come in a later row). */
static void check_rows(Rows *r, const double *out, npy_intp count)
{
    if (!all_finite(out, count * r->size)) {
#if defined(__GNUC__) || defined(__clang__)
        __atomic_store_n(&r->not_finite, 1, __ATOMIC_RELAXED);
#else
        r->not_finite = 1;      /* one thread only without atomics (parallel.c) */
#endif
    }
}

static void row_inputs(const Rows *r, long row, const double **x)
{
    for (int k = 0; k < 4; ++k)
        x[k] = k >= r->spec->nin || r->args[k].array == NULL ? NULL
               : r->args[k].data + row * r->args[k].stride;
}

static int one_row(rd_model *m, long row, void *context)
{
    Rows *r = (Rows *)context;
    const double *x[4];
    int status;
    row_inputs(r, row, x);
    status = r->spec->kernel(m, x, r->out + row * r->size, r->flag);
    if (status == 0) check_rows(r, r->out + row * r->size, 1);
    return status;
}

/* Results of at most this many doubles per lane group go through a buffer (below). */
#define STREAM_MAX 4096
/* ... when the whole result has at least this many bytes (larger than a core's cache share). */
#define STREAM_FROM (4L << 20)

/* dst[0, count) = src: non-temporal stores (16-byte aligned dst), so the write of a result larger
 * than the cache does not first read every line of it from memory. Same bits. */
static void stream_copy(double *dst, const double *src, npy_intp count)
{
    npy_intp i = 0;
#if HAVE_STREAM
    for (; i + 2 <= count; i += 2) _mm_stream_pd(dst + i, _mm_loadu_pd(src + i));
#endif
    for (; i < count; ++i) dst[i] = src[i];
#if HAVE_STREAM
    _mm_sfence();               /* ordered before the thread's later stores (and its join) */
#endif
}

/* Rows lanes unit ... lanes unit + lanes - 1 through the spec's group kernel (the last rows
 * of a batch one by one when fewer remain). */
static int row_group(rd_model *m, long unit, void *context)
{
    Rows *r = (Rows *)context;
    const double *inputs[4][4], *const *x[4];
    double *out[4], buffer[STREAM_MAX];
    long row = r->lanes * unit;
    int status = 0;
    if (row + r->lanes > r->rows) {
        for (; row < r->rows && status == 0; ++row) status = one_row(m, row, context);
        return status;
    }
    for (int l = 0; l < r->lanes; ++l) {
        row_inputs(r, row + l, inputs[l]);
        x[l] = inputs[l];
        out[l] = (r->stream ? buffer : r->out + row * r->size) + l * r->size;
    }
    status = r->group(m, x, out);
    if (status != 0) return status;
    check_rows(r, out[0], r->lanes);                        /* the lanes' rows are adjacent */
    if (r->stream) stream_copy(r->out + row * r->size, buffer, r->lanes * r->size);
    return 0;
}

int rd_have_avx2 = 0;          /* set by the module at import */
int rd_engine_threads = 1;

/* Every row: in this thread with the model's workspace for small batches; without the GIL,
 * on forked workspaces and up to rd_engine_threads threads for large ones. */
static int all_rows(ModelObject *model, Rows *rows, npy_intp N)
{
    int small = model->model.n <= RD_LANES_MAX;
    rd_row_fn fn = one_row;
    long units = (long)N, failed = 0;
    int status = 0;
    rows->rows = N;
    rows->lanes = 1;
    if (small && rows->spec->quad != NULL && rd_have_avx2 && N >= 4) {
        rows->lanes = 4;
        rows->group = rows->spec->quad;
    } else if (small && rows->spec->pair != NULL && N >= 2) {
        rows->lanes = 2;
        rows->group = rows->spec->pair;
    }
    rows->stream = HAVE_STREAM && rows->lanes > 1 && rows->lanes * rows->size <= STREAM_MAX
                   && N * rows->size * (npy_intp)sizeof(double) >= STREAM_FROM
                   && ((uintptr_t)rows->out & 15) == 0;
    if (rows->lanes > 1) {
        fn = row_group;
        units = (long)((N + rows->lanes - 1) / rows->lanes);
    }
    if (N * model->model.n < PARALLEL_FROM) {
        for (long unit = 0; unit < units && status == 0; ++unit)
            status = fn(&model->model, unit, rows);
    } else {
        Py_BEGIN_ALLOW_THREADS
        status = rd_parallel_rows(&model->model, units, rd_engine_threads,
                                  GRAIN_ROWS / rows->lanes, fn, rows, &failed);
        Py_END_ALLOW_THREADS
    }
    if (status == -1) PyErr_NoMemory();
    else if (status != 0)
        PyErr_SetString(linalg_error, "mass matrix is not positive definite: a link with zero "
                                      "mass and inertia on a moving joint?");
    return status;
}

/* The tuple (D[0], D[1], D[2]) of a (3, n, n) block, or (D[:, 0], D[:, 1], D[:, 2]) of a
 * batch's (N, 3, n, n): views, no copies; NULL with an exception on failure. */
static PyObject *three_matrices(PyObject *block, int single)
{
    PyArrayObject *b = (PyArrayObject *)block;
    PyObject *out = block == NULL ? NULL : PyTuple_New(3);
    npy_intp dims[3], strides[3], step;
    int nd, axis = single ? 0 : 1, d = 0;
    if (out == NULL) return NULL;
    nd = PyArray_NDIM(b) - 1;
    step = PyArray_STRIDE(b, axis);
    for (int k = 0; k < PyArray_NDIM(b); ++k) {
        if (k == axis) continue;
        dims[d] = PyArray_DIM(b, k);
        strides[d++] = PyArray_STRIDE(b, k);
    }
    for (Py_ssize_t k = 0; k < 3; ++k) {    /* views made directly: no indexing machinery */
        PyObject *item;
        Py_INCREF(PyArray_DESCR(b));
        item = PyArray_NewFromDescr(&PyArray_Type, PyArray_DESCR(b), nd, dims, strides,
                                    PyArray_BYTES(b) + k * step, NPY_ARRAY_WRITEABLE, NULL);
        if (item != NULL) {
            Py_INCREF(block);
            if (PyArray_SetBaseObject((PyArrayObject *)item, block) < 0) Py_CLEAR(item);
            else PyArray_UpdateFlags((PyArrayObject *)item, NPY_ARRAY_UPDATE_ALL);
        }
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

/* Finite inputs can still overflow (|qd| >= 1e160 squares past 1e308): such a result is an
 * error naming the largest input, never NaN or inf handed back (issue 22, LOW). Its type is
 * the library's ResultOverflowError (set_hooks); the message is the numpy path's
 * (model/arguments.py, check_result), word for word. */
static int check_result(const Spec *spec, const Arg *args, const Rows *rows)
{
    npy_intp i;
    double largest = -1.0;
    const char *name = spec->names[0];
    char message[400];
    if (!rows->not_finite) return 0;
    for (int k = 0; k < spec->nin; ++k) {
        if (args[k].array == NULL) continue;
        npy_intp size = PyArray_SIZE(args[k].array);
        for (i = 0; i < size; ++i)
            if (fabs(args[k].data[i]) > largest) {
                largest = fabs(args[k].data[i]);
                name = spec->names[k];
            }
    }
    snprintf(message, sizeof message, "the result is not finite: the inputs are too large for "
             "double precision (largest |%s| = %.3g); give physically meaningful values",
             name, largest);
    PyErr_SetString(overflow_error != NULL ? overflow_error : PyExc_ValueError, message);
    return -1;
}

/* Refuse (-1) a batch whose results would exceed RD_MAX_RESULT_BYTES before any copy of its
 * arrays or allocation, with the library's message (model.arguments.check_result_size); the
 * rows are those of the 2-D arrays among the arguments (a broadcast view costs no memory
 * until it is copied). */
static int check_result_size(const Spec *spec, PyObject *const *values, npy_intp size)
{
    PyObject *arguments, *names, *what, *answer;
    npy_intp N = 1;
    int k;
    for (k = 0; k < spec->nin; ++k)
        if (PyArray_Check(values[k]) && PyArray_NDIM((PyArrayObject *)values[k]) == 2
                && PyArray_DIM((PyArrayObject *)values[k], 0) > N)
            N = PyArray_DIM((PyArrayObject *)values[k], 0);
    if ((double)N * (double)size * 8.0 <= (double)RD_MAX_RESULT_BYTES) return 0;
    arguments = PyImport_ImportModule("robot_dynamics.model.arguments");
    if (arguments == NULL) return -1;
    names = PyUnicode_FromString(spec->names[0]);
    for (k = 1; names != NULL && k < spec->nin; ++k)
        Py_SETREF(names, PyUnicode_FromFormat("%U, %s", names, spec->names[k]));
    what = names == NULL ? NULL : PyUnicode_FromFormat("a batch of %s (%U)",
        spec->out == OUT_MATRICES ? "derivatives" : "results", names);
    answer = what == NULL ? NULL : PyObject_CallMethod(arguments, "check_result_size", "ndO",
                                                       N, (double)size * 8.0, what);
    Py_XDECREF(names);
    Py_XDECREF(what);
    Py_DECREF(arguments);
    if (answer == NULL) return -1;
    Py_DECREF(answer);            /* no refusal after all (rounding at the bound) */
    return 0;
}

PyObject *dispatch(const Spec *spec, PyObject *const *argv, Py_ssize_t nargs)
{
    Arg args[4] = {{0}};
    ModelObject *model = NULL;
    PyObject *result = NULL;
    npy_intp N, size;
    int n, single, k, flag = 0;
    if (nargs != 1 + spec->nin + spec->flag_argument) {
        PyErr_Format(PyExc_TypeError, "expected the model and %d more arguments, got %zd",
                     spec->nin + spec->flag_argument, nargs - 1);
        return NULL;
    }
    if (spec->flag_argument) {
        flag = PyObject_IsTrue(argv[nargs - 1]);
        if (flag < 0) return NULL;
    }
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    size = row_size(spec->out, n);
    if (check_result_size(spec, argv + 1, size) != 0) goto done;
    if (take_all(argv[0], spec, argv + 1, n, args, &N, &single) != 0) goto done;
    result = new_output(spec->out, single, N, n);
    if (result == NULL) goto done;
    {
        Rows rows = {spec, args, (double *)PyArray_DATA((PyArrayObject *)result), size, N,
                     flag, 1, NULL, 0, 0};
        if (all_rows(model, &rows, N) != 0 || check_result(spec, args, &rows) != 0) {
            Py_CLEAR(result);
            goto done;
        }
    }
    if (spec->out == OUT_MATRICES) Py_SETREF(result, three_matrices(result, single));  /* views */
    if (spec->out == OUT_SCALAR && single) {
        PyObject *scalar = PyArray_Scalar(PyArray_DATA((PyArrayObject *)result),
                                          PyArray_DESCR((PyArrayObject *)result), NULL);
        Py_SETREF(result, scalar);
    }
done:
    for (k = 0; k < spec->nin; ++k) Py_XDECREF(args[k].array);
    Py_DECREF(model);
    return result;
}
