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

The generated C functions are wrapped in a small extension module (:mod:`.extension`: every
input check in C, a C loop over a batch), built once with the system C compiler and kept in a
cache directory, so that a restarted process only loads the shared library. The cache key is
the SHA-256 of the exact source text, the compiler (path and ``--version``), the flags and the
Python and numpy ABI: a library is only ever loaded for the very source it was built from
(issue 22.2). The library's own SHA-256 is recorded when it is built and checked before it is
loaded; the directory must be private (:mod:`.cache`). Without a compiler (or with
``ROBOT_DYNAMICS_NO_COMPILE=1``) :func:`compiler_available` is False and callers fall back to
the generated Python code.

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
from robot_dynamics.codegen.extension import extension_source

GENERATOR_VERSION = '4'
#: Every source the generated code depends on, relative to the package (Renaud's recursion
#: and its 3-vector helpers included).
_SOURCES = ('codegen/expr.py', 'codegen/parameters.py', 'algorithms/renaud.py',
            'spatial/components.py', 'codegen/hoisting.py', 'codegen/composite.py',
            'codegen/generator.py', 'codegen/emit.py', 'codegen/compiled.py',
            'codegen/extension.py', 'codegen/trig.h', 'codegen/trig_lanes.h')
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


def python_version_tag():
    """Tag that keeps caches of different Python versions apart."""
    return f'py{sys.version_info[0]}{sys.version_info[1]}'
