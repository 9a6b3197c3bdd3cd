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

/* The Model type (an unpacked RobotModel), the hooks and cache the Python side installs, and
 * the argument checks every entry point runs. */
#include "binding.h"

/* ------------------------------------------------------------------ the Model type */

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
    if (n < 1 || size != RD_HEADER + RD_JOINT_STRIDE * (npy_intp)n) {
        Py_DECREF(packed);
        PyErr_SetString(PyExc_ValueError, "Model: expected the array robot_dynamics.engine.pack "
                                          "builds (16 + 37 n numbers)");
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

PyTypeObject ModelType = {
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
static PyObject *packer = NULL, *explainer = NULL, *cache = NULL;
/* The last model looked up: the robot's basic weak reference and its engine model. A robot
 * that died leaves the reference dead (None, never another object at the same address); the
 * cache's own entry is the authority, this only skips the dictionary's lookup, whose weak
 * reference keys compare by their referents (a quarter of a small call's fixed cost). */
static PyObject *last_ref = NULL, *last_model = NULL;

PyObject *linalg_error = NULL;
PyObject *overflow_error = NULL;

/* set_hooks(packer, explainer, cache, overflow_error): the library's model packer, argument
 * explainer, model cache and its exception for a result that overflows (a ValueError
 * subclass, robot_dynamics.errors.ResultOverflowError), so that the engine raises the
 * library's own type and no caller has to translate it. */
PyObject *py_set_hooks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])
            || !PyDict_Check(args[2]) || !PyType_Check(args[3])
            || !PyType_IsSubtype((PyTypeObject *)args[3], (PyTypeObject *)PyExc_ValueError)) {
        PyErr_SetString(PyExc_TypeError, "set_hooks(packer, explainer, cache, overflow_error): "
                                         "two callables, the dict of a WeakKeyDictionary and "
                                         "a ValueError subclass");
        return NULL;
    }
    Py_XSETREF(packer, Py_NewRef(args[0]));
    Py_XSETREF(explainer, Py_NewRef(args[1]));
    Py_XSETREF(cache, Py_NewRef(args[2]));
    Py_CLEAR(last_ref);
    Py_CLEAR(last_model);
    Py_XSETREF(overflow_error, Py_NewRef(args[3]));
    Py_RETURN_NONE;
}

/* The engine model of a RobotModel (new reference): looked up in the packer's
 * WeakKeyDictionary (its dict is keyed by weak references, equal when their referents are),
 * else built by the packer. The engine Model keeps the model's basic weak reference alive,
 * so the lookup reuses it instead of allocating one. */
ModelObject *engine_model(PyObject *robot)
{
    PyObject *cached = NULL, *ref;
    if (last_ref != NULL && PyWeakref_GET_OBJECT(last_ref) == robot)
        return (ModelObject *)Py_NewRef(last_model);
    if (cache != NULL && (ref = PyWeakref_NewRef(robot, NULL)) != NULL) {
        cached = PyDict_GetItemWithError(cache, ref);
        if (cached != NULL && Py_IS_TYPE(cached, &ModelType)) {
            Py_XSETREF(last_model, Py_NewRef(cached));
            Py_XSETREF(last_ref, ref);
            return (ModelObject *)Py_NewRef(cached);
        }
        Py_DECREF(ref);
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

/* Accept a real numeric array-like of shape (width,) or (N, width), all values finite;
 * booleans are not numbers here (the library refuses them by name, model/arguments.py).
 * Returns 0, or -1 (no exception left set) when the library's checks should explain. */
int take(PyObject *obj, int width, Arg *arg)
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
    if (!(PyTypeNum_ISINTEGER(type) || PyTypeNum_ISFLOAT(type))
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
void explain(PyObject *robot, int nin, const char *const *names, PyObject *const *values)
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
