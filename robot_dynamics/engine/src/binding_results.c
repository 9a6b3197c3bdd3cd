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
 * Result arrays of single calls, recycled (issue 32): numpy's allocation and deallocation of a
 * 6 x 6 result were a fifth of rd.mass_matrix's time. The binding keeps the small results it
 * hands out (SLOTS of them, at most MAX_BYTES each) and gives one back again only when nothing
 * but this table can reach it: no other reference (a variable, a container, a view or a
 * memoryview holds one), no weak reference, and its shape, strides, dtype, data, base and flags
 * as numpy made them. Such an array is unreachable, so writing the next result into it is
 * invisible, as in CPython's own free lists. A loop that keeps its previous result while it
 * asks for the next one alternates between two arrays. The table's reference has one visible
 * effect: a dropped result that a weak reference still names lives on (never reused) until the
 * next single call lets it go. Free-threaded builds allocate every result (a reference count of
 * 1 means nothing there).
 */
#include "binding.h"

#define SLOTS 8
#define MAX_BYTES 8192

typedef struct {
    PyArrayObject *array;
    void *data;                 /* its data, flags and dtype when it was made (numpy's float64 */
    int flags;                  /* dtype is a static object: compared by address) */
    PyArray_Descr *descr;
} Kept;

static Kept kept[SLOTS];
static int next_slot;

/* 1 if the kept array is still as numpy made it: C-ordered, numpy's own float64 dtype (not an
 * equal one with metadata), no base, no weak reference, its data and flags unchanged. */
static int pristine(const Kept *slot)
{
    PyArrayObject *a = slot->array;
    npy_intp stride = sizeof(double);
    if (PyArray_DATA(a) != slot->data || PyArray_FLAGS(a) != slot->flags
            || PyArray_DESCR(a) != slot->descr || PyArray_BASE(a) != NULL
            || ((PyArrayObject_fields *)a)->weakreflist != NULL)
        return 0;
    for (int k = PyArray_NDIM(a) - 1; k >= 0; --k) {
        if (PyArray_STRIDE(a, k) != stride) return 0;
        stride *= PyArray_DIM(a, k);
    }
    return 1;
}

static int shaped(PyArrayObject *a, int nd, const npy_intp *dims)
{
    if (PyArray_NDIM(a) != nd) return 0;
    for (int k = 0; k < nd; ++k)
        if (PyArray_DIM(a, k) != dims[k]) return 0;
    return 1;
}

/* A C-ordered array of doubles of shape dims (new reference): a kept one that nothing else can
 * reach, else a new one, kept when small. A kept array its last user changed (or holds by a
 * weak reference only) is let go here. */
PyObject *single_result(int nd, const npy_intp *dims)
{
    PyArrayObject *a;
    npy_intp bytes = sizeof(double);
    for (int k = 0; k < nd; ++k) bytes *= dims[k];
#ifndef Py_GIL_DISABLED
    for (int k = 0; k < SLOTS; ++k) {
        a = kept[k].array;
        if (a == NULL || Py_REFCNT(a) != 1) continue;              /* reachable elsewhere */
        if (!pristine(&kept[k])) Py_CLEAR(kept[k].array);  /* may run weakref callbacks */
        else if (shaped(a, nd, dims)) return Py_NewRef((PyObject *)a);
    }
#endif
    a = (PyArrayObject *)PyArray_SimpleNew(nd, dims, NPY_DOUBLE);
#ifndef Py_GIL_DISABLED
    if (a != NULL && bytes <= MAX_BYTES) {
        Kept *slot = &kept[next_slot];
        next_slot = (next_slot + 1) % SLOTS;
        Py_XSETREF(slot->array, (PyArrayObject *)Py_NewRef(a));
        slot->data = PyArray_DATA(a);
        slot->flags = PyArray_FLAGS(a);
        slot->descr = PyArray_DESCR(a);
    }
#endif
    return (PyObject *)a;
}
