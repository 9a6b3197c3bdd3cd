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
"""Counting a solver: one counted run, polynomial fits over n, and the published comparison."""

from fractions import Fraction
from importlib import import_module
import linecache
import os
import traceback

import numpy as np

from robot_dynamics import solvers as _solvers
from robot_dynamics.analysis.opcount.arms import general_arm, renaud_example_arm
from robot_dynamics.analysis.opcount.published import (CONVENTIONS, PUBLISHED, RENAUD_EXAMPLE,
                                                       VARIANTS)
from robot_dynamics.analysis.opcount.scalar import Counted, _value, counting


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
