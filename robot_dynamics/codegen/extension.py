# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""The C of a generated model's extension module: the kernels' glue, wrappers and module.

The generated functions (:func:`robot_dynamics.codegen.emit.c_module`) are wrapped as
vectorcall ``FASTCALL`` functions: numpy arrays (n,) or (N, n) in, an array out, a C loop over a
batch (two rows at a time through the two-lane kernels). Every input check runs in C: booleans
first (``numpy.asarray(x).dtype == bool``: a flag where values belong), then the argument
count, the conversion to float64 (arrays of float64 in C order are read in place), the shape
and finite values; a non-finite result is an error. The kernels write into the output array
itself (the mass matrix whole, both triangles: ``c_module(square=True)``) and each finite
check is one pass without a branch per value. The module's functions say what is wrong
without the joints' names; ``Kernels(refuse)`` binds the same functions to a model's
``refuse(label)``, which raises the library's message naming them (:mod:`robot_dynamics.fast`).
"""

from robot_dynamics.codegen.emit import c_module

_GLUE = r'''
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NDOF %(n)d
typedef void (*kernel_t)(const double *const *in, double *out);
/* The functions bound to the library's refusal of booleans (its message names the joints). */
typedef struct {
    PyObject_HEAD
    PyObject *refuse;
} KernelsObject;
typedef void (*vkernel_t)(const V *const *in, V *out);
#define EXPONENT 0x7ff0000000000000ULL

/* Whether the `count` values at `x` are all finite: one pass, no branch per value (a value
 * is NaN or inf when its exponent bits are all set). */
static int all_finite(const double *x, npy_intp count)
{
    uint64_t bits, bad = 0;
    npy_intp i;
    for (i = 0; i < count; ++i) {
        memcpy(&bits, x + i, sizeof bits);
        bad |= (~bits & EXPONENT) == 0;
    }
    return !bad;
}

/* Rows `row`, `row + 1` of the batch through the two-lane kernel: gather, call, scatter. */
static void pair(vkernel_t vkernel, int nin, const double *const *base, npy_intp row,
                 double *out, int out_width)
{
    V in[4][NDOF], result[NDOF * NDOF];
    const V *pointers[4];
    int k, i, m;
    for (k = 0; k < nin; ++k) {
        const double *a = base[k] + row * NDOF, *b = a + NDOF;
        for (i = 0; i < NDOF; ++i)
            in[k][i] = (V){a[i], b[i]};
        pointers[k] = in[k];
    }
    vkernel(pointers, result);
    for (m = 0; m < 2; ++m)
        for (i = 0; i < out_width; ++i)
            out[(row + m) * out_width + i] = result[i][m];
}

/* Whether `value` converts to an array of dtype bool (numpy.asarray(value).dtype == bool): a
 * flag passed where values belong, which the conversion to double would take as 0 and 1. An
 * array or a number is told by its type; anything else is converted once to see. */
static int is_boolean(PyObject *value)
{
    PyArrayObject *array;
    int boolean;
    if (PyArray_Check(value))
        return PyArray_TYPE((PyArrayObject *)value) == NPY_BOOL;
    if (PyFloat_CheckExact(value) || PyLong_CheckExact(value))
        return 0;
    array = (PyArrayObject *)PyArray_FromAny(value, NULL, 0, 0, 0, NULL);
    if (array == NULL) {              /* not an array at all: the checks below say so */
        PyErr_Clear();
        return 0;
    }
    boolean = PyArray_TYPE(array) == NPY_BOOL;
    Py_DECREF(array);
    return boolean;
}

/* A float64 array to read as it is (C order, aligned, native), a new reference; else the
 * conversion of `value` (NULL with an exception if it has no numbers). */
static PyArrayObject *as_doubles(PyObject *value)
{
    if (PyArray_CheckExact(value) && PyArray_TYPE((PyArrayObject *)value) == NPY_DOUBLE
            && PyArray_ISCARRAY_RO((PyArrayObject *)value)
            && PyArray_ISNOTSWAPPED((PyArrayObject *)value)) {
        Py_INCREF(value);
        return (PyArrayObject *)value;
    }
    return (PyArrayObject *)PyArray_FROMANY(value, NPY_DOUBLE, 0, 0, NPY_ARRAY_IN_ARRAY);
}

/* Call `kernel` on every row of `nin` arrays (n,) or (N, n); `square`: the kernel writes an
 * n x n matrix per row (the mass matrix, whole), else n values. `last`: the label of the
 * third argument ("qdd" or "tau"). Errors name the argument and the expected shape.
 * Booleans are refused first, by `refuse(label)` (the library's message, naming the joints)
 * when the call came through a Kernels object, else with the same words without the joints. */
static PyObject *dispatch(const char *fname, const char *last, PyObject *const *args,
                          Py_ssize_t nargs, int nin, kernel_t kernel, vkernel_t vkernel,
                          int square, PyObject *refuse)
{
    const char *labels[] = {"q", "qd", last};
    const int out_width = square ? NDOF * NDOF : NDOF;
    PyArrayObject *arr[4] = {NULL, NULL, NULL, NULL};
    const double *ptr[4];
    PyObject *result = NULL;
    int ndim = 0, k;
    npy_intp N = 1, row, i;
    for (k = 0; k < nin && k < nargs; ++k) {
        if (!is_boolean(args[k]))
            continue;
        if (refuse != NULL) {
            PyObject *answer = PyObject_CallFunction(refuse, "s", labels[k]);
            if (answer == NULL)
                return NULL;
            Py_DECREF(answer);
        }
        PyErr_Format(PyExc_ValueError, "%%s: expected real numbers, got booleans (dtype bool); "
                     "give the values as numbers", labels[k]);
        return NULL;
    }
    if (nargs != nin) {
        PyErr_Format(PyExc_TypeError, "%%s() takes %%d arrays, got %%zd", fname, nin, nargs);
        return NULL;
    }
    for (k = 0; k < nin; ++k) {
        arr[k] = as_doubles(args[k]);
        if (arr[k] == NULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%%s(): %%s must be real numbers, shape (%%d,) or "
                         "(N, %%d); got %%s", fname, labels[k], NDOF, NDOF,
                         Py_TYPE(args[k])->tp_name);
            goto done;
        }
        if (PyArray_NDIM(arr[k]) < 1 || PyArray_NDIM(arr[k]) > 2
                || PyArray_DIM(arr[k], PyArray_NDIM(arr[k]) - 1) != NDOF
                || (k > 0 && (PyArray_NDIM(arr[k]) != ndim
                              || (ndim == 2 && PyArray_DIM(arr[k], 0) != N)))) {
            PyObject *shape = PyObject_GetAttrString((PyObject *)arr[k], "shape");
            PyErr_Format(PyExc_ValueError, "%%s(): %%s must have shape (%%d,) or (N, %%d)%%s, "
                         "got shape %%R", fname, labels[k], NDOF, NDOF,
                         k > 0 ? ", the same as q" : "", shape != NULL ? shape : Py_None);
            Py_XDECREF(shape);
            goto done;
        }
        if (k == 0) {
            ndim = PyArray_NDIM(arr[0]);
            N = ndim == 2 ? PyArray_DIM(arr[0], 0) : 1;
        }
        if (!all_finite((const double *)PyArray_DATA(arr[k]), PyArray_SIZE(arr[k]))) {
            const double *data = (const double *)PyArray_DATA(arr[k]);
            for (i = 0; isfinite(data[i]); ++i)
                ;
            PyErr_Format(PyExc_ValueError, "%%s(): %%s contains NaN or inf at joint index %%d; "
                         "give finite values", fname, labels[k], (int)(i %% NDOF));
            goto done;
        }
    }
    {
        npy_intp dims[3];
        int out_ndim = 0;
        if (ndim == 2)
            dims[out_ndim++] = N;
        dims[out_ndim++] = NDOF;
        if (square)
            dims[out_ndim++] = NDOF;
        result = PyArray_SimpleNew(out_ndim, dims, NPY_DOUBLE);
    }
    if (result == NULL)
        goto done;
    {
        double *out = (double *)PyArray_DATA((PyArrayObject *)result);
        const double *base[4];
        for (k = 0; k < nin; ++k)
            base[k] = (const double *)PyArray_DATA(arr[k]);
        for (row = 0; row + 1 < N; row += 2)
            pair(vkernel, nin, base, row, out, out_width);
        for (; row < N; ++row) {
            for (k = 0; k < nin; ++k)
                ptr[k] = base[k] + row * NDOF;
            kernel(ptr, out + row * out_width);
        }
        if (!all_finite(out, N * out_width)) {
            PyErr_Format(PyExc_ValueError, "%%s(): the result is not finite: the mass matrix "
                         "is singular or the inputs are too large", fname);
            Py_CLEAR(result);
        }
    }
done:
    for (k = 0; k < nin; ++k)
        Py_XDECREF(arr[k]);
    return result;
}
'''

_WRAPPER = r'''
static void kernel_%(name)s(const double *const *in, double *out)
{
    rd_%(name)s(%(arguments)s, out);
}

static void vkernel_%(name)s(const V *const *in, V *out)
{
    rd_%(name)s_v(%(arguments)s, out);
}

static PyObject *py_%(name)s(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return dispatch("%(name)s", "%(last)s", args, nargs, %(nin)d, kernel_%(name)s,
                    vkernel_%(name)s, %(square)d, NULL);
}

static PyObject *kernels_%(name)s(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return dispatch("%(name)s", "%(last)s", args, nargs, %(nin)d, kernel_%(name)s,
                    vkernel_%(name)s, %(square)d, ((KernelsObject *)self)->refuse);
}
'''

_MODULE = r'''
static PyMethodDef methods[] = {
%(entries)s
    {NULL, NULL, 0, NULL}
};

static PyMethodDef kernel_methods[] = {
%(kernel_entries)s
    {NULL, NULL, 0, NULL}
};

static void Kernels_dealloc(KernelsObject *self)
{
    Py_XDECREF(self->refuse);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Kernels_init(KernelsObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *refuse;
    if (!PyArg_ParseTuple(args, "O", &refuse))
        return -1;
    if (!PyCallable_Check(refuse)) {
        PyErr_SetString(PyExc_TypeError, "Kernels(refuse): refuse(label) raises the error for "
                        "a boolean argument");
        return -1;
    }
    Py_INCREF(refuse);
    Py_XSETREF(self->refuse, refuse);
    return 0;
}

static PyTypeObject KernelsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "%(module)s.Kernels",
    .tp_basicsize = sizeof(KernelsObject),
    .tp_dealloc = (destructor)Kernels_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The functions, bound to refuse(label): raises the error for a boolean argument",
    .tp_init = (initproc)Kernels_init,
    .tp_new = PyType_GenericNew,
    .tp_methods = kernel_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "%(module)s",
                                    "Compiled customised dynamic model", -1, methods};

PyMODINIT_FUNC PyInit_%(module)s(void)
{
    PyObject *m;
    import_array();
    if (PyType_Ready(&KernelsType) < 0)
        return NULL;
    m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddObjectRef(m, "Kernels", (PyObject *)&KernelsType) < 0)
        Py_CLEAR(m);
    return m;
}
'''


def extension_source(generated, name):
    """C source of the extension module ``name`` for every function of ``generated``."""
    parts = [c_module(generated, vector=True, square=True), _GLUE % {'n': generated.dof}]
    entries, kernel_entries = [], []
    for function_name, function in generated.functions.items():
        nin = len(function.inputs)
        parts.append(_WRAPPER % {
            'name': function_name, 'nin': nin,
            'arguments': ', '.join(f'in[{k}]' for k in range(nin)),
            'last': 'tau' if function_name == 'forward_dynamics' else 'qdd',
            'square': int(function_name == 'mass_matrix')})
        for prefix, listing in (('py', entries), ('kernels', kernel_entries)):
            listing.append(f'    {{"{function_name}", (PyCFunction)(void (*)(void))'
                           f'{prefix}_{function_name}, METH_FASTCALL, '
                           f'"{function_name} (arrays (n,) or (N, n))"}},')
    parts.append(_MODULE % {'entries': '\n'.join(entries), 'module': name,
                            'kernel_entries': '\n'.join(kernel_entries)})
    return '\n'.join(parts)
