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
 * robot_dynamics.io._urdf_scan's rpy_entries: the nine entries of a URDF origin's rotation from
 * its roll, pitch and yaw, row by row, as robot_dynamics/spatial/vectors.py's rpy_entries
 * multiplies them out: the same products in the same order (no fused multiply-add), of the C
 * library's cos and sin (which that function takes through Python's math; tests compare the two).
 */
#include "urdf_numbers.h"

#include <math.h>

PyObject *urdf_rpy_entries(PyObject *module, PyObject *rpy)
{
    PyObject *fast = PySequence_Fast(rpy, "rpy_entries: expected three angles"), *entries;
    double a[3];
    (void)module;
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 3) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "rpy_entries: expected three angles");
        return NULL;
    }
    for (int k = 0; k < 3; k++) {
        a[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
        if (a[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    double cr = cos(a[0]), cp = cos(a[1]), cy = cos(a[2]);
    double sr = sin(a[0]), sp = sin(a[1]), sy = sin(a[2]);
    double e[9] = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                   sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                   -sp, cp * sr, cp * cr};
    if ((entries = PyList_New(9)) == NULL)
        return NULL;
    for (int k = 0; k < 9; k++) {
        PyObject *value = PyFloat_FromDouble(e[k]);
        if (value == NULL) {
            Py_DECREF(entries);
            return NULL;
        }
        PyList_SET_ITEM(entries, k, value);
    }
    return entries;
}
