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

/* The integrators' entry points: step (one step, any batch) and simulate (a whole run without
 * the GIL). */
#include "binding.h"

#include <string.h>

#include "integrate.h"

/* ------------------------------------------------------------------ integration */
static int integrator_code(PyObject *obj, int *code)
{
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < RD_EULER || value > RD_IMPLICIT_CORIOLIS) {
        PyErr_SetString(PyExc_ValueError, "integrator code must be 0, 1, 2, 3 or 4");
        return -1;
    }
    *code = (int)value;
    return 0;
}

/* The joint limits lower, upper (None: no stops) as hard stops for n joints: 0, or -1 with an
 * exception set. The arrays (n,) of doubles (+-inf allowed, NaN not) are kept in held[2]. */
static int stops_from(PyObject *lower, PyObject *upper, int n, PyObject **held, rd_stops *s,
                      int *on)
{
    PyObject *given[2] = {lower, upper};
    *on = 0;
    if (lower == Py_None && upper == Py_None) return 0;
    for (int k = 0; k < 2; ++k) {
        const double *x;
        held[k] = PyArray_FROMANY(given[k], NPY_DOUBLE, 1, 1, NPY_ARRAY_IN_ARRAY);
        if (held[k] == NULL) return -1;
        x = PyArray_DATA((PyArrayObject *)held[k]);
        if (PyArray_DIM((PyArrayObject *)held[k], 0) != n) {
            PyErr_Format(PyExc_ValueError, "lower, upper: expected shape (%d,), one limit per "
                         "joint", n);
            return -1;
        }
        for (int i = 0; i < n; ++i)
            if (isnan(x[i])) {
                PyErr_SetString(PyExc_ValueError, "lower, upper: NaN limit; use -inf / inf");
                return -1;
            }
    }
    if (rd_stops_init(s, n, PyArray_DATA((PyArrayObject *)held[0]),
                      PyArray_DATA((PyArrayObject *)held[1])) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    *on = 1;
    return 0;
}

/* step(model, q, qd, tau, f_tip, dt, integrator[, lower, upper]) -> (q, qd, qdd, status);
 * with the limits, the stops act on every row's step (rd_stop_step). */
PyObject *py_step(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0, OUT_VECTOR, NULL};
    Arg args[4] = {{0}};
    ModelObject *model = NULL;
    PyObject *out[3] = {NULL, NULL, NULL}, *held[2] = {NULL, NULL}, *result = NULL;
    npy_intp N, row;
    int n, single, k, integrator, status = RD_OK, stopping = 0;
    double dt;
    rd_stops stops;
    if (nargs != 7 && nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "step(model, q, qd, tau, f_tip, dt, integrator"
                                         "[, lower, upper])");
        return NULL;
    }
    dt = PyFloat_AsDouble(argv[5]);
    if ((dt == -1.0 && PyErr_Occurred()) || integrator_code(argv[6], &integrator) != 0)
        return NULL;
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    if (take_all(argv[0], &spec, argv + 1, n, args, &N, &single) != 0) goto done;
    if (nargs == 9 && stops_from(argv[7], argv[8], n, held, &stops, &stopping) != 0) goto done;
    for (k = 0; k < 3; ++k)
        if ((out[k] = new_output(OUT_VECTOR, single, N, n)) == NULL) goto done;
    for (row = 0; row < N && status == RD_OK; ++row) {
        const double *x[4];
        double *y[3];
        for (k = 0; k < 4; ++k)
            x[k] = args[k].array == NULL ? NULL : args[k].data + row * args[k].stride;
        for (k = 0; k < 3; ++k) y[k] = (double *)PyArray_DATA((PyArrayObject *)out[k]) + row * n;
        status = rd_step(&model->model, integrator, x[0], x[1], x[2], x[3], dt, y[0], y[1], y[2]);
        if (status == RD_OK && stopping)
            status = rd_stop_step(&model->model, &stops, x[0], dt, y[0], y[1]);
    }
    result = Py_BuildValue("OOOi", out[0], out[1], out[2], status);
done:
    if (stopping) rd_stops_free(&stops);
    for (k = 0; k < 2; ++k) Py_XDECREF(held[k]);
    for (k = 0; k < 3; ++k) Py_XDECREF(out[k]);
    for (k = 0; k < 4; ++k) Py_XDECREF(args[k].array);
    Py_DECREF(model);
    return result;
}

/* stop_step(model, q, q_next, qd_next, dt, lower, upper) -> (q, qd, status): the hard stops
 * of rd_stop_step on one step from q (n,), within the limits, to (q_next, qd_next) (n,): the
 * model step(..., lower, upper) applies inside the engine, for a caller that needs the free
 * step as well (the simulation node counts the stops' work). */
PyObject *py_stop_step(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    Arg args[3] = {{0}};
    ModelObject *model = NULL;
    PyObject *out[2] = {NULL, NULL}, *held[2] = {NULL, NULL}, *result = NULL;
    int n, k, status = RD_OK, stopping = 0;
    double dt;
    rd_stops stops;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "stop_step(model, q, q_next, qd_next, dt, lower, upper)");
        return NULL;
    }
    dt = PyFloat_AsDouble(argv[4]);
    if (dt == -1.0 && PyErr_Occurred()) return NULL;
    if (!(dt > 0) || !isfinite(dt)) {
        PyErr_SetString(PyExc_ValueError, "dt: must be a positive number of seconds");
        return NULL;
    }
    model = engine_model(argv[0]);
    if (model == NULL) return NULL;
    n = model->model.n;
    for (k = 0; k < 3; ++k)
        if (take(argv[1 + k], n, &args[k]) != 0 || !args[k].single) {
            PyErr_Format(PyExc_ValueError, "stop_step: q, q_next, qd_next: expected %d finite "
                         "numbers each, one state (the library checks them first)", n);
            goto done;
        }
    if (stops_from(argv[5], argv[6], n, held, &stops, &stopping) != 0) goto done;
    for (k = 0; k < 2; ++k) {
        if ((out[k] = new_output(OUT_VECTOR, 1, 1, n)) == NULL) goto done;
        memcpy(PyArray_DATA((PyArrayObject *)out[k]), args[1 + k].data, sizeof(double) * n);
    }
    if (stopping)
        status = rd_stop_step(&model->model, &stops, args[0].data, dt,
                              (double *)PyArray_DATA((PyArrayObject *)out[0]),
                              (double *)PyArray_DATA((PyArrayObject *)out[1]));
    result = Py_BuildValue("OOi", out[0], out[1], status);
done:
    if (stopping) rd_stops_free(&stops);
    for (k = 0; k < 2; ++k) {
        Py_XDECREF(held[k]);
        Py_XDECREF(out[k]);
    }
    for (k = 0; k < 3; ++k) Py_XDECREF(args[k].array);
    Py_DECREF(model);
    return result;
}

/* simulate(model, q0, qd0, tau, torque_mode, steps, dt, integrator, energy_limit[, lower, upper])
 *   -> (q, qd, qdd, tau, energy, status, step). tau: (n,) constant, (steps + 1, n) per step
 *   or None with the gravity-compensation mode; energy_limit None for no check; lower, upper
 *   the joint limits as hard stops (None or absent: none). */
PyObject *py_simulate(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    static const Spec spec = {2, {"q0", "qd0"}, -1, 0, 0, OUT_VECTOR, NULL};
    Arg args[2] = {{0}}, tau = {0};
    ModelObject *model = NULL;
    PyObject *out[5] = {NULL, NULL, NULL, NULL, NULL}, *held[2] = {NULL, NULL}, *result = NULL;
    rd_run run;
    rd_stops stops;
    npy_intp N, dims[2];
    long at = 0;
    int n, single, k, status, stopping = 0;
    if (nargs != 9 && nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "simulate(model, q0, qd0, tau, torque_mode, steps, dt, "
                                         "integrator, energy_limit[, lower, upper])");
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
    if (nargs == 11 && stops_from(argv[9], argv[10], n, held, &stops, &stopping) != 0) goto done;
    run.stops = stopping ? &stops : NULL;
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
    if (stopping) rd_stops_free(&stops);
    for (k = 0; k < 2; ++k) Py_XDECREF(held[k]);
    for (k = 0; k < 5; ++k) Py_XDECREF(out[k]);
    for (k = 0; k < 2; ++k) Py_XDECREF(args[k].array);
    Py_XDECREF(tau.array);
    Py_DECREF(model);
    return result;
}
