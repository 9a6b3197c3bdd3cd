# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Operation counts measured by running the solvers on a counting scalar.

Every registered solver works on numpy object arrays, so it can be run, unchanged, on
:class:`Counted` numbers that tally each multiplication and addition they take part in. Running
a solver for one state (N = 1) on general n-link revolute arms, n = 1 … 12, and fitting the exact
polynomial in n gives its measured cost, which :func:`table_markdown` prints beside the counts
published in the seed papers (seed 002 Table 1, seed 003 Table 3, Craig §6.13).

Counting rule (the one Renaud states for his analytical form, seed 001: "no adds with 0 or
multiplies by 0 or 1"):

- a multiplication or division of two numbers counts as one multiplication, an addition or
  subtraction as one addition, but only if at least one operand depends on the joint state
  (``q, q̇, q̈``; such numbers are :class:`Counted`). Arithmetic among model constants alone
  (``m_i r̄_i``, ``R_tree @ axis`` …) is folded in advance, as every paper assumes;
- an operation with an exact literal ``0`` (``x·0``, ``x + 0``) or a multiplication by an exact
  literal ``±1`` is structural and not counted; ``0·x`` yields the literal ``0`` so the zero
  propagates (the bottom row ``[0 0 0 1]`` of a homogeneous matrix, the zeros of a DH ``z`` axis
  or of ``Rx(α)``). A model constant that merely happens to be small is never treated so;
- negation, ``sin`` and ``cos`` are free, as in the papers; other functions (``sqrt``) are
  tallied apart and do not enter the table.

The arms are general: random non-zero ``a, α, d``, masses, centre-of-mass vectors and full
inertia tensors, and a gravity vector with three non-zero components; standard Denavit-Hartenberg
parameters for the papers with distal frames, modified ones for Craig and Renaud
(:data:`CONVENTIONS`). The fitted formulas and their comparison with the papers are discussed
in ``docs/operation_counts.md``.
"""

from collections import defaultdict
from contextlib import contextmanager
from fractions import Fraction
import linecache
import math
import os
import sys
import traceback

import numpy as np

from robot_dynamics import solvers as _solvers
from robot_dynamics.model import RobotModel

#: DH convention each formulation assumes (others: standard, the distal frames of 002/003).
CONVENTIONS = {'craig': 'modified', 'renaud': 'modified', 'rnea': 'modified'}

#: Formulations counted beside the registered solvers (not registered themselves).
VARIANTS = {
    'lagrange_euler_explicit': 'robot_dynamics.solvers.lagrange_euler:lagrange_euler_explicit',
}

#: Published counts: solver -> [(source, multiplications, additions)], coefficients of n^k,
#: highest power first.
F = Fraction
PUBLISHED = {
    'lagrange_euler': [
        ('seed 002 Table 1 (Lagrange)', [F(81, 6), F(165, 2), 5, 0], [F(40, 3), 58, F(-64, 3), 0]),
    ],
    'lagrange_euler_explicit': [
        ('seed 003 Table 3 (Lagrange-Euler)', [F(128, 3), F(512, 3), F(739, 3), F(160, 3), 0],
         [F(98, 3), F(781, 6), F(559, 3), F(245, 6), 0]),
        ('Craig §6.13 (Lagrangian, after Hollerbach)', [32, 86, 171, 53, -128],
         [25, 66, 129, 42, -96]),
    ],
    'generalized_dalembert': [
        ("seed 003 Table 3 (generalized d'Alembert)", [F(13, 6), F(105, 2), F(268, 3), 69],
         [F(4, 3), 44, F(146, 3), 45]),
    ],
    'lwp_link': [
        ('seed 002 Table 1 (Newton-Euler)', [108, -12], [100, -9]),
        ('seed 003 Table 3 (Newton-Euler)', [132, 0], [111, -4]),
    ],
    'turney_mudge_lee': [
        ('seed 002 Table 1 (modified Newton-Euler)', [90, -27], [88, -24]),
    ],
    'craig': [('Craig §6.13 (n ≥ 2)', [126, -99], [106, -92])],
    'rnea': [('Craig §6.13 (n ≥ 2)', [126, -99], [106, -92])],
}
del F


# ---------------------------------------------------------------------- the counting scalar
class Tally:
    """Operation counters: ``mul`` (incl. divisions), ``add`` (incl. subtractions), ``other``.

    With ``by_line`` the counts are also kept per source line of the code that asked for the
    operation (``{(file, line): {'mul': …, 'add': …}}``), helper modules that only wrap numpy
    (:mod:`robot_dynamics.vectors`, ``solvers/frames.py``) charged to their caller.
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
                 os.path.join('robot_dynamics', 'vectors.py'),
                 os.path.join('robot_dynamics', 'solvers', 'frames.py'))


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


# ---------------------------------------------------------------------- general arms
def general_arm(n, convention='standard', seed=0):
    """Build a general n-link revolute arm from DH parameters, all random and non-zero.

    ``convention`` is ``'standard'`` (distal frames) or ``'modified'`` (Craig's). Inertias are
    full symmetric tensors (non-zero products of inertia), centres of mass have three non-zero
    coordinates, and gravity has three non-zero components.
    """
    rng = np.random.default_rng(seed)
    links = []
    for _ in range(n):
        mass = rng.uniform(1.0, 5.0)
        moments = rng.uniform(0.2, 1.0, size=3)
        principal = np.diag([moments[0] + moments[1], moments[1] + moments[2],
                             moments[0] + moments[2]]) * 0.05 * mass
        axes, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        inertia = axes @ principal @ axes.T
        links.append(dict(
            a=rng.uniform(0.1, 0.5), alpha=rng.uniform(0.2, 1.3), d=rng.uniform(0.1, 0.5),
            mass=mass, com=rng.uniform(0.02, 0.2, size=3).tolist(),
            inertia=[inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[0, 1], inertia[1, 2],
                     inertia[0, 2]]))
    return RobotModel.from_dh({'name': f'general_{convention}_{n}R', 'convention': convention,
                               'gravity': [0.4, -0.3, -9.8], 'links': links})


def renaud_example_arm(seed=0):
    """Renaud's 6R example (seed 001, Fig. 6 and its parameter table), modified DH.

    ``α = 0, π/2, 0, π/2, -π/2, π/2``; ``a_2`` and ``r_4`` the only non-zero lengths; each
    centre of mass on one axis of its frame (z, x, y, z, y, z) and no products of inertia, as the
    paper assumes; masses, lengths and moments random; gravity along ``-z_0``. Rotations are
    rounded so that ``cos(π/2)`` is an exact zero, as in the paper's analytical form.
    """
    rng = np.random.default_rng(seed)
    alpha = [0.0, np.pi / 2, 0.0, np.pi / 2, -np.pi / 2, np.pi / 2]
    a_len = [0.0, 0.0, rng.uniform(0.3, 0.6), 0.0, 0.0, 0.0]
    d_len = [0.0, 0.0, 0.0, rng.uniform(0.3, 0.6), 0.0, 0.0]
    com_axis = [2, 0, 1, 2, 1, 2]
    links = []
    for i in range(6):
        com = [0.0, 0.0, 0.0]
        com[com_axis[i]] = rng.uniform(0.02, 0.2)
        links.append(dict(a=a_len[i], alpha=alpha[i], d=d_len[i], mass=rng.uniform(1.0, 5.0),
                          com=com, inertia=rng.uniform(0.1, 0.3, 3).tolist() + [0, 0, 0]))
    model = RobotModel.from_dh({'name': 'renaud_6R', 'convention': 'modified', 'links': links})

    def exact(x):
        x = np.array(x)
        x[np.abs(x) < 1e-12] = 0.0
        unit = np.abs(np.abs(x) - 1.0) < 1e-12
        x[unit] = np.sign(x[unit])
        return x
    return model.replace(placement_rotation=exact(model.placement_rotation),
                         placement_translation=exact(model.placement_translation),
                         com=exact(model.com), inertia=exact(model.inertia),
                         tip_rotation=exact(model.tip_rotation))


#: Renaud's own count for his 6R example (seed 001): iterative steps, then by inspection.
RENAUD_EXAMPLE = ((181, 127), (164, 115))


def example_table_markdown(solvers=None, seed=0):
    """Markdown table: every solver's count on :func:`renaud_example_arm` (one state)."""
    model = renaud_example_arm(seed)
    names = sorted(_solvers.available() + list(VARIANTS)) if solvers is None else solvers
    (mul, add), (mul_min, add_min) = RENAUD_EXAMPLE
    lines = ["| solver | multiplications | additions | Renaud's published count |",
             '|---|---|---|---|']
    for name in names:
        tally = count_operations(name, model, seed=seed)
        paper = (f'{mul} / {add} (after inspection {mul_min} / {add_min})'
                 if name == 'renaud' else '')
        lines.append(f'| `{name}` | {tally.mul} | {tally.add} | {paper} |')
    return '\n'.join(lines)


# ---------------------------------------------------------------------- counting a solver
def count_operations(solver, model, seed=0, check=True, by_line=False):
    """Run ``solver`` once (N = 1) on counted states; return its :class:`Tally`.

    ``q, q̇, q̈`` are random :class:`Counted` numbers; gravity is the model's, no tip wrench.
    With ``check`` the counted torque must equal the float torque to 1e-9 (relative); with
    ``by_line`` the tally is also split by source line.
    """
    solver = _resolve(solver)
    n = model.dof
    rng = np.random.default_rng(seed)
    states = [rng.uniform(-1.5, 1.5, size=(1, n)) for _ in range(3)]
    counted = [np.vectorize(Counted, otypes=[object])(x) for x in states]
    with counting(by_line) as tally:
        tau = solver(model, *counted, model.gravity)
    if check:
        expected = solver(model, *states, model.gravity)
        got = np.vectorize(_value, otypes=[float])(np.asarray(tau, dtype=object))
        scale = max(1.0, float(np.max(np.abs(expected))))
        if got.shape != expected.shape or np.max(np.abs(got - expected)) > 1e-9 * scale:
            raise AssertionError(f'solver {solver.name!r}: counted torque {got} differs from '
                                 f'the float torque {expected}')
    return tally


def _resolve(solver):
    """Return the solver for a registered name, a :data:`VARIANTS` name or a function."""
    if isinstance(solver, str) and solver in VARIANTS:
        from importlib import import_module
        module, attribute = VARIANTS[solver].split(':')
        return _solvers.Solver(solver, getattr(import_module(module), attribute))
    if callable(solver) and not isinstance(solver, _solvers.Solver):
        return _solvers.Solver(getattr(solver, '__name__', 'solver'), solver)
    return _solvers.get(solver)


def fit_polynomial(ns, values, max_degree=4):
    """Exact polynomial through ``(n, value)`` points, rational coefficients, highest first.

    Tries degrees 0 … ``max_degree`` and keeps the lowest that reproduces *every* point with at
    least one point to spare; if none does, drops the smallest n and tries again. Returns
    ``(coefficients, first_n)``, where the formula holds for ``n ≥ first_n``, or ``(None,
    None)``.
    """
    ns, values = list(ns), list(values)
    for start in range(len(ns)):
        xs, ys = ns[start:], values[start:]
        for degree in range(max_degree + 1):
            if len(xs) < degree + 2:
                break
            coefficients = _interpolate(xs[:degree + 1], ys[:degree + 1])
            if all(evaluate(coefficients, x) == y for x, y in zip(xs, ys)):
                return coefficients, xs[0]
    return None, None


def _interpolate(xs, ys):
    """Coefficients (highest power first) of the polynomial through the points (exact)."""
    size = len(xs)
    rows = [[Fraction(x) ** (size - 1 - k) for k in range(size)] + [Fraction(y)]
            for x, y in zip(xs, ys)]
    for col in range(size):                                 # Gauss-Jordan, exact fractions
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [row[-1] for row in rows]


def evaluate(coefficients, n):
    """Value of a polynomial (coefficients highest power first) at ``n``."""
    total = Fraction(0)
    for c in coefficients:
        total = total * n + Fraction(c)
    return total


_SUPERSCRIPTS = str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹')


def format_polynomial(coefficients):
    """``[Fraction(27, 2), 0, 5, 0]`` → ``'27/2 n³ + 5n'``."""
    if coefficients is None:
        return '—'
    degree = len(coefficients) - 1
    terms = []
    for k, c in enumerate(coefficients):
        c, power = Fraction(c), degree - k
        if c == 0:
            continue
        size = abs(c)
        number = str(size.numerator) if size.denominator == 1 else str(size)
        if power == 0:
            body = number
        else:
            variable = 'n' + (str(power).translate(_SUPERSCRIPTS) if power > 1 else '')
            if size == 1:
                body = variable
            else:
                body = number + variable if size.denominator == 1 else f'{number} {variable}'
        terms.append(('- ' if c < 0 else '+ ') + body)
    if not terms:
        return '0'
    text = ' '.join(terms)
    return text[2:] if text.startswith('+ ') else '-' + text[2:]


def solver_counts(name, n_max=12, seed=0):
    """Measured counts of one solver for n = 1 … ``n_max`` and the fitted formulas.

    Returns a dict with ``name``, ``convention``, ``n``, ``mul``, ``add``, ``mul_formula``,
    ``add_formula`` (coefficient lists or None), ``valid_from`` and ``error`` (None, or where
    the solver failed on object arrays).
    """
    convention = CONVENTIONS.get(name, 'standard')
    result = dict(name=name, convention=convention, n=[], mul=[], add=[], error=None,
                  mul_formula=None, add_formula=None, valid_from=None)
    try:
        for n in range(1, n_max + 1):
            tally = count_operations(name, general_arm(n, convention, seed), seed=seed)
            result['n'].append(n)
            result['mul'].append(tally.mul)
            result['add'].append(tally.add)
    except Exception as exc:  # report where a solver cannot run on object arrays
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        result['error'] = (f'{type(exc).__name__}: {exc} (at {frame.filename.split("/")[-1]}:'
                           f'{frame.lineno} `{frame.line}`)')
        return result
    mul, start_mul = fit_polynomial(result['n'], result['mul'])
    add, start_add = fit_polynomial(result['n'], result['add'])
    result.update(mul_formula=mul, add_formula=add,
                  valid_from=max(start_mul or 1, start_add or 1))
    return result


def operation_counts(solvers=None, n_max=12, seed=0):
    """Measured counts of every registered solver (or the names given): {name: dict}.

    See :func:`solver_counts` for the entries.
    """
    names = sorted(_solvers.available() + list(VARIANTS)) if solvers is None else list(solvers)
    return {name: solver_counts(name, n_max, seed) for name in names}


def table_markdown(n_max=12, solvers=None, seed=0):
    """Markdown table: measured formulas beside the published ones, and both at n = 6."""
    lines = ['| solver | DH | measured multiplications | measured additions | '
             'published multiplications | published additions | source | n = 6 measured '
             '(published) |',
             '|---|---|---|---|---|---|---|---|']
    for name, counts in operation_counts(solvers, n_max, seed).items():
        if counts['error']:
            lines.append(f"| `{name}` | {counts['convention']} | does not run on object "
                         f"arrays: {counts['error']} | | | | | |")
            continue
        measured = (format_polynomial(counts['mul_formula']),
                    format_polynomial(counts['add_formula']))
        if counts['valid_from'] and counts['valid_from'] > 1:
            measured = tuple(f'{m} (n ≥ {counts["valid_from"]})' for m in measured)
        at6 = (counts['mul'][5], counts['add'][5]) if n_max >= 6 else ('—', '—')
        published = PUBLISHED.get(name) or [('—', None, None)]
        for k, (source, mul, add) in enumerate(published):
            first = k == 0
            paper6 = ('' if mul is None else
                      f' ({evaluate(mul, 6)} / {evaluate(add, 6)})')
            lines.append('| ' + ' | '.join([
                f'`{name}`' if first else '', counts['convention'] if first else '',
                measured[0] if first else '', measured[1] if first else '',
                format_polynomial(mul), format_polynomial(add), source,
                f'{at6[0]} / {at6[1]}{paper6}']) + ' |')
    return '\n'.join(lines)


def per_link_breakdown(name, n=6, seed=0):
    """Cost of one more link, by source line: counts at ``n + 1`` links minus those at ``n``.

    For a recursive (linear) solver this is the per-link cost of each statement, the number to
    hold against a paper's per-term table. Returns rows ``(where, code, mul, add)`` sorted by
    file and line, without lines whose cost does not change.
    """
    convention = CONVENTIONS.get(name, 'standard')
    small, large = (count_operations(name, general_arm(k, convention, seed), seed=seed,
                                     by_line=True).by_line for k in (n, n + 1))
    rows = []
    for key in sorted(set(small) | set(large)):
        mul = large.get(key, {}).get('mul', 0) - small.get(key, {}).get('mul', 0)
        add = large.get(key, {}).get('add', 0) - small.get(key, {}).get('add', 0)
        if mul or add:
            filename, line = key
            where = f'{os.path.relpath(filename, os.path.dirname(os.path.dirname(__file__)))}'
            rows.append((f'{where}:{line}', linecache.getline(filename, line).strip(), mul,
                         add))
    return rows
