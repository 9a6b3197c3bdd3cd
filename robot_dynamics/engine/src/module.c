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
 * (numeric dtype, shape, finite values: binding_model.c); when a check fails the explain hook
 * re-runs the library's own checks, so the error messages are the library's.
 *
 * binding_model.c holds the Model type, the hooks and the argument checks; binding_dispatch.c
 * the dispatch of a call over its rows; binding_simulate.c the integrators' entry points; this
 * file the row kernels, the function table and the module.
 */
#define RD_BINDING_MAIN        /* this file imports numpy's C API for the others */
#include "binding.h"

#include <math.h>
#include <string.h>

#include "integrate.h"
#include "observer.h"
#include "parallel.h"


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


#define ENGINE_FUNCTION(fname, ...)                                                        \
    static const Spec spec_##fname = __VA_ARGS__;                                          \
    static PyObject *py_##fname(PyObject *self, PyObject *const *a, Py_ssize_t n)          \
    {                                                                                       \
        return dispatch(&spec_##fname, a, n);                                              \
    }

/* The batch kernels of fn_: fn__pair, and fn__quad where it is built (x86-64, GCC). */
#ifdef RD_HAVE_QUAD
#define QUAD(fn_) fn_##_quad
#else
#define QUAD(fn_) NULL
#endif
#define IN_LANES(fn_) fn_##_pair, QUAD(fn_)

ENGINE_FUNCTION(inverse_dynamics, {4, {"q", "qd", "qdd", "f_tip"}, 3, 1, 0, OUT_VECTOR, k_id,
                                   IN_LANES(rd_rnea)})
ENGINE_FUNCTION(gravity, {1, {"q"}, -1, 0, 0, OUT_VECTOR, k_gravity, IN_LANES(rd_gravity)})
ENGINE_FUNCTION(coriolis, {2, {"q", "qd"}, -1, 0, 0, OUT_VECTOR, k_coriolis})
ENGINE_FUNCTION(coriolis_matrix, {2, {"q", "qd"}, -1, 0, 0, OUT_MATRIX, k_coriolis_matrix})
ENGINE_FUNCTION(mass_matrix_dot, {2, {"q", "qd"}, -1, 0, 0, OUT_MATRIX, k_mass_matrix_dot})
ENGINE_FUNCTION(mass_matrix, {1, {"q"}, -1, 0, 0, OUT_MATRIX, k_mass_matrix, IN_LANES(rd_crba)})
ENGINE_FUNCTION(forward_dynamics, {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0, OUT_VECTOR,
                                   k_forward, IN_LANES(rd_forward)})
ENGINE_FUNCTION(jacobian, {1, {"q"}, -1, 0, 1, OUT_JACOBIAN, k_jacobian})
ENGINE_FUNCTION(tip_pose, {1, {"q"}, -1, 0, 0, OUT_POSE, k_tip_pose})
ENGINE_FUNCTION(static_torques, {2, {"q", "f_tip"}, 1, 0, 0, OUT_VECTOR, k_static})
ENGINE_FUNCTION(kinetic_energy, {2, {"q", "qd"}, -1, 0, 0, OUT_SCALAR, k_kinetic})
ENGINE_FUNCTION(potential_energy, {1, {"q"}, -1, 0, 0, OUT_SCALAR, k_potential})
ENGINE_FUNCTION(total_energy, {2, {"q", "qd"}, -1, 0, 0, OUT_SCALAR, k_total})
ENGINE_FUNCTION(friction, {1, {"qd"}, -1, 0, 1, OUT_VECTOR, k_friction})
ENGINE_FUNCTION(inverse_dynamics_derivatives, {4, {"q", "qd", "qdd", "f_tip"}, 3, 1, 0,
                                               OUT_MATRICES, k_id_derivatives,
                                               IN_LANES(rd_rnea_derivatives)})
ENGINE_FUNCTION(forward_dynamics_derivatives, {4, {"q", "qd", "tau", "f_tip"}, 3, 1, 0,
                                               OUT_MATRICES, k_fd_derivatives,
                                               IN_LANES(rd_forward_derivatives)})

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
    FAST(stop_step, "stop_step(model, q, q_next, qd_next, dt, lower, upper) -> (q, qd, status)"),
    FAST(simulate, "simulate(model, q0, qd0, tau, torque_mode, steps, dt, integrator, "
                   "energy_limit) -> (q, qd, qdd, tau, energy, status, step)"),
    FAST(momentum, "momentum(model, q, qd): [M qd, C^T qd, G] (observer.h)"),
    FAST(momentum_observer, "momentum_observer(model, state, t, q, qd, tau, series) -> r, or "
                            "(r, pdot, g) if series (observer.h)"),
    FAST(min_affine, "min_affine(slope, offset, cap, y0, reverse): TOPP-RA's passes "
                     "(recurrence.c)"),
    FAST(largest_feasible, "largest_feasible(alpha, beta, lo, hi, delta, big, iterations): "
                           "TOPP-RA's per-stage bound (recurrence.c)"),
    FAST(set_hooks, "set_hooks(packer, explainer, cache, overflow_error)"),
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine",
                                    "The compiled dynamics engine (see robot_dynamics.engine).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__engine(void)
{
    PyObject *m, *linalg;
    import_array();
    if (PyType_Ready(&ModelType) < 0 || public_type_ready() < 0) return NULL;
    linalg = PyImport_ImportModule("numpy.linalg");
    if (linalg == NULL) return NULL;
    linalg_error = PyObject_GetAttrString(linalg, "LinAlgError");
    rd_engine_threads = rd_default_threads();
#ifdef RD_HAVE_QUAD
    __builtin_cpu_init();
    rd_have_avx2 = __builtin_cpu_supports("avx2")
                && getenv("ROBOT_DYNAMICS_NO_AVX2") == NULL;       /* to test the pairs */
#endif
    Py_DECREF(linalg);
    if (linalg_error == NULL) return NULL;
    m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Model", (PyObject *)&ModelType) < 0
            || PyModule_AddObjectRef(m, "Public", (PyObject *)&PublicType) < 0
            || PyModule_AddIntConstant(m, "THREADS", rd_engine_threads) < 0
            || PyModule_AddIntConstant(m, "PARALLEL_FROM", PARALLEL_FROM) < 0
            || PyModule_AddIntConstant(m, "BATCH_LANES", rd_have_avx2 ? 4 : 2) < 0
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
            || PyModule_AddIntConstant(m, "RUNAWAY", RD_RUNAWAY) < 0
            || PyModule_AddIntConstant(m, "MAX_RESULT_BYTES", RD_MAX_RESULT_BYTES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
