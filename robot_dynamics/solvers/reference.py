# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""The reference solver ``'rnea'``: :func:`robot_dynamics.algorithms.rnea.rnea` by name."""

from robot_dynamics.algorithms.rnea import rnea
from robot_dynamics.solvers.registry import Solver


SOLVER = Solver(
    name='rnea',
    function=rnea,
    description='Recursive Newton-Euler in link coordinates, general joint axes (reference)',
    reference='Luh, Walker, Paul 1980; seed 002 eq. 3.15-3.21; Craig §6.5 eq. 6.45-6.53',
)
