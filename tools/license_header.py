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
"""Check or write the Apache-2.0 file header that ament_copyright recognises.

``ament_copyright`` (the ROS 2 linter that ``colcon test`` runs in a ROS workspace) accepts a
source file (``.py``, C/C++, ``.cmake``) when its first comment block holds a ``Copyright
<year> <holder>`` line followed by the Apache License boilerplate (whitespace is ignored). It
reads the first ``#``/``//`` line-comment block, else the first ``/* */`` block without its
first and last lines, so a C header must not start on the ``/*`` line. The short two-line form
``# Licensed under the Apache License, Version 2.0`` is reported as ``license=<unknown>``.

    python tools/license_header.py          # list files without the header (exit 1 if any)
    python tools/license_header.py --fix    # replace the short form by the full header
"""

import argparse
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
HOLDER = 'robot_dynamics contributors'
APACHE_NOTICE = '''\
Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.'''
SKIP = {'.venv', 'build', 'install', 'log', '.git', 'out'}
SUFFIXES = ('.py', '.c', '.cc', '.cpp', '.cxx', '.h', '.hh', '.hpp', '.hxx', '.cmake')
SHORT_LICENSE_LINE = '# Licensed under the Apache License, Version 2.0\n'
COPYRIGHT = re.compile(r'^copyright(?:\s+\(c\))?\s+\d{4}(?:-\d{4})?,?\s+\S', re.IGNORECASE)


def sources(root=ROOT):
    """Every source file ament_copyright checks, outside build products and environments."""
    for path in sorted(p for p in root.rglob('*') if p.suffix in SUFFIXES and p.is_file()):
        parts = path.relative_to(root).parts
        if not SKIP.intersection(parts) and not any(p[0] in '._' for p in parts[:-1]):
            yield path


python_sources = sources


def line_comment_block(text):
    """Lines of the first ``#``/``//`` comment block (after shebang/coding lines), as ament."""
    lines = text.splitlines()
    while lines and (lines[0].startswith('#!')
                     or (lines[0].startswith('#') and 'coding' in lines[0][:30])):
        lines.pop(0)
    for start, line in enumerate(lines):
        token = re.match(r'(#|///|//)', line)
        if token:
            break
    else:
        return []
    block = []
    for line in lines[start:]:
        if not line.startswith(token.group(1)):
            break
        block.append(line[len(token.group(1)) + 1:])
    return block


def multiline_comment_block(text):
    """Lines inside the first ``/* */`` block, without its first and last lines, as ament."""
    start, end = re.search(r'^/\*', text, re.M), re.search(r'\*/$', text, re.M)
    if start is None or end is None:
        return []
    lines = text[start.start():end.start()].splitlines()
    lines = lines if len(lines) == 1 else lines[1:] if len(lines) == 2 else lines[1:-1]
    if len(lines) > 1:
        prefix = os.path.commonprefix(lines)
        lines = [line[len(prefix):] for line in lines]
    return lines


first_comment_block = line_comment_block


def squash(text):
    """Collapse all whitespace, as ament_copyright compares license text."""
    return ' '.join(text.split())


def has_apache_header(text):
    """Whether the first comment block has a copyright line and then the Apache notice."""
    for block in (line_comment_block(text), multiline_comment_block(text)):
        for index, line in enumerate(block):
            if COPYRIGHT.match(line.strip()):
                return squash(APACHE_NOTICE) in squash('\n'.join(block[index + 1:]))
    return False


def full_header(year='2026'):
    """Return the header as ``#`` comment lines, ending in a newline."""
    lines = [f'Copyright {year} {HOLDER}'] + APACHE_NOTICE.splitlines()
    return ''.join(f'# {line}\n' if line else '#\n' for line in lines)


C_HEADER = re.compile(r'\A/\* Copyright (\d{4}) robot_dynamics contributors\n'
                      r'(?: \*[^\n]*\n)*? \* limitations under the License\.\n')


def fixed_c(text):
    """Rewrite a C header opened on the ``/*`` line as ``//`` lines (None: not that form)."""
    match = C_HEADER.match(text)
    if match is None:
        return None
    header = full_header(match.group(1)).replace('#', '//')
    rest = text[match.end():]
    if rest.startswith(' */\n'):
        return header + rest[4:]
    if rest.startswith(' *\n'):
        return header + '\n/*\n' + rest[3:]
    return None


def fixed(text):
    """``text`` with a short two-line header replaced by the full one (None: cannot fix)."""
    if text.startswith('/*'):
        return fixed_c(text)
    match = re.search(r'^# Copyright (\d{4}) robot_dynamics contributors\n'
                      + re.escape(SHORT_LICENSE_LINE), text, re.MULTILINE)
    if match is None or match.start() > 200:
        return None
    return text[:match.start()] + full_header(match.group(1)) + text[match.end():]


def main(argv=None):
    """Report (or with ``--fix`` repair) the files whose header ament_copyright rejects."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--fix', action='store_true', help='rewrite short headers in place')
    args = parser.parse_args(argv)
    missing = []
    for path in sources():
        text = path.read_text(encoding='utf-8')
        if has_apache_header(text):
            continue
        repaired = fixed(text) if args.fix else None
        if repaired is not None and has_apache_header(repaired):
            path.write_text(repaired, encoding='utf-8')
            print(f'fixed {path.relative_to(ROOT)}')
        else:
            missing.append(path)
    for path in missing:
        print(f'{path.relative_to(ROOT)}: no Apache-2.0 header (see tools/license_header.py)')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
