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
"""Exceptions and warnings. Every message names the field or element at fault and how to fix it."""

import sys
import warnings

_PACKAGE = __name__.split('.')[0]
#: Longest message the package raises, warns or logs: a 20 MB link name in a URDF must not
#: become a 40 MB log line or /diagnostics message (issue 22, LOW).
MAX_MESSAGE = 2000


def bounded(text, limit=MAX_MESSAGE):
    """Return ``text`` cut to about ``limit`` characters, its start and end kept."""
    text = str(text)
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 4, limit // 4
    return f'{text[:head]} [... {len(text) - head - tail} characters cut ...] {text[-tail:]}'


class _Bounded:
    """Mixin: an exception whose one-string message is cut by :func:`bounded`."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], str):
            args = (bounded(args[0]),)
        super().__init__(*args)


class ModelError(_Bounded, ValueError):
    """A robot model cannot be built from the data given."""


class ModelWarning(UserWarning):
    """A model is usable but suspicious (massless link, triangle inequality violated, …)."""


class URDFError(ModelError):
    """A URDF document cannot be turned into a serial-chain model."""


class DHError(ModelError):
    """A Denavit-Hartenberg document does not follow the schema."""


class SolverError(_Bounded, LookupError):
    """An unknown solver name, or a solver that cannot handle the request."""


class SingularityError(_Bounded, ArithmeticError):
    """The Jacobian is (nearly) singular where its inverse is needed."""


class PlausibilityError(_Bounded, ValueError):
    """A finite value outside the documented plausible range (robot_dynamics.model.bounds)."""


class BadInput(_Bounded, ValueError):
    """An input a controller or node cannot use: a joint state, a trajectory, a command.

    Missing joints, wrong sizes, NaN, a stale stamp; the caller drops it and says why.
    """


class ResultOverflowError(_Bounded, ValueError):
    """Finite inputs whose result overflows double precision (``|qd| >= 1e160`` squared).

    The message names the largest input. Raised by every public dynamics function whose result
    depends on speeds, torques or wrenches, on either path: the engine raises it itself
    (``check_result`` in ``engine/src/binding_dispatch.c``, the class handed over by
    ``engine.set_hooks``), the numpy path through
    :func:`robot_dynamics.model.arguments.check_result`.
    """


class InfeasiblePathError(_Bounded, ValueError):
    """No timing of a path keeps within the limits (time-optimal retiming); says where and why.

    ``joint``, ``s`` (the place on the path), ``needed`` and ``limit`` hold the numbers of the
    message where they apply (else None).
    """

    def __init__(self, message, joint=None, s=None, needed=None, limit=None):
        super().__init__(message)
        self.joint, self.s, self.needed, self.limit = joint, s, needed, limit


#: How an overflow message starts, the engine's (``engine/src/binding_dispatch.c``) and the
#: numpy path's (``model/arguments.py``) alike; the two messages are equal word for word.
RESULT_NOT_FINITE = 'the result is not finite'


def warn(message, category=None):
    """Warn (a :class:`ModelWarning` by default) at the first caller outside this package.

    The warning then points at the user's line (``RobotModel.from_urdf(...)``), not at the
    library's internals, and Python's once-per-location filter works per call site.
    """
    frame, level = sys._getframe(0), 1
    while frame is not None and \
            frame.f_globals.get('__name__', '').split('.')[0] == _PACKAGE:
        frame, level = frame.f_back, level + 1
    warnings.warn(bounded(message), category or ModelWarning, stacklevel=level)
