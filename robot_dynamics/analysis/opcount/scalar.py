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
"""The counting scalar: numbers that tally each multiplication and addition they take part in."""

from collections import defaultdict
from contextlib import contextmanager
import math
import os
import sys


# ---------------------------------------------------------------------- the counting scalar
class Tally:
    """Operation counters: ``mul`` (incl. divisions), ``add`` (incl. subtractions), ``other``.

    With ``by_line`` the counts are also kept per source line of the code that asked for the
    operation (``{(file, line): {'mul': …, 'add': …}}``), helper modules that only wrap numpy
    (:mod:`robot_dynamics.spatial.vectors`, :mod:`robot_dynamics.spatial.components`,
    :mod:`robot_dynamics.spatial.algebra`, :mod:`robot_dynamics.spatial.explicit`) charged to
    their caller.
    """

    def __init__(self, by_line=False):
        """Start at zero."""
        self.mul = self.add = self.other = 0
        self.by_line = defaultdict(lambda: {'mul': 0, 'add': 0, 'other': 0}) if by_line \
            else None

    def __repr__(self):
        """``Tally(mul=…, add=…)``."""
        return f'Tally(mul={self.mul}, add={self.add}, other={self.other})'


_active = []


@contextmanager
def counting(by_line=False):
    """Context in which :class:`Counted` arithmetic is tallied; yields the :class:`Tally`."""
    tally = Tally(by_line)
    _active.append(tally)
    try:
        yield tally
    finally:
        _active.pop()


_PASS_THROUGH = (os.path.abspath(__file__), os.sep + 'numpy' + os.sep,
                 os.path.join('robot_dynamics', 'spatial', 'vectors.py'),
                 os.path.join('robot_dynamics', 'spatial', 'components.py'),
                 os.path.join('robot_dynamics', 'spatial', 'algebra.py'),
                 os.path.join('robot_dynamics', 'spatial', 'explicit.py'))


def _tick(kind):
    if _active:
        tally = _active[-1]
        setattr(tally, kind, getattr(tally, kind) + 1)
        if tally.by_line is not None:
            frame = sys._getframe(1)
            while frame is not None and any(part in frame.f_code.co_filename
                                            for part in _PASS_THROUGH):
                frame = frame.f_back
            if frame is not None:
                tally.by_line[frame.f_code.co_filename, frame.f_lineno][kind] += 1


def _value(x):
    return x.value if isinstance(x, Counted) else x


def _multiply(a, b):
    if not isinstance(a, Counted):
        a, b = b, a
    if not isinstance(b, Counted):                       # a state-dependent times a constant
        if b == 0:
            return 0.0
        if b == 1:
            return a
        if b == -1:
            return Counted(-a.value)
    _tick('mul')
    return Counted(a.value * _value(b))


def _add(a, b):
    if not isinstance(a, Counted) and a == 0:
        return b
    if not isinstance(b, Counted) and b == 0:
        return a
    _tick('add')
    return Counted(_value(a) + _value(b))


def _negate(x):
    return Counted(-x.value) if isinstance(x, Counted) else -x


class Counted:
    """A real number that depends on the joint state; its arithmetic is tallied.

    Put such numbers in numpy object arrays and run a solver on them inside :func:`counting`.
    ``value`` carries the ordinary floating-point result, so the counted run also computes the
    torque.
    """

    __slots__ = ('value',)

    def __init__(self, value):
        """Wrap a float."""
        self.value = float(value)

    def __repr__(self):
        """``Counted(value)``."""
        return f'Counted({self.value!r})'

    def __float__(self):
        """Return the wrapped value."""
        return self.value

    def __add__(self, other):
        """Add; count it unless ``other`` is a literal 0."""
        return _add(self, other)

    def __radd__(self, other):
        """Add; count it unless ``other`` is a literal 0."""
        return _add(other, self)

    def __sub__(self, other):
        """Subtract: count it as the addition of the negation."""
        return _add(self, _negate(other))

    def __rsub__(self, other):
        """Subtract: count it as the addition of the negation."""
        return _add(other, Counted(-self.value))

    def __mul__(self, other):
        """Multiply; count it unless ``other`` is a literal 0 or ±1."""
        return _multiply(self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        """Divide; count a multiplication unless ``other`` is a literal ±1."""
        if not isinstance(other, Counted) and other in (1, -1):
            return Counted(self.value / other)
        _tick('mul')
        return Counted(self.value / _value(other))

    def __rtruediv__(self, other):
        """Divide; count a multiplication (a literal 0 divided by anything stays 0)."""
        if not isinstance(other, Counted) and other == 0:
            return 0.0
        _tick('mul')
        return Counted(_value(other) / self.value)

    def __neg__(self):
        """Free."""
        return Counted(-self.value)

    def __pos__(self):
        """Free."""
        return self

    def __abs__(self):
        """Free."""
        return Counted(abs(self.value))

    def __pow__(self, exponent):
        """``x**k`` for an integer ``k ≥ 1``: ``k - 1`` multiplications; otherwise 'other'."""
        if isinstance(exponent, int) and exponent >= 1:
            result = self
            for _ in range(exponent - 1):
                result = _multiply(result, self)
            return result
        _tick('other')
        return Counted(self.value ** _value(exponent))

    def __eq__(self, other):
        """Compare values (never used to skip an operation)."""
        return self.value == _value(other)

    def __lt__(self, other):
        """Compare values."""
        return self.value < _value(other)

    def __gt__(self, other):
        """Compare values."""
        return self.value > _value(other)

    __hash__ = None

    def sin(self):
        """Free, as in the papers (``np.sin`` on object arrays calls this)."""
        return Counted(math.sin(self.value))

    def cos(self):
        """Free, as in the papers."""
        return Counted(math.cos(self.value))

    def sqrt(self):
        """Tallied as 'other'."""
        _tick('other')
        return Counted(math.sqrt(self.value))
