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
 * robot_dynamics.io._urdf_scan: the part of a URDF that carries dynamics, as an ElementTree.
 *
 * scan(text, builder) parses the whole text with Python's own expat (pyexpat's C API capsule,
 * no namespace processing, as TinyXML reads a URDF) and calls builder.start/end/data only for
 * what robot_dynamics/io/urdf_elements.py reads: <robot>, its children, every <joint> and
 * <transmission> subtree (text only inside transmissions) and each link's <inertial>
 * subtree. Visuals, collisions, gazebo and ros2_control blocks are parsed (a malformed one is
 * still an error) but build nothing: two thirds of a real robot description's elements.
 *
 * The module also holds robot_dynamics/io/urdf_numbers.py's plain-number readers in C
 * (urdf_numbers.c) and an origin's rotation entries (urdf_rotations.c).
 *
 * It returns (prefixes, bound): the prefixes of every element and attribute name ("xacro" of
 * <xacro:macro>, "xmlns" of xmlns:x=...) and those an xmlns:p declaration binds to a namespace
 * that names xacro, so that the caller's xacro check needs no walk over the tree; or False
 * when the caller must parse the text itself (robot_dynamics/io/urdf_xml.py, which words every
 * refusal): a prolog with a <!DOCTYPE (or any other <! declaration), NUL characters, or an
 * XML error.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <expat.h>
#include <pyexpat.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "urdf_numbers.h"

static struct PyExpat_CAPI *expat;

enum { SKIP, KEEP, KEEP_TEXT };          /* what an open element's children are */
#define MAX_DEPTH 4096                   /* deeper: the caller's parser (and its message) */

typedef struct {
    PyObject *start, *end, *data;        /* the builder's bound methods */
    PyObject *names;                     /* interned tag and attribute names */
    char *text;                          /* character data of a transmission, buffered */
    size_t text_length, text_capacity;
    int depth, skipped, failed;          /* open elements; inside a part left out; stop */
    int fallback;                        /* too deep for mode[]: the caller parses */
    PyObject *prefixes, *bound;          /* of all prefixed names; bound to xacro's URI */
    int in_link;                         /* the open child of <robot> is a <link> */
    unsigned char mode[MAX_DEPTH];       /* per open element: SKIP, KEEP or KEEP_TEXT */
} Scan;

/* The names the loader reads (tags and attributes), made once as interned str: the same
   objects as the loader's literals, so find() and get() match them by identity, and a load
   makes no str for them. Any other name is made as it comes (name_of). */
static const char *const KNOWN[] = {
    "robot", "link", "joint", "inertial", "origin", "mass", "inertia", "parent", "child",
    "axis", "limit", "dynamics", "mimic", "transmission", "actuator", "mechanicalReduction",
    "mechanical_reduction", "rotorInertia", "hardwareInterface", "calibration",
    "safety_controller", "name", "type", "xyz", "rpy", "value", "ixx", "ixy", "ixz", "iyy",
    "iyz", "izz", "lower", "upper", "effort", "velocity", "damping", "friction", "multiplier",
    "offset", "version",
};
#define KNOWN_COUNT (sizeof(KNOWN) / sizeof(KNOWN[0]))
#define TABLE_SIZE 256                   /* a power of two, > 3 * KNOWN_COUNT */
static struct { const char *name; PyObject *object; } table[TABLE_SIZE];

static size_t hash_of(const char *name)
{
    size_t h = 2166136261u;              /* FNV-1a */
    for (; *name != '\0'; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h & (TABLE_SIZE - 1);
}

static int make_table(void)
{
    static int made;
    if (made)                            /* a second import of the module (subinterpreter) */
        return 0;
    for (size_t k = 0; k < KNOWN_COUNT; k++) {
        size_t slot = hash_of(KNOWN[k]);
        while (table[slot].name != NULL && strcmp(table[slot].name, KNOWN[k]) != 0)
            slot = (slot + 1) & (TABLE_SIZE - 1);
        if (table[slot].name != NULL)    /* made by an import that failed later */
            continue;
        if ((table[slot].object = PyUnicode_InternFromString(KNOWN[k])) == NULL)
            return -1;
        table[slot].name = KNOWN[k];
    }
    made = 1;
    return 0;
}

static PyObject *name_of(Scan *s, const char *name)
{
    PyObject *key, *known;
    for (size_t slot = hash_of(name); table[slot].name != NULL;
            slot = (slot + 1) & (TABLE_SIZE - 1)) {
        if (strcmp(table[slot].name, name) == 0) {
            Py_INCREF(table[slot].object);
            return table[slot].object;
        }
    }
    key = PyUnicode_FromString(name);
    if (key == NULL)
        return NULL;
    known = PyDict_SetDefault(s->names, key, key);
    Py_DECREF(key);
    Py_XINCREF(known);
    return known;
}

/* Add to `set` (made on first use) the `length` bytes of `name` as a str. */
static int add_to(PyObject **set, const char *name, Py_ssize_t length)
{
    PyObject *item;
    int status;
    if (*set == NULL && (*set = PySet_New(NULL)) == NULL)
        return -1;
    if ((item = PyUnicode_DecodeUTF8(name, length, "strict")) == NULL)
        return -1;
    status = PySet_Add(*set, item);
    Py_DECREF(item);
    return status;
}

/* Does `value` name xacro ("xacro" in it, in any case)? */
static int names_xacro(const char *value)
{
    for (; *value != '\0'; value++) {
        int k = 0;
        while (k < 5 && value[k] != '\0' && (value[k] | 0x20) == "xacro"[k])
            k++;
        if (k == 5)
            return 1;
    }
    return 0;
}

/* Note the prefixes of an element's name and attributes, and what xmlns:p binds to xacro. */
static int note_names(Scan *s, const char *tag, const char **attributes)
{
    const char *colon = strchr(tag, ':');
    if (colon != NULL && add_to(&s->prefixes, tag, colon - tag) < 0)
        return -1;
    for (const char **a = attributes; *a != NULL; a += 2) {
        if ((colon = strchr(a[0], ':')) == NULL)
            continue;
        if (add_to(&s->prefixes, a[0], colon - a[0]) < 0)
            return -1;
        if (colon - a[0] == 5 && memcmp(a[0], "xmlns", 5) == 0 && names_xacro(a[1]) &&
                add_to(&s->bound, colon + 1, (Py_ssize_t)strlen(colon + 1)) < 0)
            return -1;
    }
    return 0;
}

static int flush_text(Scan *s)
{
    PyObject *text, *result;
    if (s->text_length == 0)
        return 0;
    text = PyUnicode_DecodeUTF8(s->text, (Py_ssize_t)s->text_length, "strict");
    s->text_length = 0;
    if (text == NULL)
        return -1;
    result = PyObject_CallOneArg(s->data, text);
    Py_DECREF(text);
    Py_XDECREF(result);
    return result == NULL ? -1 : 0;
}

/* Which children of the element `tag` at `depth` (0: <robot>) are built, and how. */
static int mode_of(Scan *s, const char *tag, int depth)
{
    if (depth == 0)
        return KEEP;
    if (depth > 1)
        return s->mode[depth - 1];
    s->in_link = strcmp(tag, "link") == 0;
    if (strcmp(tag, "transmission") == 0)
        return KEEP_TEXT;
    return s->in_link || strcmp(tag, "joint") == 0 ? KEEP : SKIP;
}

static int kept(Scan *s, const char *tag)
{
    int parent = s->depth - 1;
    if (s->depth == 0 || s->skipped)
        return s->depth == 0 && !s->skipped;
    if (s->mode[parent] == SKIP)
        return 0;
    return !(parent == 1 && s->in_link && strcmp(tag, "inertial") != 0);
}

static void on_start(void *user, const XML_Char *tag, const XML_Char **attributes)
{
    Scan *s = user;
    PyObject *name, *attrib, *result;
    if (s->failed)
        return;
    if (s->depth >= MAX_DEPTH) {
        s->failed = s->fallback = 1;
        return;
    }
    if (note_names(s, tag, attributes) < 0) {
        s->failed = 1;
        return;
    }
    if (!kept(s, tag)) {
        s->skipped += 1;
        s->depth += 1;
        return;
    }
    s->mode[s->depth] = (unsigned char)mode_of(s, tag, s->depth);
    if (flush_text(s) < 0 || (name = name_of(s, tag)) == NULL) {
        s->failed = 1;
        return;
    }
    attrib = PyDict_New();
    for (const XML_Char **a = attributes; attrib != NULL && *a != NULL; a += 2) {
        PyObject *key = name_of(s, a[0]), *value = PyUnicode_FromString(a[1]);
        if (key == NULL || value == NULL || PyDict_SetItem(attrib, key, value) < 0)
            Py_CLEAR(attrib);
        Py_XDECREF(key);
        Py_XDECREF(value);
    }
    if (attrib != NULL) {                /* start(name, attrib), a slot before for self */
        PyObject *stack[3] = {NULL, name, attrib};
        result = PyObject_Vectorcall(s->start, stack + 1, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                     NULL);
    } else {
        result = NULL;
    }
    Py_DECREF(name);
    Py_XDECREF(attrib);
    Py_XDECREF(result);
    s->failed = result == NULL;
    s->depth += 1;
}

static void on_end(void *user, const XML_Char *tag)
{
    Scan *s = user;
    PyObject *name, *result;
    if (s->failed)
        return;
    s->depth -= 1;
    if (s->skipped) {
        s->skipped -= 1;
        return;
    }
    if (flush_text(s) < 0 || (name = name_of(s, tag)) == NULL) {
        s->failed = 1;
        return;
    }
    result = PyObject_CallOneArg(s->end, name);
    Py_DECREF(name);
    Py_XDECREF(result);
    s->failed = result == NULL;
}

static void on_text(void *user, const XML_Char *text, int length)
{
    Scan *s = user;
    if (s->failed || s->skipped || s->depth == 0 || s->mode[s->depth - 1] != KEEP_TEXT)
        return;
    if (s->text_length + (size_t)length > s->text_capacity) {
        size_t capacity = 2 * (s->text_length + (size_t)length) + 64;
        char *grown = PyMem_Realloc(s->text, capacity);
        if (grown == NULL) {
            PyErr_NoMemory();
            s->failed = 1;
            return;
        }
        s->text = grown;
        s->text_capacity = capacity;
    }
    memcpy(s->text + s->text_length, text, (size_t)length);
    s->text_length += (size_t)length;
}

/* Skip the prolog's white space, processing instructions and comments; is a <! next? */
static int declares(const char *p, const char *end)
{
    if (end - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const char *close = p + 4;
            while (close + 3 <= end && memcmp(close, "-->", 3) != 0)
                close++;
            p = close + 3;
        } else if (end - p >= 2 && memcmp(p, "<?", 2) == 0) {
            const char *close = p + 2;
            while (close + 2 <= end && memcmp(close, "?>", 2) != 0)
                close++;
            p = close + 2;
        } else {
            return end - p >= 2 && memcmp(p, "<!", 2) == 0;
        }
        if (p > end)
            return 1;                    /* unclosed: the caller's parser says what */
    }
}

/* A DOCTYPE the prolog check did not see (it cannot be): build nothing more, decline. */
static void on_doctype(void *user, const XML_Char *name, const XML_Char *system,
                       const XML_Char *public, int internal)
{
    Scan *s = user;
    (void)name, (void)system, (void)public, (void)internal;
    s->failed = s->fallback = 1;
}

static PyObject *scan(PyObject *module, PyObject *args)
{
    PyObject *text, *builder;
    const char *bytes;
    Py_ssize_t length;
    Scan s;
    XML_Parser parser;
    int status;
    (void)module;
    if (!PyArg_ParseTuple(args, "UO:scan", &text, &builder))
        return NULL;
    if ((bytes = PyUnicode_AsUTF8AndSize(text, &length)) == NULL)
        return NULL;
    /* NUL: expat would take "\0<" for UTF-16 whatever the encoding set (and the loader
       refuses NUL characters); a declaration: the caller refuses it where expat meets it */
    if (length > INT_MAX || memchr(bytes, 0, (size_t)length) != NULL ||
            declares(bytes, bytes + length))
        Py_RETURN_FALSE;
    memset(&s, 0, offsetof(Scan, mode));
    s.start = PyObject_GetAttrString(builder, "start");
    s.end = PyObject_GetAttrString(builder, "end");
    s.data = PyObject_GetAttrString(builder, "data");
    s.names = PyDict_New();
    parser = s.start && s.end && s.data && s.names ? expat->ParserCreate_MM(NULL, NULL, NULL)
                                                   : NULL;
    status = parser != NULL;
    if (parser != NULL) {
        if (expat->SetHashSalt != NULL)
            expat->SetHashSalt(parser, (unsigned long)(uintptr_t)&s);
        expat->SetEncoding(parser, "utf-8");     /* the text is decoded: any declared one */
        expat->SetUserData(parser, &s);          /* was applied already */
        expat->SetElementHandler(parser, on_start, on_end);
        expat->SetCharacterDataHandler(parser, on_text);
        expat->SetStartDoctypeDeclHandler(parser, on_doctype);
        status = expat->Parse(parser, bytes, (int)length, 1) == XML_STATUS_OK;
        expat->ParserFree(parser);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    Py_XDECREF(s.start);
    Py_XDECREF(s.end);
    Py_XDECREF(s.data);
    Py_XDECREF(s.names);
    PyMem_Free(s.text);
    if (PyErr_Occurred() || !status || s.failed || s.fallback) {
        Py_XDECREF(s.prefixes);
        Py_XDECREF(s.bound);
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_FALSE;
    }
    if ((s.prefixes == NULL && (s.prefixes = PySet_New(NULL)) == NULL) ||
            (s.bound == NULL && (s.bound = PySet_New(NULL)) == NULL)) {
        Py_XDECREF(s.prefixes);
        return NULL;
    }
    return Py_BuildValue("(NN)", s.prefixes, s.bound);
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(text, builder) -> (prefixes, bound to xacro) or False: build the dynamics-bearing "
     "part of URDF text"},
    {"plain_floats", urdf_plain_floats, METH_O,
     "plain_floats(texts) -> list of floats or None, as robot_dynamics.io.urdf_numbers'"},
    {"plain_numbers", urdf_plain_numbers, METH_VARARGS,
     "plain_numbers(text, count) -> list of floats or None, as robot_dynamics.io.urdf_numbers'"},
    {"plain_pose", urdf_plain_pose, METH_VARARGS,
     "plain_pose(xyz, rpy) -> ([x, y, z], [r, p, y]) or None, as robot_dynamics.io.urdf_numbers'"},
    {"plain_number", urdf_plain_number, METH_O,
     "plain_number(text) -> float or None, as robot_dynamics.io.urdf_numbers'"},
    {"rpy_entries", urdf_rpy_entries, METH_O,
     "rpy_entries(rpy) -> the 9 floats of its rotation, as robot_dynamics.spatial.vectors'"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_urdf_scan",
    "The dynamics-bearing part of a URDF as an ElementTree, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__urdf_scan(void)
{
    expat = PyCapsule_Import(PyExpat_CAPSULE_NAME, 0);
    if (expat == NULL)
        return NULL;
    if (strcmp(expat->magic, PyExpat_CAPI_MAGIC) != 0 ||
            (size_t)expat->size < sizeof(struct PyExpat_CAPI)) {
        PyErr_SetString(PyExc_ImportError, "pyexpat's C API is not the one built against");
        return NULL;
    }
    if (make_table() < 0)
        return NULL;
    return PyModule_Create(&definition);
}
