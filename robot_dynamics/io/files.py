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
"""Reading a description file: existing, bounded in size, UTF-8; every failure a model error."""

import os
import re
import stat

#: A decimal number as C's ``strtod`` reads one (the URDF parsers are C++), or inf/nan, with
#: ASCII blanks around it. Python's ``float()`` alone also takes ``1_5`` (as 15), Unicode
#: digits and other spaces (issue 22, LOW).
#: One number as written (no space around it): what :data:`NUMBER` takes, unpadded.
NUMBER_TEXT = r'[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)'
NUMBER = re.compile(rf'[ \t\r\n]*{NUMBER_TEXT}[ \t\r\n]*', re.IGNORECASE)


def strict_float(text):
    """Return the float written in ``text``; ValueError unless it matches :data:`NUMBER`."""
    if not isinstance(text, str) or not NUMBER.fullmatch(text):
        raise ValueError(f'not a number: {str(text)[:80]!r}')
    return float(text)


def read_text_file(path, kind, max_bytes, error, too_large_fix, decode=None):
    """Return the text of ``path``, a ``kind`` file (``'URDF'``, ``'DH'``), as UTF-8.

    Raises ``error`` (a :class:`~robot_dynamics.errors.ModelError` subclass) naming the file
    when it does not exist, is no regular file, is larger than ``max_bytes``
    (``too_large_fix`` says what to do) or is not UTF-8 text (:func:`check_regular_file`: the
    size is checked before reading, so no file is read unbounded). ``decode(data, where)``:
    the reader's own decoding instead (URDF: a declared encoding).
    """
    size = check_regular_file(path, kind, max_bytes, error, too_large_fix)
    with open(path, 'rb', buffering=0) as handle:     # to the end, at most max_bytes + 1
        data = handle.read(size + 1)      # bytes: sized by stat, no 50 MB buffer (~0.1 ms)
        while len(data) <= max_bytes:     # until the end (the file may have grown)
            more = handle.read(max_bytes + 1 - len(data))
            if not more:
                break
            data += more
    if decode is not None:
        return decode(data, f'{kind} file {path!r}')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as exc:
        raise error(f'{kind} file {path!r} is not UTF-8 text ({exc.reason} at byte '
                    f'{exc.start}); save it as UTF-8') from None


def check_regular_file(path, kind, max_bytes, error, too_large_fix):
    """Return the size of ``path``; raise ``error`` unless a regular file of <= ``max_bytes``.

    A FIFO, a socket or a device (``/dev/zero``, also behind a symlink) is refused before it
    is opened: reading one blocks forever or never ends (issue 30, MED 6).
    """
    try:
        status = os.stat(path)
        mode = status.st_mode
    except (OSError, ValueError):
        mode = None
    if mode is None or stat.S_ISDIR(mode):
        raise error(f'{kind} file {path!r} not found; give an existing path or the document '
                    'text itself')
    if not stat.S_ISREG(mode):
        what = ('a FIFO' if stat.S_ISFIFO(mode) else 'a socket' if stat.S_ISSOCK(mode)
                else 'a device')
        raise error(f'{kind} file {path!r} is {what}, not a regular file: reading it would '
                    'block or never end; give a file')
    size = status.st_size                 # os.path.getsize's
    if size > max_bytes:
        raise error(f'{kind} file {path!r} is larger than {max_bytes >> 20} MiB; '
                    f'{too_large_fix}')
    return size
