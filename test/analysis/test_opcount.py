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
"""The counting scalar, the exact fit, and the pinned operation counts of every solver.

A pinned formula changing means a solver got cheaper or dearer: update the pin *and*
docs/operation_counts.md together.
"""

from fractions import Fraction as F
import pathlib

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.analysis import opcount
from robot_dynamics.analysis.opcount import Counted, counting
from robots import random_model

#: solver -> (multiplications, additions, first n the formulas hold for), measured on the
#: general arms of opcount.general_arm (standard DH, or modified for craig/renaud/rnea).
PINNED = {
    'rnea': ([121, -114], [98, -100], 2),
    'craig': ([121, -114], [95, -100], 2),
    'lwp_base': ([193, -118], [146, -105], 2),
    'lwp_link': ([123, -62], [96, -61], 2),
    'turney_mudge_lee': ([105, -45], [90, -49], 2),
    'renaud': ([99, -96], [87, -89], 2),
    'generated': ([88, -105], [76, -99], 2),
    'lagrange_euler': ([6, F(85, 2), F(-43, 2), 8], [4, 31, -27, 12], 2),
    'generalized_dalembert': ([F(7, 6), F(39, 2), F(439, 3), -194], [1, 15, 119, -177], 3),
    'lagrange_euler_explicit': ([F(15, 2), F(98, 3), 91, F(-1165, 6), 136],
                                [6, F(39, 2), 55, F(-277, 2), 106], 2),
}


def _require_built_in(name):
    """Fail (not skip) when a built-in solver is missing: every PINNED name ships."""
    assert name in rd.solvers.available() or name in opcount.VARIANTS, \
        f'built-in solver {name!r} is not registered'


def _counted(values):
    return np.vectorize(Counted, otypes=[object])(np.asarray(values, dtype=float))


def test_counting_rule_skips_structural_operations():
    """Literal 0 and ±1 cost nothing; everything with a state-dependent operand counts."""
    x, y = Counted(2.0), Counted(3.0)
    with counting() as tally:
        zero, same, flipped, shifted = 0 * x, x * 1, -1 * x, x + 0
        assert zero == 0 and not isinstance(zero, Counted)
        assert same is x and flipped.value == -2.0 and shifted is x
    assert (tally.mul, tally.add) == (0, 0)
    with counting() as tally:
        assert (x * y + 2.5 * x - y / 4).value == pytest.approx(6 + 5 - 0.75)
        assert (x ** 3).value == 8.0
        np.sin(_counted([0.1, 0.2]))                       # free, as in the papers
    assert (tally.mul, tally.add) == (3 + 2, 2)


def test_general_and_structured_products():
    """A general 3×3 rotation of a vector: 9 mul, 6 add; a homogeneous 4×4 product: 36, 27."""
    rng = np.random.default_rng(0)
    R = _counted(rng.normal(size=(3, 3)))
    with counting() as tally:
        R @ _counted(rng.normal(size=3))
    assert (tally.mul, tally.add) == (9, 6)
    T = np.zeros((4, 4), dtype=object)
    T[:3, :] = _counted(rng.normal(size=(3, 4)))
    T[3, 3] = 1.0
    with counting() as tally:
        product = T @ T
    assert (tally.mul, tally.add) == (36, 27)
    assert product[3, 3] == 1.0 and product[3, 0] == 0


def test_exact_fit():
    """The fit recovers a cubic with rational coefficients and reports where it starts."""
    coefficients = [F(81, 6), F(165, 2), 5, 0]
    ns = list(range(1, 13))
    values = [opcount.evaluate(coefficients, n) for n in ns]
    assert opcount.fit_polynomial(ns, values) == (coefficients, 1)
    values[0] += 7                                          # a special first link
    fitted, start = opcount.fit_polynomial(ns, values)
    assert fitted == coefficients and start == 2
    assert opcount.format_polynomial(coefficients) == '27/2 n³ + 165/2 n² + 5n'
    assert opcount.format_polynomial([126, -99]) == '126n - 99'


def test_published_lagrange_totals_match_their_breakdown():
    """Seed 002 Table 1's Lagrange totals are the column sums of its Table 2 breakdown.

    (The Appendix's last lines swap the words "additions" and "multiplications".)
    """
    rows = [  # (multiplications, additions) as coefficients of n³, n², n, 1
        ([0, 32, -32, 0], [0, 24, -24, 0]),                        # T_j^i
        ([0, 32, -32, 0], [0, 24, -24, 0]),                        # ∂T/∂θ_j
        ([F(32, 3), 0, F(-32, 3), 0], [8, 0, -8, 0]),              # ∂²T/∂θ_j∂θ_k
        ([F(17, 6), F(17, 2), F(209, 3), 0], [F(16, 3), 0, F(80, 3), 0]),   # Σ … J_q
        ([0, 8, 8, 0], [0, 8, 7, 0]),                              # Tr{…}
        ([0, 2, 2, 0], [0, 2, 1, 0]),                              # gravity
    ]
    mul = [sum(row[0][k] for row in rows) for k in range(4)]
    add = [sum(row[1][k] for row in rows) for k in range(4)]
    _, published_mul, published_add = opcount.PUBLISHED['lagrange_euler'][0]
    assert mul == published_mul and add == published_add


@pytest.mark.parametrize('name', sorted(PINNED))
def test_counted_torque_equals_float_torque(name):
    """Running on counting scalars gives the same torque as on floats (prismatic too)."""
    _require_built_in(name)
    rng = np.random.default_rng(4)
    model = random_model(rng, 4, prismatic_fraction=0.4)
    opcount.count_operations(name, model, check=True)          # raises on a mismatch
    arm = opcount.general_arm(3, opcount.CONVENTIONS.get(name, 'standard'))
    assert opcount.count_operations(name, arm, check=True).mul > 0


@pytest.mark.parametrize('name', sorted(PINNED))
def test_pinned_operation_counts(name):
    """The fitted formulas of every solver stay what docs/operation_counts.md explains."""
    _require_built_in(name)
    mul, add, start = PINNED[name]
    counts = opcount.solver_counts(name, n_max=len(mul) + start + 1)
    assert counts['error'] is None, counts['error']
    assert counts['mul_formula'] == [F(c) for c in mul], opcount.format_polynomial(
        counts['mul_formula'])
    assert counts['add_formula'] == [F(c) for c in add], opcount.format_polynomial(
        counts['add_formula'])
    assert counts['valid_from'] == start


def test_table_markdown_lists_measured_and_published():
    """The markdown table names each solver, its measured and its published formula."""
    table = opcount.table_markdown(n_max=6, solvers=['rnea', 'lagrange_euler'])
    assert '| `rnea` | modified | 121n - 114 (n ≥ 2) | 98n - 100 (n ≥ 2) | 126n - 99 |' in table
    assert '27/2 n³ + 165/2 n² + 5n' in table and '40/3 n³ + 58n² - 64/3 n' in table
    assert rd.operation_counts is opcount.operation_counts


def test_renaud_example_arm():
    """Every solver runs exactly on Renaud's 6R example; renaud's count there is pinned.

    Renaud publishes 181 / 127 for it; docs/operation_counts.md explains the difference.
    """
    model = opcount.renaud_example_arm()
    assert model.placement_rotation[1, 1, 1] == 0.0          # cos(π/2) is an exact zero
    for name in sorted(set(PINNED) & (set(rd.solvers.available()) | set(opcount.VARIANTS))):
        opcount.count_operations(name, model, check=True)
    tally = opcount.count_operations('renaud', model)           # built in: never skipped
    assert (tally.mul, tally.add) == (200, 165)


def test_operation_counts_doc_table_is_the_codes():
    """docs/operation_counts.md's measured-against-published table is what the code prints.

    Every row (measured formula, published formula and source, both counts at n = 6) as
    ``robot-dynamics opcount`` makes it; the order of the rows is the page's.
    """
    page = (pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'operation_counts.md')
    section = page.read_text().split('## Measured against published', 1)[1]
    documented = [line for line in section.split('\n\n', 2)[1].splitlines()
                  if line.startswith('|')]
    printed = [line for line in opcount.table_markdown(n_max=8).splitlines()
               if line.startswith('|')]
    assert sorted(documented) == sorted(printed)
