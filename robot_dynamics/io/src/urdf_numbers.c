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
 * results, without their Python steps: a text is plain when it is printable ASCII without '_'
 * (there float() reads what the loader's NUMBER pattern matches); anything else is None, and
 * the Python code decides. float() reads each part (PyFloat_FromString), except a plain
 * decimal of up to 19 digits, rounded here once as float() rounds it (plain_decimal: about a
 * third of float()'s instructions on a UR5's numbers).
 */
#include "urdf_numbers.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

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

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 wide;
#define MAX_DIGITS 19                    /* below 2^64 */
#define MAX_POWER 27                     /* 5^27 < 2^63: m 5^k and m 2^s / 5^k fit 128 bits */
/* The powers of ten a double holds exactly. */
static const double TEN[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                             1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int bit_length(wide x)
{
    uint64_t high = (uint64_t)(x >> 64);
    return high ? 128 - __builtin_clzll(high) : 64 - __builtin_clzll((uint64_t)x);
}

/* (x + fraction) 2^scale rounded to a double, half to even; `inexact`: a fraction 0 < f < 1
   below x (only when x has more than 53 bits). Exact integers: no double rounding. */
static double rounded(wide x, int scale, int inexact)
{
    int extra = bit_length(x) - 53;
    if (extra > 0) {
        wide below = x & (((wide)1 << extra) - 1), half = (wide)1 << (extra - 1);
        x >>= extra;
        scale += extra;
        if (below > half || (below == half && (inexact || (x & 1))))
            x += 1;                      /* 2^53 at most: still exact as a double */
    }
    return ldexp((double)(uint64_t)x, scale);
}

/* float() of a plain decimal [+-]digits[.digits][e[+-]digits] with at most MAX_DIGITS
   significant digits and a power of ten within MAX_POWER: m 10^e correctly rounded, as
   float() rounds (so bit for bit its value): one double operation when m and 10^e are exact
   doubles (Clinger's fast path), else in integers. 0: not such a text (float() decides). */
static int plain_decimal(const unsigned char *c, Py_ssize_t length, double *value)
{
    Py_ssize_t k = 0;
    int negative = 0, digits = 0, seen = 0, power = 0;
    uint64_t m = 0;
    if (k < length && (c[k] == '+' || c[k] == '-'))
        negative = c[k++] == '-';
    for (int fraction = 0; k < length; k++) {
        if (c[k] == '.' && !fraction) {
            fraction = 1;
            continue;
        }
        if (c[k] < '0' || c[k] > '9')
            break;
        seen = 1;
        power -= fraction;
        if ((m != 0 || c[k] != '0') && ++digits > MAX_DIGITS)
            return 0;
        m = m * 10 + (uint64_t)(c[k] - '0');
    }
    if (!seen)
        return 0;
    if (k < length && (c[k] == 'e' || c[k] == 'E')) {
        int sign = 1, exponent = 0;
        if (++k < length && (c[k] == '+' || c[k] == '-'))
            sign = c[k++] == '-' ? -1 : 1;
        if (k == length)
            return 0;
        for (; k < length && c[k] >= '0' && c[k] <= '9' && exponent < 1000; k++)
            exponent = exponent * 10 + (c[k] - '0');
        power += sign * exponent;
    }
    if (k != length || (m != 0 && (power < -MAX_POWER || power > MAX_POWER)))
        return 0;
    if (m == 0) {
        *value = negative ? -0.0 : 0.0;
        return 1;
    }
#if FLT_EVAL_METHOD == 0
    if (m <= (uint64_t)1 << 53 && power >= -22 && power <= 22) {   /* both exact: one rounding */
        *value = power < 0 ? (double)m / TEN[-power] : (double)m * TEN[power];
        if (negative)
            *value = -*value;
        return 1;
    }
#endif
    wide five = 1;
    for (int j = 0; j < (power < 0 ? -power : power); j++)
        five *= 5;
    if (power >= 0) {                    /* m 5^p 2^p */
        *value = rounded((wide)m * five, power, 0);
    } else {                             /* m / (5^p 2^p): a quotient of 64 bits and more */
        int shift = 127 - bit_length(m);
        wide scaled = (wide)m << shift;
        *value = rounded(scaled / five, power - shift, scaled % five != 0);
    }
    if (negative)
        *value = -*value;
    return 1;
}
#else
static int plain_decimal(const unsigned char *c, Py_ssize_t length, double *value)
{
    (void)c, (void)length, (void)value;
    return 0;                            /* no 128-bit integers: float() reads every text */
}
#endif

/* float(text) of a str, or Py_None for a ValueError (new references); NULL: another error. */
static PyObject *float_or_none(PyObject *text)
{
    double fast;
    if (PyUnicode_CheckExact(text) && PyUnicode_IS_ASCII(text) &&
            plain_decimal(PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), &fast))
        return PyFloat_FromDouble(fast);
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

/* A separator of str.split() among ASCII characters (str.isspace()). */
static int is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* The whitespace-separated parts of str `text` read in place when each is a plain decimal
   (plain_decimal: finite): 1 when there are `count`, into `values`; 0 when there are not
   `count` parts (plain_numbers' None); -1 unsure: text.split() and float() decide. */
static int decimals_in(PyObject *text, int count, double *values)
{
    const unsigned char *c;
    Py_ssize_t length, k = 0;
    int found = 0;
    if (!PyUnicode_IS_ASCII(text))
        return -1;
    c = PyUnicode_1BYTE_DATA(text);
    length = PyUnicode_GET_LENGTH(text);
    while (1) {
        while (k < length && is_space(c[k]))
            k++;
        if (k == length)
            return found == count;
        Py_ssize_t start = k;
        while (k < length && !is_space(c[k]))
            k++;
        if (found == count)
            return 0;
        if (!plain_decimal(c + start, k - start, &values[found++]))
            return -1;
    }
}

PyObject *urdf_plain_numbers(PyObject *module, PyObject *args)
{
    PyObject *text, *parts, *values;
    Py_ssize_t count;
    double read[3];
    (void)module;
    if (!PyArg_ParseTuple(args, "Un:plain_numbers", &text, &count))
        return NULL;
    int found = count == 3 ? decimals_in(text, 3, read) : -1;
    if (found >= 0)
        return found ? Py_BuildValue("[ddd]", read[0], read[1], read[2]) : Py_NewRef(Py_None);
    if ((parts = PyUnicode_Split(text, NULL, -1)) == NULL)
        return NULL;
    values = PyList_GET_SIZE(parts) == count ? floats_of(PySequence_Fast_ITEMS(parts), count)
                                             : Py_NewRef(Py_None);
    Py_DECREF(parts);
    if (values != NULL && values != Py_None && !finite_sum(values))
        Py_SETREF(values, Py_NewRef(Py_None));
    return values;
}

PyObject *urdf_plain_pose(PyObject *module, PyObject *args)
{
    PyObject *xyz, *rpy, *first = NULL, *second = NULL, *values = NULL, *result = NULL;
    PyObject *parts[6];
    double read[6];
    (void)module;
    if (!PyArg_ParseTuple(args, "UU:plain_pose", &xyz, &rpy))
        return NULL;
    int found = decimals_in(xyz, 3, read);
    if (found == 1)
        found = decimals_in(rpy, 3, read + 3);
    if (found == 0)                      /* not three parts: None, whatever they are */
        Py_RETURN_NONE;
    if (found == 1)                      /* finite, and so is their sum */
        return Py_BuildValue("([ddd][ddd])", read[0], read[1], read[2], read[3], read[4],
                             read[5]);
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
