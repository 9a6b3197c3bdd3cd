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
"""The XML of a URDF: decoded, parsed once as TinyXML reads it, DTDs and xacro refused.

Every decision comes from the parser, never from text that may sit in a comment (issue 32:
xacro's output, which keeps ``xmlns:xacro`` and the expanded macro calls in comments, was
refused by a substring test):

- One expat pass builds the ElementTree, without namespace processing, as TinyXML (the parser
  of urdfdom, Pinocchio and KDL) reads a URDF: a tag is its written name (``xacro:include``,
  ``drake:member``), a default namespace on ``<robot>`` changes nothing, an undeclared prefix
  is no error. Elements' text is kept only in a document that may have a ``<transmission>``
  (the loader reads no other text).
- A DOCTYPE, an entity declaration or an external entity reference is refused where expat
  meets it, before any entity is declared or expanded; the text parsed is the text checked
  (a declared encoding cannot hide a declaration: it was applied when decoding).
- xacro is an element or attribute whose prefix is ``xacro`` or is bound to a namespace that
  names xacro (``xmlns:x="http://www.ros.org/wiki/xacro"``); the message gives the command
  that expands it. Names are written as they are, so a text without ``xacro:`` and without
  ``xmlns:`` has none: the walk over the tree is skipped then (a comment may still hold them).
- The compiled filter ``_urdf_scan`` (``robot_dynamics/io/src/urdf_scan.c``) runs the same
  expat over the whole text but builds only what the loader reads (``<robot>``, its children,
  joints, transmissions with their text, links' inertials): visuals, collisions, gazebo and
  ros2_control blocks are two thirds of a real description's elements. It notes every name's
  prefix and what ``xmlns:p`` binds to xacro, so no walk over the tree is needed; it declines,
  and :func:`parse_full` decides and words the refusal, on a ``<!`` declaration in the
  prolog, NUL characters, an XML error or a name of xacro's.
"""

import codecs
import re
import xml.etree.ElementTree as ET
from xml.parsers import expat

from robot_dynamics.errors import URDFError, warn

try:                       # the compiled filter (setup.py: optional, built with the package)
    from robot_dynamics.io._urdf_scan import scan as _scan
except ImportError:        # pragma: no cover - a build without expat.h; a source checkout
    _scan = None

DECLARATION_REFUSED = ('URDF contains a DOCTYPE or ENTITY declaration, which is refused (entity '
                       'expansion and external entities are unsafe); expand xacro and remove '
                       'the DOCTYPE')
XACRO_REFUSED = ('URDF contains xacro macros ({what}); expand it first: xacro robot.urdf.xacro '
                 '> robot.urdf (ROS 2: ros2 run xacro xacro ...)')
# The encoding an XML declaration names (XML 1.0 §4.3.3), read from ASCII-compatible bytes.
DECLARED_ENCODING = re.compile(rb'(?:\xef\xbb\xbf)?\s*<\?xml\s[^>]*?encoding\s*=\s*'
                               rb'["\']([A-Za-z][A-Za-z0-9._-]*)["\']')


#: Line ends as expat counts lines (CR, LF, CRLF).
LINE_END = re.compile(r'\r\n|\r|\n')
#: Byte-order marks of UTF-32 and UTF-16 (UTF-32's first: FF FE 00 00 starts with FF FE).
#: Windows PowerShell's ``xacro robot.urdf.xacro > robot.urdf`` writes UTF-16 with one.
WIDE_ENCODINGS = ((codecs.BOM_UTF32_LE, 'UTF-32'), (codecs.BOM_UTF32_BE, 'UTF-32'),
                  (codecs.BOM_UTF16_LE, 'UTF-16'), (codecs.BOM_UTF16_BE, 'UTF-16'))


def decode(data, where):
    """Return the text of URDF ``data`` (bytes): UTF-8, else the encoding its declaration names.

    A file saved as ISO-8859-1 or windows-1252 that says so (``<?xml version="1.0"
    encoding="ISO-8859-1"?>``) loads, as XML allows; undeclared non-UTF-8 is refused, UTF-16
    and UTF-32 (which TinyXML, Pinocchio's and KDL's parser, cannot read either) with the
    conversion to UTF-8. ``where``: ``'URDF bytes'`` or ``"URDF file '<path>'"``, for the
    message.
    """
    subject = 'are not UTF-8' if where.endswith('bytes') else 'is not UTF-8 text'
    for mark, encoding in WIDE_ENCODINGS:
        if data.startswith(mark):
            raise URDFError(f'{where} {subject}: it starts with the byte-order mark of '
                            f'{encoding} (Windows PowerShell\'s ">" writes UTF-16); save it as '
                            'UTF-8 (PowerShell: ... | Out-File -Encoding utf8 robot.urdf; '
                            f'iconv -f {encoding} -t UTF-8)')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as exc:
        declared = DECLARED_ENCODING.match(data)
        if declared:
            try:
                return data.decode(declared.group(1).decode('ascii'))
            except (LookupError, UnicodeDecodeError):
                pass
        raise URDFError(f'{where} {subject} ({exc.reason} at byte {exc.start}); save it as '
                        'UTF-8, or declare its encoding: <?xml version="1.0" '
                        'encoding="ISO-8859-1"?>') from None


def parse_xml(text):
    """Return the root element of URDF ``text`` (str); refuse a DTD, xacro or malformed XML.

    The compiled filter (:func:`_scan`) builds only what the loader reads; when it declines
    (a declaration in the prolog, an XML error) or has seen a name of xacro's, :func:`parse_full`
    parses the text and words the refusal.
    """
    try:
        if _scan is not None:
            builder = ET.TreeBuilder()
            names = _scan(text, builder)         # (prefixes, those bound to xacro) or False
            if names is not False and not names[0] & ({'xacro'} | names[1]):   # none xacro's
                return builder.close()
        return parse_full(text)
    except UnicodeEncodeError as exc:           # a str with lone surrogates, given as is
        raise URDFError(f'URDF text has a character that is not Unicode text ({exc.reason}: '
                        f'{text[exc.start:exc.start + 1]!r} at character {exc.start}); it was '
                        'decoded with errors="surrogateescape"? Give the file\'s path or its '
                        'bytes') from None


def parse_full(text):
    """Return the root element of the whole of URDF ``text``, as TinyXML reads it; or refuse.

    Elements after the root (a second ``<robot>``, a ``<gazebo>`` pasted after ``</robot>``)
    are ignored with a warning, as urdfdom reads the first ``<robot>`` of what TinyXML
    accepts; they must still be well formed. Text after the root is refused, as by TinyXML.
    """
    builder = ET.TreeBuilder()
    try:
        _parser(builder, 'transmission' in text).Parse(text, True)
    except expat.ExpatError as exc:
        if _at_declaration(text, exc.lineno, exc.offset):     # <!doctype, <!ENTITY outside
            raise URDFError(DECLARATION_REFUSED) from None    # a DTD: malformed, and a DTD
        if not _ignorable_tail(text, exc):
            raise URDFError(f'malformed URDF: {exc}; check that the XML is well formed'
                            f'{_leading_text_hint(text)}') from None
    root = builder.close()
    if 'xacro:' in text or 'xmlns:' in text:   # else no name has xacro's prefix or namespace
        _refuse_xacro(root)
    return root


def _parser(builder, with_text):
    """Return an expat parser feeding ``builder`` that refuses declarations, external entities."""
    def refuse(*_):
        raise URDFError(DECLARATION_REFUSED)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler, parser.EndElementHandler = builder.start, builder.end
    if with_text:                      # only <transmission>s' elements' text is read
        parser.buffer_text = True
        parser.CharacterDataHandler = builder.data
    return parser


def _ignorable_tail(text, error):
    """Warn and return True if ``error`` is well-formed elements after the root element."""
    if error.code != expat.errors.codes[expat.errors.XML_ERROR_JUNK_AFTER_DOC_ELEMENT]:
        return False
    start = _offset(text, error.lineno, error.offset)
    tail = text[start:]
    if not tail.startswith('<'):
        return False
    try:
        _parser(ET.TreeBuilder(), False).Parse(f'<tail>{tail}</tail>', True)
    except expat.ExpatError:
        return False
    warn(f'URDF has elements after the root element, from line {error.lineno} column '
         f'{error.offset + 1} ({tail[:40]!r}): ignored, as urdfdom reads the first <robot>; '
         'remove them (two files pasted together?)')
    return True


def _offset(text, line, column):
    """Index in ``text`` of expat's ``line`` (1-based), ``column`` (0-based; CR, LF, CRLF)."""
    start = 0
    for _, end in zip(range(line - 1), LINE_END.finditer(text)):
        start = end.end()
    return start + column


def _refuse_xacro(root):
    """Raise if an element or attribute is xacro's (prefix ``xacro`` or bound to its URI)."""
    names = set()
    for element in root.iter():
        names.add(element.tag)
        names.update(element.attrib)
    prefixed = {name for name in names if ':' in name}
    declared = {name for name in prefixed if name.startswith('xmlns:')}
    prefixes = {'xacro'} | {key[len('xmlns:'):] for element in root.iter() for key in declared
                            if 'xacro' in element.get(key, '').lower()}
    xacro = {name for name in prefixed if name.partition(':')[0] in prefixes}
    for element in root.iter() if xacro else ():
        for name in [element.tag, *element.attrib]:
            if name in xacro:
                what = (f'<{element.tag}>' if name == element.tag else
                        f'attribute {name} of <{element.tag}>')
                raise URDFError(XACRO_REFUSED.format(what=what[:120]))


def _at_declaration(text, line, column):
    """Tell whether expat's error at ``line`` (1-based), ``column`` is at a ``<!`` declaration."""
    at = _offset(text, line, column)
    return text.startswith('<!', at) and not text.startswith('<!--', at)


def _leading_text_hint(text):
    """Name text before the first ``<`` (a command's output saved with the XML), else ''."""
    lead = text[:text.find('<')].strip() if '<' in text else ''
    if not lead:
        return ''
    return (f'; it starts with {lead[:40]!r} before the first "<": the output of ros2 param get '
            '("String value is: ") or ros2 topic echo ("data: \'…\'", escaped) saved as is? '
            'Save the XML alone, e.g. ros2 param get --hide-type /robot_state_publisher '
            'robot_description > robot.urdf')
