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
"""The compile cache on disk: a private directory, link-proof writes, verified libraries.

Code loaded from the cache runs in the process, so (issue 22, items 2 and 3):

- the directory must belong to the user and be writable by nobody else; a missing one is
  created with mode 0700 in one ``mkdir`` (no window in which it exists with other modes);
  its ancestors must belong to the user or root and not be world-writable unless sticky
  (``/tmp``); anything else is a :class:`CacheError` naming the directory and the fix;
- every file is written to a fresh temporary file in the directory and renamed into place
  (``os.replace`` replaces a planted symbolic link, it never writes through it);
- a library is loaded only if the SHA-256 of its bytes equals the hash recorded beside it
  when it was built; the bytes hashed are those of the file descriptor that is loaded.

Directory: ``$ROBOT_DYNAMICS_CACHE``, else ``~/.cache/robot_dynamics/codegen``, else (home
not writable) ``<tmp>/robot_dynamics_codegen_<uid>``.
"""

import contextlib
import hashlib
import os
import stat
import tempfile

from robot_dynamics.errors import warn

ENVIRONMENT = 'ROBOT_DYNAMICS_CACHE'
RECORD_SUFFIX = '.sha256'


class CacheError(RuntimeError):
    """The compile cache is not safe to load code from; the message names the fix."""


def cache_directory():
    """Return the checked, private cache directory (created with mode 0700 if missing)."""
    configured = os.environ.get(ENVIRONMENT)
    if configured:
        return private_directory(configured)
    default = os.path.join(os.path.expanduser('~'), '.cache', 'robot_dynamics', 'codegen')
    try:
        return private_directory(default)
    except OSError:                          # home not writable: a per-user directory in tmp
        pass
    return private_directory(os.path.join(tempfile.gettempdir(),
                                          f'robot_dynamics_codegen_{os.getuid()}'))


def private_directory(path):
    """Create ``path`` and missing parents (mode 0700), check it is private; return it."""
    path = os.path.abspath(path)
    missing, probe = [], path
    while not os.path.lexists(probe):
        missing.append(probe)
        probe = os.path.dirname(probe)
    for directory in reversed(missing):      # each one atomic: created private, or existed
        with contextlib.suppress(FileExistsError):
            os.mkdir(directory, 0o700)
    _check_directory(path)
    _check_ancestors(os.path.dirname(path))
    if not os.access(path, os.W_OK):
        raise PermissionError(f'cache directory {path} is not writable')
    return path


def _fix(path):
    return (f'remove {path} (or set {ENVIRONMENT} to a directory of your own, mode 0700) '
            'and compile again')


def _check_directory(path):
    """Refuse a link, a non-directory, another owner or write access for group or others."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise CacheError(f'compile cache {path} is a symbolic link; compiled code is only '
                         f'loaded from a real directory of your own: {_fix(path)}')
    if not stat.S_ISDIR(info.st_mode):
        raise CacheError(f'compile cache {path} is not a directory: {_fix(path)}')
    if info.st_uid != os.getuid():
        raise CacheError(f'compile cache {path} belongs to uid {info.st_uid}, not to you '
                         f'(uid {os.getuid()}): another user could have planted code in it; '
                         f'{_fix(path)}')
    if info.st_mode & 0o022:
        raise CacheError(f'compile cache {path} is writable by group or others (mode '
                         f'{stat.S_IMODE(info.st_mode):04o}): anyone with that access could '
                         f'plant code in it; {_fix(path)}')


def _check_ancestors(path):
    """Refuse a parent another user could rename the cache out of (not root, not sticky)."""
    path = os.path.realpath(path)
    while True:
        info = os.stat(path)
        if info.st_uid not in (0, os.getuid()):
            raise CacheError(f'compile cache: its parent {path} belongs to uid {info.st_uid}; '
                             f'set {ENVIRONMENT} to a directory under one of your own')
        if info.st_mode & 0o002 and not info.st_mode & stat.S_ISVTX:
            raise CacheError(f'compile cache: its parent {path} is writable by everyone '
                             f'without the sticky bit; set {ENVIRONMENT} to a directory under '
                             'one of your own')
        parent = os.path.dirname(path)
        if parent == path:
            return
        path = parent


def write_file(directory, name, data):
    """Write ``data`` (bytes) to ``directory/name`` through a temporary file and a rename."""
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f'.{name}.')
    try:
        with os.fdopen(handle, 'wb') as stream:
            stream.write(data)
        os.replace(temporary, os.path.join(directory, name))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def sha256_of(handle):
    """Return the SHA-256 hex digest of everything in the open file descriptor ``handle``."""
    digest, offset = hashlib.sha256(), 0
    while True:
        block = os.pread(handle, 1 << 20, offset)
        if not block:
            return digest.hexdigest()
        digest.update(block)
        offset += len(block)


def install(directory, built, name):
    """Move the library ``built`` to ``directory/name`` and record its hash beside it."""
    handle = os.open(built, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        digest = sha256_of(handle)
    finally:
        os.close(handle)
    write_file(directory, name + RECORD_SUFFIX, f'{digest}  {name}\n'.encode())
    os.replace(built, os.path.join(directory, name))      # never through a planted link


def open_verified(path):
    """Open the library ``path`` if its bytes match the recorded hash; else return None.

    Returns a file descriptor (the caller loads that very file and closes it). A missing
    library or record is None; a library that differs from its record warns and is None
    (it is rebuilt and replaced).
    """
    if not os.path.lexists(path):
        return None
    try:
        record = _read_record(path + RECORD_SUFFIX)
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:                  # no record, or a symbolic link planted (ELOOP)
        return _mismatch(path)
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() \
            or info.st_mode & 0o022 or sha256_of(handle) != record:
        os.close(handle)
        return _mismatch(path)
    return handle


def _mismatch(path):
    warn(f'compile cache: {path} is not the library recorded when it was built (changed '
         'since, a link, or no record); compiling it again', RuntimeWarning)
    return None


def _read_record(path):
    """Return the hex digest recorded in ``path`` (FileNotFoundError if there is none)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        text = os.pread(handle, 256, 0).decode('ascii', 'replace')
    finally:
        os.close(handle)
    return text.split()[0] if text.split() else ''


def same_file(handle, path):
    """Tell whether ``path`` (not followed if a link) is the very file open as ``handle``.

    The library is loaded by its path (``dlopen`` knows files by name), so this check right
    before loading ties the bytes hashed to the file loaded; the directory is private, so
    only the user could swap it in between.
    """
    try:
        by_path = os.lstat(path)
    except OSError:
        return False
    by_handle = os.fstat(handle)
    return (by_path.st_dev, by_path.st_ino) == (by_handle.st_dev, by_handle.st_ino)
