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
 *
 * binding_model.c holds the Model type, the hooks and the argument checks; binding_simulate.c
 * the integrators' entry points; this file the row kernels, their dispatch and the module.
 */
#define RD_BINDING_MAIN        /* this file imports numpy's C API for the others */
#include "binding.h"

#include <math.h>
#include <string.h>

#include "integrate.h"
#include "parallel.h"

/* Batches of at least this many joint-rows (N n) run without the GIL, on several threads. */
#define PARALLEL_FROM 4096
#define GRAIN_ROWS 128


/* ------------------------------------------------------------------ row kernels */


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
static int k_friction(rd_model *m, const double *const *x, double *o, int f)
{
    for (int i = 0; i < m->n; ++i)
        o[i] = f ? rd_friction_slope(m->J + i, x[0][i]) : rd_friction(m->J + i, x[0][i]);
    return 0;
}
static int k_id_derivatives(rd_model *m, const double *const *x, double *o, int f)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    rd_rnea_derivatives(m, x[0], x[1], x[2], x[3], o, o + nn, o + 2 * nn);
    return 0;
}
static int k_fd_derivatives(rd_model *m, const double *const *x, double *o, int f)
{
    const size_t nn = (size_t)m->n * (size_t)m->n;
    return rd_forward_derivatives(m, x[0], x[1], x[2], x[3], o, o + nn, o + 2 * nn) == 0
           ? 0 : RD_NOT_SPD;
}
static int k_total(rd_model *m, const double *const *x, double *o, int f)
{
    *o = rd_kinetic_energy(m, x[0], x[1]) + rd_potential_energy(m, x[0]);
    return 0;
}



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
    return PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
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

/* The tuple (D[0], D[1], D[2]) of a (3, n, n) block, or (D[:, 0], D[:, 1], D[:, 2]) of a
 * batch's (N, 3, n, n): views, no copies; NULL with an exception on failure. */
static PyObject *three_matrices(PyObject *block, int single)
{
    PyObject *out = block == NULL ? NULL : PyTuple_New(3);
    for (Py_ssize_t k = 0; out != NULL && k < 3; ++k) {
        PyObject *item;
        if (single) {
            item = PySequence_GetItem(block, k);
        } else {
            PyObject *all = PySlice_New(NULL, NULL, NULL);
            PyObject *key = all == NULL ? NULL : Py_BuildValue("(On)", all, k);
            item = key == NULL ? NULL : PyObject_GetItem(block, key);
            Py_XDECREF(key);
            Py_XDECREF(all);
        }
        if (item == NULL) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

/* Finite inputs can still overflow (|qd| >= 1e160 squares past 1e308): such a result is an
 * error naming the largest input, never NaN or inf handed back (issue 22, LOW). */
static int check_result(const Spec *spec, const Arg *args, PyObject *result)
{
    const double *out = (const double *)PyArray_DATA((PyArrayObject *)result);
    npy_intp i, total = PyArray_SIZE((PyArrayObject *)result);
    double largest = -1.0;
    const char *name = spec->names[0];
    char message[400];
    for (i = 0; i < total && isfinite(out[i]); ++i) {}
    if (i == total) return 0;
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
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
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
        if (all_rows(model, &rows, N) != 0 || check_result(spec, args, result) != 0) {
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
ENGINE_FUNCTION(friction, {1, {"qd"}, -1, 0, 1, OUT_VECTOR, k_friction})
#ifdef RD_HAVE_QUAD
#define DERIVATIVES_QUAD rd_rnea_derivatives_quad
#define FD_DERIVATIVES_QUAD rd_forward_derivatives_quad
#else
#define DERIVATIVES_QUAD NULL
#define FD_DERIVATIVES_QUAD NULL
#endif
ENGINE_FUNCTION(inverse_dynamics_derivatives, {4, {"q", "qd", "qdd", "f_tip"}, 3, 1, 0,
                                               OUT_MATRICES, k_id_derivatives,
                                               rd_rnea_derivatives_pair, DERIVATIVES_QUAD})
ENGINE_FUNCTION(forward_dynamics_derivatives, {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0,
                                               OUT_MATRICES, k_fd_derivatives,
                                               rd_forward_derivatives_pair, FD_DERIVATIVES_QUAD})

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
    FAST(friction, "friction(model, qd, slope): tau_f(qd), or d tau_f / d qd if slope"),
    FAST(inverse_dynamics_derivatives, "inverse_dynamics_derivatives(model, q, qd, qdd, f_tip): "
                                        "[dtau/dq, dtau/dqd, M]"),
    FAST(forward_dynamics_derivatives, "forward_dynamics_derivatives(model, q, qd, tau, f_tip): "
                                        "[dqdd/dq, dqdd/dqd, M^-1]"),
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
            || PyModule_AddIntConstant(m, "IMPLICIT", RD_IMPLICIT) < 0
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
