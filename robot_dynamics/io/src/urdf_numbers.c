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
 * robot_dynamics/io/urdf_numbers.py's plain_floats, plain_pose and plain_number, the same
 * results (float() itself reads each part: PyFloat_FromString), without their Python steps:
 * a text is plain when it is printable ASCII without '_' (there float() reads what the
 * loader's NUMBER pattern matches); anything else is None, and the Python code decides.
 */
#include "urdf_numbers.h"

/* Is str `text` printable ASCII without '_' (str.isascii(), .isprintable(), '_' not in)? */
static int plain_text(PyObject *text)
{
    const unsigned char *c;
    Py_ssize_t length;
    if (!PyUnicode_IS_ASCII(text))
        return 0;
    c = PyUnicode_1BYTE_DATA(text);
    length = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t k = 0; k < length; k++)
        if (c[k] < 0x20 || c[k] > 0x7e || c[k] == '_')
            return 0;
    return 1;
}

/* float(text) of a str, or Py_None for a ValueError (new references); NULL: another error. */
static PyObject *float_or_none(PyObject *text)
{
    PyObject *value = PyUnicode_CheckExact(text) ? PyFloat_FromString(text)
                                                 : PyObject_CallOneArg((PyObject *)&PyFloat_Type, text);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return value;
}

/* plain_floats of `count` items: a list of floats, or Py_None (new references). */
static PyObject *floats_of(PyObject *const *items, Py_ssize_t count)
{
    PyObject *values;
    for (Py_ssize_t k = 0; k < count; k++)
        if (items[k] == Py_None)
            Py_RETURN_NONE;
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!PyUnicode_Check(items[k])) {
            PyErr_Format(PyExc_TypeError, "sequence item %zd: expected str instance, %.80s "
                         "found", k, Py_TYPE(items[k])->tp_name);
            return NULL;
        }
    }
    for (Py_ssize_t k = 0; k < count; k++)
        if (!plain_text(items[k]))
            Py_RETURN_NONE;
    if ((values = PyList_New(count)) == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *value = float_or_none(items[k]);
        if (value == NULL || value == Py_None) {
            Py_DECREF(values);
            return value;
        }
        PyList_SET_ITEM(values, k, value);
    }
    return values;
}

PyObject *urdf_plain_floats(PyObject *module, PyObject *texts)
{
    PyObject *fast = PySequence_Fast(texts, "can only join an iterable"), *values;
    (void)module;
    if (fast == NULL)
        return NULL;
    values = floats_of(PySequence_Fast_ITEMS(fast), PySequence_Fast_GET_SIZE(fast));
    Py_DECREF(fast);
    return values;
}

/* Is the sum of the floats in list `values` (0 + each, in order, as sum()) finite? */
static int finite_sum(PyObject *values)
{
    double total = 0.0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(values); k++)
        total += PyFloat_AS_DOUBLE(PyList_GET_ITEM(values, k));
    return Py_IS_FINITE(total);
}

PyObject *urdf_plain_pose(PyObject *module, PyObject *args)
{
    PyObject *xyz, *rpy, *first = NULL, *second = NULL, *values = NULL, *result = NULL;
    PyObject *parts[6];
    (void)module;
    if (!PyArg_ParseTuple(args, "UU:plain_pose", &xyz, &rpy))
        return NULL;
    if ((first = PyUnicode_Split(xyz, NULL, -1)) == NULL ||
            (second = PyUnicode_Split(rpy, NULL, -1)) == NULL)
        goto done;
    if (PyList_GET_SIZE(first) != 3 || PyList_GET_SIZE(second) != 3) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    for (int k = 0; k < 3; k++) {
        parts[k] = PyList_GET_ITEM(first, k);
        parts[3 + k] = PyList_GET_ITEM(second, k);
    }
    if ((values = floats_of(parts, 6)) == NULL)
        goto done;
    if (values == Py_None || !finite_sum(values)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    result = Py_BuildValue("(NN)", PyList_GetSlice(values, 0, 3), PyList_GetSlice(values, 3, 6));
done:
    Py_XDECREF(first);
    Py_XDECREF(second);
    Py_XDECREF(values);
    return result;
}

PyObject *urdf_plain_number(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_CheckExact(text) || !plain_text(text))
        Py_RETURN_NONE;
    return float_or_none(text);
}
