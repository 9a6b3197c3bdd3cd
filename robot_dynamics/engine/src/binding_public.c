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
 * Public(python_function, engine_function, namespace, arity): a public library function whose
 * plain call goes to the engine without a Python frame (issue 32: the frame was a tenth of
 * rd.mass_matrix's time). A call with exactly `arity` positional arguments and no keywords,
 * while namespace['_engine'] is still the engine module, runs engine_function; every other
 * call (a solver, keywords, the engine switched off or replaced, as tests do) runs
 * python_function, which decides as before. The library copies the Python function's name,
 * docstring and __wrapped__ onto it (functools.update_wrapper), so help() and
 * inspect.signature() show the Python function's.
 */
#include "binding.h"

#include <stddef.h>

typedef struct {
    PyObject_HEAD
    PyObject *python, *engine_function, *engine, *namespace, *dict;
    Py_ssize_t arity;
    vectorcallfunc vectorcall;
    _PyCFunctionFast fast;      /* engine_function's C function when it is a METH_FASTCALL one */
} PublicObject;

static PyObject *engine_name = NULL;             /* "_engine", interned */

static PyObject *Public_vectorcall(PublicObject *self, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames)
{
    if (kwnames == NULL && PyVectorcall_NARGS(nargsf) == self->arity) {
        PyObject *current = PyDict_GetItemWithError(self->namespace, engine_name);
        if (current == self->engine && self->fast != NULL)           /* the engine's C entry */
            return self->fast(PyCFunction_GET_SELF(self->engine_function), args,
                              PyVectorcall_NARGS(nargsf));
        if (current == self->engine)
            return PyObject_Vectorcall(self->engine_function, args, nargsf, NULL);
        if (current == NULL && PyErr_Occurred()) return NULL;
    }
    return PyObject_Vectorcall(self->python, args, nargsf, kwnames);
}

static PyObject *Public_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *python, *engine_function, *namespace, *engine;
    Py_ssize_t arity;
    PublicObject *self;
    if (!PyArg_ParseTuple(args, "OOO!n", &python, &engine_function, &PyDict_Type, &namespace,
                          &arity))
        return NULL;
    engine = PyDict_GetItemWithError(namespace, engine_name);
    if (engine == NULL || !PyCallable_Check(python) || !PyCallable_Check(engine_function)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "Public(python_function, engine_function, "
                                             "namespace, arity): callables and a namespace "
                                             "holding _engine");
        return NULL;
    }
    self = (PublicObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->python = Py_NewRef(python);
    self->engine_function = Py_NewRef(engine_function);
    self->engine = Py_NewRef(engine);
    self->namespace = Py_NewRef(namespace);
    self->arity = arity;
    if (PyCFunction_Check(engine_function)
            && PyCFunction_GET_FLAGS(engine_function) == METH_FASTCALL)
        self->fast = (_PyCFunctionFast)(void (*)(void))PyCFunction_GET_FUNCTION(engine_function);
    self->vectorcall = (vectorcallfunc)Public_vectorcall;
    return (PyObject *)self;
}

static int Public_traverse(PublicObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->python);
    Py_VISIT(self->engine_function);
    Py_VISIT(self->engine);
    Py_VISIT(self->namespace);
    Py_VISIT(self->dict);
    return 0;
}

static int Public_clear(PublicObject *self)
{
    Py_CLEAR(self->python);
    Py_CLEAR(self->engine_function);
    Py_CLEAR(self->engine);
    Py_CLEAR(self->namespace);
    Py_CLEAR(self->dict);
    return 0;
}

static void Public_dealloc(PublicObject *self)
{
    PyObject_GC_UnTrack(self);
    Public_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A routine to inspect and pydoc (a method descriptor): as a class attribute it stays itself. */
static PyObject *Public_get(PyObject *self, PyObject *instance, PyObject *owner)
{
    return Py_NewRef(self);
}

static PyObject *Public_repr(PublicObject *self)
{
    return PyUnicode_FromFormat("<public function %R (engine fast path)>", self->python);
}

/* Pickled by reference, as a function is: its module's attribute of its name. */
static PyObject *Public_reduce(PyObject *self, PyObject *unused)
{
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyMethodDef Public_methods[] = {
    {"__reduce__", (PyCFunction)Public_reduce, METH_NOARGS, "pickle by reference"},
    {NULL, NULL, 0, NULL}
};

static PyGetSetDef Public_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

PyTypeObject PublicType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "robot_dynamics.engine._engine.Public",
    .tp_basicsize = sizeof(PublicObject),
    .tp_dealloc = (destructor)Public_dealloc,
    .tp_vectorcall_offset = offsetof(PublicObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)Public_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Public(python_function, engine_function, namespace, arity): see binding_public.c",
    .tp_traverse = (traverseproc)Public_traverse,
    .tp_clear = (inquiry)Public_clear,
    .tp_descr_get = Public_get,
    .tp_methods = Public_methods,
    .tp_getset = Public_getset,
    .tp_dictoffset = offsetof(PublicObject, dict),
    .tp_new = Public_new,
};

int public_type_ready(void)
{
    if (engine_name == NULL && (engine_name = PyUnicode_InternFromString("_engine")) == NULL)
        return -1;
    return PyType_Ready(&PublicType);
}
