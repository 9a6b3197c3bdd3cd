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

/* Declarations shared by the CPython binding's files: module.c (row kernels, function table,
 * the module), binding_dispatch.c (a call over its rows), binding_model.c (the Model type,
 * hooks, argument checks), binding_results.c (single calls' result arrays, recycled) and
 * binding_simulate.c (step and simulate). numpy's C API is
 * imported once, in module.c. */
#ifndef RD_BINDING_H
#define RD_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL rd_engine_ARRAY_API
#ifndef RD_BINDING_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "engine.h"

#undef I   /* complex.h's imaginary unit, pulled in by numpy */

/* ------------------------------------------------------------------ binding_model.c */
typedef struct {
    PyObject_HEAD
    rd_model model;
    PyObject *packed;           /* the array it was built from (pickling, introspection) */
    PyObject *owner;            /* a weak reference to the RobotModel: keeps its basic weakref */
} ModelObject;

extern PyTypeObject ModelType;
extern PyObject *linalg_error;   /* numpy.linalg.LinAlgError */
extern PyObject *overflow_error; /* robot_dynamics.errors.ResultOverflowError (set_hooks) */

typedef struct {
    PyArrayObject *array;
    const double *data;
    npy_intp rows, stride;
    int single;
} Arg;

PyObject *py_set_hooks(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
ModelObject *engine_model(PyObject *robot);
int take(PyObject *obj, int width, Arg *arg);
void explain(PyObject *robot, int nin, const char *const *names, PyObject *const *values);

/* ------------------------------------------------------------------ module.c (the specs) */
enum { OUT_VECTOR, OUT_MATRIX, OUT_JACOBIAN, OUT_POSE, OUT_SCALAR, OUT_MATRICES };
/* OUT_MATRICES: three n x n matrices per row, (3, n, n) or (N, 3, n, n) */

typedef int (*kernel_fn)(rd_model *, const double *const *, double *, int);
typedef int (*lanes_fn)(rd_model *, const double *const *const *, double *const *);

typedef struct {
    int nin;                    /* arrays after the model */
    const char *names[4];
    int wrench;                 /* index of the tool-wrench argument (width 6), or -1 */
    int optional_wrench;        /* it may be None */
    int flag_argument;          /* one trailing int argument (Jacobian frame) */
    int out;
    kernel_fn kernel;
    lanes_fn pair, quad;        /* two or four rows at once (batches), or NULL */
} Spec;

/* ------------------------------------------------------------------ binding_dispatch.c */
/* The most one call returns: robot_dynamics.model.arguments.MAX_RESULT_BYTES (checked equal
 * when the library loads the engine). */
#define RD_MAX_RESULT_BYTES (1LL << 30)
/* Batches of at least this many joint-rows (N n) run without the GIL, on several threads. */
#define PARALLEL_FROM 4096
extern int rd_have_avx2;        /* the processor has AVX2: batches in four lanes */
extern int rd_engine_threads;   /* threads for large batches */

PyObject *dispatch(const Spec *spec, PyObject *const *argv, Py_ssize_t nargs);
PyObject *new_output(int out, int single, npy_intp N, int n);
int take_all(PyObject *robot, const Spec *spec, PyObject *const *values, int n,
             Arg *args, npy_intp *N, int *single);

/* ------------------------------------------------------------------ binding_results.c */
PyObject *single_result(int nd, const npy_intp *dims);

/* ------------------------------------------------------------------ binding_public.c */
extern PyTypeObject PublicType;
int public_type_ready(void);

/* ------------------------------------------------------------------ binding_simulate.c */
PyObject *py_step(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
PyObject *py_simulate(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
PyObject *py_stop_step(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
/* recurrence.c: TOPP-RA's passes and per-stage largest feasible x (analysis.reachability) */
PyObject *py_min_affine(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);
PyObject *py_largest_feasible(PyObject *self, PyObject *const *argv, Py_ssize_t nargs);

#endif
