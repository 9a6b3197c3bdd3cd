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
 * robot_dynamics.engine._engine: the CPython binding of the engine.
 *
 * Every function takes the RobotModel first, then arrays of shape (n,) for one state or
 * (N, n) for a batch (single rows broadcast), and returns numpy arrays shaped as the public
 * functions document. The unpacked model is built once per RobotModel by the packer hook the
 * Python side registers and kept in its WeakKeyDictionary. Inputs are checked
 * here (numeric dtype, shape, finite values); when a check fails the explain hook re-runs the
 * library's own checks, so the error messages are the library's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <string.h>

#include "engine.h"
#include "integrate.h"
#include "parallel.h"

/* Batches of at least this many joint-rows (N n) run without the GIL, on several threads. */
#define PARALLEL_FROM 4096
#define GRAIN_ROWS 128

#undef I   /* complex.h's imaginary unit, pulled in by numpy */

/* ------------------------------------------------------------------ the Model type */
typedef struct {
    PyObject_HEAD
    rd_model model;
    PyObject *packed;           /* the array it was built from (pickling, introspection) */
    PyObject *owner;            /* a weak reference to the RobotModel: keeps its basic weakref */
} ModelObject;

static void Model_dealloc(ModelObject *self)
{
    rd_model_free(&self->model);
    Py_XDECREF(self->packed);
    Py_XDECREF(self->owner);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Model_init(ModelObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *packed_obj, *owner = NULL;
    PyArrayObject *packed;
    const double *P;
    npy_intp size;
    int n;
    if (!PyArg_ParseTuple(args, "O|O", &packed_obj, &owner)) return -1;
    Py_XSETREF(self->owner, Py_XNewRef(owner));
    packed = (PyArrayObject *)PyArray_FROMANY(packed_obj, NPY_DOUBLE, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (packed == NULL) return -1;
    P = (const double *)PyArray_DATA(packed);
    size = PyArray_SIZE(packed);
    n = size > 0 ? (int)P[0] : 0;
    if (n < 1 || size != 16 + 32 * (npy_intp)n) {
        Py_DECREF(packed);
        PyErr_SetString(PyExc_ValueError, "Model: expected the array robot_dynamics.engine.pack "
                                          "builds (16 + 32 n numbers)");
        return -1;
    }
    rd_model_free(&self->model);
    if (rd_model_init(&self->model, P, n) != 0) {
        Py_DECREF(packed);
        PyErr_NoMemory();
        return -1;
    }
    Py_XSETREF(self->packed, (PyObject *)packed);
    return 0;
}

static PyObject *Model_reduce(ModelObject *self, PyObject *unused)
{
    return Py_BuildValue("(O(O))", (PyObject *)Py_TYPE(self),
                         self->packed != NULL ? self->packed : Py_None);
}

static PyMethodDef Model_methods[] = {
    {"__reduce__", (PyCFunction)Model_reduce, METH_NOARGS, "pickle as Model(packed)"},
    {NULL, NULL, 0, NULL}
};

static PyObject *Model_dof(ModelObject *self, void *closure)
{
    return PyLong_FromLong(self->model.n);
}

static PyObject *Model_packed(ModelObject *self, void *closure)
{
    return Py_NewRef(self->packed != NULL ? self->packed : Py_None);
}

static PyGetSetDef Model_getset[] = {
    {"dof", (getter)Model_dof, NULL, "number of moving joints", NULL},
    {"packed", (getter)Model_packed, NULL, "the packed array", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "robot_dynamics.engine._engine.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)Model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A RobotModel unpacked for the engine: Model(robot_dynamics.engine.pack(model))",
    .tp_init = (initproc)Model_init,
    .tp_new = PyType_GenericNew,
    .tp_getset = Model_getset,
    .tp_methods = Model_methods,
};

/* ------------------------------------------------------------------ hooks and the cache */
static PyObject *packer = NULL, *explainer = NULL, *cache = NULL, *linalg_error = NULL;

static PyObject *py_set_hooks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])
            || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "set_hooks(packer, explainer, cache): two callables "
                                         "and the dict of a WeakKeyDictionary");
        return NULL;
    }
    Py_XSETREF(packer, Py_NewRef(args[0]));
    Py_XSETREF(explainer, Py_NewRef(args[1]));
    Py_XSETREF(cache, Py_NewRef(args[2]));
    Py_RETURN_NONE;
}

/* The engine model of a RobotModel (new reference): looked up in the packer's
 * WeakKeyDictionary (its dict is keyed by weak references, equal when their referents are),
 * else built by the packer. The engine Model keeps the model's basic weak reference alive,
 * so the lookup reuses it instead of allocating one. */
static ModelObject *engine_model(PyObject *robot)
{
    PyObject *cached = NULL, *ref;
    if (cache != NULL && (ref = PyWeakref_NewRef(robot, NULL)) != NULL) {
        cached = PyDict_GetItemWithError(cache, ref);
        Py_DECREF(ref);
        if (cached != NULL && Py_IS_TYPE(cached, &ModelType))
            return (ModelObject *)Py_NewRef(cached);
    }
    if (PyErr_Occurred()) return NULL;
    if (packer == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "robot_dynamics.engine: hooks not installed");
        return NULL;
    }
    cached = PyObject_CallOneArg(packer, robot);
    if (cached != NULL && !Py_IS_TYPE(cached, &ModelType)) {
        Py_DECREF(cached);
        PyErr_SetString(PyExc_TypeError, "robot_dynamics.engine: the packer must return a Model");
        return NULL;
    }
    return (ModelObject *)cached;
}

/* ------------------------------------------------------------------ argument checking */
typedef struct {
    PyArrayObject *array;
    const double *data;
    npy_intp rows, stride;
    int single;
} Arg;

/* Accept a real numeric array-like of shape (width,) or (N, width), all values finite.
 * Returns 0, or -1 (no exception left set) when the library's checks should explain. */
static int take(PyObject *obj, int width, Arg *arg)
{
    PyArrayObject *array;
    int type, ndim;
    npy_intp i, total;
    if (PyArray_Check(obj)) {
        array = (PyArrayObject *)Py_NewRef(obj);
    } else {
        array = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
        if (array == NULL) { PyErr_Clear(); return -1; }
    }
    type = PyArray_TYPE(array);
    ndim = PyArray_NDIM(array);
    if (!(PyTypeNum_ISBOOL(type) || PyTypeNum_ISINTEGER(type) || PyTypeNum_ISFLOAT(type))
            || (ndim != 1 && ndim != 2) || PyArray_DIM(array, ndim - 1) != width) {
        Py_DECREF(array);
        return -1;
    }
    if (type != NPY_DOUBLE || !PyArray_IS_C_CONTIGUOUS(array) || !PyArray_ISALIGNED(array)
            || !PyArray_ISNOTSWAPPED(array)) {
        PyArrayObject *cast = (PyArrayObject *)PyArray_FromArray(
            array, PyArray_DescrFromType(NPY_DOUBLE), NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
        Py_DECREF(array);
        if (cast == NULL) { PyErr_Clear(); return -1; }
        array = cast;
    }
    arg->array = array;
    arg->data = (const double *)PyArray_DATA(array);
    arg->single = ndim == 1;
    arg->rows = ndim == 1 ? 1 : PyArray_DIM(array, 0);
    arg->stride = arg->rows == 1 ? 0 : width;
    total = PyArray_SIZE(array);
    for (i = 0; i < total; ++i)
        if (!isfinite(arg->data[i])) return -1;
    return 0;
}

/* Raise the library's error for these arguments (it names the argument and the joints). */
static void explain(PyObject *robot, int nin, const char *const *names, PyObject *const *values)
{
    PyObject *keys = PyTuple_New(nin), *vals = PyTuple_New(nin), *result = NULL;
    if (keys != NULL && vals != NULL && explainer != NULL) {
        for (int k = 0; k < nin; ++k) {
            PyTuple_SET_ITEM(keys, k, PyUnicode_FromString(names[k]));
            PyTuple_SET_ITEM(vals, k, Py_NewRef(values[k]));
        }
        result = PyObject_CallFunctionObjArgs(explainer, robot, keys, vals, NULL);
    }
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    if (result != NULL) {
        Py_DECREF(result);
        PyErr_Format(PyExc_ValueError, "%s: invalid input", names[0]);
    }
}

/* ------------------------------------------------------------------ row kernels */
enum { OUT_VECTOR, OUT_MATRIX, OUT_JACOBIAN, OUT_POSE, OUT_SCALAR };

typedef int (*kernel_fn)(rd_model *, const double *const *, double *, int);

static int k_id(rd_model *m, const double *const *x, double *o, int f)
{
    rd_rnea(m, x[0], x[1], x[2], 1, 1, x[3], o);
    return 0;
}
static int k_gravity(rd_model *m, const double *const *x, double *o, int f)
{
    rd_gravity(m, x[0], o);
    return 0;
}
static int k_coriolis(rd_model *m, const double *const *x, double *o, int f)
{
    memset(m->w.zero, 0, sizeof(double) * (size_t)m->n);
    rd_rnea(m, x[0], x[1], m->w.zero, 0, 0, NULL, o);
    return 0;
}
static int k_coriolis_matrix(rd_model *m, const double *const *x, double *o, int f)
{
    rd_coriolis_matrix(m, x[0], x[1], o);
    return 0;
}
static int k_mass_matrix_dot(rd_model *m, const double *const *x, double *o, int f)
{
    rd_mass_matrix_dot(m, x[0], x[1], o);
    return 0;
}
static int k_mass_matrix(rd_model *m, const double *const *x, double *o, int f)
{
    rd_crba(m, x[0], o);
    return 0;
}
static int k_forward(rd_model *m, const double *const *x, double *o, int f)
{
    return rd_forward(m, x[0], x[1], x[2], x[3], o) == 0 ? 0 : RD_NOT_SPD;
}
static int k_jacobian(rd_model *m, const double *const *x, double *o, int f)
{
    rd_jacobian(m, x[0], f, o);
    return 0;
}
static int k_tip_pose(rd_model *m, const double *const *x, double *o, int f)
{
    rd_tip_pose(m, x[0], o);
    return 0;
}
static int k_static(rd_model *m, const double *const *x, double *o, int f)
{
    memset(m->w.zero, 0, sizeof(double) * (size_t)m->n);
    rd_rnea(m, x[0], m->w.zero, m->w.zero, 0, 0, x[1], o);
    return 0;
}
static int k_kinetic(rd_model *m, const double *const *x, double *o, int f)
{
    *o = rd_kinetic_energy(m, x[0], x[1]);
    return 0;
}
static int k_potential(rd_model *m, const double *const *x, double *o, int f)
{
    *o = rd_potential_energy(m, x[0]);
    return 0;
}
static int k_total(rd_model *m, const double *const *x, double *o, int f)
{
    *o = rd_kinetic_energy(m, x[0], x[1]) + rd_potential_energy(m, x[0]);
    return 0;
}

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

static PyObject *new_output(int out, int single, npy_intp N, int n)
{
    npy_intp dims[3];
    int nd = 0;
    if (!single) dims[nd++] = N;
    if (out == OUT_VECTOR) dims[nd++] = n;
    else if (out == OUT_MATRIX) { dims[nd++] = n; dims[nd++] = n; }
    else if (out == OUT_JACOBIAN) { dims[nd++] = 6; dims[nd++] = n; }
    else if (out == OUT_POSE) { dims[nd++] = 4; dims[nd++] = 4; }
    else if (single) dims[nd++] = 1;
    return PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
}

static npy_intp row_size(int out, int n)
{
    return out == OUT_VECTOR ? n : out == OUT_MATRIX ? (npy_intp)n * n
           : out == OUT_JACOBIAN ? 6 * (npy_intp)n : out == OUT_POSE ? 16 : 1;
}

/* Check the arguments; on success fill args, the batch size and whether all were single. */
static int take_all(PyObject *robot, const Spec *spec, PyObject *const *values, int n,
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

typedef struct {
    const Spec *spec;
    const Arg *args;
    double *out;
    npy_intp size, rows;
    int flag, lanes;
    lanes_fn group;
} Rows;

static void row_inputs(const Rows *r, long row, const double **x)
{
    for (int k = 0; k < 4; ++k)
        x[k] = k >= r->spec->nin || r->args[k].array == NULL ? NULL
               : r->args[k].data + row * r->args[k].stride;
}

static int one_row(rd_model *m, long row, void *context)
{
    const Rows *r = (const Rows *)context;
    const double *x[4];
    row_inputs(r, row, x);
    return r->spec->kernel(m, x, r->out + row * r->size, r->flag);
}

/* Rows lanes unit ... lanes unit + lanes - 1 through the spec's group kernel (the last rows
 * of a batch one by one when fewer remain). */
static int row_group(rd_model *m, long unit, void *context)
{
    const Rows *r = (const Rows *)context;
    const double *inputs[4][4], *const *x[4];
    double *out[4];
    long row = r->lanes * unit;
    int status = 0;
    if (row + r->lanes > r->rows) {
        for (; row < r->rows && status == 0; ++row) status = one_row(m, row, context);
        return status;
    }
    for (int l = 0; l < r->lanes; ++l) {
        row_inputs(r, row + l, inputs[l]);
        x[l] = inputs[l];
        out[l] = r->out + (row + l) * r->size;
    }
    return r->group(m, x, out);
}

static int have_avx2 = 0;

static int engine_threads = 1;

/* Every row: in this thread with the model's workspace for small batches; without the GIL,
 * on forked workspaces and up to engine_threads threads for large ones. */
static int all_rows(ModelObject *model, Rows *rows, npy_intp N)
{
    int small = model->model.n <= RD_LANES_MAX;
    rd_row_fn fn = one_row;
    long units = (long)N, failed = 0;
    int status = 0;
    rows->rows = N;
    rows->lanes = 1;
    if (small && rows->spec->quad != NULL && have_avx2 && N >= 4) {
        rows->lanes = 4;
        rows->group = rows->spec->quad;
    } else if (small && rows->spec->pair != NULL && N >= 2) {
        rows->lanes = 2;
        rows->group = rows->spec->pair;
    }
    if (rows->lanes > 1) {
        fn = row_group;
        units = (long)((N + rows->lanes - 1) / rows->lanes);
    }
    if (N * model->model.n < PARALLEL_FROM) {
        for (long unit = 0; unit < units && status == 0; ++unit)
            status = fn(&model->model, unit, rows);
    } else {
        Py_BEGIN_ALLOW_THREADS
        status = rd_parallel_rows(&model->model, units, engine_threads,
                                  GRAIN_ROWS / rows->lanes, fn, rows, &failed);
        Py_END_ALLOW_THREADS
    }
    if (status == -1) PyErr_NoMemory();
    else if (status != 0)
        PyErr_SetString(linalg_error, "mass matrix is not positive definite: a link with zero "
                                      "mass and inertia on a moving joint?");
    return status;
}

static PyObject *dispatch(const Spec *spec, PyObject *const *argv, Py_ssize_t nargs)
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
    if (take_all(argv[0], spec, argv + 1, n, args, &N, &single) != 0) goto done;
    result = new_output(spec->out, single, N, n);
    if (result == NULL) goto done;
    size = row_size(spec->out, n);
    {
        Rows rows = {spec, args, (double *)PyArray_DATA((PyArrayObject *)result), size, N,
                     flag, 1, NULL};
        if (all_rows(model, &rows, N) != 0) {
            Py_CLEAR(result);
            goto done;
        }
    }
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

#define ENGINE_FUNCTION(fname, ...)                                                        \
    static const Spec spec_##fname = __VA_ARGS__;                                          \
    static PyObject *py_##fname(PyObject *self, PyObject *const *a, Py_ssize_t n)          \
    {                                                                                       \
        return dispatch(&spec_##fname, a, n);                                              \
    }

#ifdef RD_HAVE_QUAD
#define RNEA_QUAD rd_rnea_quad
#else
#define RNEA_QUAD NULL
#endif
ENGINE_FUNCTION(inverse_dynamics, {4, {"q", "qd", "qdd", "f_tip"}, 3, 1, 0, OUT_VECTOR, k_id,
                                   rd_rnea_pair, RNEA_QUAD})
ENGINE_FUNCTION(gravity, {1, {"q"}, -1, 0, 0, OUT_VECTOR, k_gravity})
ENGINE_FUNCTION(coriolis, {2, {"q", "qd"}, -1, 0, 0, OUT_VECTOR, k_coriolis})
ENGINE_FUNCTION(coriolis_matrix, {2, {"q", "qd"}, -1, 0, 0, OUT_MATRIX, k_coriolis_matrix})
ENGINE_FUNCTION(mass_matrix_dot, {2, {"q", "qd"}, -1, 0, 0, OUT_MATRIX, k_mass_matrix_dot})
ENGINE_FUNCTION(mass_matrix, {1, {"q"}, -1, 0, 0, OUT_MATRIX, k_mass_matrix})
ENGINE_FUNCTION(forward_dynamics, {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0, OUT_VECTOR,
                                   k_forward})
ENGINE_FUNCTION(jacobian, {1, {"q"}, -1, 0, 1, OUT_JACOBIAN, k_jacobian})
ENGINE_FUNCTION(tip_pose, {1, {"q"}, -1, 0, 0, OUT_POSE, k_tip_pose})
ENGINE_FUNCTION(static_torques, {2, {"q", "f_tip"}, 1, 0, 0, OUT_VECTOR, k_static})
ENGINE_FUNCTION(kinetic_energy, {2, {"q", "qd"}, -1, 0, 0, OUT_SCALAR, k_kinetic})
ENGINE_FUNCTION(potential_energy, {1, {"q"}, -1, 0, 0, OUT_SCALAR, k_potential})
ENGINE_FUNCTION(total_energy, {2, {"q", "qd"}, -1, 0, 0, OUT_SCALAR, k_total})

/* ------------------------------------------------------------------ integration */
static int integrator_code(PyObject *obj, int *code)
{
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < RD_EULER || value > RD_RK4) {
        PyErr_SetString(PyExc_ValueError, "integrator code must be 0, 1 or 2");
        return -1;
    }
    *code = (int)value;
    return 0;
}

/* step(model, q, qd, tau, f_tip, dt, integrator) -> (q, qd, qdd, status) */
static PyObject *py_step(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0, OUT_VECTOR, NULL};
    Arg args[4] = {{0}};
    ModelObject *model = NULL;
    PyObject *out[3] = {NULL, NULL, NULL}, *result = NULL;
    npy_intp N, row;
    int n, single, k, integrator, status = RD_OK;
    double dt;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "step(model, q, qd, tau, f_tip, dt, integrator)");
        return NULL;
    }
    dt = PyFloat_AsDouble(argv[5]);
    if ((dt == -1.0 && PyErr_Occurred()) || integrator_code(argv[6], &integrator) != 0)
        return NULL;
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    if (take_all(argv[0], &spec, argv + 1, n, args, &N, &single) != 0) goto done;
    for (k = 0; k < 3; ++k)
        if ((out[k] = new_output(OUT_VECTOR, single, N, n)) == NULL) goto done;
    for (row = 0; row < N && status == RD_OK; ++row) {
        const double *x[4];
        for (k = 0; k < 4; ++k)
            x[k] = args[k].array == NULL ? NULL : args[k].data + row * args[k].stride;
        status = rd_step(&model->model, integrator, x[0], x[1], x[2], x[3], dt,
                         (double *)PyArray_DATA((PyArrayObject *)out[0]) + row * n,
                         (double *)PyArray_DATA((PyArrayObject *)out[1]) + row * n,
                         (double *)PyArray_DATA((PyArrayObject *)out[2]) + row * n);
    }
    result = Py_BuildValue("OOOi", out[0], out[1], out[2], status);
done:
    for (k = 0; k < 3; ++k) Py_XDECREF(out[k]);
    for (k = 0; k < 4; ++k) Py_XDECREF(args[k].array);
    Py_DECREF(model);
    return result;
}

/* simulate(model, q0, qd0, tau, torque_mode, steps, dt, integrator, energy_limit)
 *   -> (q, qd, qdd, tau, energy, status, step). tau: (n,) constant, (steps + 1, n) per step
 *   or None with the gravity-compensation mode; energy_limit None for no check. */
static PyObject *py_simulate(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {2, {"q0", "qd0"}, -1, 0, 0, OUT_VECTOR, NULL};
    Arg args[2] = {{0}}, tau = {0};
    ModelObject *model = NULL;
    PyObject *out[5] = {NULL, NULL, NULL, NULL, NULL}, *result = NULL;
    rd_run run;
    npy_intp N, dims[2];
    long at = 0;
    int n, single, k, status;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "simulate(model, q0, qd0, tau, torque_mode, steps, dt, "
                                         "integrator, energy_limit)");
        return NULL;
    }
    memset(&run, 0, sizeof run);
    run.torque = (int)PyLong_AsLong(argv[4]);
    run.steps = PyLong_AsLong(argv[5]);
    run.dt = PyFloat_AsDouble(argv[6]);
    if (PyErr_Occurred() || integrator_code(argv[7], &run.integrator) != 0) return NULL;
    if (run.steps < 0 || run.torque < RD_TORQUE_CONSTANT || run.torque > RD_TORQUE_GRAVITY) {
        PyErr_SetString(PyExc_ValueError, "simulate: steps >= 0 and a torque mode 0, 1 or 2");
        return NULL;
    }
    if (argv[8] != Py_None) {
        run.check_energy = 1;
        run.energy_limit = PyFloat_AsDouble(argv[8]);
        if (PyErr_Occurred()) return NULL;
    }
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    if (take_all(argv[0], &spec, argv + 1, n, args, &N, &single) != 0) goto done;
    if (!single) {
        PyErr_Format(PyExc_ValueError, "q0, qd0: expected shape (%d,), one initial state", n);
        goto done;
    }
    if (run.torque != RD_TORQUE_GRAVITY) {
        if (take(argv[3], n, &tau) != 0
                || (run.torque == RD_TORQUE_CONSTANT ? !tau.single
                    : tau.single || tau.rows != run.steps + 1)) {
            PyErr_Format(PyExc_ValueError, "tau: expected finite values of shape (%d,) or "
                         "(%ld, %d)", n, run.steps + 1, n);
            goto done;
        }
        run.tau = tau.data;
    }
    dims[0] = run.steps + 1;
    dims[1] = n;
    for (k = 0; k < 4; ++k)
        if ((out[k] = PyArray_ZEROS(2, dims, NPY_DOUBLE, 0)) == NULL) goto done;
    if ((out[4] = PyArray_ZEROS(1, dims, NPY_DOUBLE, 0)) == NULL) goto done;
    memcpy(PyArray_DATA((PyArrayObject *)out[0]), args[0].data, sizeof(double) * (size_t)n);
    memcpy(PyArray_DATA((PyArrayObject *)out[1]), args[1].data, sizeof(double) * (size_t)n);
    {
        rd_model fork;                 /* a workspace of its own: the run releases the GIL */
        double *data[5];
        for (k = 0; k < 5; ++k) data[k] = PyArray_DATA((PyArrayObject *)out[k]);
        if (rd_model_fork(&model->model, &fork) != 0) {
            PyErr_NoMemory();
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        status = rd_simulate(&fork, &run, data[0], data[1], data[2], data[3], data[4], &at);
        Py_END_ALLOW_THREADS
        rd_model_free(&fork);
    }
    result = Py_BuildValue("OOOOOil", out[0], out[1], out[2], out[3], out[4], status, at);
done:
    for (k = 0; k < 5; ++k) Py_XDECREF(out[k]);
    for (k = 0; k < 2; ++k) Py_XDECREF(args[k].array);
    Py_XDECREF(tau.array);
    Py_DECREF(model);
    return result;
}

/* ------------------------------------------------------------------ the module */
#define FAST(name, doc) {#name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL, doc}

static PyMethodDef methods[] = {
    FAST(inverse_dynamics, "inverse_dynamics(model, q, qd, qdd, f_tip): full model torques"),
    FAST(gravity, "gravity(model, q): G(q)"),
    FAST(coriolis, "coriolis(model, q, qd): V(q, qd), no friction"),
    FAST(coriolis_matrix, "coriolis_matrix(model, q, qd): C (Christoffel symbols)"),
    FAST(mass_matrix_dot, "mass_matrix_dot(model, q, qd): C + C^T"),
    FAST(mass_matrix, "mass_matrix(model, q): M(q), rotor inertia included"),
    FAST(forward_dynamics, "forward_dynamics(model, q, qd, tau, f_tip): qdd"),
    FAST(jacobian, "jacobian(model, q, tip_frame): (6, n), rows [v; w]"),
    FAST(tip_pose, "tip_pose(model, q): (4, 4)"),
    FAST(static_torques, "static_torques(model, q, f_tip): J^T f_tip (tool frame)"),
    FAST(kinetic_energy, "kinetic_energy(model, q, qd)"),
    FAST(potential_energy, "potential_energy(model, q)"),
    FAST(total_energy, "total_energy(model, q, qd)"),
    FAST(step, "step(model, q, qd, tau, f_tip, dt, integrator) -> (q, qd, qdd, status)"),
    FAST(simulate, "simulate(model, q0, qd0, tau, torque_mode, steps, dt, integrator, "
                   "energy_limit) -> (q, qd, qdd, tau, energy, status, step)"),
    FAST(set_hooks, "set_hooks(packer, explainer)"),
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine",
                                    "The compiled dynamics engine (see robot_dynamics.engine).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__engine(void)
{
    PyObject *m, *linalg;
    import_array();
    if (PyType_Ready(&ModelType) < 0) return NULL;
    linalg = PyImport_ImportModule("numpy.linalg");
    if (linalg == NULL) return NULL;
    linalg_error = PyObject_GetAttrString(linalg, "LinAlgError");
    engine_threads = rd_default_threads();
#ifdef RD_HAVE_QUAD
    __builtin_cpu_init();
    have_avx2 = __builtin_cpu_supports("avx2")
                && getenv("ROBOT_DYNAMICS_NO_AVX2") == NULL;       /* to test the pairs */
#endif
    Py_DECREF(linalg);
    if (linalg_error == NULL) return NULL;
    m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Model", (PyObject *)&ModelType) < 0
            || PyModule_AddIntConstant(m, "THREADS", engine_threads) < 0
            || PyModule_AddIntConstant(m, "PARALLEL_FROM", PARALLEL_FROM) < 0
            || PyModule_AddIntConstant(m, "BATCH_LANES", have_avx2 ? 4 : 2) < 0
            || PyModule_AddIntConstant(m, "EULER", RD_EULER) < 0
            || PyModule_AddIntConstant(m, "SEMI_IMPLICIT_EULER", RD_SEMI_IMPLICIT_EULER) < 0
            || PyModule_AddIntConstant(m, "RK4", RD_RK4) < 0
            || PyModule_AddIntConstant(m, "TORQUE_CONSTANT", RD_TORQUE_CONSTANT) < 0
            || PyModule_AddIntConstant(m, "TORQUE_PER_STEP", RD_TORQUE_PER_STEP) < 0
            || PyModule_AddIntConstant(m, "TORQUE_GRAVITY", RD_TORQUE_GRAVITY) < 0
            || PyModule_AddIntConstant(m, "OK", RD_OK) < 0
            || PyModule_AddIntConstant(m, "NONFINITE_WITHIN", RD_NONFINITE_WITHIN) < 0
            || PyModule_AddIntConstant(m, "NONFINITE", RD_NONFINITE) < 0
            || PyModule_AddIntConstant(m, "NOT_SPD", RD_NOT_SPD) < 0
            || PyModule_AddIntConstant(m, "RUNAWAY", RD_RUNAWAY) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
