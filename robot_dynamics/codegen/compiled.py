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
"""Compile a generated model to a CPython extension with gcc, cached on disk.

The generated C functions are wrapped in a small extension module (vectorcall ``FASTCALL``
functions, numpy arrays in and out, a C loop over a batch; every input check in C, booleans
included: ``Kernels(refuse)`` binds the functions to the library's message), built once with the system C
compiler and kept in a cache directory, so that a restarted process only loads the shared
library. The cache key is the SHA-256 of the exact source text, the compiler (path and
``--version``), the flags and the Python and numpy ABI: a library is only ever loaded for the
very source it was built from (issue 22.2). The library's own SHA-256 is recorded when it is
built and checked before it is loaded; the directory must be private (:mod:`.cache`). Without
a compiler (or with ``ROBOT_DYNAMICS_NO_COMPILE=1``) :func:`compiler_available` is False and
callers fall back to the generated Python code.

Cache directory: ``$ROBOT_DYNAMICS_CACHE`` or ``~/.cache/robot_dynamics/codegen``.
"""

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np

from robot_dynamics.codegen import cache
from robot_dynamics.codegen.cache import cache_directory, CacheError
from robot_dynamics.codegen.emit import c_module

GENERATOR_VERSION = '4'
#: Every source the generated code depends on, relative to the package (Renaud's recursion
#: and its 3-vector helpers included).
_SOURCES = ('codegen/expr.py', 'codegen/parameters.py', 'algorithms/renaud.py',
            'spatial/components.py', 'codegen/hoisting.py', 'codegen/generator.py',
            'codegen/emit.py', 'codegen/compiled.py', 'codegen/trig.h', 'codegen/trig_lanes.h')
FLAGS = ('-shared', '-fPIC', '-std=c99', '-fno-math-errno', '-ffp-contract=off')
_MODULE_PLACEHOLDER = 'RD_MODULE_NAME'


def source_digest():
    """Return a hash of the generator's sources: a changed generator never loads stale code."""
    global _digest
    if _digest is None:
        digest = hashlib.sha256(GENERATOR_VERSION.encode())
        directory = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for name in _SOURCES:
            with open(os.path.join(directory, name), 'rb') as handle:
                digest.update(handle.read())
        _digest = digest.hexdigest()[:16]
    return _digest


_digest = None
_loaded = {}
_identities = {}


def compiler():
    """Return the path of the C compiler: ``$CC``, else cc or gcc; None if there is none."""
    for candidate in (os.environ.get('CC'), 'cc', 'gcc'):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def compiler_available():
    """Tell whether extensions can be built here (compiler and Python headers present)."""
    if os.environ.get('ROBOT_DYNAMICS_NO_COMPILE', '') not in ('', '0'):
        return False
    header = os.path.join(sysconfig.get_paths()['include'], 'Python.h')
    return compiler() is not None and os.path.exists(header)


def compiler_identity():
    """Return the compiler's path and ``--version`` text (part of every cache key)."""
    path = compiler()
    if path not in _identities:
        try:
            version = subprocess.run([path, '--version'], capture_output=True, text=True,
                                     timeout=30).stdout
        except (OSError, subprocess.SubprocessError, TypeError):
            version = ''
        _identities[path] = f'{path}\n{version}'
    return _identities[path]


def _include_directories():
    return (sysconfig.get_paths()['include'], np.get_include())


def build_key(template, optimisation='-O2'):
    """Return the cache key: SHA-256 of the source, compiler, flags and Python/numpy ABI."""
    digest = hashlib.sha256()
    for part in (template, compiler_identity(), optimisation, *FLAGS, *_include_directories(),
                 sys.version, sysconfig.get_config_var('EXT_SUFFIX') or '', np.__version__):
        digest.update(str(part).encode('utf-8', 'surrogatepass'))
        digest.update(b'\0')
    return digest.hexdigest()


def module_name(key):
    """Extension module name for a cache key."""
    return f'_rd_generated_{key}'


def cached_path(key):
    """Path of the shared library for ``key`` in the cache (it may not exist yet)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return os.path.join(cache_directory(), module_name(key) + suffix)


def load_cached(key):
    """Return the extension module for ``key`` if built already and verified, else None."""
    if key in _loaded:
        return _loaded[key]
    path = cached_path(key)
    handle = cache.open_verified(path)
    if handle is None:
        return None
    try:
        if not cache.same_file(handle, path):
            return None
        return _load(key, path)
    finally:
        os.close(handle)


def _load(key, path):
    name = module_name(key)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    _loaded[key] = module
    return module


def build(generated, optimisation='-O2'):
    """Compile ``generated`` (a GeneratedModel with numeric parameters) and load it.

    The key covers the exact source text; a verified library for it is loaded instead of
    compiling again.
    """
    template = extension_source(generated, _MODULE_PLACEHOLDER)
    key = build_key(template, optimisation)
    cached = load_cached(key)
    if cached is not None:
        return cached
    return build_source(template.replace(_MODULE_PLACEHOLDER, module_name(key)), key,
                        optimisation)


def build_source(source, key, optimisation='-O2'):
    """Compile the extension module source ``source`` for ``key`` into the cache, load it."""
    path = cached_path(key)
    directory = os.path.dirname(path)
    c_name = module_name(key) + '.c'
    with tempfile.TemporaryDirectory(dir=directory) as work:    # mode 0700, a fresh name
        with open(os.path.join(work, c_name), 'w') as handle:
            handle.write(source)
        target = os.path.basename(path)
        include = [flag for d in _include_directories() for flag in ('-I', d)]
        command = [compiler(), optimisation, *FLAGS, *include, c_name, '-o', target, '-lm']
        result = subprocess.run(command, capture_output=True, text=True, cwd=work)
        if result.returncode != 0:
            raise RuntimeError(f'compiling the generated model failed:\n{result.stderr[-2000:]}')
        cache.write_file(directory, c_name, source.encode())
        cache.install(directory, os.path.join(work, target), target)
    loaded = load_cached(key)
    if loaded is None:
        raise CacheError(f'compile cache: {path} changed between its build and its load; '
                         'is another process writing the cache directory?')
    return loaded


_GLUE = r'''
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
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
#define NTRI (NDOF * (NDOF + 1) / 2)

/* Rows `row`, `row + 1` of the batch through the two-lane kernel: gather, call, scatter. */
static void pair(vkernel_t vkernel, int nin, const double *const *base, npy_intp row,
                 double *out, int out_width, int tri)
{
    V in[4][NDOF], result[NTRI > NDOF ? NTRI : NDOF];
    const V *pointers[4];
    int k, i, j, m;
    for (k = 0; k < nin; ++k) {
        const double *a = base[k] + row * NDOF, *b = a + NDOF;
        for (i = 0; i < NDOF; ++i)
            in[k][i] = (V){a[i], b[i]};
        pointers[k] = in[k];
    }
    vkernel(pointers, result);
    for (m = 0; m < 2; ++m) {
        if (!tri) {
            for (i = 0; i < out_width; ++i)
                out[(row + m) * out_width + i] = result[i][m];
            continue;
        }
        double *M = out + (row + m) * NDOF * NDOF;
        for (i = 0, k = 0; i < NDOF; ++i)
            for (j = 0; j <= i; ++j, ++k)
                M[i * NDOF + j] = M[j * NDOF + i] = result[k][m];
    }
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

/* Call `kernel` on every row of `nin` arrays (n,) or (N, n); `tri` = lower-triangle output
 * to expand into a full symmetric matrix. Errors name the argument and the expected shape.
 * Booleans are refused first, by `refuse(label)` (the library's message, naming the joints)
 * when the call came through a Kernels object, else with the same words without the joints. */
static PyObject *dispatch(const char *fname, PyObject *const *args, Py_ssize_t nargs, int nin,
                          kernel_t kernel, vkernel_t vkernel, int out_width, int tri,
                          PyObject *refuse)
{
    const char *labels[] = {"q", "qd", strncmp(fname, "forward", 7) == 0 ? "tau" : "qdd"};
    PyArrayObject *arr[4] = {NULL, NULL, NULL, NULL};
    const double *ptr[4];
    PyObject *result = NULL;
    int ndim = 0, k;
    npy_intp N = 1, row, i, j;
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
        {
            const double *data = (const double *)PyArray_DATA(arr[k]);
            npy_intp total = PyArray_SIZE(arr[k]);
            for (i = 0; i < total; ++i)
                if (!isfinite(data[i])) {
                    PyErr_Format(PyExc_ValueError, "%%s(): %%s contains NaN or inf at joint "
                                 "index %%d; give finite values", fname, labels[k],
                                 (int)(i %% NDOF));
                    goto done;
                }
        }
    }
    {
        npy_intp dims[3];
        int out_ndim = 0;
        if (ndim == 2)
            dims[out_ndim++] = N;
        dims[out_ndim++] = NDOF;
        if (tri)
            dims[out_ndim++] = NDOF;
        result = PyArray_SimpleNew(out_ndim, dims, NPY_DOUBLE);
    }
    if (result == NULL)
        goto done;
    {
        double *out = (double *)PyArray_DATA((PyArrayObject *)result);
        double lower[NTRI];
        const double *base[4];
        for (k = 0; k < nin; ++k)
            base[k] = (const double *)PyArray_DATA(arr[k]);
        for (row = 0; row + 1 < N; row += 2)
            pair(vkernel, nin, base, row, out, out_width, tri);
        for (; row < N; ++row) {
            for (k = 0; k < nin; ++k)
                ptr[k] = (const double *)PyArray_DATA(arr[k]) + row * NDOF;
            if (!tri) {
                kernel(ptr, out + row * out_width);
                continue;
            }
            kernel(ptr, lower);
            double *M = out + row * NDOF * NDOF;
            for (i = 0, k = 0; i < NDOF; ++i)
                for (j = 0; j <= i; ++j, ++k)
                    M[i * NDOF + j] = M[j * NDOF + i] = lower[k];
        }
    }
    if (result != NULL) {
        const double *o = (const double *)PyArray_DATA((PyArrayObject *)result);
        npy_intp total = PyArray_SIZE((PyArrayObject *)result);
        for (i = 0; i < total; ++i)
            if (!isfinite(o[i])) {
                PyErr_Format(PyExc_ValueError, "%%s(): the result is not finite: the mass "
                             "matrix is singular or the inputs are too large", fname);
                Py_CLEAR(result);
                break;
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
    return dispatch("%(name)s", args, nargs, %(nin)d, kernel_%(name)s, vkernel_%(name)s, NDOF,
                    %(tri)d, NULL);
}

static PyObject *kernels_%(name)s(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return dispatch("%(name)s", args, nargs, %(nin)d, kernel_%(name)s, vkernel_%(name)s, NDOF,
                    %(tri)d, ((KernelsObject *)self)->refuse);
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
    parts = [c_module(generated, vector=True), _GLUE % {'n': generated.dof}]
    entries, kernel_entries = [], []
    for function_name, function in generated.functions.items():
        nin = len(function.inputs)
        parts.append(_WRAPPER % {
            'name': function_name, 'nin': nin,
            'arguments': ', '.join(f'in[{k}]' for k in range(nin)),
            'tri': int(function_name == 'mass_matrix')})
        for prefix, listing in (('py', entries), ('kernels', kernel_entries)):
            listing.append(f'    {{"{function_name}", (PyCFunction)(void (*)(void))'
                           f'{prefix}_{function_name}, METH_FASTCALL, '
                           f'"{function_name} (arrays (n,) or (N, n))"}},')
    parts.append(_MODULE % {'entries': '\n'.join(entries), 'module': name,
                            'kernel_entries': '\n'.join(kernel_entries)})
    return '\n'.join(parts)


def python_version_tag():
    """Tag that keeps caches of different Python versions apart."""
    return f'py{sys.version_info[0]}{sys.version_info[1]}'
