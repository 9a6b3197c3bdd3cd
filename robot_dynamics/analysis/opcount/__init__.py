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

from robot_dynamics.analysis.opcount.arms import general_arm, renaud_example_arm
from robot_dynamics.analysis.opcount.counts import (
    count_operations, evaluate, example_table_markdown, fit_polynomial, format_polynomial,
    operation_counts, per_link_breakdown, solver_counts, table_markdown)
from robot_dynamics.analysis.opcount.published import (CONVENTIONS, PUBLISHED, RENAUD_EXAMPLE,
                                                       VARIANTS)
from robot_dynamics.analysis.opcount.scalar import Counted, Tally, counting

__all__ = ['CONVENTIONS', 'Counted', 'PUBLISHED', 'RENAUD_EXAMPLE', 'Tally', 'VARIANTS',
           'count_operations', 'counting', 'evaluate', 'example_table_markdown',
           'fit_polynomial', 'format_polynomial', 'general_arm', 'operation_counts',
           'per_link_breakdown', 'renaud_example_arm', 'solver_counts', 'table_markdown']
