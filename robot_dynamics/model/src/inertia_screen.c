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
 * The screen of robot_dynamics/model/inertia_screen.py (its docstring gives the reasoning):
 * per link, in plain doubles, the operations Python's floats would do, in the same order
 * (built with -ffp-contract=off: no fused multiply-add), so the same answers bit for bit.
 * The constants come from Python (`constants`), computed there once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

typedef struct {
    double low, high;            /* SCREENED */
    double extent_sq, widen;     /* MIN_EXTENT ** 2, 1 + 1e-9 */
    double volume;               /* VOLUME_FACTOR */
    double least, most;          /* DENSITY_RANGE narrowed by 1e-3 */
} Constants;

/* Python's max(x, y): y only when y > x (a NaN never replaces; a NaN first stays). */
static double py_max(double x, double y)
{
    return y > x ? y : x;
}

/* det of the symmetric matrix from its LDLᵀ pivots; 0 when a pivot is not positive. */
static int determinant(double xx, double yy, double zz, double xy, double xz, double yz,
                       double *out)
{
    double first = xx, second, third, l_yx, l_zx, coupling;
    if (!(first > 0))
        return 0;
    l_yx = xy / first;
    l_zx = xz / first;
    second = yy - l_yx * xy;
    if (!(second > 0))
        return 0;
    coupling = yz - l_zx * xy;
    third = zz - l_zx * xz - coupling * coupling / second;
    if (!(third > 0))
        return 0;
    *out = first * second * third;
    return 1;
}

static int passes(double m, const double *v, const Constants *c)
{
    double a = v[0], b = v[1], cc = v[2], d = v[3], e = v[4], f = v[5];
    double g = v[6], h = v[7], k = v[8];
    double scale = fabs(a), xy, xz, yz, xx, yy, zz, shift, det, density;
    volatile double three = 3.0;                 /* pow(m, 3.0) as Python's m ** 3 */
    for (int i = 1; i < 9; i++)
        scale = py_max(scale, fabs(v[i]));
    if (!(c->low < m && m < c->high && c->low < scale && scale < c->high))
        return 0;
    xy = b / 2 + d / 2;
    xz = cc / 2 + g / 2;
    yz = f / 2 + h / 2;
    xx = (e + k - a) / 2;
    yy = (a + k - e) / 2;
    zz = (a + e - k) / 2;
    shift = py_max(py_max(c->extent_sq * m * c->widen, 1e-6 * scale),
                   6e-12 * py_max(1.0, scale)) + 4e-11 * scale;
    if (!determinant(xx - shift, yy - shift, zz - shift, -xy, -xz, -yz, &det))
        return 0;
    if (!determinant(xx, yy, zz, -xy, -xz, -yz, &det))
        return 0;
    density = m / (c->volume * sqrt(det / pow(m, three)));
    return c->least < density && density < c->most;
}

/* Nine doubles of a 3×3 nested sequence; -1 with an exception set. */
static int entries(PyObject *rows, double *v)
{
    PyObject *outer = PySequence_Fast(rows, "an inertia: 3 rows of 3 numbers");
    int ok = outer != NULL && PySequence_Fast_GET_SIZE(outer) == 3;
    for (Py_ssize_t i = 0; ok && i < 3; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, i),
                                        "an inertia: 3 rows of 3 numbers");
        ok = row != NULL && PySequence_Fast_GET_SIZE(row) == 3;
        for (Py_ssize_t j = 0; ok && j < 3; j++) {
            v[3 * i + j] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, j));
            ok = !(v[3 * i + j] == -1.0 && PyErr_Occurred());
        }
        Py_XDECREF(row);
    }
    Py_XDECREF(outer);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "an inertia: 3 rows of 3 numbers");
    return ok ? 0 : -1;
}

static PyObject *screen(PyObject *self, PyObject *args)
{
    PyObject *masses, *inertias, *out = NULL, *ms = NULL, *is = NULL;
    Constants c;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO(ddddddd)", &masses, &inertias, &c.low, &c.high,
                          &c.extent_sq, &c.widen, &c.volume, &c.least, &c.most))
        return NULL;
    ms = PySequence_Fast(masses, "masses: a sequence");
    is = ms ? PySequence_Fast(inertias, "inertias: a sequence") : NULL;
    if (is == NULL)
        goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ms);
    if (PySequence_Fast_GET_SIZE(is) < n)
        n = PySequence_Fast_GET_SIZE(is);           /* zip()'s length */
    out = PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        double v[9], m = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(ms, i));
        if ((m == -1.0 && PyErr_Occurred()) || entries(PySequence_Fast_GET_ITEM(is, i), v)) {
            Py_CLEAR(out);
            break;
        }
        PyObject *answer = passes(m, v, &c) ? Py_True : Py_False;
        Py_INCREF(answer);
        PyList_SET_ITEM(out, i, answer);
    }
done:
    Py_XDECREF(ms);
    Py_XDECREF(is);
    return out;
}

static PyMethodDef methods[] = {
    {"screen", screen, METH_VARARGS,
     "screen(masses, inertias, constants) -> list of bool, as "
     "robot_dynamics.model.inertia_screen.certainly_plausible"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_inertia_screen",
    "The inertia screen of robot_dynamics.model.inertia_screen, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__inertia_screen(void)
{
    return PyModule_Create(&definition);
}
