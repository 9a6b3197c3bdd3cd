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
"""Numbers in URDF attributes: exactly what :data:`~robot_dynamics.io.files.NUMBER` takes.

``float`` reads the common case (printable ASCII without ``_``) directly; anything else goes
through the regex, which also words the error (``where``: the element and attribute). The
common case's readers (:func:`plain_floats`, :func:`plain_numbers`, :func:`plain_pose`,
:func:`plain_number`) run in C when the compiled filter is built (:data:`PYTHON` keeps these
definitions).
"""

import math

from robot_dynamics.errors import URDFError
from robot_dynamics.io.files import NUMBER, strict_float
from robot_dynamics.spatial.vectors import rpy_entries

_NUMBER = NUMBER.fullmatch


def numbers(text, count, where, *names):
    """``count`` floats (a list) from a space-separated attribute, or a URDFError naming it.

    ``where`` and ``names`` as :func:`number`'s.
    """
    values = plain_numbers(text, count) if text.__class__ is str else None
    if values is not None:                                          # the lines below, at once
        return values
    parts = str(text).split()
    if len(parts) != count:
        where = where.format(*names) if names else where
        raise URDFError(f'{where}: expected {count} numbers, got {text!r}{_comma_hint(text)}')
    if all(map(_NUMBER, parts)):                  # number()'s test, all at once
        return list(map(float, parts))
    return [number(part, where, *names) for part in parts]


def plain_floats(texts):
    """Return the floats of ``texts`` if each is one :data:`NUMBER`, else None (unsure).

    In printable ASCII without ``_`` (``float`` would take ``1_0``, non-ASCII digits and
    other spaces around, which NUMBER refuses) ``float`` reads what NUMBER matches.
    """
    if None in texts:
        return None
    joined = ''.join(texts)
    if not (joined.isascii() and joined.isprintable() and '_' not in joined):   # plain ASCII
        return None
    try:
        return list(map(float, texts))
    except ValueError:
        return None


def plain_numbers(text, count):
    """``count`` finite floats of ``text`` (str), or None: then :func:`numbers` decides.

    Its whitespace-separated parts as :func:`plain_floats` reads them.
    """
    parts = text.split()
    values = plain_floats(parts) if len(parts) == count else None
    return values if values is not None and math.isfinite(sum(values)) else None


def plain_pose(xyz, rpy):
    """:func:`plain_numbers` of an origin's ``xyz`` and ``rpy`` (str) at once, or None (unsure).

    ``(xyz values, rpy values)`` when each has three parts and all six are plain and finite.
    """
    first, second = xyz.split(), rpy.split()
    if len(first) != 3 or len(second) != 3:
        return None
    values = plain_floats(first + second)
    return (values[:3], values[3:]) if values is not None and math.isfinite(sum(values)) \
        else None


def plain_number(text):
    """:func:`number` of plain ``text`` (as :func:`plain_floats`), or None: then it decides."""
    if text.__class__ is str and text.isascii() and text.isprintable() and '_' not in text:
        try:
            return float(text)
        except ValueError:
            pass
    return None


#: The Python definitions above and an origin's rotation entries (:func:`rpy_entries`), which
#: the compiled filter's (``io/src/urdf_scan.c``: the same results, numbers correctly rounded
#: as float()) replace when it is built; tests compare the two.
PYTHON = {'plain_floats': plain_floats, 'plain_numbers': plain_numbers, 'plain_pose': plain_pose,
          'plain_number': plain_number, 'rpy_entries': rpy_entries}
try:
    from robot_dynamics.io._urdf_scan import (plain_floats, plain_number,  # noqa: F811
                                              plain_numbers, plain_pose, rpy_entries)
except ImportError:        # pragma: no cover - a build without the filter; a source checkout
    pass


def number(text, where, *names):
    """One float from attribute text, or a URDFError naming ``where``.

    With ``names``, ``where`` is a template: ``where.format(*names)``, made only for the error.
    """
    value = plain_number(text)
    if value is not None:
        return value
    try:
        return strict_float(text)
    except (TypeError, ValueError):
        hint = ('; this is xacro: expand it first (xacro robot.urdf.xacro > robot.urdf)'
                if '$' in str(text) else ' (digits, one point, an optional exponent)')
        where = where.format(*names) if names else where
        raise URDFError(f'{where}: {str(text)[:80]!r} is not a number{hint}'
                        f'{_comma_hint(text)}') from None


def spaced_inertial_note(link, mass, moments):
    """Name an inertial's numbers followed by a space, which urdfdom reads otherwise.

    urdfdom (Pinocchio, KDL, Gazebo) refuses ``value="2.5 "`` and loads the link with the mass
    and inertia read so far (zero: the mass comes first) with an error on the console; read
    here as written. ``mass``: the mass's text; ``moments``: name → text of ``<inertia>``.
    """
    spaced = [f'<mass value="{mass}">'] if mass != mass.rstrip() else []
    spaced += [f'{key}="{text}"' for key, text in moments.items() if text != text.rstrip()]
    if not spaced:
        return None
    lost = 'mass and inertia' if mass != mass.rstrip() else 'rotational inertia'
    return (f"link {str(link)[:80]!r}: a space after the number in {', '.join(spaced)}: read "
            f'as written; urdfdom (Pinocchio, KDL, Gazebo) refuses the number and loads the '
            f'link with zero {lost}: remove the space to load one model everywhere')


def _comma_hint(text):
    """Say how URDF writes what a comma was meant for, if ``text`` has one (else '')."""
    if ',' not in str(text):
        return ''
    return ('; URDF separates numbers with spaces and marks decimals with a point (0.5, not '
            '0,5: an exporter run in a locale with a decimal comma writes that)')
