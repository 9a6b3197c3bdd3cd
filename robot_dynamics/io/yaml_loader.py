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
"""The one YAML reader of the package: safe, bounded, strict about repeated keys.

Every YAML file the package reads (DH models, friction sidecars, joint trajectories, the
command line's trajectory files, ROS parameter files) goes through :func:`load_yaml`:

- ``yaml.SafeLoader`` (no Python objects), one document only;
- at most ``max_bytes`` of text (default 16 MiB), refused before parsing;
- aliases are allowed, but the document's size *with every alias expanded* (its nodes,
  counted once per path through the graph) is bounded by ``max_nodes`` (default one million)
  before anything is constructed: a 679-byte "billion laughs" document (9 levels of 9
  aliases, 10⁹ nodes when expanded) is refused after visiting its ~100 distinct nodes, and a
  recursive alias is refused too (issue 22.7);
- a key repeated in one mapping is an error (YAML 1.2 says so; PyYAML keeps the last);
- nesting too deep for the parser is a one-line error, never a ``RecursionError``.

Errors are raised as the caller's exception class with ``where`` (a path or a label) and a
position, never the document's text.
"""

import re

import yaml

MAX_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000


class YAMLInputError(ValueError):
    """A YAML document was refused (default class of :func:`load_yaml`'s errors)."""


class _StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` with YAML 1.2's core schema; refuses a key repeated in a mapping.

    Plain scalars resolve as YAML 1.2 (and yaml-cpp, which reads ROS 2 parameter files) says:
    only ``true``/``false`` are booleans (YAML 1.1 also took ``yes``, ``no``, ``on``, ``off``:
    a joint named ``no`` became ``False``), integers have no ``_`` (1.1 read ``1_5`` as 15)
    and no base 60 (``1:30`` was 90), ``012`` is twelve, ``1e3`` is a float, and a date is
    a string.
    """

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
                seen.add(key)
            except TypeError:            # an unhashable key: SafeLoader reports it
                break
            if repeated:
                mark = key_node.start_mark
                raise _RepeatedKey(f'repeats the key {_short(key)} at line {mark.line + 1}, '
                                   f'column {mark.column + 1}; give each key once')
        return super().construct_mapping(node, deep=deep)


def _core_schema(loader):
    """Replace PyYAML's YAML 1.1 implicit resolvers of ``loader`` by the 1.2 core schema."""
    loader.yaml_implicit_resolvers = {
        key: [(tag, regexp) for tag, regexp in resolvers
              if tag not in ('tag:yaml.org,2002:bool', 'tag:yaml.org,2002:int',
                             'tag:yaml.org,2002:float', 'tag:yaml.org,2002:null',
                             'tag:yaml.org,2002:timestamp')]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    patterns = {
        'bool': (r'^(?:true|True|TRUE|false|False|FALSE)$', 'tTfF'),
        'int': (r'^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$', '-+0123456789'),
        'float': (r'^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?'
                  r'|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$', '-+.0123456789'),
        'null': (r'^(?:~|null|Null|NULL|)$', ['~', 'n', 'N', '']),
    }
    for name, (pattern, first) in patterns.items():
        loader.add_implicit_resolver(f'tag:yaml.org,2002:{name}', re.compile(pattern),
                                     list(first))


def _construct_int(loader, node):
    """Read a core-schema integer: decimal (``012`` is twelve), ``0o`` octal, ``0x`` hex."""
    text = loader.construct_scalar(node)
    if text.startswith(('0o', '0x')):
        return int(text[2:], 8 if text[1] == 'o' else 16)
    return int(text, 10)


_core_schema(_StrictLoader)
_StrictLoader.add_constructor('tag:yaml.org,2002:int', _construct_int)


class _RepeatedKey(Exception):
    """Internal: carries the repeated-key message out of the constructor."""


def _short(value, limit=80):
    """``repr`` of a key cut to ``limit`` characters."""
    text = repr(value) if isinstance(value, (str, int, float, bool)) or value is None \
        else f'<{type(value).__name__}>'
    return text if len(text) <= limit else text[:limit - 3] + '...'


def read_yaml_text(path, where=None, error=YAMLInputError, max_bytes=MAX_BYTES):
    """Return the text of the YAML file ``path`` (UTF-8, BOM allowed), at most ``max_bytes``."""
    where = where or str(path)
    with open(path, 'rb') as handle:                      # OSError: the caller's to word
        chunks, size = [], 0
        while size <= max_bytes:                         # read(n) would allocate n up front
            chunk = handle.read(min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    data = b''.join(chunks)
    if len(data) > max_bytes:
        raise error(f'{where} is larger than {max_bytes} bytes; is it the right file?')
    try:
        return data.decode('utf-8-sig')
    except UnicodeDecodeError as exc:
        raise error(f'{where}: not UTF-8 text (byte {exc.start}); save it as UTF-8') from None


def load_yaml(source, where='YAML', error=YAMLInputError, max_bytes=MAX_BYTES,
              max_nodes=MAX_NODES, aliases=True):
    """Parse the YAML text ``source`` safely and return the Python value (None if empty).

    ``where`` starts every error message (``'DH YAML'``, a path); ``error`` is the exception
    class raised; ``aliases=False`` refuses any anchor or alias.
    """
    if len(source) > max_bytes:
        raise error(f'{where} is larger than {max_bytes} bytes; is it the right document?')
    try:
        if not aliases:
            _refuse_aliases(source, where, error)
        return _load(source, where, error, max_nodes)
    except error:
        raise
    except yaml.YAMLError as exc:
        raise error(f'{where} does not parse: {_problem(exc)}') from None
    except (ValueError, TypeError, OverflowError) as exc:     # e.g. an integer of 10⁵ digits
        raise error(f'{where} has a value that cannot be read: '
                    f'{str(exc)[:120]}') from None
    except _RepeatedKey as exc:
        raise error(f'{where} {exc}') from None
    except RecursionError:
        raise error(f'{where} is nested too deeply to parse') from None


def _load(source, where, error, max_nodes):
    """Compose, check the expanded size, construct (the errors are the caller's to word)."""
    loader = _StrictLoader(source)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expanded_size(node, where, error, max_nodes)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _refuse_aliases(source, where, error):
    for event in yaml.parse(source, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, 'anchor', None):
            raise error(f'{where}: YAML anchors and aliases are refused here; write every '
                        'value out')


def _problem(exc):
    """Describe the parser's problem and position, never the document's text."""
    mark = getattr(exc, 'problem_mark', None)
    problem = getattr(exc, 'problem', None) or type(exc).__name__
    return problem + (f' at line {mark.line + 1}, column {mark.column + 1}' if mark else '')


def _check_expanded_size(root, where, error, max_nodes):
    """Refuse a node graph whose alias-expanded size exceeds ``max_nodes`` or has a cycle.

    Sizes are computed once per distinct node (post-order, iteratively), so the work is
    linear in the size of the text whatever the aliases expand to.
    """
    size, active = {}, set()
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            size[key] = 1 + sum(size[id(child)] for child in _children(node))
            if size[key] > max_nodes:
                raise error(f'{where} expands to more than {max_nodes} nodes through '
                            'its aliases (an alias bomb?); write the values out or split it')
            continue
        if key in size:
            continue
        if key in active:
            mark = node.start_mark
            raise error(f'{where}: the alias at line {mark.line + 1} refers to a node that '
                        'contains it (a recursive structure); write the values out')
        active.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in active:
                mark = child.start_mark
                raise error(f'{where}: the alias near line {mark.line + 1} refers to a node '
                            'that contains it (a recursive structure); write the values out')
            if id(child) not in size:
                stack.append((child, False))


def _children(node):
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return ()
