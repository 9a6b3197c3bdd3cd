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
"""What the papers publish: operation counts per formulation and the frames each assumes."""

from fractions import Fraction

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

#: Renaud's own count for his 6R example (seed 001): iterative steps, then by inspection.
RENAUD_EXAMPLE = ((181, 127), (164, 115))
