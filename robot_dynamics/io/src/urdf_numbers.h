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
 * robot_dynamics.io._urdf_scan's number readers (urdf_numbers.c): the plain_floats,
 * plain_numbers, plain_pose and plain_number of robot_dynamics/io/urdf_numbers.py, the same results, in C; and an
 * origin's rotation entries (urdf_rotations.c).
 */
#ifndef ROBOT_DYNAMICS_URDF_NUMBERS_H
#define ROBOT_DYNAMICS_URDF_NUMBERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *urdf_plain_floats(PyObject *module, PyObject *texts);
PyObject *urdf_plain_numbers(PyObject *module, PyObject *args);
PyObject *urdf_plain_pose(PyObject *module, PyObject *args);
PyObject *urdf_plain_number(PyObject *module, PyObject *text);
PyObject *urdf_rpy_entries(PyObject *module, PyObject *rpy);       /* urdf_rotations.c */

#endif
