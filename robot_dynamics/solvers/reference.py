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
"""The reference solver ``'rnea'``: :func:`robot_dynamics.algorithms.rnea.rnea` by name."""

from robot_dynamics.algorithms.rnea import rnea
from robot_dynamics.solvers.registry import Solver


SOLVER = Solver(
    name='rnea',
    function=rnea,
    description='Recursive Newton-Euler in link coordinates, general joint axes (reference)',
    reference='Luh, Walker, Paul 1980; seed 002 eq. 3.15-3.21; Craig §6.5 eq. 6.45-6.53',
)
